/**
 * The cluster access Kruiseless needs and must not have, as data (infra/rbac/README.md): the calls the reconcile
 * function makes as `kruiseless:controller`, the reads of the watch pump and the resync as `kruiseless:watcher`,
 * and what neither may do. `infra/rbac/kruiseless-rbac.yaml` grants exactly the first two; `kruiseless install`
 * checks them with SubjectAccessReview after applying it, and test/integration/security/rbac.test.ts proves the
 * whole list on the real API server.
 */

/** One API call as a SubjectAccessReview's resourceAttributes see it. */
export interface ResourceAccess {
  verb: string;
  /** API group; '' (or absent) for the core group. */
  group?: string;
  /** Plural resource name, e.g. `pods`. */
  resource: string;
  /** e.g. `status`. */
  subresource?: string;
  /** False for cluster-scoped resources; a namespaced check names a namespace. Default true. */
  namespaced?: boolean;
}

/** The Kubernetes group EKS access entries map the reconcile function's role to. */
export const CONTROLLER_GROUP = 'kruiseless:controller';
/** The Kubernetes group of the watch and resync functions' roles. */
export const WATCHER_GROUP = 'kruiseless:watcher';

const KRUISE = 'apps.kruise.io';

/** Every call the reconciler makes (lib/kube/client.ts, lib/kube/eventFolding.ts); all must be allowed. */
export const CONTROLLER_ACCESS: readonly ResourceAccess[] = [
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
  { verb: 'get', resource: 'events' },
  { verb: 'create', resource: 'events' },
  { verb: 'patch', resource: 'events' },
];

/** The watch pump's and the resync's reads (lib/source); all must be allowed. */
export const WATCHER_ACCESS: readonly ResourceAccess[] = ['get', 'list', 'watch'].flatMap((verb) => [
  { verb, group: KRUISE, resource: 'clonesets' },
  { verb, resource: 'pods' },
  { verb, resource: 'persistentvolumeclaims' },
]);

/** Writes the watcher group must not be able to make (it only reads). */
export const WATCHER_DENIED: readonly ResourceAccess[] = [
  { verb: 'create', resource: 'pods' },
  { verb: 'patch', resource: 'pods' },
  { verb: 'delete', resource: 'pods' },
  { verb: 'patch', group: KRUISE, resource: 'clonesets' },
  { verb: 'update', group: KRUISE, resource: 'clonesets', subresource: 'status' },
  { verb: 'create', resource: 'events' },
  { verb: 'create', group: 'apps', resource: 'controllerrevisions' },
];

/** What no Kruiseless identity, nor both groups together, may do: Secrets, other workloads, escalation, tokens. */
export const DENIED_TO_ALL: readonly ResourceAccess[] = [
  { verb: 'get', resource: 'secrets' },
  { verb: 'list', resource: 'secrets' },
  { verb: 'watch', resource: 'secrets' },
  { verb: 'get', resource: 'configmaps' },
  { verb: 'create', resource: 'pods', subresource: 'exec' },
  { verb: 'create', resource: 'pods', subresource: 'eviction' },
  { verb: 'create', resource: 'serviceaccounts', subresource: 'token' },
  { verb: 'create', group: KRUISE, resource: 'clonesets' },
  { verb: 'delete', group: KRUISE, resource: 'clonesets' },
  { verb: 'update', group: KRUISE, resource: 'clonesets' },
  { verb: 'patch', group: 'apps', resource: 'deployments' },
  { verb: 'delete', group: 'apps', resource: 'replicasets' },
  { verb: 'delete', resource: 'namespaces', namespaced: false },
  { verb: 'patch', resource: 'nodes', namespaced: false },
  { verb: 'bind', group: 'rbac.authorization.k8s.io', resource: 'clusterroles', namespaced: false },
  { verb: 'escalate', group: 'rbac.authorization.k8s.io', resource: 'clusterroles', namespaced: false },
  {
    verb: 'create',
    group: 'rbac.authorization.k8s.io',
    resource: 'clusterrolebindings',
    namespaced: false,
  },
  { verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'rolebindings' },
  { verb: 'impersonate', resource: 'users', namespaced: false },
  { verb: 'impersonate', resource: 'groups', namespaced: false },
  { verb: 'impersonate', resource: 'serviceaccounts' },
  {
    verb: 'patch',
    group: 'admissionregistration.k8s.io',
    resource: 'validatingadmissionpolicies',
    namespaced: false,
  },
];

/** kubectl-style label of an access, e.g. `patch pods/status`, `update clonesets/status.apps.kruise.io`. */
export function accessLabel(a: ResourceAccess): string {
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return `${a.verb} ${a.group ? `${res}.${a.group}` : res}`;
}

/** Who a review asks about: a user name and its groups (`system:authenticated` is added). */
export interface AccessSubject {
  user: string;
  groups: readonly string[];
}

/** The part of client-node's AuthorizationV1Api a review needs. */
export interface SubjectAccessReviewer {
  createSubjectAccessReview(param: {
    body: {
      spec: {
        user: string;
        groups: string[];
        resourceAttributes: {
          verb: string;
          group: string;
          resource: string;
          subresource?: string;
          namespace?: string;
        };
      };
    };
  }): Promise<{ status?: { allowed: boolean; reason?: string } }>;
}

/**
 * Asks the API server (SubjectAccessReview, authorization.k8s.io/v1) whether `subject` may make the call `a` in
 * `namespace` (ignored for cluster-scoped calls). Needs `create subjectaccessreviews` (cluster administrators).
 * @returns true when allowed
 * @throws the client's ApiException when the review itself is refused
 */
export async function reviewAccess(
  authz: SubjectAccessReviewer,
  subject: AccessSubject,
  a: ResourceAccess,
  namespace: string,
): Promise<boolean> {
  const review = await authz.createSubjectAccessReview({
    body: {
      spec: {
        user: subject.user,
        groups: [...subject.groups, 'system:authenticated'],
        resourceAttributes: {
          verb: a.verb,
          group: a.group ?? '',
          resource: a.resource,
          ...(a.subresource ? { subresource: a.subresource } : {}),
          ...(a.namespaced === false ? {} : { namespace }),
        },
      },
    },
  });
  return review.status?.allowed === true;
}
