/**
 * OpenKruise: pkg/controller/cloneset/sync/cloneset_scale.go `createPods`, `getOrGenAvailableIDs`,
 * `getOrGenInstanceID`; pkg/controller/cloneset/core/cloneset_core.go `newVersionedPods`;
 * pkg/controller/cloneset/utils/cloneset_utils.go `UpdateStorage`, `DoItSlowly`.
 *
 * Pod creation (docs/behaviour/cloneset.md#pod-creation, docs/behaviour/cloneset.md#new-pods,
 * docs/behaviour/cloneset.md#pvcs): instance-id selection, the pod and PVC objects built from a revision's
 * template, and the slow-start batch numbers. Pure: time from `ctx.now`, ids from `ctx.newInstanceId`.
 */
import {
  ANNOTATION_LIFECYCLE_TIMESTAMP,
  CONDITION_INPLACE_UPDATE_READY,
  LABEL_INSTANCE_ID,
  LABEL_LIFECYCLE_STATE,
  LifecycleState,
} from '../../../../api/keys.js';
import type { CloneSet, PersistentVolumeClaim, Pod, PodTemplateSpec, Volume } from '../../../../api/types.js';
import { applyRevision } from '../revision/revision.js';
import { cloneSetControllerRef } from '../ownership.js';
import { isPodActive } from '../../../../podset/pods.js';
import { cloneSetRevisionLabels } from '../inPlaceOptions.js';
import { metaTime } from '../../../../api/time.js';
import type { PhaseContext } from '../types.js';
import type { Action } from '../../../../podset/actions.js';
import { injectKruisePodReadyGate } from '../../../../podset/podReadiness.js';

/** Thrown when no unused instance id can be generated. */
export class PodCreationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PodCreationError';
  }
}

/** How many times `newInstanceId` may return an id already in use before giving up. */
const MAX_ID_ATTEMPTS = 1000;

function instanceId(o: { metadata: { labels?: Record<string, string> } }): string {
  return o.metadata.labels?.[LABEL_INSTANCE_ID] ?? '';
}

/**
 * Instance ids for `count` new pods (docs/behaviour/cloneset.md#pod-creation, scenario 31): first the ids of
 * owned PVCs that no active pod uses, taken in ascending order (OpenKruise takes them in map order;
 * Kruiseless is deterministic), then fresh ids from `newInstanceId` skipping any id used by an active pod, an
 * owned PVC or an id already chosen.
 * @param pods active claimed pods
 * @param pvcs owned PVCs without deletionTimestamp
 * @returns `count` distinct ids, sorted ascending
 * @throws PodCreationError when `newInstanceId` returns used ids {@link MAX_ID_ATTEMPTS} times in a row
 */
export function availableInstanceIds(
  count: number,
  pods: Pod[],
  pvcs: PersistentVolumeClaim[],
  newInstanceId: () => string,
): string[] {
  const used = new Set(pods.filter(isPodActive).map(instanceId).filter(Boolean));
  const existing = new Set([...used, ...pvcs.map(instanceId).filter(Boolean)]);
  const free = [...new Set(pvcs.map(instanceId).filter((id) => id && !used.has(id)))].sort();
  const chosen = free.slice(0, Math.max(count, 0));
  while (chosen.length < count) {
    let attempts = 0;
    let id = newInstanceId();
    while (existing.has(id) || chosen.includes(id)) {
      if (++attempts >= MAX_ID_ATTEMPTS) throw new PodCreationError('cannot generate an unused instance id');
      id = newInstanceId();
    }
    chosen.push(id);
  }
  return chosen.sort();
}

/** The claim name `<vct>-<cs>-<id>` (docs/behaviour/cloneset.md#pvcs). */
export function claimName(vctName: string, csName: string, id: string): string {
  return `${vctName}-${csName}-${id}`;
}

/**
 * The PVCs of a new pod, one per volumeClaimTemplate in template order (docs/behaviour/cloneset.md#pvcs):
 * name `<vct>-<cs>-<id>`, the CloneSet's namespace, labels = the template's labels + `selector.matchLabels` +
 * instance id, owner references = the template's own plus the CloneSet controller reference. Status is
 * dropped.
 */
export function buildPVCs(cs: CloneSet, id: string): PersistentVolumeClaim[] {
  return (cs.spec.volumeClaimTemplates ?? []).map((vct) => {
    const copy = structuredClone(vct);
    delete copy.status;
    return {
      ...copy,
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        ...copy.metadata,
        name: claimName(vct.metadata.name ?? '', cs.metadata.name ?? '', id),
        namespace: cs.metadata.namespace,
        labels: {
          ...(copy.metadata.labels ?? {}),
          ...(cs.spec.selector.matchLabels ?? {}),
          [LABEL_INSTANCE_ID]: id,
        },
        ownerReferences: [...(copy.metadata.ownerReferences ?? []), cloneSetControllerRef(cs)],
      },
    };
  });
}

/**
 * A new pod (docs/behaviour/cloneset.md#new-pods): template labels/annotations/finalizers and spec
 * (deep-copied) of `template`; labels `controller-revision-hash` (full revision name, or its suffix with
 * `cloneSetShortHash`), `pod-template-hash` (suffix), instance id, lifecycle `PreparingNormal`; annotation
 * lifecycle timestamp (UTC `Z` form); name `<cs>-<id>`, generateName `<cs>-`; the CloneSet controller
 * reference; readiness gates `InPlaceUpdateReady`, then `KruisePodReady` (what OpenKruise's pod webhook
 * `injectPodReadinessGate` adds to every pod a Kruise workload creates, lib/podset/podReadiness.ts
 * `injectKruisePodReadyGate`), each appended if missing; one claim volume per
 * volumeClaimTemplate (template order) first, then the template's other volumes in order.
 * @param cs the live CloneSet (name, namespace, UID, VCTs)
 * @param template the pod template of the revision the pod is created at
 */
export function buildPod(
  cs: CloneSet,
  template: PodTemplateSpec,
  revisionName: string,
  id: string,
  shortHashLabel: boolean,
  now: Date,
): Pod {
  const tpl = structuredClone(template);
  const csName = cs.metadata.name ?? '';
  const meta = tpl.metadata ?? {};
  const labels: Record<string, string> = {
    ...(meta.labels ?? {}),
    ...cloneSetRevisionLabels(revisionName, shortHashLabel),
    [LABEL_INSTANCE_ID]: id,
    [LABEL_LIFECYCLE_STATE]: LifecycleState.PreparingNormal,
  };
  const annotations = { ...(meta.annotations ?? {}), [ANNOTATION_LIFECYCLE_TIMESTAMP]: metaTime(now) };
  const spec = tpl.spec;
  const gates = [...(spec.readinessGates ?? [])];
  if (!gates.some((g) => g.conditionType === CONDITION_INPLACE_UPDATE_READY))
    gates.push({ conditionType: CONDITION_INPLACE_UPDATE_READY });
  spec.readinessGates = gates;
  const vcts = (cs.spec.volumeClaimTemplates ?? []).map((v) => v.metadata.name ?? '');
  const claimVolumes: Volume[] = vcts.map((name) => ({
    name,
    persistentVolumeClaim: { claimName: claimName(name, csName, id), readOnly: false },
  }));
  const others = (spec.volumes ?? []).filter((v) => !vcts.includes(v.name));
  if (claimVolumes.length > 0 || spec.volumes) spec.volumes = [...claimVolumes, ...others];
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${csName}-${id}`,
      generateName: `${csName}-`,
      namespace: cs.metadata.namespace,
      labels,
      annotations,
      ownerReferences: [cloneSetControllerRef(cs)],
    },
    spec,
  };
  if (meta.finalizers && meta.finalizers.length > 0) pod.metadata.finalizers = [...meta.finalizers];
  return injectKruisePodReadyGate(pod);
}

/**
 * Slow-start batch index of the k-th creation (0-based): batches of 1, 2, 4, 8, … → 0, 1, 1, 2, 2, 2, 2, 3, …
 */
export function slowStartBatch(k: number): number {
  return Math.floor(Math.log2(k + 1));
}

/**
 * `CreatePod` actions for `count` new pods (docs/behaviour/cloneset.md#scale-phase,
 * docs/behaviour/cloneset.md#pod-creation): ids from {@link availableInstanceIds} in ascending order; the
 * first `min(count, currentCount)` pods use the current revision's template, the rest the update revision's;
 * each action lists the pod's PVCs not already among `ctx.pvcs` (by name), and carries its slow-start batch
 * index.
 * @param count pods to create (scaleUpLimit)
 * @param currentCount how many of them at the current revision (scaleUpNumOldRevision)
 * @throws PodCreationError (see {@link availableInstanceIds}); InvalidRevisionDataError when the current
 *   revision has no template (the update revision falls back to the live template)
 */
export function planCreations(ctx: PhaseContext, count: number, currentCount: number): Action[] {
  if (count <= 0) return [];
  const ids = availableInstanceIds(count, ctx.pods, ctx.pvcs, ctx.newInstanceId);
  const existing = new Set(ctx.pvcs.map((p) => p.metadata.name));
  const nCurrent = Math.min(count, Math.max(currentCount, 0));
  const currentName = ctx.currentRevision.metadata.name ?? '';
  const updateName = ctx.updateRevision.metadata.name ?? '';
  const currentTpl =
    nCurrent > 0 ? applyRevision(ctx.cloneSet, ctx.currentRevision).spec.template : undefined;
  const updateTpl = nCurrent < count ? updateTemplate(ctx) : undefined;
  return ids.map((id, k): Action => {
    const atCurrent = k < nCurrent;
    const revision = atCurrent ? currentName : updateName;
    const tpl = (atCurrent ? currentTpl : updateTpl) as PodTemplateSpec;
    const pod = buildPod(ctx.cloneSet, tpl, revision, id, ctx.options.cloneSetShortHash, ctx.now);
    const pvcs = buildPVCs(ctx.cloneSet, id).filter((p) => !existing.has(p.metadata.name));
    return { type: 'CreatePod', pod, pvcs, revision, batch: slowStartBatch(k) };
  });
}

/**
 * The update revision's template; the live template when the revision carries no data (it is the live one).
 */
function updateTemplate(ctx: PhaseContext): PodTemplateSpec {
  try {
    return applyRevision(ctx.cloneSet, ctx.updateRevision).spec.template;
  } catch {
    return structuredClone(ctx.cloneSet.spec.template);
  }
}
