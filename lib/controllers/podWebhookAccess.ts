/**
 * The cluster access of the admission function's pod webhooks (`/mutate-pod`: lib/controllers/podMutations.ts;
 * `/validate-pod`: lib/controllers/podValidations.ts), as the group `kruiseless:admission` that an EKS access entry
 * maps its role to (infra/rbac/README.md): the rows each pod-webhook step declares in its controller's access.ts,
 * joined here as those two files join the steps, with the pod GET and the Events rows they share once. What
 * `kruiseless install` checks with SubjectAccessReview, what infra/rbac/kruiseless-rbac.yaml grants (scripts/rbac.ts
 * generates it) and what test/integration/security/rbac.test.ts proves on the real API server. `/validate` reads with
 * the same role where it is bound (lib/runtime/validationReads.ts: SidecarSets, `kruise-system` revisions, a pod, the
 * namespace's PodUnavailableBudgets and WorkloadSpreads — all of them rows below); its other routes (`/mutate`,
 * `/convert`, the forwarding path) call no cluster.
 */
import {
  EVENT_ACCESS,
  EVENT_RULE,
  accessLabel,
  type PolicyRule,
  type ResourceAccess,
} from '../kube/access.js';
import { PUB_POD_WEBHOOK_ACCESS, PUB_POD_WEBHOOK_RULES } from './podunavailablebudget/access.js';
import { SIDECARSET_POD_WEBHOOK_ACCESS, SIDECARSET_POD_WEBHOOK_RULES } from './sidecarset/access.js';
import {
  WORKLOADSPREAD_POD_WEBHOOK_ACCESS,
  WORKLOADSPREAD_POD_WEBHOOK_RULES,
} from './workloadspread/access.js';

/** `rows` without repeats (the same verb on the same resource declared by two steps), first one kept. */
function unique(rows: readonly ResourceAccess[]): ResourceAccess[] {
  const seen = new Set<string>();
  return rows.filter((a) => {
    const label = accessLabel(a);
    if (seen.has(label)) return false;
    seen.add(label);
    return true;
  });
}

/** Every call the pod webhooks make: WorkloadSpread, SidecarSet injection, PodUnavailableBudget, then Events. */
export const ADMISSION_ACCESS: readonly ResourceAccess[] = unique([
  ...WORKLOADSPREAD_POD_WEBHOOK_ACCESS,
  ...SIDECARSET_POD_WEBHOOK_ACCESS,
  ...PUB_POD_WEBHOOK_ACCESS,
  ...EVENT_ACCESS,
]);

/**
 * What the admission group must not be able to do although the controller group may: write pods (a webhook changes
 * a pod only through its answer) and the workloads, statuses and revisions it only reads.
 */
export const ADMISSION_DENIED: readonly ResourceAccess[] = [
  { verb: 'create', resource: 'pods' },
  { verb: 'update', resource: 'pods' },
  { verb: 'patch', resource: 'pods' },
  { verb: 'delete', resource: 'pods' },
  { verb: 'list', resource: 'pods' },
  { verb: 'patch', group: 'apps.kruise.io', resource: 'clonesets' },
  { verb: 'update', group: 'apps.kruise.io', resource: 'clonesets', subresource: 'status' },
  {
    verb: 'update',
    group: 'apps.kruise.io',
    resource: 'sidecarsets',
    subresource: 'status',
    namespaced: false,
  },
  { verb: 'create', group: 'apps', resource: 'controllerrevisions' },
];

/** The pod GET both validating steps make (a deleted pod's WorkloadSpread record, an evicted pod's budget). */
const POD_GET_RULE: PolicyRule = {
  apiGroups: [''],
  resources: ['pods'],
  verbs: ['get'],
  comment: [
    '/validate-pod: the pod an eviction names (PodUnavailableBudget) or a delete removes (WorkloadSpread).',
  ],
};

/** The admission function's ClusterRole rules (kruiseless-admission), in the order of {@link ADMISSION_ACCESS}. */
export const ADMISSION_RULES: readonly PolicyRule[] = [
  ...WORKLOADSPREAD_POD_WEBHOOK_RULES,
  ...SIDECARSET_POD_WEBHOOK_RULES,
  ...PUB_POD_WEBHOOK_RULES,
  POD_GET_RULE,
  {
    ...EVENT_RULE,
    comment: [
      'PodUnavailableBudget: an Event on a pod whose disruption a budget refuses or allows (folded as the',
      "reconcile's).",
    ],
  },
];
