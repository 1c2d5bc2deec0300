/**
 * The pod readiness concern's RBAC rows (lib/kube/access.ts shapes), as the calls of ./pass.ts and the pod
 * registration's read: GET the pod, PATCH its status (OpenKruise's `+kubebuilder:rbac` markers of
 * `pod_readiness_controller.go` grant `pods/status` get, update and patch; Kruiseless only patches). Its watch and
 * resync read pods only, which the CloneSet controller's watcher rule grants. The pod guard
 * (infra/rbac/kruiseless-pod-guard.yaml, `kruisePodReadyInit`) lets that patch add the condition and nothing more.
 */
import type { PolicyRule, ResourceAccess } from '../../kube/access.js';

/** Every call the pod readiness work makes (the pod's GET is the pod registration's pass's). */
export const POD_READINESS_CONTROLLER_ACCESS: readonly ResourceAccess[] = [
  { verb: 'get', resource: 'pods' },
  { verb: 'patch', resource: 'pods', subresource: 'status' },
];

/** The watch pump's and the resync's reads: pods. */
export const POD_READINESS_WATCHER_ACCESS: readonly ResourceAccess[] = ['get', 'list', 'watch'].map(
  (verb) => ({
    verb,
    resource: 'pods',
  }),
);

/** Writes the watcher must not be able to make: a pod's status. */
export const POD_READINESS_WATCHER_DENIED: readonly ResourceAccess[] = [
  { verb: 'patch', resource: 'pods', subresource: 'status' },
];

/** The reconcile function's ClusterRole rules for it (infra/rbac/kruiseless-rbac.yaml). */
export const POD_READINESS_CONTROLLER_RULES: readonly PolicyRule[] = [
  {
    apiGroups: [''],
    resources: ['pods/status'],
    verbs: ['patch'],
    comment: [
      'Pod readiness: the first KruisePodReady condition of a pod with that readiness gate that no Kruiseless',
      'workload pass gives it (a bare pod, a Deployment pod, any pod under gate KruisePodReadinessGate).',
    ],
  },
];

/** The watcher's ClusterRole rules (pods: the CloneSet controller's rule grants them). */
export const POD_READINESS_WATCHER_RULES: readonly PolicyRule[] = [];
