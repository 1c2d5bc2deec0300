/**
 * The Advanced StatefulSet controller's RBAC rows (lib/kube/access.ts shapes), as OpenKruise's `+kubebuilder:rbac`
 * markers beside `pkg/controller/statefulset/statefulset_controller.go`: the calls its reconcile makes, the reads of
 * its watches and resync, and what neither identity may do to Advanced StatefulSets. Pods, PVCs,
 * ControllerRevisions and ImagePullJobs are granted by CloneSet's rules as well; a kind lists every row it needs, the joined
 * manifest (lib/controllers/rbac.ts) has each once.
 */
import type { PolicyRule, ResourceAccess } from '../../kube/access.js';

const KRUISE = 'apps.kruise.io';

/** Every call the Advanced StatefulSet reconcile makes. */
export const STATEFULSET_CONTROLLER_ACCESS: readonly ResourceAccess[] = [
  { verb: 'get', group: KRUISE, resource: 'statefulsets' },
  { verb: 'list', group: KRUISE, resource: 'statefulsets' },
  { verb: 'update', group: KRUISE, resource: 'statefulsets', subresource: 'status' },
  { verb: 'list', resource: 'pods' },
  // an invocation's later passes read their pods from a watch it keeps (lib/kube/watchedLists.ts)
  { verb: 'watch', resource: 'pods' },
  { verb: 'get', resource: 'pods' },
  { verb: 'create', resource: 'pods' },
  { verb: 'patch', resource: 'pods' },
  { verb: 'delete', resource: 'pods' },
  { verb: 'patch', resource: 'pods', subresource: 'status' },
  { verb: 'patch', resource: 'pods', subresource: 'resize' },
  { verb: 'list', resource: 'persistentvolumeclaims' },
  { verb: 'get', resource: 'persistentvolumeclaims' },
  { verb: 'create', resource: 'persistentvolumeclaims' },
  { verb: 'patch', resource: 'persistentvolumeclaims' },
  { verb: 'list', group: 'apps', resource: 'controllerrevisions' },
  { verb: 'create', group: 'apps', resource: 'controllerrevisions' },
  { verb: 'patch', group: 'apps', resource: 'controllerrevisions' },
  { verb: 'delete', group: 'apps', resource: 'controllerrevisions' },
  { verb: 'list', group: 'storage.k8s.io', resource: 'storageclasses', namespaced: false },
  { verb: 'list', group: KRUISE, resource: 'imagepulljobs' },
  { verb: 'create', group: KRUISE, resource: 'imagepulljobs' },
  { verb: 'delete', group: KRUISE, resource: 'imagepulljobs' },
];

/** The watch pump's and the resync's reads of Advanced StatefulSets and their pods. */
export const STATEFULSET_WATCHER_ACCESS: readonly ResourceAccess[] = ['get', 'list', 'watch'].flatMap(
  (verb) => [
    { verb, group: KRUISE, resource: 'statefulsets' },
    { verb, resource: 'pods' },
  ],
);

/** Writes the watcher must not be able to make on Advanced StatefulSets. */
export const STATEFULSET_WATCHER_DENIED: readonly ResourceAccess[] = [
  { verb: 'patch', group: KRUISE, resource: 'statefulsets' },
  { verb: 'update', group: KRUISE, resource: 'statefulsets', subresource: 'status' },
  { verb: 'create', resource: 'persistentvolumeclaims' },
];

/** What no Kruiseless identity may do to Advanced StatefulSets: they are the user's objects. */
export const STATEFULSET_DENIED_TO_ALL: readonly ResourceAccess[] = [
  { verb: 'create', group: KRUISE, resource: 'statefulsets' },
  { verb: 'delete', group: KRUISE, resource: 'statefulsets' },
  { verb: 'update', group: KRUISE, resource: 'statefulsets' },
  { verb: 'patch', group: KRUISE, resource: 'statefulsets' },
];

/** The reconcile function's ClusterRole rules for Advanced StatefulSets (infra/rbac/kruiseless-rbac.yaml). */
export const STATEFULSET_CONTROLLER_RULES: readonly PolicyRule[] = [
  {
    apiGroups: [KRUISE],
    resources: ['statefulsets'],
    verbs: ['get', 'list', 'watch'],
    comment: ['Read the Advanced StatefulSet (v1beta1, the storage version); the spec is never written.'],
  },
  {
    apiGroups: [KRUISE],
    resources: ['statefulsets/status'],
    verbs: ['update'],
    comment: [
      'Status through the status subresource (replace, with the read resourceVersion as precondition).',
    ],
  },
  {
    apiGroups: ['storage.k8s.io'],
    resources: ['storageclasses'],
    verbs: ['list'],
    comment: [
      'volumeClaimUpdateStrategy OnPodRollingUpdate: a PVC is resized only when its StorageClass allows volume',
      'expansion (read only then).',
    ],
  },
];

/** The watcher's ClusterRole rules for Advanced StatefulSets (pods: CloneSet's rule grants them too). */
export const STATEFULSET_WATCHER_RULES: readonly PolicyRule[] = [
  { apiGroups: [KRUISE], resources: ['statefulsets'], verbs: ['get', 'list', 'watch'] },
];
