/**
 * OpenKruise: pkg/util/workloadspread `GetReplicasFromObject` over `NestedField[int64]` (utils.go), and the sum over
 * `targetFilter.replicasPathList` of pkg/controller/workloadspread `filterWorkload` and pkg/util/workloadspread
 * `GetReplicasFromWorkloadWithTargetFilter` (v1.9.0). Pure.
 *
 * A WorkloadSpread whose `targetFilter.replicasPathList` is set counts its target's replicas as the sum of the integers
 * at those dotted paths of the target object (`spec.replicas`, `spec.template.spec.replicas`, a list element by its
 * index: `spec.subsets.0.replicas`) instead of `spec.replicas`, for a target that manages more pods than the
 * WorkloadSpread spreads. A path that cannot be read is an error in upstream's words, which stops the sync (no status
 * is written) and, at pod admission, refuses the pod.
 */
/** The replicas the paths give, or the first path's error as upstream words it. */
export type ReplicasAtPaths = { replicas: number } | { error: string };

/** Go's `strconv.Atoi` of a path segment (int64 on the platforms Kruise ships for): the index, or its error text. */
function atoi(segment: string): number | string {
  if (!/^[+-]?\d+$/.test(segment)) return `strconv.Atoi: parsing ${JSON.stringify(segment)}: invalid syntax`;
  const n = BigInt(segment);
  return BigInt.asIntN(64, n) === n
    ? Number(n)
    : `strconv.Atoi: parsing ${JSON.stringify(segment)}: value out of range`;
}

/** Go's `int32(n)` of an int64: the low 32 bits, signed. */
const int32Of = (n: number): number => Number(BigInt.asIntN(32, BigInt(n)));

/** The integer at `path` in `value` (maps by key, lists by index), or upstream's error text. */
function integerAt(value: unknown, path: readonly string[]): number | { error: string } {
  let at = value;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    if (Array.isArray(at)) {
      const index = atoi(segment);
      if (typeof index === 'string') return { error: index };
      if (index < 0 || index >= at.length) return { error: `index ${index} out of range` };
      at = at[index];
    } else if (at !== null && typeof at === 'object') {
      if (!Object.prototype.hasOwnProperty.call(at, segment))
        return { error: `path ${JSON.stringify(segment)} not exists` };
      at = (at as Record<string, unknown>)[segment];
    } else {
      return { error: 'object is not deep enough' };
    }
  }
  // an integer as JSON decodes it into an unstructured object (int64); anything else is the wrong type
  return typeof at === 'number' && Number.isInteger(at) ? at : { error: 'object type error' };
}

/**
 * The sum of the replicas at `paths` in `object` (each counted as Go's `int32` of the int64 it finds, the sum in
 * int32 too); an empty path counts 0, as upstream's `GetReplicasFromObject`. An empty list sums to 0: the caller
 * keeps `spec.replicas` then.
 * @param object the target as the API server returns it (JSON)
 * @param paths dotted paths, e.g. `spec.replicas`; a list element by its decimal index
 * @returns `{ replicas }`, or `{ error }` with the first unreadable path's error as upstream's `NestedField` words it
 *   (`path "x" not exists`, `object is not deep enough`, `object type error`, `index 3 out of range`, a
 *   `strconv.Atoi` error)
 */
export function replicasAtPaths(object: unknown, paths: readonly string[]): ReplicasAtPaths {
  let sum = 0;
  for (const path of paths) {
    if (path === '') continue;
    const n = integerAt(object, path.split('.'));
    if (typeof n !== 'number') return n;
    sum = int32Of(sum + int32Of(n));
  }
  return { replicas: sum };
}
