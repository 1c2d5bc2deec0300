/**
 * OpenKruise: pkg/controller/sidecarset/sidecarset_pod_event_handler.go `enqueueRequestForPod`.
 *
 * The SidecarSet controller's pod watch: a changed pod names the SidecarSets of its
 * `kruise.io/sidecarset-injected-list` annotation (the injection webhook writes it; upstream reads the same
 * annotation). A new, deleted or relisted pod names them with no read: the cost is parsing one annotation, and pods
 * without it name nothing. A modified pod names only those whose `updateStrategy.type` is not `NotUpdate`, one GET
 * each, as upstream's update handler skips them: a NotUpdate SidecarSet's status is then not recounted when its pods
 * become ready (OpenKruise v1.9.0 keeps `readyPods` as counted when they were created). Upstream also enqueues an
 * update only when readiness, deletion, sidecar consistency or (with an update selector) labels changed, and skips
 * pods missing a sidecar; a Map watch sees only the new object, so every other change of an injected pod names its
 * SidecarSets — a superset, whose extra passes find nothing to write.
 */
import type { JsonObject } from '../../api/types.js';
import type { ObjectRef } from '../../kube/resource.js';
import type { ChangeType, MapReads } from '../../source/watchSpec.js';
import { ANNOTATION_SIDECARSET_INJECTED_LIST } from './api/keys.js';
import { SIDECARSET_RESOURCE } from './api/resource.js';
import type { SidecarSet } from './api/types.js';

/**
 * The SidecarSets a changed pod concerns: the names of its injected-list annotation, deduplicated, in order; for a
 * `MODIFIED` pod without those that are `NotUpdate` or gone (read with `reads`).
 * @throws what a GET throws for a modified pod (the pump logs it and leaves the change to the resync)
 */
export async function sidecarSetsForPod(
  pod: JsonObject,
  reads?: MapReads,
  change: ChangeType = 'LISTED',
): Promise<ObjectRef[]> {
  const meta = (pod.metadata ?? {}) as JsonObject;
  const annotations = (meta.annotations ?? {}) as JsonObject;
  const list = annotations[ANNOTATION_SIDECARSET_INJECTED_LIST];
  const names = [...new Set(typeof list === 'string' ? list.split(',').filter((n) => n !== '') : [])];
  if (change !== 'MODIFIED' || !reads) return names.map((name) => ({ name }));
  const kept: ObjectRef[] = [];
  for (const name of names) {
    const sidecarSet = (await reads.kube.get(SIDECARSET_RESOURCE, { name })) as SidecarSet | undefined;
    if (sidecarSet && sidecarSet.spec?.updateStrategy?.type !== 'NotUpdate') kept.push({ name });
  }
  return kept;
}
