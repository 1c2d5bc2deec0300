/**
 * OpenKruise: pkg/util/workloadspread/workloadspread.go and pkg/controller/workloadspread (v1.9.0).
 *
 * The annotations, names and durations the WorkloadSpread webhook and controller share.
 */

/** On a pod: `{"name":<WorkloadSpread>,"subset":<subset>[,"uid":<generated id>]}`, written at creation. */
export const ANNOTATION_MATCHED_WORKLOADSPREAD = 'apps.kruise.io/matched-workloadspread';

/** On a pod: the ReplicaSet scale-down order Kubernetes honours (and CloneSet's deletion order). */
export const ANNOTATION_POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

/** On a WorkloadSpread: `true` keeps the subset patch's metadata off pods created before it. */
export const ANNOTATION_IGNORE_PATCH_EXISTING_PODS =
  'workloadspread.kruise.io/ignore-patch-existing-pods-metadata';

/** The deletion cost unit: a pod within its subset's maximum gets `100 × (subsets - index)`. */
export const POD_DELETION_COST_POSITIVE = 100;

/** The deletion cost unit: a pod over its subset's maximum gets `-100 × (index + 1)`. */
export const POD_DELETION_COST_NEGATIVE = -100;

/** The version of every pod of a workload without versioned status (all but Deployments and ReplicaSets). */
export const VERSION_IGNORED = 'versionIgnored';

/** The pod label of a Deployment's ReplicaSet revision (`appsv1.DefaultDeploymentUniqueLabelKey`). */
export const LABEL_POD_TEMPLATE_HASH = 'pod-template-hash';

/** The pseudo-subset of pods no subset takes (upstream's `FakeSubsetName`). */
export const FAKE_SUBSET_NAME = 'kruise.io/workloadspread-fake-subset-name';

/** How long a `creatingPods` record waits for its pod, ms (upstream's `CreatPodTimeout`). */
export const CREATE_POD_TIMEOUT_MS = 30_000;

/** How long a `deletingPods` record waits for its pod to go, ms (upstream's `DeletePodTimeout`). */
export const DELETE_POD_TIMEOUT_MS = 15_000;

/** The subset condition type the adaptive strategy writes. */
export const CONDITION_SUBSET_SCHEDULABLE = 'Schedulable';
