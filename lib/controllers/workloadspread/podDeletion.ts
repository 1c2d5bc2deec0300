/**
 * The WorkloadSpread part of the pod validating webhook (`/validate-pod`, before the PodUnavailableBudget's as in
 * OpenKruise's `validatingPodFn`): pkg/webhook/pod/validating/workloadspread.go over
 * pkg/util/workloadspread/workloadspread.go `HandlePodDeletion` (v1.9.0).
 *
 * For a pod DELETE (not of a subresource, not a dry run) or a `pods/eviction` CREATE (not a dry run; the pod read by
 * name) of an active pod with a controller and a matched-workloadspread annotation (gate `WorkloadSpread` on): the
 * pod is recorded in its subset's `deletingPods` and the subset's `missingReplicas` rises by one, in the
 * WorkloadSpread's status, written before answering (./podWebhook.ts `acquireSubset`, conflicts retried). It never
 * refuses for the budget; a failed read or write refuses with code 400 (upstream's `admission.Errored(400)`).
 */
import { readAdmissionReview, refusal, type MutationAnswer } from '../../api/admission/mutation.js';
import { isJsonObject, type Pod } from '../../api/types.js';
import { apiErrorMessage, KubeApiError } from '../../kube/errors.js';
import { controllerRef } from '../../podset/ownership.js';
import { isPodActive } from '../../podset/pods.js';
import { injectedOf, type LedgerOperation } from './plan/index.js';
import { acquireSubset, type WorkloadSpreadWebhookDeps } from './podWebhook.js';
import { workloadSpreadEnabled } from './settings.js';

/** What the deletion check reads besides the WorkloadSpread deps: the evicted pod. */
export interface PodDeletionDeps extends WorkloadSpreadWebhookDeps {
  /** The pod `name` of `namespace`; undefined when it does not exist. */
  getPod(namespace: string, name: string): Promise<Pod | undefined>;
}

interface Extras {
  name?: string;
  dryRun?: boolean;
  options?: { dryRun?: string[] } | null;
}

const dryRunList = (l: unknown) => Array.isArray(l) && l.length > 0;

/**
 * Records a pod deletion or eviction for its WorkloadSpread (see the module doc).
 * @returns undefined when the request may go on to the next check; a refusal (code 400) when a read or write failed
 */
export async function recordPodDeletion(
  body: string,
  deps: PodDeletionDeps,
): Promise<MutationAnswer | undefined> {
  if (!workloadSpreadEnabled(deps.settings ?? {})) return undefined;
  const read = readAdmissionReview(body);
  if ('answer' in read) return undefined;
  const req = read.request;
  if (req.resource.group !== '' || req.resource.resource !== 'pods') return undefined;
  const extras = (JSON.parse(body) as { request?: Extras }).request ?? {};
  const namespace = req.namespace || 'default';
  let operation: LedgerOperation;
  let pod: Pod | undefined;
  try {
    if (req.operation === 'DELETE' && !req.subResource && req.oldObject) {
      if (extras.dryRun === true || dryRunList(extras.options?.dryRun)) return undefined;
      operation = 'Delete';
      pod = req.oldObject as unknown as Pod;
    } else if (req.operation === 'CREATE' && req.subResource === 'eviction') {
      const eviction = isJsonObject(req.object) ? req.object : {};
      const options = isJsonObject(eviction.deleteOptions) ? eviction.deleteOptions : {};
      if (dryRunList(options.dryRun)) return undefined;
      operation = 'Eviction';
      pod = await deps.getPod(namespace, extras.name ?? '');
      if (!pod) throw new KubeApiError('get pod', 404, 'NotFound', `pods "${extras.name ?? ''}" not found`);
    } else return undefined;
    if (typeof pod.metadata !== 'object' || pod.metadata === null) return undefined;
    const injected = injectedOf(pod);
    if (!injected || !isPodActive(pod) || !controllerRef(pod.metadata.ownerReferences)) return undefined;
    const ws = await deps.getWorkloadSpread(namespace, injected.name);
    if (!ws) return undefined;
    await acquireSubset(deps, ws, pod, operation, injected.subset);
    return undefined;
  } catch (e) {
    return refusal(req.uid, 400, apiErrorMessage(e));
  }
}
