/**
 * The cluster access Kruiseless needs and must not have, as data (infra/rbac/README.md): the shapes, the two groups,
 * and the rows every controller shares (Events, and what no identity may do); each controller declares its own rows
 * (the calls its reconcile makes as `kruiseless:controller`, the reads of its watches as `kruiseless:watcher`), and
 * lib/controllers/access.ts joins them. `infra/rbac/kruiseless-rbac.yaml` grants exactly the first two; `kruiseless install`
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
  /** The one object the call names (a GET of `kruise-configuration`); a rule with `resourceNames` grants only those. */
  name?: string;
}

/** The Kubernetes group EKS access entries map the reconcile function's role to. */
export const CONTROLLER_GROUP = 'kruiseless:controller';
/** The Kubernetes group of the watch and resync functions' roles. */
export const WATCHER_GROUP = 'kruiseless:watcher';
/** The Kubernetes group of the admission function's role (its pod webhooks read and write the cluster). */
export const ADMISSION_GROUP = 'kruiseless:admission';

/**
 * One rule of a ClusterRole (rbac.authorization.k8s.io/v1 `PolicyRule`), as infra/rbac/kruiseless-rbac.yaml
 * writes it, with the comment that explains it there.
 */
export interface PolicyRule {
  /** `''` for the core group. */
  apiGroups: readonly string[];
  /** Plural resources, `<resource>/<subresource>` for a subresource. */
  resources: readonly string[];
  verbs: readonly string[];
  /** When set, the rule grants calls naming one of these objects only (never a list, or a call without a name). */
  resourceNames?: readonly string[];
  /** Written above the rule in the manifest, one `#` line per entry. */
  comment?: readonly string[];
}

/** The ClusterRole rule every controller's reconcile needs to record Events (shared, written last). */
export const EVENT_RULE: PolicyRule = {
  apiGroups: [''],
  resources: ['events'],
  verbs: ['get', 'create', 'patch'],
  comment: [
    'SuccessfulCreate, SuccessfulDelete, SuccessfulUpdatePodInPlace, FailedValidation, ... (core/v1 Events); a repeat',
    'is read and its count patched (docs/reliability.md#event-folding).',
  ],
};

/**
 * Whether `rules` grant `a` (same group, `resource[/subresource]` and verb, and for a rule with `resourceNames` the
 * call's object among them, as Kubernetes' RBAC authorizer; `*` is not used by Kruiseless's rules).
 */
export function grants(rules: readonly PolicyRule[], a: ResourceAccess): boolean {
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return rules.some(
    (r) =>
      r.apiGroups.includes(a.group ?? '') &&
      r.resources.includes(resource) &&
      r.verbs.includes(a.verb) &&
      (!r.resourceNames || (a.name !== undefined && r.resourceNames.includes(a.name))),
  );
}

/**
 * The calls every controller's reconcile makes to record Events (lib/kube/event.ts, lib/kube/eventFolding.ts);
 * lib/controllers/access.ts adds them after the controllers' own rows.
 */
export const EVENT_ACCESS: readonly ResourceAccess[] = [
  { verb: 'get', resource: 'events' },
  { verb: 'create', resource: 'events' },
  { verb: 'patch', resource: 'events' },
];

/** What the watcher group must not write whatever the controllers: Events (it only reads). */
export const WATCHER_DENIED_SHARED: readonly ResourceAccess[] = [{ verb: 'create', resource: 'events' }];

/**
 * What no Kruiseless identity, nor both groups together, may do whatever the controllers: Secrets, other
 * workloads, escalation, tokens (each controller adds its own rows, lib/controllers/access.ts).
 */
export const DENIED_TO_ALL_SHARED: readonly ResourceAccess[] = [
  { verb: 'get', resource: 'secrets' },
  { verb: 'list', resource: 'secrets' },
  { verb: 'watch', resource: 'secrets' },
  { verb: 'get', resource: 'configmaps' },
  { verb: 'create', resource: 'pods', subresource: 'exec' },
  { verb: 'create', resource: 'pods', subresource: 'eviction' },
  { verb: 'create', resource: 'serviceaccounts', subresource: 'token' },
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

/**
 * kubectl-style label of an access, e.g. `patch pods/status`, `update clonesets/status.apps.kruise.io`, `get
 * configmaps kruise-configuration` (a named object).
 */
export function accessLabel(a: ResourceAccess): string {
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return `${a.verb} ${a.group ? `${res}.${a.group}` : res}${a.name !== undefined ? ` ${a.name}` : ''}`;
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
          name?: string;
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
          ...(a.name !== undefined ? { name: a.name } : {}),
        },
      },
    },
  });
  return review.status?.allowed === true;
}
