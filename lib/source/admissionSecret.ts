/**
 * The admission source's per-cluster path secret (docs/architecture.md#admission; review finding 7). One master
 * secret per stage (the SSM parameter `/kruiseless/<stage>/admission-path-secret`) stays the only thing to store;
 * each cluster's webhook configuration carries its own secret, derived from it, so what one cluster's
 * ValidatingWebhookConfiguration or API-server log reveals authenticates calls naming that cluster only.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The prefix of the HMAC message: the derivation's version, so a future scheme cannot collide with this one. */
export const ADMISSION_SECRET_CONTEXT = 'kruiseless-admission/v1/';

/**
 * The path secret of `cluster`: HMAC-SHA256 keyed with the master secret over `kruiseless-admission/v1/<cluster>`,
 * as 64 lower-case hex digits (one URL path segment).
 * @param master the stage's master secret (the SSM parameter's value), non-empty
 * @param cluster the cluster's name in the registry, as it appears in the webhook URL
 */
export function clusterPathSecret(master: string, cluster: string): string {
  return createHmac('sha256', master).update(`${ADMISSION_SECRET_CONTEXT}${cluster}`).digest('hex');
}

/**
 * Whether `given` is the path secret of `cluster` under `master`, compared in constant time.
 * @returns false for an empty master or cluster, whatever `given` is
 */
export function isClusterPathSecret(given: string, master: string, cluster: string): boolean {
  if (!master || !cluster) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(clusterPathSecret(master, cluster));
  return a.length === b.length && timingSafeEqual(a, b);
}
