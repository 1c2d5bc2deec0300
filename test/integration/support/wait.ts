/** Bounded polling for eventually-consistent cluster state. */
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Calls `check` every `intervalMs` until it returns something other than undefined/false.
 * Exceptions from `check` count as "not yet" (the last one is reported).
 * @param what description used in the timeout error
 * @returns the first defined value
 * @throws Error "timed out after Nms waiting for <what>" with the last value or error seen
 */
export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T | undefined | false>,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out after ${timeoutMs}ms waiting for ${what} (last: ${detail})`);
    }
    await sleep(intervalMs);
  }
}
