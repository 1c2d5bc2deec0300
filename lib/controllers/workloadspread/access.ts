/**
 * The WorkloadSpread controller's RBAC rows (lib/kube/access.ts shapes), as OpenKruise's `+kubebuilder:rbac` markers
 * beside `pkg/controller/workloadspread/workloadspread_controller.go`, narrowed to the calls Kruiseless makes: read
 * WorkloadSpreads and write their status, list pods and patch their deletion cost, read the target workloads
 * (CloneSets, Deployments, ReplicaSets). Rows granted by other controllers' rules (pods patch, CloneSet reads,
 * Deployment and ReplicaSet get/list) appear once in the joined manifest (lib/controllers/rbac.ts).
 */
import type { PolicyRule, ResourceAccess } from '../../kube/access.js';

const KRUISE = 'apps.kruise.io';

/** Every call the WorkloadSpread reconcile makes. */
export const WORKLOADSPREAD_CONTROLLER_ACCESS: readonly ResourceAccess[] = [
  { verb: 'get', group: KRUISE, resource: 'workloadspreads' },
  { verb: 'update', group: KRUISE, resource: 'workloadspreads', subresource: 'status' },
  { verb: 'list', resource: 'pods' },
  { verb: 'patch', resource: 'pods' },
  { verb: 'get', group: KRUISE, resource: 'clonesets' },
  { verb: 'get', group: 'apps', resource: 'deployments' },
  { verb: 'get', group: 'apps', resource: 'replicasets' },
  { verb: 'list', group: 'apps', resource: 'replicasets' },
];

/** The watch pump's and the resync's reads: WorkloadSpreads and pods. */
export const WORKLOADSPREAD_WATCHER_ACCESS: readonly ResourceAccess[] = ['get', 'list', 'watch'].flatMap(
  (verb) => [
    { verb, group: KRUISE, resource: 'workloadspreads' },
    { verb, resource: 'pods' },
  ],
);

/** Writes the watcher must not be able to make on WorkloadSpreads. */
export const WORKLOADSPREAD_WATCHER_DENIED: readonly ResourceAccess[] = [
  { verb: 'update', group: KRUISE, resource: 'workloadspreads', subresource: 'status' },
];

/** What no Kruiseless identity may do to WorkloadSpreads: create, change or delete one (the user's). */
export const WORKLOADSPREAD_DENIED_TO_ALL: readonly ResourceAccess[] = [
  { verb: 'create', group: KRUISE, resource: 'workloadspreads' },
  { verb: 'update', group: KRUISE, resource: 'workloadspreads' },
  { verb: 'patch', group: KRUISE, resource: 'workloadspreads' },
  { verb: 'delete', group: KRUISE, resource: 'workloadspreads' },
];

/** The reconcile function's ClusterRole rules for WorkloadSpreads (infra/rbac/kruiseless-rbac.yaml). */
export const WORKLOADSPREAD_CONTROLLER_RULES: readonly PolicyRule[] = [
  {
    apiGroups: [KRUISE],
    resources: ['workloadspreads'],
    verbs: ['get', 'list', 'watch'],
    comment: ['Read the WorkloadSpread (v1beta1, stored).'],
  },
  {
    apiGroups: [KRUISE],
    resources: ['workloadspreads/status'],
    verbs: ['update'],
    comment: [
      'WorkloadSpread status through the status subresource (replace, resourceVersion as precondition).',
    ],
  },
];

/** The watcher's ClusterRole rules for WorkloadSpreads (pods: CloneSet's rule grants them). */
export const WORKLOADSPREAD_WATCHER_RULES: readonly PolicyRule[] = [
  { apiGroups: [KRUISE], resources: ['workloadspreads'], verbs: ['get', 'list', 'watch'] },
];
