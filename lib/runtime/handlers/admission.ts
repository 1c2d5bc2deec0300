/**
 * The `admission` handler (Function URL, the optional fast source of docs/architecture.md#admission): receives
 * AdmissionReview v1 calls for the resources the registered controllers watch (for CloneSet: clonesets, pods,
 * pods/status and PVCs) at `/<cluster secret>/<cluster>`, forwards the object keys they concern, and always allows.
 * The API server cannot add headers to webhook calls, so the unguessable path segment authenticates the caller: it
 * is the cluster's own secret, HMAC(master, cluster) (lib/source/admissionSecret.ts), so it authenticates the cluster
 * it names and no other. Calls for one object are coalesced per container (lib/source/admissionCoalescer.ts) and
 * the publish has a deadline well inside the webhook's 2 s timeout; bodies over the size limit or not shaped like
 * an AdmissionReview get a clear 4xx, an unreadable master secret a 503 (the API server then fails open).
 * `/<cluster secret>/<cluster>/convert` is the CRD conversion webhook (ConversionReview v1, lib/api/conversion with
 * lib/controllers/conversions.ts): it answers, publishes nothing, and its answer is what a read or write of the
 * non-storage version (Advanced StatefulSet v1alpha1) waits for — an unreadable master secret fails those (503).
 * `/<cluster secret>/<cluster>/mutate` is the defaulting webhook (AdmissionReview v1, lib/api/admission/mutation.ts
 * with lib/controllers/mutations.ts under the deployment's gates): OpenKruise's stored defaults as a JSON Patch; its
 * configuration fails open (`failurePolicy: Ignore`), so an outage stores objects as written.
 * `/<cluster secret>/<cluster>/validate` is the validating webhook (AdmissionReview v1, lib/api/admission/validation.ts
 * with lib/controllers/validations.ts): OpenKruise's validation of the workloads, refusing what its webhooks refuse;
 * it fails open too, and the controllers then report an invalid object as `FailedValidation` and leave it alone. The
 * rules that compare an object with others of the cluster (SidecarSet, PodUnavailableBudget and WorkloadSpread
 * conflicts, pinned revisions, `podsToDelete`) read the cluster the path names when a validator asks
 * (lib/runtime/validationReads.ts); where the role may not read it (no `--pod-webhooks`), they are skipped.
 * `/<cluster secret>/<cluster>/validate-pod` is the pod validating webhook (OpenKruise's `vpod.kb.io` and
 * `vpodeviction.kb.io`, lib/controllers/podValidations.ts, the same code `kruiseless local` serves): a pod delete,
 * eviction or (gate `PodUnavailableBudgetUpdateGate`) in-place update that would break a PodUnavailableBudget is
 * refused and an allowed one consumes it, written to the PUB's status in the cluster the path names, after the
 * WorkloadSpread's record of a deleted pod — so this route reads and writes that cluster (`runtime.cluster(name)`,
 * as the group `kruiseless:admission`, infra/rbac). Its configuration is `failurePolicy: Fail`, as OpenKruise's: while
 * the function is down, or cannot reach the cluster (503 here), protected pods cannot be deleted or evicted; pods
 * without a related-pub annotation never reach it (the configuration's match condition).
 * `/<cluster secret>/<cluster>/mutate-pod` is the pod mutating webhook (OpenKruise's `mpod.kb.io`, pods CREATE,
 * lib/api/admission/podMutation.ts with the steps of lib/controllers/podMutations.ts, the same code `kruiseless
 * local` serves): the WorkloadSpread subset, then SidecarSet injection, answered as one JSON Patch; it reads that
 * cluster too and writes only a WorkloadSpread's status. `failurePolicy: Fail`, as OpenKruise's: while the function is
 * down or cannot reach the cluster (503), pods cannot be created in the namespaces it serves.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context, LambdaFunctionURLEvent, LambdaFunctionURLResult } from 'aws-lambda';
import { systemClock, type Clock } from '../../core/clock.js';
import { errorMessage, KruiselessError } from '../../core/errors.js';
import {
  InvalidAdmissionReviewError,
  MAX_ADMISSION_BODY_BYTES,
  handleAdmissionReview,
} from '../../source/admission.js';
import { createAdmissionCoalescer } from '../../source/admissionCoalescer.js';
import { isClusterPathSecret } from '../../source/admissionSecret.js';
import { handleConversionReview } from '../../api/conversion/review.js';
import { handleMutationReview } from '../../api/admission/mutation.js';
import { admissionMutators } from '../../controllers/mutations.js';
import { handleValidationReview } from '../../api/admission/validation.js';
import { admissionValidators } from '../../controllers/validations.js';
import { lazyValidationReads } from '../validationReads.js';
import { answerPodMutationReview } from '../../api/admission/podMutation.js';
import { podMutationSteps } from '../../controllers/podMutations.js';
import { podValidation } from '../../controllers/podValidations.js';
import { CRD_CONVERTERS } from '../../controllers/conversions.js';
import type { CrdConverter } from '../../api/conversion/converter.js';
import { withCorrelationIds } from '../../requests/index.js';
import { CONTROLLER_KINDS } from '../../controllers/kinds.js';
import type { ControllerKind } from '../../controllers/controller.js';
import { watchStreams } from '../../source/watchSpec.js';
import type { Runtime } from '../types.js';

/**
 * Longest wait for the publish of one call, ms: the webhook's `timeoutSeconds` is 2 (infra/webhook), and a cold
 * start and the secret's read take part of it. A publish still running then is left to finish in the background.
 */
export const ADMISSION_PUBLISH_BUDGET_MS = 1_000;

/** Thrown (and logged) when a publish outlasts {@link ADMISSION_PUBLISH_BUDGET_MS}. */
export class PublishBudgetExceededError extends KruiselessError {
  constructor(readonly budgetMs: number) {
    super(`publish took longer than the ${budgetMs} ms budget`);
    this.name = 'PublishBudgetExceededError';
  }
}

/** The handler's tunables (tests); every one has its production default. */
export interface AdmissionHandlerOptions {
  now?: Clock;
  /** lib/source/admissionCoalescer.ts `ADMISSION_COALESCE_WINDOW_MS` */
  coalesceWindowMs?: number;
  /** lib/source/admissionCoalescer.ts `ADMISSION_COALESCE_MAX_KEYS` */
  coalesceMaxKeys?: number;
  /** {@link ADMISSION_PUBLISH_BUDGET_MS} */
  publishBudgetMs?: number;
  /** The converters `/convert` answers with (default lib/controllers/conversions.ts `CRD_CONVERTERS`). */
  converters?: readonly CrdConverter[];
}

/** The path segment after `/<cluster secret>/<cluster>` of the CRD conversion webhook. */
export const CONVERT_PATH_SEGMENT = 'convert';

/** The path segment after `/<cluster secret>/<cluster>` of the defaulting (mutating) webhook. */
export const MUTATE_PATH_SEGMENT = 'mutate';

/** The path segment after `/<cluster secret>/<cluster>` of the validating webhook. */
export const VALIDATE_PATH_SEGMENT = 'validate';

/**
 * The path segment after `/<cluster secret>/<cluster>` of the pod validating webhook (PodUnavailableBudget, the
 * WorkloadSpread deletion ledger).
 */
export const VALIDATE_POD_PATH_SEGMENT = 'validate-pod';

/**
 * The path segment after `/<cluster secret>/<cluster>` of the pod mutating webhook (WorkloadSpread, SidecarSet
 * injection).
 */
export const MUTATE_POD_PATH_SEGMENT = 'mutate-pod';

function reply(statusCode: number, body: unknown): LambdaFunctionURLResult {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** `work`, or a rejection with PublishBudgetExceededError after `ms`; the timer never outlives the race. */
async function withinBudget<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PublishBudgetExceededError(ms)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Build the handler for a runtime; the coalescer lives as long as the handler (one Lambda container). */
export function admissionHandler(
  getRuntime: () => Runtime,
  logger: Logger = new Logger({ serviceName: 'kruiseless' }),
  controllers: readonly ControllerKind[] = CONTROLLER_KINDS,
  options: AdmissionHandlerOptions = {},
) {
  const streams = watchStreams(controllers);
  const coalescer = createAdmissionCoalescer({
    now: options.now ?? systemClock,
    ...(options.coalesceWindowMs !== undefined ? { windowMs: options.coalesceWindowMs } : {}),
    ...(options.coalesceMaxKeys !== undefined ? { maxKeys: options.coalesceMaxKeys } : {}),
  });
  const budgetMs = options.publishBudgetMs ?? ADMISSION_PUBLISH_BUDGET_MS;
  const converters = options.converters ?? CRD_CONVERTERS;
  // clusters whose /validate reads failed once in this container: logged at warn the first time only
  const readsRefused = new Set<string>();
  return async (
    event: Pick<LambdaFunctionURLEvent, 'rawPath' | 'body' | 'isBase64Encoded'>,
    context?: Context,
  ): Promise<LambdaFunctionURLResult> => {
    if (context) logger.addContext(context);
    const runtime = getRuntime();
    let master: string | undefined;
    try {
      master = await runtime.admissionSecret();
    } catch (e) {
      logger.error('admission secret unavailable', { error: errorMessage(e) });
      return reply(503, { message: 'admission secret unavailable' });
    }
    const [secret = '', cluster = '', ...rest] = (event.rawPath ?? '').split('/').filter(Boolean);
    const convert = rest.length === 1 && rest[0] === CONVERT_PATH_SEGMENT;
    const mutate = rest.length === 1 && rest[0] === MUTATE_PATH_SEGMENT;
    const validate = rest.length === 1 && rest[0] === VALIDATE_PATH_SEGMENT;
    const validatePod = rest.length === 1 && rest[0] === VALIDATE_POD_PATH_SEGMENT;
    const mutatePod = rest.length === 1 && rest[0] === MUTATE_POD_PATH_SEGMENT;
    if (
      !master ||
      (rest.length > 0 && !convert && !mutate && !validate && !validatePod && !mutatePod) ||
      !isClusterPathSecret(secret, master, cluster)
    ) {
      logger.warn('admission call rejected: wrong path or secret', { pathSegments: rest.length + 2 });
      return reply(404, { message: 'not found' });
    }
    const raw = event.body ?? '';
    const body = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
    if (convert) {
      const { statusCode, review } = handleConversionReview(body, converters);
      const { result, convertedObjects } = review.response;
      if (result.status === 'Failure')
        logger.warn('conversion failed', { statusCode, error: result.message, cluster });
      else logger.debug('converted', { objects: convertedObjects.length, cluster });
      return reply(statusCode, review);
    }
    if (mutate) {
      const { statusCode, review } = handleMutationReview(body, admissionMutators(runtime.settings));
      if (!review.response.allowed)
        logger.warn('mutation refused', { statusCode, error: review.response.status?.message, cluster });
      else logger.debug('mutated', { patched: review.response.patch !== undefined, cluster });
      return reply(statusCode, review);
    }
    if (validate) {
      const attempt = lazyValidationReads(async () => (await runtime.cluster(cluster)).kube);
      let { statusCode, review } = await handleValidationReview(
        body,
        admissionValidators(runtime.settings, attempt.reads),
      );
      const failure = attempt.failure();
      if (failure !== undefined) {
        // the role may not be bound (pod webhooks are opt-in): validate as without reads, as the function did before
        const log = readsRefused.has(cluster) ? logger.debug.bind(logger) : logger.warn.bind(logger);
        readsRefused.add(cluster);
        log(
          'validation: the cluster reads failed; validated without the rules that compare with other objects',
          {
            cluster,
            error: errorMessage(failure),
          },
        );
        ({ statusCode, review } = await handleValidationReview(body, admissionValidators(runtime.settings)));
      }
      if (!review.response.allowed)
        logger.warn('validation refused', { statusCode, error: review.response.status?.message, cluster });
      else logger.debug('validated', { cluster });
      return reply(statusCode, review);
    }
    if (validatePod || mutatePod) {
      let kube;
      try {
        kube = (await runtime.cluster(cluster)).kube;
      } catch (e) {
        // both configurations fail closed: the API server refuses the pod's create or delete until the cluster is
        // reachable
        logger.error(`pod ${mutatePod ? 'mutation' : 'validation'}: cluster unavailable`, {
          error: errorMessage(e),
          cluster,
        });
        return reply(503, { message: `cluster ${cluster} unavailable` });
      }
      if (mutatePod) {
        const { statusCode, review } = await answerPodMutationReview(
          body,
          podMutationSteps(kube, runtime.settings),
        );
        if (!review.response.allowed)
          logger.warn('pod mutation refused', {
            statusCode,
            error: review.response.status?.message,
            cluster,
          });
        else logger.debug('pod mutated', { patched: review.response.patch !== undefined, cluster });
        return reply(statusCode, review);
      }
      const { statusCode, review } = await podValidation(kube, runtime.settings)(body);
      if (!review.response.allowed)
        logger.warn('pod validation refused', {
          statusCode,
          error: review.response.status?.message,
          cluster,
        });
      else logger.debug('pod validated', { cluster });
      return reply(statusCode, review);
    }
    if (Buffer.byteLength(body) > MAX_ADMISSION_BODY_BYTES) {
      logger.warn('admission body too large', {
        bytes: Buffer.byteLength(body),
        limit: MAX_ADMISSION_BODY_BYTES,
      });
      return reply(413, { message: `AdmissionReview body larger than ${MAX_ADMISSION_BODY_BYTES} bytes` });
    }
    try {
      const { response, requests } = handleAdmissionReview(cluster, body, streams);
      const due = coalescer.take(requests);
      if (due.length > 0) {
        try {
          const forwarded = withCorrelationIds(due);
          await withinBudget(runtime.publisher.publish(forwarded), budgetMs);
          coalescer.published(due);
          logger.debug('forwarded', { requests: forwarded });
        } catch (e) {
          // never block the cluster: the watch pump and the resync will deliver this change too
          logger.error('could not forward admission event', { error: errorMessage(e) });
        }
      } else if (requests.length > 0) {
        logger.debug('held: published within the coalescing window', { requests: requests.length });
      }
      return reply(200, response);
    } catch (e) {
      if (e instanceof InvalidAdmissionReviewError) {
        logger.warn('malformed AdmissionReview', { error: e.message });
        return reply(400, { message: e.message });
      }
      throw e;
    }
  };
}
