/**
 * OpenKruise: pkg/controller/workloadspread/workloadspread_event_handler.go `podEventHandler` (v1.9.0).
 *
 * The WorkloadSpread controller's pod watch: a pod names the WorkloadSpread of its matched-workloadspread annotation
 * (the pod webhook writes it at creation), with no read; a pod without it names nothing. Upstream enqueues an update
 * only when the pod stopped being active or its version changed; a Map watch sees only the new object, so every
 * change of an annotated pod names its WorkloadSpread — a superset, whose extra passes find nothing to write.
 */
import type { JsonObject, Pod } from '../../api/types.js';
import type { ObjectRef } from '../../kube/resource.js';
import { injectedOf } from './plan/injected.js';

/** The WorkloadSpread a changed pod concerns (see the module doc). */
export function workloadSpreadsForPod(obj: JsonObject): Promise<ObjectRef[]> {
  const pod = obj as unknown as Pod;
  const namespace = pod.metadata?.namespace ?? '';
  const injected = pod.metadata ? injectedOf(pod) : undefined;
  return Promise.resolve(injected && namespace ? [{ namespace, name: injected.name }] : []);
}
