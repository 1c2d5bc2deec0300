/**
 * The container launch priority concern's watch predicate (OpenKruise v1.9.0's
 * pkg/controller/containerlaunchpriority `add`, its `shouldEnqueue`): of the pod stream it takes only the pods whose
 * launch still waits on a barrier (lib/podset/launchPriority.ts `awaitsLaunch`, less the barrier read its work
 * makes). Light: the pod registration's `selects` (lib/controllers/podKind.ts) reads it without the work's code.
 */
import type { Pod } from '../../api/types.js';
import { awaitsLaunch } from '../../podset/launchPriority.js';

/** Whether a pod's launch concerns the container launch priority concern (upstream's `shouldEnqueue`). */
export function selectsLaunchPod(pod: Pod): boolean {
  return awaitsLaunch(pod);
}
