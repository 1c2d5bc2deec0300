/**
 * The CloneSet controller's RBAC rows (lib/kube/access.ts shapes), as OpenKruise's `+kubebuilder:rbac` markers sit
 * beside `pkg/controller/cloneset/cloneset_controller.go`: the calls its reconcile makes, the reads of its watches
 * and resync, and what neither identity may do to CloneSets. The Events rows every controller shares are in
 * lib/kube/access.ts; lib/controllers/access.ts joins them.
 */
import type { ResourceAccess } from '../../kube/access.js';

const KRUISE = 'apps.kruise.io';

/** Every call the CloneSet reconcile makes (its reads, writes, revisions, image pre-download). */
export const CLONESET_CONTROLLER_ACCESS: readonly ResourceAccess[] = [
  { verb: 'get', group: KRUISE, resource: 'clonesets' },
  { verb: 'list', group: KRUISE, resource: 'clonesets' },
  { verb: 'patch', group: KRUISE, resource: 'clonesets' },
  { verb: 'update', group: KRUISE, resource: 'clonesets', subresource: 'status' },
  { verb: 'list', resource: 'pods' },
  { verb: 'create', resource: 'pods' },
  { verb: 'patch', resource: 'pods' },
  { verb: 'delete', resource: 'pods' },
  { verb: 'patch', resource: 'pods', subresource: 'status' },
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
