/**
 * Ordering of Kubernetes `metadata.resourceVersion` strings. The API treats them as opaque, but etcd-backed
 * servers issue them from one increasing decimal counter shared by every kind, so two decimal versions
 * compare as integers (how Kubernetes' own watch cache orders them,
 * `storage.APIObjectVersioner.CompareResourceVersion`). The one comparison every layer uses; callers decide
 * what an incomparable pair means for them.
 */

const DECIMAL = /^\d+$/;

/**
 * Compares two resourceVersions as decimal integers (arbitrary length).
 * @returns negative when `a` is older than `b`, 0 when equal, positive when newer; `undefined` when either is
 * missing, empty or not a decimal string (no order can be inferred)
 */
export function compareResourceVersions(a: string | undefined, b: string | undefined): number | undefined {
  if (!a || !b || !DECIMAL.test(a) || !DECIMAL.test(b)) return undefined;
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
