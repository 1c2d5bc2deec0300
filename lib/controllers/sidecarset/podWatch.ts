/**
 * OpenKruise: pkg/controller/sidecarset/sidecarset_pod_event_handler.go `enqueueRequestForPod`.
 *
 * The SidecarSet controller's pod watch: a changed pod names the SidecarSets of its
 * `kruise.io/sidecarset-injected-list` annotation (the injection webhook writes it; upstream reads the same
 * annotation). No read: the cost per pod event is parsing one annotation, and pods without it name nothing.
 * Upstream also GETs each SidecarSet to skip NotUpdate ones and pods missing a sidecar, and enqueues on an update
 * only when readiness, deletion, sidecar consistency or (with an update selector) labels changed; a Map watch sees
 * only the new object, so every change of an injected pod names its SidecarSets — a superset, whose extra passes
 * find nothing to write.
 */
import type { JsonObject } from '../../api/types.js';
import type { ObjectRef } from '../../kube/resource.js';
import { ANNOTATION_SIDECARSET_INJECTED_LIST } from './api/keys.js';

/**
 * The SidecarSets a changed pod concerns: the names of its injected-list annotation, deduplicated, in order.
 * Never throws and reads nothing (the reads argument of a Map watch is not used).
 */
export function sidecarSetsForPod(pod: JsonObject): Promise<ObjectRef[]> {
  const meta = (pod.metadata ?? {}) as JsonObject;
  const annotations = (meta.annotations ?? {}) as JsonObject;
  const list = annotations[ANNOTATION_SIDECARSET_INJECTED_LIST];
  const names = typeof list === 'string' ? list.split(',').filter((n) => n !== '') : [];
  return Promise.resolve([...new Set(names)].map((name) => ({ name })));
}
