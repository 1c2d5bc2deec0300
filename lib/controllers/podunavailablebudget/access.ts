/**
 * The PodUnavailableBudget controller's RBAC rows (lib/kube/access.ts shapes), as OpenKruise's `+kubebuilder:rbac`
 * markers beside `pkg/controller/podunavailablebudget/podunavailablebudget_controller.go`, narrowed to the calls
 * Kruiseless makes: read PUBs and write their status, list pods and patch their related-pub annotations, read the
 * workloads whose replicas the budget expects (native Deployments, ReplicaSets, StatefulSets, ReplicationControllers;
 * CloneSets and Advanced StatefulSets, which their own controllers' rules grant too), and the `scale` subresource of
 * any other kind a budget targets or a covered pod's controller is (lib/kube/scaleFinder.ts; OpenKruise's role grants
 * `get` on the scale of every resource the same way; discovery needs no rule), and DaemonSets and Jobs, which have no
 * scale subresource and are read as objects. Rows granted by other controllers'
 * rules appear once in the joined manifest (lib/controllers/rbac.ts).
 */
import type { PolicyRule, ResourceAccess } from '../../kube/access.js';

/** `get` on the scale subresource of every resource: a workload of a kind with no finder of its own. */
const ANY_SCALE: ResourceAccess = { verb: 'get', group: '*', resource: '*', subresource: 'scale' };

const ANY_SCALE_RULE: PolicyRule = {
  apiGroups: ['*'],
  resources: ['*/scale'],
  verbs: ['get'],
  comment: [
    'PodUnavailableBudget: the replicas and pod selector of a workload of another kind (a custom resource with a',
    'scale subresource) that a budget targets or whose pods it covers, as OpenKruise reads them.',
  ],
};

const POLICY = 'policy.kruise.io';
const KRUISE = 'apps.kruise.io';

/**
 * `get` on the built-in workloads without a scale subresource, read as the objects themselves (upstream's
 * `getRefUID`, lib/kube/scaleFinder.ts `findWorkloadObject`): a budget's DaemonSet or Job target, a covered pod's
 * DaemonSet or Job. OpenKruise's role reads every resource; a custom kind without a scale subresource needs the same
 * grant added by hand (else its workload counts as unknown and a `targetRef` to it covers no pods, logged).
 */
const UNSCALED_WORKLOADS: readonly ResourceAccess[] = [
  { verb: 'get', group: 'apps', resource: 'daemonsets' },
  { verb: 'get', group: 'batch', resource: 'jobs' },
];

const UNSCALED_WORKLOAD_RULES: readonly PolicyRule[] = [
  {
    apiGroups: ['apps'],
    resources: ['daemonsets'],
    verbs: ['get'],
    comment: [
      'PodUnavailableBudget: a DaemonSet a budget targets or whose pods it covers (no scale subresource: the',
      'object itself, as OpenKruise reads it).',
    ],
  },
  {
    apiGroups: ['batch'],
    resources: ['jobs'],
    verbs: ['get'],
    comment: [
      'PodUnavailableBudget: a Job a budget targets or whose pods it covers (no scale subresource); WorkloadSpread:',
      "a Job target, its parallelism and template, and a pod's Job owner.",
    ],
  },
];

/** Every call the PodUnavailableBudget reconcile makes. */
export const PUB_CONTROLLER_ACCESS: readonly ResourceAccess[] = [
  { verb: 'get', group: POLICY, resource: 'podunavailablebudgets' },
  { verb: 'update', group: POLICY, resource: 'podunavailablebudgets', subresource: 'status' },
  { verb: 'list', resource: 'pods' },
  { verb: 'patch', resource: 'pods' },
  { verb: 'get', group: 'apps', resource: 'deployments' },
  { verb: 'get', group: 'apps', resource: 'replicasets' },
  { verb: 'list', group: 'apps', resource: 'replicasets' },
  { verb: 'get', group: 'apps', resource: 'statefulsets' },
  { verb: 'get', resource: 'replicationcontrollers' },
  { verb: 'get', group: KRUISE, resource: 'clonesets' },
  { verb: 'get', group: KRUISE, resource: 'statefulsets' },
  ANY_SCALE,
  ...UNSCALED_WORKLOADS,
];

/** The watch pump's and the resync's reads: PUBs, pods, and the workloads the map functions resolve. */
export const PUB_WATCHER_ACCESS: readonly ResourceAccess[] = [
  ...['get', 'list', 'watch'].flatMap((verb) => [
    { verb, group: POLICY, resource: 'podunavailablebudgets' },
    { verb, resource: 'pods' },
  ]),
  { verb: 'get', group: 'apps', resource: 'replicasets' },
  { verb: 'get', resource: 'replicationcontrollers' },
  // a new pod's budget (./podWatch.ts): its controller of another kind
  ANY_SCALE,
  ...UNSCALED_WORKLOADS,
  // the workload watches (./workloadWatch.ts), and the map functions' GETs
  ...['get', 'list', 'watch'].flatMap((verb) => [
    { verb, group: 'apps', resource: 'deployments' },
    { verb, group: 'apps', resource: 'statefulsets' },
    { verb, group: KRUISE, resource: 'clonesets' },
    { verb, group: KRUISE, resource: 'statefulsets' },
  ]),
];

/** Writes the watcher must not be able to make on PUBs. */
export const PUB_WATCHER_DENIED: readonly ResourceAccess[] = [
  { verb: 'update', group: POLICY, resource: 'podunavailablebudgets', subresource: 'status' },
];

/** What no Kruiseless identity may do to PUBs: create, change or delete one (the user's). */
export const PUB_DENIED_TO_ALL: readonly ResourceAccess[] = [
  { verb: 'create', group: POLICY, resource: 'podunavailablebudgets' },
  { verb: 'update', group: POLICY, resource: 'podunavailablebudgets' },
  { verb: 'patch', group: POLICY, resource: 'podunavailablebudgets' },
  { verb: 'delete', group: POLICY, resource: 'podunavailablebudgets' },
];

const NATIVE_WORKLOAD_READS: PolicyRule = {
  apiGroups: ['apps'],
  resources: ['deployments', 'replicasets', 'statefulsets'],
  verbs: ['get', 'list'],
  comment: ['PodUnavailableBudget: the replicas a budget expects, and a Deployment’s ReplicaSets.'],
};

/** The reconcile function's ClusterRole rules for PUBs (infra/rbac/kruiseless-rbac.yaml). */
export const PUB_CONTROLLER_RULES: readonly PolicyRule[] = [
  {
    apiGroups: [POLICY],
    resources: ['podunavailablebudgets'],
    verbs: ['get', 'list', 'watch'],
    comment: ['Read the PodUnavailableBudget (v1beta1, stored).'],
  },
  {
    apiGroups: [POLICY],
    resources: ['podunavailablebudgets/status'],
    verbs: ['update'],
    comment: [
      'PodUnavailableBudget status through the status subresource (replace, resourceVersion as precondition).',
    ],
  },
  {
    apiGroups: [''],
    resources: ['pods'],
    verbs: ['patch'],
    comment: ['PodUnavailableBudget: the related-pub annotations on the pods a budget covers.'],
  },
  {
    apiGroups: [''],
    resources: ['replicationcontrollers'],
    verbs: ['get'],
    comment: ['PodUnavailableBudget: the replicas of a ReplicationController whose pods a budget covers.'],
  },
  NATIVE_WORKLOAD_READS,
  ANY_SCALE_RULE,
  ...UNSCALED_WORKLOAD_RULES,
];

/** The watcher's ClusterRole rules for PUBs (pods: CloneSet's rule grants them; Kruise workloads: theirs). */
export const PUB_WATCHER_RULES: readonly PolicyRule[] = [
  { apiGroups: [POLICY], resources: ['podunavailablebudgets'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['replicationcontrollers'], verbs: ['get'] },
  NATIVE_WORKLOAD_READS,
  {
    apiGroups: ['apps'],
    resources: ['deployments', 'statefulsets'],
    verbs: ['watch'],
    comment: ['PodUnavailableBudget: a Deployment or StatefulSet scaled names its budget.'],
  },
  ANY_SCALE_RULE,
  ...UNSCALED_WORKLOAD_RULES,
];

/**
 * The calls PodUnavailableBudget makes in the pod validating webhook (`/validate-pod`, ./podWebhook.ts
 * `kubePubWebhookDeps`) as `kruiseless:admission`: the budget and its status (an allowed disruption is consumed), the
 * evicted pod (an eviction names it only), and an Event on the pod (lib/kube/access.ts `EVENT_ACCESS`, granted once by
 * lib/controllers/podWebhookAccess.ts, as the pod GET).
 */
export const PUB_POD_WEBHOOK_ACCESS: readonly ResourceAccess[] = [
  { verb: 'get', group: POLICY, resource: 'podunavailablebudgets' },
  // /mutate-pod (./podMutation.ts): the namespace's budgets, and the new pod's workload (WorkloadSpread's rows grant
  // the apps and apps.kruise.io GETs too)
  { verb: 'list', group: POLICY, resource: 'podunavailablebudgets' },
  { verb: 'get', group: 'apps', resource: 'deployments' },
  { verb: 'get', group: 'apps', resource: 'replicasets' },
  { verb: 'get', group: 'apps', resource: 'statefulsets' },
  { verb: 'get', resource: 'replicationcontrollers' },
  { verb: 'get', group: KRUISE, resource: 'clonesets' },
  { verb: 'get', group: KRUISE, resource: 'statefulsets' },
  ANY_SCALE,
  ...UNSCALED_WORKLOADS,
  { verb: 'update', group: POLICY, resource: 'podunavailablebudgets', subresource: 'status' },
  { verb: 'get', resource: 'pods' },
];

/** The admission function's ClusterRole rules for PodUnavailableBudget (infra/rbac/kruiseless-rbac.yaml). */
export const PUB_POD_WEBHOOK_RULES: readonly PolicyRule[] = [
  {
    apiGroups: [POLICY],
    resources: ['podunavailablebudgets'],
    verbs: ['get', 'list'],
    comment: [
      "PodUnavailableBudget: the budget a pod's related-pub annotation names (/validate-pod), and the namespace's",
      'budgets, one of which a new pod is annotated with (/mutate-pod).',
    ],
  },
  {
    apiGroups: [''],
    resources: ['replicationcontrollers'],
    verbs: ['get'],
    comment: [
      'PodUnavailableBudget (/mutate-pod): the ReplicationController of a new pod a budget may target.',
    ],
  },
  ANY_SCALE_RULE,
  ...UNSCALED_WORKLOAD_RULES,
  {
    apiGroups: [POLICY],
    resources: ['podunavailablebudgets/status'],
    verbs: ['update'],
    comment: [
      'PodUnavailableBudget: an allowed delete, eviction or update consumes the budget (replace, resourceVersion as',
      'precondition).',
    ],
  },
];
