/**
 * The AdvancedCronJob controller's RBAC rows (lib/kube/access.ts shapes), as OpenKruise's `+kubebuilder:rbac`
 * markers beside `pkg/controller/advancedcronjob/advancedcronjob_controller.go` and its job files, narrowed to the
 * calls Kruiseless makes: read the object and write its status; list, create and delete its Jobs and BroadcastJobs.
 */
import type { PolicyRule, ResourceAccess } from '../../kube/access.js';

const KRUISE = 'apps.kruise.io';

/** Every call the AdvancedCronJob reconcile makes. */
export const ADVANCEDCRONJOB_CONTROLLER_ACCESS: readonly ResourceAccess[] = [
  { verb: 'get', group: KRUISE, resource: 'advancedcronjobs' },
  { verb: 'update', group: KRUISE, resource: 'advancedcronjobs', subresource: 'status' },
  { verb: 'list', group: 'batch', resource: 'jobs' },
  { verb: 'create', group: 'batch', resource: 'jobs' },
  { verb: 'delete', group: 'batch', resource: 'jobs' },
  { verb: 'list', group: KRUISE, resource: 'broadcastjobs' },
  { verb: 'create', group: KRUISE, resource: 'broadcastjobs' },
  { verb: 'delete', group: KRUISE, resource: 'broadcastjobs' },
];

/** The watch pump's and the resync's reads: AdvancedCronJobs and BroadcastJobs (the BroadcastJob controller's stream). */
export const ADVANCEDCRONJOB_WATCHER_ACCESS: readonly ResourceAccess[] = ['get', 'list', 'watch'].flatMap(
  (verb) => [
    { verb, group: KRUISE, resource: 'advancedcronjobs' },
    { verb, group: KRUISE, resource: 'broadcastjobs' },
  ],
);

/** Writes the watcher must not be able to make. */
export const ADVANCEDCRONJOB_WATCHER_DENIED: readonly ResourceAccess[] = [
  { verb: 'update', group: KRUISE, resource: 'advancedcronjobs', subresource: 'status' },
  { verb: 'create', group: 'batch', resource: 'jobs' },
  { verb: 'delete', group: 'batch', resource: 'jobs' },
];

/** What no Kruiseless identity may do: create, change or delete an AdvancedCronJob (the user's). */
export const ADVANCEDCRONJOB_DENIED_TO_ALL: readonly ResourceAccess[] = [
  { verb: 'create', group: KRUISE, resource: 'advancedcronjobs' },
  { verb: 'update', group: KRUISE, resource: 'advancedcronjobs' },
  { verb: 'patch', group: KRUISE, resource: 'advancedcronjobs' },
  { verb: 'delete', group: KRUISE, resource: 'advancedcronjobs' },
];

/** The reconcile function's ClusterRole rules for AdvancedCronJobs (infra/rbac/kruiseless-rbac.yaml). */
export const ADVANCEDCRONJOB_CONTROLLER_RULES: readonly PolicyRule[] = [
  {
    apiGroups: [KRUISE],
    resources: ['advancedcronjobs'],
    verbs: ['get', 'list', 'watch'],
    comment: ['Read the AdvancedCronJob (v1beta1, the storage version).'],
  },
  {
    apiGroups: [KRUISE],
    resources: ['advancedcronjobs/status'],
    verbs: ['update'],
    comment: ['Status through the status subresource: type, active children, lastScheduleTime.'],
  },
  {
    apiGroups: ['batch'],
    resources: ['jobs'],
    verbs: ['list', 'create', 'delete'],
    comment: [
      'AdvancedCronJob: one Job per scheduled time; finished ones beyond the history limits and',
      'Replace-policy active ones are deleted (background propagation).',
    ],
  },
  {
    apiGroups: [KRUISE],
    resources: ['broadcastjobs'],
    verbs: ['list', 'create', 'delete'],
    comment: ['AdvancedCronJob: one BroadcastJob per scheduled time (broadcastJobTemplate).'],
  },
];

/** The watcher's ClusterRole rules for AdvancedCronJobs (BroadcastJobs: the BroadcastJob rule grants them). */
export const ADVANCEDCRONJOB_WATCHER_RULES: readonly PolicyRule[] = [
  { apiGroups: [KRUISE], resources: ['advancedcronjobs'], verbs: ['get', 'list', 'watch'] },
];
