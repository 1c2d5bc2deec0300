/** Deletes are idempotent: an object that is already gone (404) is what the delete wanted. */
import { isNotFound } from '../kube/errors.js';

/**
 * Await a delete, treating NotFound as success.
 * @throws whatever else the delete throws
 */
export async function ignoreNotFound(p: Promise<void>): Promise<void> {
  try {
    await p;
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}
