/**
 * The container launch priority concern's RBAC rows (lib/kube/access.ts shapes), as the calls of ./pass.ts: read
 * the pod and mark it completed, create and patch its barrier ConfigMap (never GET: no Kruiseless identity reads
 * ConfigMaps, lib/kube/access.ts `DENIED_TO_ALL_SHARED`). Its watch and resync read pods only,
 * which the CloneSet controller's watcher rule grants. Rows granted by other controllers' rules appear once in the
 * joined manifest (lib/controllers/rbac.ts).
 */
import type { PolicyRule, ResourceAccess } from '../../kube/access.js';

/** Every call the launch priority reconcile makes. */
export const LAUNCH_PRIORITY_CONTROLLER_ACCESS: readonly ResourceAccess[] = [
  { verb: 'get', resource: 'pods' },
  { verb: 'patch', resource: 'pods' },
  { verb: 'create', resource: 'configmaps' },
  { verb: 'patch', resource: 'configmaps' },
];

/** The watch pump's and the resync's reads: pods. */
export const LAUNCH_PRIORITY_WATCHER_ACCESS: readonly ResourceAccess[] = ['get', 'list', 'watch'].map(
  (verb) => ({ verb, resource: 'pods' }),
);

/** Writes the watcher must not be able to make: the barriers. */
export const LAUNCH_PRIORITY_WATCHER_DENIED: readonly ResourceAccess[] = [
  { verb: 'create', resource: 'configmaps' },
  { verb: 'patch', resource: 'configmaps' },
];

/** What no Kruiseless identity may do to ConfigMaps: delete one (a barrier goes with its pod, by owner reference). */
export const LAUNCH_PRIORITY_DENIED_TO_ALL: readonly ResourceAccess[] = [
  { verb: 'delete', resource: 'configmaps' },
];

/** The reconcile function's ClusterRole rules for launch barriers (infra/rbac/kruiseless-rbac.yaml). */
export const LAUNCH_PRIORITY_CONTROLLER_RULES: readonly PolicyRule[] = [
  {
    apiGroups: [''],
    resources: ['configmaps'],
    verbs: ['create', 'patch'],
    comment: [
      "Container launch priority: a pod's barrier ConfigMap (<pod>-barrier, owned by the pod), created or given the",
      'key of the next priority to start (never read: a patch answers it; the pod guard allows barriers only).',
    ],
  },
  {
    apiGroups: [''],
    resources: ['pods'],
    verbs: ['get', 'patch'],
    comment: [
      'Container launch priority: the pod read, and marked apps.kruise.io/container-launch-priority-completed.',
    ],
  },
];

/** The watcher's ClusterRole rules (pods: the CloneSet controller's rule grants them). */
export const LAUNCH_PRIORITY_WATCHER_RULES: readonly PolicyRule[] = [];
