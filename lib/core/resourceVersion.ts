/**
 * Ordering of Kubernetes resourceVersions. The API documents them as opaque, but on etcd they are one
 * cluster-wide revision counter (an int64 printed in decimal) shared by every resource kind, which is also how
 * client-go's reflector and controller-runtime's cache treat "at least as new". One comparison for every caller.
 */

const DECIMAL = /^[0-9]+$/;

/**
 * Compares two resourceVersions.
 * @returns a negative number when `a` is older than `b`, 0 when equal, positive when newer; `undefined` when either
 *   is not a decimal string (then the two cannot be ordered)
 */
export function compareResourceVersions(a: string, b: string): number | undefined {
  if (!DECIMAL.test(a) || !DECIMAL.test(b)) return undefined;
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The newer of two resourceVersions; when they cannot be ordered (either is not decimal), the later argument `b`
 * (the one seen last) wins. An absent one loses to a present one.
 */
export function newerResourceVersion(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return (compareResourceVersions(a, b) ?? -1) > 0 ? a : b;
}
