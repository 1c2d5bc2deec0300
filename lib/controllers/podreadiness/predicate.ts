/**
 * The pod readiness concern's watch predicate (OpenKruise v1.9.0's pkg/controller/podreadiness
 * `pod_readiness_controller.go` `add`, its create and update predicates, with the checks its `Reconcile` makes
 * first). Light: the pod registration's `selects` (lib/controllers/podKind.ts) reads it without the work's code.
 */
import type { Pod } from '../../api/types.js';
import { controllerRef } from '../../podset/ownership.js';
import { awaitsKruisePodReady } from '../../podset/podReadiness.js';

/**
 * The controller kinds (group `apps.kruise.io`) whose pods Kruiseless's own workload passes give their first
 * `KruisePodReady` condition: CloneSet (`initKruisePodReady` in each pass), Advanced StatefulSet, Advanced DaemonSet
 * and BroadcastJob (lib/podset/createdReadiness.ts, in the pass that creates the pod). The same four the pod guard
 * names (infra/rbac/kruiseless-pod-guard.yaml).
 */
export const KINDS_SETTING_KRUISE_POD_READY: readonly string[] = [
  'CloneSet',
  'StatefulSet',
  'DaemonSet',
  'BroadcastJob',
];

/** Whether the pod's controller reference is one of {@link KINDS_SETTING_KRUISE_POD_READY} (any version). */
export function setsOwnKruisePodReady(pod: Pod): boolean {
  const owner = controllerRef(pod.metadata.ownerReferences);
  return (
    owner !== undefined &&
    owner.apiVersion.startsWith('apps.kruise.io/') &&
    KINDS_SETTING_KRUISE_POD_READY.includes(owner.kind)
  );
}

/**
 * Whether a pod concerns the pod readiness concern: it waits for its first `KruisePodReady` condition
 * (lib/podset/podReadiness.ts `awaitsKruisePodReady`: the gate, no such condition, not terminating — upstream's
 * predicate and the checks its `Reconcile` makes before patching) and its controller is not a kind whose
 * Kruiseless pass sets the condition itself ({@link setsOwnKruisePodReady}). Upstream has one controller write that
 * condition for every pod; in Kruiseless the workload's own pass writes it in the same pass that creates the pod, so
 * this concern leaves those pods alone rather than write the same condition twice (and race a `markPodNotReady` of
 * that pass). Any other pod with the gate — a bare pod, a Deployment's, a Job's, an OpenKruise kind Kruiseless does
 * not run — is this concern's, whatever the feature gates, as upstream's controller runs without a gate.
 */
export function selectsReadinessPod(pod: Pod): boolean {
  return awaitsKruisePodReady(pod) && !setsOwnKruisePodReady(pod);
}
