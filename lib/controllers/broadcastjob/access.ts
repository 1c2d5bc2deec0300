/**
 * The BroadcastJob controller's RBAC rows (lib/kube/access.ts shapes), as OpenKruise's `+kubebuilder:rbac` markers
 * beside `pkg/controller/broadcastjob/broadcastjob_controller.go`, narrowed to the calls Kruiseless makes: read the
 * job and write its status, delete a finished job after `ttlSecondsAfterFinished`, create and delete its pods, set
 * their `KruisePodReady` condition, and read Nodes. Pods are granted by CloneSet's rules as well; the joined manifest
 * (lib/controllers/rbac.ts) has each row once.
 */
import type { PolicyRule, ResourceAccess } from '../../kube/access.js';

const KRUISE = 'apps.kruise.io';

/** Every call the BroadcastJob reconcile makes. */
export const BROADCASTJOB_CONTROLLER_ACCESS: readonly ResourceAccess[] = [
  { verb: 'get', group: KRUISE, resource: 'broadcastjobs' },
  { verb: 'list', group: KRUISE, resource: 'broadcastjobs' },
  { verb: 'delete', group: KRUISE, resource: 'broadcastjobs' },
  { verb: 'update', group: KRUISE, resource: 'broadcastjobs', subresource: 'status' },
  { verb: 'list', resource: 'pods' },
  { verb: 'get', resource: 'pods' },
  { verb: 'create', resource: 'pods' },
  { verb: 'delete', resource: 'pods' },
  { verb: 'patch', resource: 'pods', subresource: 'status' },
  { verb: 'list', resource: 'nodes', namespaced: false },
];

/** The watch pump's and the resync's reads: BroadcastJobs, their pods, and Nodes (every job's Map watch). */
export const BROADCASTJOB_WATCHER_ACCESS: readonly ResourceAccess[] = ['get', 'list', 'watch'].flatMap(
  (verb) => [
    { verb, group: KRUISE, resource: 'broadcastjobs' },
    { verb, resource: 'pods' },
    { verb, resource: 'nodes', namespaced: false },
  ],
);

/** Writes the watcher must not be able to make on BroadcastJobs and Nodes. */
export const BROADCASTJOB_WATCHER_DENIED: readonly ResourceAccess[] = [
  { verb: 'delete', group: KRUISE, resource: 'broadcastjobs' },
  { verb: 'update', group: KRUISE, resource: 'broadcastjobs', subresource: 'status' },
  { verb: 'patch', resource: 'nodes', namespaced: false },
];

/**
 * What no Kruiseless identity may do to BroadcastJobs and Nodes: change a job's spec (the user's), or write a Node.
 * Deleting a job is the controller's (its TTL), and creating one the AdvancedCronJob controller's, so neither is here.
 */
export const BROADCASTJOB_DENIED_TO_ALL: readonly ResourceAccess[] = [
  { verb: 'update', group: KRUISE, resource: 'broadcastjobs' },
  { verb: 'patch', group: KRUISE, resource: 'broadcastjobs' },
  { verb: 'update', resource: 'nodes', namespaced: false },
  { verb: 'delete', resource: 'nodes', namespaced: false },
];

/** The reconcile function's ClusterRole rules for BroadcastJobs (infra/rbac/kruiseless-rbac.yaml). */
export const BROADCASTJOB_CONTROLLER_RULES: readonly PolicyRule[] = [
  {
    apiGroups: [KRUISE],
    resources: ['broadcastjobs'],
    verbs: ['get', 'list', 'watch', 'delete'],
    comment: [
      'Read the BroadcastJob (v1beta1, the storage version); delete it ttlSecondsAfterFinished after it finished.',
    ],
  },
  {
    apiGroups: [KRUISE],
    resources: ['broadcastjobs/status'],
    verbs: ['update'],
    comment: [
      'Status through the status subresource (replace, with the read resourceVersion as precondition).',
    ],
  },
  {
    apiGroups: [''],
    resources: ['nodes'],
    verbs: ['get', 'list', 'watch'],
    comment: [
      'BroadcastJob: one pod per node its template fits (node selector, affinity, taints, resources).',
    ],
  },
];

/** The watcher's ClusterRole rules for BroadcastJobs (pods: CloneSet's rule grants them too). */
export const BROADCASTJOB_WATCHER_RULES: readonly PolicyRule[] = [
  { apiGroups: [KRUISE], resources: ['broadcastjobs'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
];
