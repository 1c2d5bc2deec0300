/**
 * The WorkloadSpread controller's RBAC rows (lib/kube/access.ts shapes), as OpenKruise's `+kubebuilder:rbac` markers
 * beside `pkg/controller/workloadspread/workloadspread_controller.go`, narrowed to the calls Kruiseless makes: read
 * WorkloadSpreads and write their status, list pods and patch their deletion cost and (pods created before the
 * WorkloadSpread) their subset, read the target workloads (CloneSets, Deployments, ReplicaSets, StatefulSets of
 * both groups, Jobs), the nodes of pods created before the WorkloadSpread and the `kruise-configuration` ConfigMap
 * by name (the custom-workload whitelist; a custom workload's own reads are the user's to grant, infra/rbac/README.md).
 * Rows granted by other controllers' rules
 * (pods patch, CloneSet reads, Deployment and ReplicaSet get/list, Job get) appear once in the joined manifest
 * (lib/controllers/rbac.ts).
 */
import type { PolicyRule, ResourceAccess } from '../../kube/access.js';
import { KRUISE_CONFIGURATION_ACCESS, KRUISE_CONFIGURATION_RULE } from '../kruiseConfiguration.js';

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
  { verb: 'get', group: 'apps', resource: 'statefulsets' },
  { verb: 'get', group: KRUISE, resource: 'statefulsets' },
  { verb: 'get', group: 'batch', resource: 'jobs' },
  { verb: 'get', resource: 'nodes' },
  KRUISE_CONFIGURATION_ACCESS,
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
  KRUISE_CONFIGURATION_RULE,
];

/** The watcher's ClusterRole rules for WorkloadSpreads (pods: CloneSet's rule grants them). */
export const WORKLOADSPREAD_WATCHER_RULES: readonly PolicyRule[] = [
  { apiGroups: [KRUISE], resources: ['workloadspreads'], verbs: ['get', 'list', 'watch'] },
];

/**
 * The calls WorkloadSpread makes in the pod webhooks as `kruiseless:admission` (./podWebhook.ts
 * `kubeWorkloadSpreadWebhookDeps`, ./podDeletion.ts): its WorkloadSpreads and their status (a created pod takes a
 * subset, a deleted one is recorded), the workloads up a pod's owner chain and a target's replicas, and the deleted
 * pod (the pod and Job GETs are PodUnavailableBudget's rules too: lib/controllers/podWebhookAccess.ts grants them
 * once).
 */
export const WORKLOADSPREAD_POD_WEBHOOK_ACCESS: readonly ResourceAccess[] = [
  { verb: 'list', group: KRUISE, resource: 'workloadspreads' },
  { verb: 'get', group: KRUISE, resource: 'workloadspreads' },
  { verb: 'update', group: KRUISE, resource: 'workloadspreads', subresource: 'status' },
  { verb: 'get', group: KRUISE, resource: 'clonesets' },
  { verb: 'get', group: 'apps', resource: 'deployments' },
  { verb: 'get', group: 'apps', resource: 'replicasets' },
  { verb: 'get', group: 'apps', resource: 'statefulsets' },
  { verb: 'get', group: KRUISE, resource: 'statefulsets' },
  { verb: 'get', group: 'batch', resource: 'jobs' },
  { verb: 'get', resource: 'pods' },
  KRUISE_CONFIGURATION_ACCESS,
];

/** The admission function's ClusterRole rules for WorkloadSpread (infra/rbac/kruiseless-rbac.yaml). */
export const WORKLOADSPREAD_POD_WEBHOOK_RULES: readonly PolicyRule[] = [
  {
    apiGroups: [KRUISE],
    resources: ['workloadspreads'],
    verbs: ['get', 'list'],
    comment: [
      "WorkloadSpread (/mutate-pod, /validate-pod): the namespace's WorkloadSpreads, then the matched one.",
    ],
  },
  {
    apiGroups: [KRUISE],
    resources: ['workloadspreads/status'],
    verbs: ['update'],
    comment: [
      'WorkloadSpread: a created pod takes a subset, a deleted one is recorded (replace, resourceVersion as',
      'precondition).',
    ],
  },
  {
    apiGroups: [KRUISE],
    resources: ['clonesets', 'statefulsets'],
    verbs: ['get'],
    comment: [
      "WorkloadSpread: a pod's owner chain and the target's replicas (CloneSet, Deployment, ReplicaSet,",
      'StatefulSet, Advanced StatefulSet).',
    ],
  },
  { apiGroups: ['apps'], resources: ['deployments', 'replicasets', 'statefulsets'], verbs: ['get'] },
  KRUISE_CONFIGURATION_RULE,
];
