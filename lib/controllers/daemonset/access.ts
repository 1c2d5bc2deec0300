/**
 * The Advanced DaemonSet controller's RBAC rows (lib/kube/access.ts shapes), as OpenKruise's `+kubebuilder:rbac`
 * markers beside `pkg/controller/daemonset/daemonset_controller.go`, narrowed to the calls Kruiseless makes: read
 * the DaemonSet and write its status, create, renumber, adopt, label and prune its ControllerRevisions, create and
 * delete its ImagePullJobs (image pre-download), create, patch
 * (in place, lifecycle, adoption) and delete its pods, and read Nodes. Pods, ControllerRevisions and Nodes are granted by other kinds' rules as well; the joined manifest
 * (lib/controllers/rbac.ts) has each row once.
 */
import type { PolicyRule, ResourceAccess } from '../../kube/access.js';

const KRUISE = 'apps.kruise.io';

/** Every call the DaemonSet reconcile makes. */
export const DAEMONSET_CONTROLLER_ACCESS: readonly ResourceAccess[] = [
  { verb: 'get', group: KRUISE, resource: 'daemonsets' },
  { verb: 'list', group: KRUISE, resource: 'daemonsets' },
  { verb: 'update', group: KRUISE, resource: 'daemonsets', subresource: 'status' },
  { verb: 'list', group: 'apps', resource: 'controllerrevisions' },
  { verb: 'create', group: 'apps', resource: 'controllerrevisions' },
  { verb: 'update', group: 'apps', resource: 'controllerrevisions' },
  { verb: 'delete', group: 'apps', resource: 'controllerrevisions' },
  // image pre-download: the revision's created/ignored label, the ImagePullJobs (./plan/preDownload.ts)
  { verb: 'patch', group: 'apps', resource: 'controllerrevisions' },
  { verb: 'list', group: KRUISE, resource: 'imagepulljobs' },
  { verb: 'create', group: KRUISE, resource: 'imagepulljobs' },
  { verb: 'delete', group: KRUISE, resource: 'imagepulljobs' },
  { verb: 'list', resource: 'pods' },
  { verb: 'create', resource: 'pods' },
  // in-place updates, lifecycle hooks, and the adoption or release of a pod (./adopt.ts)
  { verb: 'patch', resource: 'pods' },
  { verb: 'delete', resource: 'pods' },
  { verb: 'list', resource: 'nodes', namespaced: false },
];

/** The watch pump's and the resync's reads: DaemonSets (their pods and Nodes are other kinds' rows too). */
export const DAEMONSET_WATCHER_ACCESS: readonly ResourceAccess[] = ['get', 'list', 'watch'].map((verb) => ({
  verb,
  group: KRUISE,
  resource: 'daemonsets',
}));

/** Writes the watcher must not be able to make on DaemonSets. */
export const DAEMONSET_WATCHER_DENIED: readonly ResourceAccess[] = [
  { verb: 'update', group: KRUISE, resource: 'daemonsets', subresource: 'status' },
];

/** What no Kruiseless identity may do to DaemonSets: change one's spec (the user's), or delete it. */
export const DAEMONSET_DENIED_TO_ALL: readonly ResourceAccess[] = [
  { verb: 'update', group: KRUISE, resource: 'daemonsets' },
  { verb: 'patch', group: KRUISE, resource: 'daemonsets' },
  { verb: 'delete', group: KRUISE, resource: 'daemonsets' },
];

/** The reconcile function's ClusterRole rules for DaemonSets (infra/rbac/kruiseless-rbac.yaml). */
export const DAEMONSET_CONTROLLER_RULES: readonly PolicyRule[] = [
  {
    apiGroups: [KRUISE],
    resources: ['daemonsets'],
    verbs: ['get', 'list', 'watch'],
    comment: ['Read the Advanced DaemonSet (v1beta1, the storage version).'],
  },
  {
    apiGroups: [KRUISE],
    resources: ['daemonsets/status'],
    verbs: ['update'],
    comment: [
      'Status through the status subresource (replace, with the read resourceVersion as precondition).',
    ],
  },
];

/** The watcher's ClusterRole rules for DaemonSets (pods, Nodes: other kinds' rules grant them too). */
export const DAEMONSET_WATCHER_RULES: readonly PolicyRule[] = [
  { apiGroups: [KRUISE], resources: ['daemonsets'], verbs: ['get', 'list', 'watch'] },
];
