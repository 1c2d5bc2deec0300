/**
 * <a id="status-patch-merge"></a>One pods/status write where a plan has two for the same pod. A new pod typically
 * gets two condition patches in one pass (`InitKruisePodReady` and `InPlaceUpdateReady`), which doubled the status
 * writes of a scale-up. The pods/status patch is a strategic merge patch, and `status.conditions` merges by `type`
 * (the Pod API's patch strategy), so one patch carrying both conditions has the effect of the two in a row. Pure.
 */
import type { JsonObject } from '../../api/types.js';
import type { Action } from '../../podset/actions.js';

/** A pod patch of a plan. */
export type PodPatch = Extract<Action, { type: 'PatchPod' | 'PatchPodStatus' }>;

/** The condition types of a patch that is exactly `{ status: { conditions: [...] } }`, else undefined. */
function conditionTypes(patch: JsonObject): string[] | undefined {
  const status = patch.status;
  if (Object.keys(patch).length !== 1 || !status || typeof status !== 'object' || Array.isArray(status))
    return undefined;
  const conditions = status.conditions;
  if (Object.keys(status).length !== 1 || !Array.isArray(conditions)) return undefined;
  const types = conditions.map((c) =>
    c && typeof c === 'object' && !Array.isArray(c) && typeof c.type === 'string' ? c.type : undefined,
  );
  return types.every((t): t is string => t !== undefined) && new Set(types).size === types.length
    ? types
    : undefined;
}

/**
 * Merge each `PatchPodStatus` into the previous `PatchPodStatus` of the same pod when both patches are only
 * `status.conditions` and no condition type appears in both. The merged action keeps the first one's place and
 * reason, and carries the conditions of both in order. Status patches of a pod keep their order among themselves,
 * and so do its other patches; a status patch may now go out before a metadata patch of the same pod that the plan
 * put before it (they change different parts of the pod: the pods endpoint ignores status, pods/status ignores
 * labels and annotations; a resourceVersion precondition of the metadata patch is taken after the status write,
 * lib/controllers/cloneset/execute.ts `latestRv`). Actions of other pods keep their order.
 * @param run consecutive pod patches of a plan, in plan order
 * @returns a new array (inputs are not modified)
 */
export function mergeStatusPatches(run: readonly PodPatch[]): PodPatch[] {
  const out: PodPatch[] = [];
  /** Index in `out` of the last status patch of each pod. */
  const lastStatus = new Map<string, number>();
  for (const a of run) {
    if (a.type !== 'PatchPodStatus') {
      out.push(a);
      continue;
    }
    const i = lastStatus.get(a.pod.name);
    const prev = i === undefined ? undefined : out[i];
    if (i !== undefined && prev?.type === 'PatchPodStatus') {
      const mine = conditionTypes(a.patch);
      const theirs = conditionTypes(prev.patch);
      if (mine && theirs && !mine.some((t) => theirs.includes(t))) {
        const conditions = [
          ...((prev.patch.status as JsonObject).conditions as JsonObject[]),
          ...((a.patch.status as JsonObject).conditions as JsonObject[]),
        ];
        out[i] = { ...prev, patch: { status: { conditions } } };
        continue;
      }
    }
    lastStatus.set(a.pod.name, out.length);
    out.push(a);
  }
  return out;
}
