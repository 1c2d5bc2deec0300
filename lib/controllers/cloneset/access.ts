/**
 * The CloneSet controller's RBAC rows (lib/kube/access.ts shapes), as OpenKruise's `+kubebuilder:rbac` markers sit
 * beside `pkg/controller/cloneset/cloneset_controller.go`: the calls its reconcile makes, the reads of its watches
 * and resync, and what neither identity may do to CloneSets. The Events rows every controller shares are in
 * lib/kube/access.ts; lib/controllers/access.ts joins them.
 */
import type { PolicyRule, ResourceAccess } from '../../kube/access.js';

const KRUISE = 'apps.kruise.io';

/** Every call the CloneSet reconcile makes (its reads, writes, revisions, image pre-download). */
export const CLONESET_CONTROLLER_ACCESS: readonly ResourceAccess[] = [
  { verb: 'get', group: KRUISE, resource: 'clonesets' },
  { verb: 'list', group: KRUISE, resource: 'clonesets' },
  { verb: 'patch', group: KRUISE, resource: 'clonesets' },
  { verb: 'update', group: KRUISE, resource: 'clonesets', subresource: 'status' },
  { verb: 'list', resource: 'pods' },
  // an invocation's later passes read their pods from a watch it keeps (lib/kube/watchedLists.ts)
  { verb: 'watch', resource: 'pods' },
  { verb: 'create', resource: 'pods' },
  { verb: 'patch', resource: 'pods' },
  { verb: 'delete', resource: 'pods' },
  { verb: 'patch', resource: 'pods', subresource: 'status' },
  { verb: 'patch', resource: 'pods', subresource: 'resize' },
  { verb: 'create', resource: 'persistentvolumeclaims' },
  { verb: 'delete', resource: 'persistentvolumeclaims' },
  { verb: 'list', group: 'apps', resource: 'controllerrevisions' },
  { verb: 'create', group: 'apps', resource: 'controllerrevisions' },
  { verb: 'delete', group: 'apps', resource: 'controllerrevisions' },
  { verb: 'patch', group: 'apps', resource: 'controllerrevisions' },
  { verb: 'list', group: KRUISE, resource: 'imagepulljobs' },
  { verb: 'create', group: KRUISE, resource: 'imagepulljobs' },
  { verb: 'delete', group: KRUISE, resource: 'imagepulljobs' },
  { verb: 'list', group: KRUISE, resource: 'nodeimages', namespaced: false },
  // the pods' nodes, for a scale-in under topologySpreadConstraints (./spreadNodes.ts)
  { verb: 'get', resource: 'nodes', namespaced: false },
];

/** The watch pump's and the resync's reads of CloneSets and what they own. */
export const CLONESET_WATCHER_ACCESS: readonly ResourceAccess[] = ['get', 'list', 'watch'].flatMap((verb) => [
  { verb, group: KRUISE, resource: 'clonesets' },
  { verb, resource: 'pods' },
  { verb, resource: 'persistentvolumeclaims' },
]);

/** Writes the watcher must not be able to make on CloneSets and their pods. */
export const CLONESET_WATCHER_DENIED: readonly ResourceAccess[] = [
  { verb: 'create', resource: 'pods' },
  { verb: 'patch', resource: 'pods' },
  { verb: 'delete', resource: 'pods' },
  { verb: 'patch', group: KRUISE, resource: 'clonesets' },
  { verb: 'update', group: KRUISE, resource: 'clonesets', subresource: 'status' },
  { verb: 'create', group: 'apps', resource: 'controllerrevisions' },
];

/** What no Kruiseless identity may do to CloneSets: they are the user's objects (create, delete, replace). */
export const CLONESET_DENIED_TO_ALL: readonly ResourceAccess[] = [
  { verb: 'create', group: KRUISE, resource: 'clonesets' },
  { verb: 'delete', group: KRUISE, resource: 'clonesets' },
  { verb: 'update', group: KRUISE, resource: 'clonesets' },
];

/** The reconcile function's ClusterRole rules for CloneSets (infra/rbac/kruiseless-rbac.yaml). */
export const CLONESET_CONTROLLER_RULES: readonly PolicyRule[] = [
  {
    apiGroups: [KRUISE],
    resources: ['clonesets'],
    verbs: ['get', 'list', 'watch', 'patch'],
    comment: [
      'Read the CloneSet (v1alpha1 and v1beta1 share the resource); podsToDelete is cleared with a merge patch.',
    ],
  },
  {
    apiGroups: [KRUISE],
    resources: ['clonesets/status'],
    verbs: ['update'],
    comment: [
      'Status goes through the status subresource (replace, with the read resourceVersion as precondition).',
    ],
  },
  {
    apiGroups: [''],
    resources: ['pods'],
    verbs: ['get', 'list', 'watch', 'create', 'delete', 'patch'],
    comment: [
      'Scale up/down, recreate updates, in-place updates and lifecycle hooks (patch with resourceVersion).',
    ],
  },
  {
    apiGroups: [''],
    resources: ['pods/status'],
    verbs: ['patch'],
    comment: ['In-place update readiness gate and conditions.'],
  },
  {
    apiGroups: [''],
    resources: ['pods/resize'],
    verbs: ['patch'],
    comment: [
      "In-place cpu/memory change (gate InPlaceWorkloadVerticalScaling): the pod spec's resources are written",
      'through the resize subresource (Kubernetes >= 1.32), as OpenKruise does.',
    ],
  },
  {
    apiGroups: [''],
    resources: ['persistentvolumeclaims'],
    verbs: ['get', 'list', 'watch', 'create', 'delete', 'patch'],
    comment: [
      'volumeClaimTemplates: create with the pod, delete with it, adopt/release through ownerReferences.',
    ],
  },
  {
    apiGroups: ['apps'],
    resources: ['controllerrevisions'],
    verbs: ['get', 'list', 'create', 'update', 'delete', 'patch'],
    comment: [
      'Revision history (updateRevision/currentRevision, revisionHistoryLimit); patch: the image pre-download label.',
    ],
  },
  {
    apiGroups: [KRUISE],
    resources: ['imagepulljobs'],
    verbs: ['list', 'create', 'delete'],
    comment: [
      'Image pre-download (gate PreDownloadImageForInPlaceUpdate): ImagePullJobs created for a new image, deleted once',
      'the rollout is done; NodeImages only counted (none: no node agent, so pre-pull pods may stand in).',
    ],
  },
  { apiGroups: [KRUISE], resources: ['nodeimages'], verbs: ['list'] },
  {
    apiGroups: [''],
    resources: ['nodes'],
    verbs: ['get'],
    comment: [
      "Scale-in under the template's topologySpreadConstraints: the labels of the pods' nodes rank the victims, as",
      "OpenKruise's spread-constraints ranker reads them.",
    ],
  },
];

/**
 * The watcher's ClusterRole rules for CloneSets: the watch pump follows CloneSets, CloneSet pods and PVCs
 * cluster-wide from a stored resourceVersion (list on 410 Gone); the resync lists CloneSets. Read-only.
 */
export const CLONESET_WATCHER_RULES: readonly PolicyRule[] = [
  { apiGroups: [KRUISE], resources: ['clonesets'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['pods', 'persistentvolumeclaims'], verbs: ['get', 'list', 'watch'] },
];
