/**
 * OpenKruise: pkg/controller/daemonset/daemonset_history.go `constructHistory`, `dedupCurHistories`, `Match`,
 * `getPatch`, `snapshot`, `maxRevision`; Kubernetes pkg/controller/controller_utils.go `ComputeHash`.
 *
 * Which ControllerRevision is the DaemonSet's current one, the one to create or renumber, and the duplicates of the
 * current one to delete after the pods are relabelled (`dedupCurHistories`).
 */
import type { ControllerRevision, Pod } from '../../../api/types.js';
import type { Action } from '../../../podset/actions.js';
import { podRef } from '../../../podset/pods.js';
import { goJson } from '../../../podset/revision/goJson.js';
import { computePodTemplateHash } from '../../../podset/revision/spewHash.js';
import { templateRevisionData } from '../../../podset/revision/templateData.js';
import type { JsonValue } from '../../../api/types.js';
import { newControllerRef } from '../../../podset/ownership.js';
import { LABEL_CONTROLLER_REVISION_HASH } from '../api/keys.js';
import { DAEMONSET_API_VERSION, DAEMONSET_KIND_NAME } from '../api/resource.js';
import type { DaemonSet } from '../api/types.js';

/** The outcome of {@link planHistory}. */
export interface HistoryPlan {
  /** The current revision's hash: pods of it are updated (`controller-revision-hash`). */
  hash: string;
  /** A revision to create (no existing one records the template). */
  create?: ControllerRevision;
  /** The current revision with its `revision` raised above every old one, to write. */
  renumber?: ControllerRevision;
  /** The revisions that do not record the template, oldest first (`historiesByRevision`). */
  old: ControllerRevision[];
  /** The current revision: the one to create, or the kept one (renumbered when it is). */
  current: ControllerRevision;
  /**
   * The other revisions that record the template too (`dedupCurHistories`), to delete after the DaemonSet's pods
   * are relabelled to {@link HistoryPlan.hash} ({@link relabelPatches}); empty when at most one records it.
   */
  duplicates: string[];
}

/**
 * The current and old revisions among `revisions` (those the DaemonSet controls): a revision is current when its
 * data is, as Go JSON, the DaemonSet's `{"spec":{"template":{…,"$patch":"replace"}}}`. With none current, one is
 * created: named `<ds>-<hash>`, `hash` = `ComputeHash(template, status.collisionCount)` (../../../podset/revision/
 * spewHash.ts), labels the template's plus `controller-revision-hash`, annotations the DaemonSet's, its controller
 * reference, `revision` one above the old ones' highest. With several current, the highest `revision` is kept (of
 * equal ones the last in `revisions`' order, as upstream's `>=` over its list) and the others are `duplicates`, to
 * delete. A current revision whose number is not above every old one's is renumbered.
 * @throws what `computePodTemplateHash` throws (a quantity Go keeps as `inf.Dec`)
 */
export function planHistory(ds: DaemonSet, revisions: readonly ControllerRevision[]): HistoryPlan {
  const data = templateRevisionData(ds.spec.template);
  const raw = goJson(data);
  const current: ControllerRevision[] = [];
  const old: ControllerRevision[] = [];
  for (const r of revisions) (goJson(r.data) === raw ? current : old).push(r);
  old.sort((a, b) => a.revision - b.revision);
  const next = old.reduce((m, r) => Math.max(m, r.revision), 0) + 1;
  if (current.length === 0) {
    const hash = computePodTemplateHash(ds.spec.template as unknown as JsonValue, ds.status?.collisionCount);
    const create: ControllerRevision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: `${ds.metadata.name ?? ''}-${hash}`,
        namespace: ds.metadata.namespace,
        labels: { ...(ds.spec.template.metadata?.labels ?? {}), [LABEL_CONTROLLER_REVISION_HASH]: hash },
        ...(ds.metadata.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
        ownerReferences: [newControllerRef(DAEMONSET_API_VERSION, DAEMONSET_KIND_NAME, ds)],
      },
      data,
      revision: next,
    };
    return { hash, create, old, current: create, duplicates: [] };
  }
  const cur = current.reduce((keep, r) => (r.revision >= keep.revision ? r : keep), current[0]);
  const hash = cur.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? cur.metadata.name ?? '';
  const renumber = cur.revision < next ? { ...cur, revision: next } : undefined;
  const duplicates = current.filter((r) => r !== cur).map((r) => r.metadata.name ?? '');
  return { hash, old, current: renumber ?? cur, duplicates, ...(renumber ? { renumber } : {}) };
}

/** A label patch of a pod to the current revision's hash (`dedupCurHistories`' relabelling). */
export type RelabelPatch = Extract<Action, { type: 'PatchPod' }> & { reason: 'RelabelDuplicateRevision' };

/**
 * The relabelling that comes before duplicate current revisions are deleted (OpenKruise's `dedupCurHistories`):
 * every pod of the DaemonSet — of any revision, terminating ones too — whose `controller-revision-hash` is not
 * `hash` (or that has none) gets it, so that no pod names a deleted revision. Upstream relabels pods of old revisions
 * as well; so does this, and they then count as updated.
 * @param pods the DaemonSet's pods, in list order
 * @param hash the kept revision's hash ({@link HistoryPlan.hash})
 * @returns one patch per such pod, in `pods`' order; `relabelled` the pods as they are after the patches
 */
export function relabelPatches(
  pods: readonly Pod[],
  hash: string,
): { patches: RelabelPatch[]; relabelled: Pod[] } {
  const patches: RelabelPatch[] = [];
  const relabelled = pods.map((p) => {
    if (p.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH] === hash) return p;
    patches.push({
      type: 'PatchPod',
      pod: podRef(p),
      reason: 'RelabelDuplicateRevision',
      patch: { metadata: { labels: { [LABEL_CONTROLLER_REVISION_HASH]: hash } } },
    });
    return {
      ...p,
      metadata: { ...p.metadata, labels: { ...p.metadata.labels, [LABEL_CONTROLLER_REVISION_HASH]: hash } },
    };
  });
  return { patches, relabelled };
}
