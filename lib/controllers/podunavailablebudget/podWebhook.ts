/**
 * The PUB part of the pod validating webhook (OpenKruise's `/validate-pod`, `vpod.kb.io` for pods UPDATE and DELETE
 * and `vpodeviction.kb.io` for `pods/eviction` CREATE, both `failurePolicy: Fail`):
 * pkg/webhook/pod/validating/pod_unavailable_budget.go and pod_create_update_handler.go over
 * pkg/control/pubcontrol/pub_control_utils.go `PodUnavailableBudgetValidatePod` (v1.9.0).
 *
 * For a pod deletion (not of a subresource), an eviction (gate `PodUnavailableBudgetDeleteGate`, on) or an update
 * that may make the pod unavailable (gate `PodUnavailableBudgetUpdateGate`, off): the pod's related-pub annotation
 * names the PUB; the pure decision (./plan/admission.ts) exempts the pod or consumes one unit of the budget, and the
 * PUB's status is written here before answering — the API server is the ledger. A write conflict (another
 * admission, or the controller) re-reads the PUB and decides again, 4 attempts 500 ms apart as upstream's
 * `ConflictRetry`. A refusal is 403 with OpenKruise's message, e.g. `podunavailablebudget.policy.kruise.io "web-pub"
 * is forbidden: pub unavailable allowed is negative`, and a Warning `PubPreventPodDeletion` on the pod.
 * Kruiseless gaps: WorkloadSpread's part of the same webhook; SidecarSet-sidecar consistency (./plan/podState.ts).
 */
import {
  readAdmissionReview,
  refusal,
  patchAnswer,
  type MutationAnswer,
} from '../../api/admission/mutation.js';
import type { JsonObject, Pod } from '../../api/types.js';
import { apiErrorMessage, isConflict, isNotFound, KubeApiError } from '../../kube/errors.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient, KubeEvent } from '../../kube/types.js';
import { PUB_RESOURCE } from './api/resource.js';
import type { PodUnavailableBudget, PodUnavailableBudgetStatus, PubOperation } from './api/types.js';
import { consumeBudget, exemption } from './plan/admission.js';
import { isPodAvailableForPub, isPodNoProtection, relatedPubName } from './plan/podState.js';
import { updateOperation } from './plan/update.js';
import type { PubSettings } from './settings.js';

/** The path OpenKruise serves the pod validating webhook on. */
export const POD_VALIDATE_PATH = '/validate-pod';

/** Status writes tried at most per admission (upstream's `ConflictRetry.Steps`). */
export const BUDGET_ATTEMPTS = 4;

/** The wait between two attempts after a conflict, ms (upstream's `ConflictRetry.Duration`, without its jitter). */
export const BUDGET_RETRY_MS = 500;

/** What the webhook reads and writes. */
export interface PubWebhookDeps {
  /** The PUB `name` of `namespace`; undefined when it does not exist. */
  getPub(namespace: string, name: string): Promise<PodUnavailableBudget | undefined>;
  /** The pod `name` of `namespace` (an eviction names it only); undefined when it does not exist. */
  getPod(namespace: string, name: string): Promise<Pod | undefined>;
  /**
   * Replace the PUB's status (its resourceVersion the precondition).
   * @throws KubeApiError: 409 Conflict when the PUB changed since read, 404 when it is gone
   */
  updatePubStatus(
    pub: PodUnavailableBudget,
    status: PodUnavailableBudgetStatus,
  ): Promise<PodUnavailableBudget>;
  /** Record an Event on the pod (best effort, never throws); absent: none recorded. */
  recordPodEvent?(pod: Pod, event: KubeEvent): Promise<void>;
  /** The deployment's gates; absent: OpenKruise's defaults (deletions and evictions checked, updates not). */
  settings?: PubSettings;
  /** The time recorded in the PUB's status (default: now). */
  now?: () => Date;
  /** The wait between attempts (default: a real timer). */
  sleep?: (ms: number) => Promise<void>;
}

/** {@link PubWebhookDeps} over the API server: quorum GETs (upstream reads its informer cache) and a status PUT. */
export function kubePubWebhookDeps(
  kube: Pick<KubeClient, 'get' | 'replace' | 'recordEvent'>,
  settings?: PubSettings,
): PubWebhookDeps {
  return {
    getPub: (namespace, name) => kube.get(PUB_RESOURCE, { namespace, name }),
    getPod: (namespace, name) => kube.get(RESOURCES.pods, { namespace, name }),
    updatePubStatus: (pub, status) =>
      kube.replace(PUB_RESOURCE, { ...pub, status }, { subresource: 'status' }),
    recordPodEvent: (pod, event) => kube.recordEvent(RESOURCES.pods, pod, event),
    ...(settings ? { settings } : {}),
  };
}

/** The parts of an AdmissionReview request the shared reader leaves out. */
interface RequestExtras {
  name?: string;
  dryRun?: boolean;
  options?: { dryRun?: string[] } | null;
}

function extrasOf(body: string): RequestExtras {
  const request = (JSON.parse(body) as { request?: RequestExtras }).request ?? {};
  return request;
}

/** `dryrun.IsDryRun`: a non-empty `dryRun` list (only `All` is valid). */
const isDryRunList = (list: unknown) => Array.isArray(list) && list.length > 0;

const allow = (uid: string) => patchAnswer(uid, {}, {});

/** What the webhook checks: the pod as it stands, the operation, and whether nothing is to be written. */
interface Check {
  pod: Pod;
  operation: PubOperation;
  dryRun: boolean;
}

/**
 * Answers one AdmissionReview body for pods (see the module doc). A request that is not for pods, a subresource
 * other than an eviction, or an operation under a gate that is off is allowed unchanged.
 * @returns never throws: 400/413 for a body that is not an AdmissionReview v1; 200 with a refusal of code 400 when
 *   the objects cannot be read as pods or a read fails (upstream's `admission.Errored(400)`), code 403 when the
 *   budget refuses or its write fails; else 200 allowed
 */
export async function answerPodValidation(body: string, deps: PubWebhookDeps): Promise<MutationAnswer> {
  const read = readAdmissionReview(body);
  if ('answer' in read) return read.answer;
  const req = read.request;
  if (req.resource.group !== '' || req.resource.resource !== 'pods') return allow(req.uid);
  const extras = extrasOf(body);
  const deleteGate = deps.settings?.deleteGate ?? true;
  const updateGate = deps.settings?.updateGate ?? false;
  const namespace = req.namespace || 'default';
  let check: Check | undefined;
  try {
    check = await checkOf(req, extras, namespace, deps, deleteGate, updateGate);
  } catch (e) {
    return refusal(req.uid, 400, apiErrorMessage(e));
  }
  if (!check) return allow(req.uid);
  const verdict = await validatePodForPub(check.pod, check.operation, namespace, deps, check.dryRun);
  return verdict.allowed ? allow(req.uid) : refusal(req.uid, verdict.code, verdict.message);
}

/** The budget's answer for one pod operation: allowed (the budget consumed unless exempt or a dry run), or refused. */
export type PubVerdict = { allowed: true } | { allowed: false; code: number; message: string };

/**
 * OpenKruise's `PodUnavailableBudgetValidatePod`: the PUB the pod's related-pub annotation names decides `operation`
 * on `pod` — exempt (no PUB, not protected, not available, operation not protected, already recorded), else one unit
 * of its budget consumed in its status (not written for a dry run) or refused. Used by the pod webhook and, before an
 * in-place update, by the CloneSet controller (gate `PodUnavailableBudgetUpdateGate`).
 * @returns never throws: a failed read is a refusal with code 400, a failed write one with 403
 */
export async function validatePodForPub(
  pod: Pod,
  operation: PubOperation,
  namespace: string,
  deps: PubWebhookDeps,
  dryRun = false,
): Promise<PubVerdict> {
  const pubName = relatedPubName(pod);
  if (!pubName || isPodNoProtection(pod) || !isPodAvailableForPub(pod)) return { allowed: true };
  let pub: PodUnavailableBudget | undefined;
  try {
    pub = await deps.getPub(namespace, pubName);
    if (exemption(pod, pub, operation)) return { allowed: true };
  } catch (e) {
    return { allowed: false, code: 400, message: apiErrorMessage(e) };
  }
  return consume(pod, pub as PodUnavailableBudget, operation, dryRun, namespace, deps);
}

/**
 * The pod and operation a request concerns, or undefined when it is not checked.
 * @throws Error for objects that are not pods; KubeApiError when the evicted pod cannot be read
 */
async function checkOf(
  req: { operation: string; subResource?: string | undefined; object?: unknown; oldObject?: unknown },
  extras: RequestExtras,
  namespace: string,
  deps: PubWebhookDeps,
  deleteGate: boolean,
  updateGate: boolean,
): Promise<Check | undefined> {
  const asPod = (o: unknown, what: string): Pod => {
    const p = o as JsonObject | null | undefined;
    if (
      !p ||
      typeof p.metadata !== 'object' ||
      typeof p.spec !== 'object' ||
      !Array.isArray((p.spec as JsonObject).containers)
    )
      throw new Error(`the ${what} is not a Pod: metadata, spec and spec.containers are required`);
    return p as unknown as Pod;
  };
  const dryRun = extras.dryRun === true || isDryRunList(extras.options?.dryRun);
  switch (req.operation) {
    case 'DELETE': {
      if (!deleteGate || req.subResource || !req.oldObject) return undefined;
      return { pod: asPod(req.oldObject, 'oldObject'), operation: 'DELETE', dryRun };
    }
    case 'CREATE': {
      if (!deleteGate || req.subResource !== 'eviction') return undefined;
      const eviction = (req.object ?? {}) as { deleteOptions?: { dryRun?: string[] } | null };
      const name = extras.name ?? '';
      const pod = await deps.getPod(namespace, name);
      if (!pod) throw new KubeApiError(`get pod ${name}`, 404, 'NotFound', `pods "${name}" not found`);
      return { pod, operation: 'EVICT', dryRun: isDryRunList(eviction.deleteOptions?.dryRun) };
    }
    case 'UPDATE': {
      if (!updateGate) return undefined;
      const newPod = asPod(req.object, 'object');
      if (!relatedPubName(newPod)) return undefined;
      const oldPod = asPod(req.oldObject, 'oldObject');
      const operation = updateOperation(oldPod, newPod);
      return operation ? { pod: oldPod, operation, dryRun } : undefined;
    }
    default:
      return undefined;
  }
}

async function consume(
  pod: Pod,
  first: PodUnavailableBudget,
  operation: PubOperation,
  dryRun: boolean,
  namespace: string,
  deps: PubWebhookDeps,
): Promise<PubVerdict> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let pub: PodUnavailableBudget | undefined = first;
  let lastError = '';
  for (let attempt = 1; attempt <= BUDGET_ATTEMPTS; attempt++) {
    if (attempt > 1) {
      await sleep(BUDGET_RETRY_MS);
      try {
        pub = await deps.getPub(namespace, first.metadata.name ?? '');
      } catch (e) {
        return {
          allowed: false,
          code: 403,
          message: apiErrorMessage(e),
        };
      }
      if (!pub) return { allowed: true };
    }
    const decision = consumeBudget(
      pub,
      pod.metadata.name ?? '',
      operation,
      (deps.now ?? (() => new Date()))(),
    );
    if (!decision.allowed) {
      await deps.recordPodEvent?.(pod, {
        type: 'Warning',
        reason: 'PubPreventPodDeletion',
        message: 'openkruise pub prevents pod deletion',
      });
      return { allowed: false, code: 403, message: decision.message };
    }
    if (dryRun) return { allowed: true };
    try {
      await deps.updatePubStatus(pub, decision.status);
      return { allowed: true };
    } catch (e) {
      if (isNotFound(e)) return { allowed: true };
      const message = apiErrorMessage(e);
      if (!isConflict(e)) return { allowed: false, code: 403, message };
      lastError = message;
    }
  }
  return { allowed: false, code: 403, message: lastError };
}

/**
 * The budget's answer to a workload controller about to update `pod` (OpenKruise's CloneSet calls
 * `PodUnavailableBudgetValidatePod(pod, UPDATE, "kruise-manager", false)`): allowed, with the budget consumed, or not.
 */
export async function admitPodUpdate(
  kube: Pick<KubeClient, 'get' | 'replace' | 'recordEvent'>,
  pod: Pod,
): Promise<boolean> {
  const deps = kubePubWebhookDeps(kube, { updateGate: true });
  return (await validatePodForPub(pod, 'UPDATE', pod.metadata.namespace ?? '', deps)).allowed;
}
