/**
 * The SidecarSet controller's RBAC rows (lib/kube/access.ts shapes), as OpenKruise's `+kubebuilder:rbac` markers
 * beside `pkg/controller/sidecarset/sidecarset_controller.go`, narrowed to the calls Kruiseless makes: read
 * SidecarSets and write their status, list pods and namespaces, update pods (new sidecar images) and patch their
 * status (the `SidecarSetUpgradable` condition). Pods are granted by CloneSet's rules as well; the joined manifest
 * (lib/controllers/rbac.ts) has each row once.
 */
import type { PolicyRule, ResourceAccess } from '../../kube/access.js';

const KRUISE = 'apps.kruise.io';

/** Every call the SidecarSet reconcile makes. */
export const SIDECARSET_CONTROLLER_ACCESS: readonly ResourceAccess[] = [
  { verb: 'get', group: KRUISE, resource: 'sidecarsets', namespaced: false },
  { verb: 'update', group: KRUISE, resource: 'sidecarsets', subresource: 'status', namespaced: false },
  { verb: 'list', resource: 'pods' },
  { verb: 'update', resource: 'pods' },
  { verb: 'patch', resource: 'pods', subresource: 'status' },
  { verb: 'list', resource: 'namespaces', namespaced: false },
  ...['list', 'get', 'create', 'update', 'patch', 'delete'].map((verb) => ({
    verb,
    group: 'apps',
    resource: 'controllerrevisions',
  })),
];

/** The watch pump's and the resync's reads: SidecarSets and pods. */
export const SIDECARSET_WATCHER_ACCESS: readonly ResourceAccess[] = ['get', 'list', 'watch'].flatMap(
  (verb) => [
    { verb, group: KRUISE, resource: 'sidecarsets', namespaced: false },
    { verb, resource: 'pods' },
  ],
);

/** Writes the watcher must not be able to make on SidecarSets. */
export const SIDECARSET_WATCHER_DENIED: readonly ResourceAccess[] = [
  { verb: 'update', group: KRUISE, resource: 'sidecarsets', subresource: 'status', namespaced: false },
];

/** What no Kruiseless identity may do to SidecarSets: create, change or delete one (the user's). */
export const SIDECARSET_DENIED_TO_ALL: readonly ResourceAccess[] = [
  { verb: 'create', group: KRUISE, resource: 'sidecarsets', namespaced: false },
  { verb: 'update', group: KRUISE, resource: 'sidecarsets', namespaced: false },
  { verb: 'patch', group: KRUISE, resource: 'sidecarsets', namespaced: false },
  { verb: 'delete', group: KRUISE, resource: 'sidecarsets', namespaced: false },
];

/** The reconcile function's ClusterRole rules for SidecarSets (infra/rbac/kruiseless-rbac.yaml). */
export const SIDECARSET_CONTROLLER_RULES: readonly PolicyRule[] = [
  {
    apiGroups: [KRUISE],
    resources: ['sidecarsets'],
    verbs: ['get', 'list', 'watch'],
    comment: ['Read the SidecarSet (cluster-scoped, v1alpha1).'],
  },
  {
    apiGroups: [KRUISE],
    resources: ['sidecarsets/status'],
    verbs: ['update'],
    comment: [
      'SidecarSet status through the status subresource (replace, read resourceVersion as precondition).',
    ],
  },
  {
    apiGroups: [''],
    resources: ['pods'],
    verbs: ['update'],
    comment: ['SidecarSet: a matched pod gets its new sidecar images in place (PUT, as OpenKruise).'],
  },
  {
    apiGroups: [''],
    resources: ['namespaces'],
    verbs: ['get', 'list'],
    comment: ['SidecarSet: the namespaces its namespaceSelector matches.'],
  },
  {
    apiGroups: ['apps'],
    resources: ['controllerrevisions'],
    verbs: ['get', 'list', 'create', 'update', 'patch', 'delete'],
    comment: [
      'SidecarSet history in kruise-system, as OpenKruise: create (get on a name collision), update to renumber,',
      'patch the custom-version label, delete beyond revisionHistoryLimit.',
    ],
  },
];

/** The watcher's ClusterRole rules for SidecarSets (pods: CloneSet's rule grants them too). */
export const SIDECARSET_WATCHER_RULES: readonly PolicyRule[] = [
  { apiGroups: [KRUISE], resources: ['sidecarsets'], verbs: ['get', 'list', 'watch'] },
];

/**
 * The reads SidecarSet injection makes in the pod mutating webhook (`/mutate-pod`, ./podWebhook.ts
 * `kubePodInjectionReads`) as `kruiseless:admission`: every SidecarSet, the pod's namespace, and a pinned revision in
 * kruise-system (by name, or listed by its custom-version label). It writes nothing: the pod is changed by the answer.
 */
export const SIDECARSET_POD_WEBHOOK_ACCESS: readonly ResourceAccess[] = [
  { verb: 'list', group: KRUISE, resource: 'sidecarsets', namespaced: false },
  { verb: 'get', resource: 'namespaces', namespaced: false },
  { verb: 'get', group: 'apps', resource: 'controllerrevisions' },
  { verb: 'list', group: 'apps', resource: 'controllerrevisions' },
];

/** The admission function's ClusterRole rules for SidecarSet injection (infra/rbac/kruiseless-rbac.yaml). */
export const SIDECARSET_POD_WEBHOOK_RULES: readonly PolicyRule[] = [
  {
    apiGroups: [KRUISE],
    resources: ['sidecarsets'],
    verbs: ['list'],
    comment: ['SidecarSet injection (/mutate-pod): every SidecarSet, one LIST per pod create.'],
  },
  {
    apiGroups: [''],
    resources: ['namespaces'],
    verbs: ['get'],
    comment: ["SidecarSet injection: the pod's namespace, for a SidecarSet's namespaceSelector."],
  },
  {
    apiGroups: ['apps'],
    resources: ['controllerrevisions'],
    verbs: ['get', 'list'],
    comment: [
      'SidecarSet injection: the revision injectionStrategy.revision pins, in kruise-system (by name, or the newest',
      'with its custom version).',
    ],
  },
];
