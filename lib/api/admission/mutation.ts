/**
 * The AdmissionReview exchange of a mutating admission webhook (admission.k8s.io/v1, Kubernetes' "Dynamic Admission
 * Control"; OpenKruise answers it with controller-runtime's `admission.PatchResponseFromRaw`): the API server POSTs
 * `{request: {uid, resource, operation, object, oldObject}}` and expects `{response: {uid, allowed, patchType,
 * patch}}`, the patch a base64 JSON Patch from the object sent to the object to store. Pure: the transport (the
 * admission function's Function URL, the embedded runtime's HTTPS server) is elsewhere; the mutators are listed once
 * in lib/controllers/mutations.ts.
 */
import jsonpatch from 'fast-json-patch';
import * as z from 'zod';
import { errorMessage, KruiselessError } from '../../core/errors.js';
import type { JsonObject } from '../types.js';

/** The AdmissionReview version understood, and the only one the webhook configurations list. */
export const ADMISSION_REVIEW_API_VERSION = 'admission.k8s.io/v1';

/** Largest AdmissionReview body accepted, bytes (the API server's own request limit is 3 MiB per object, twice). */
export const MAX_MUTATION_BODY_BYTES = 7 * 1024 * 1024;

/** Thrown by a mutator for an object it refuses; the message goes to the API server's caller verbatim. */
export class MutationError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'MutationError';
  }
}

/** What a mutator is given: the request's operation and objects. */
export interface MutationRequest {
  operation: 'CREATE' | 'UPDATE';
  /** The object as sent (of the mutator's version: the webhook's `matchPolicy: Equivalent` converts to it). */
  object: JsonObject;
  /** The stored object before an UPDATE; absent on CREATE. */
  oldObject?: JsonObject;
}

/** The defaulting of one resource, as OpenKruise's mutating webhook for it. */
export interface Mutator {
  /** API group, e.g. `apps.kruise.io`. */
  readonly group: string;
  /** The resource's plural, e.g. `statefulsets`. */
  readonly resource: string;
  /** The version it takes, e.g. `v1beta1`. */
  readonly version: string;
  /** Whether the resource is namespaced (default true); a cluster-scoped one is registered with scope `Cluster`. */
  readonly namespaced?: boolean;
  /**
   * The object to store. Pure: the input is not modified.
   * @throws MutationError when the object is refused
   */
  mutate(request: MutationRequest): JsonObject;
}

const reviewSchema = z.object({
  apiVersion: z.literal(ADMISSION_REVIEW_API_VERSION),
  kind: z.literal('AdmissionReview'),
  request: z.object({
    uid: z.string().min(1),
    resource: z.object({ group: z.string(), version: z.string(), resource: z.string() }),
    requestResource: z.object({ group: z.string(), version: z.string(), resource: z.string() }).optional(),
    subResource: z.string().optional(),
    namespace: z.string().optional(),
    operation: z.string(),
    object: z.record(z.string(), z.unknown()).nullable().optional(),
    oldObject: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
});

/** The AdmissionReview answered. */
export interface MutationReviewResponse {
  apiVersion: typeof ADMISSION_REVIEW_API_VERSION;
  kind: 'AdmissionReview';
  response: {
    /** The request's uid; empty when the body was not an AdmissionReview. */
    uid: string;
    allowed: boolean;
    /** Why it was refused (allowed false). */
    status?: { code: number; message: string };
    patchType?: 'JSONPatch';
    /** base64 of the JSON Patch (RFC 6902) array; absent when nothing changes. */
    patch?: string;
  };
}

/** An HTTP answer: 200 with a review (allowed or refused), 400/413 with a refusal for an unreadable body. */
export interface MutationAnswer {
  statusCode: 200 | 400 | 413;
  review: MutationReviewResponse;
}

const refuse = (
  statusCode: MutationAnswer['statusCode'],
  uid: string,
  code: number,
  message: string,
): MutationAnswer => ({
  statusCode,
  review: {
    apiVersion: ADMISSION_REVIEW_API_VERSION,
    kind: 'AdmissionReview',
    response: { uid, allowed: false, status: { code, message } },
  },
});

/** A request read from an AdmissionReview body (./mutation.ts `readAdmissionReview`). */
export type AdmissionRequest = z.infer<typeof reviewSchema>['request'];

/**
 * Reads one AdmissionReview v1 body.
 * @returns the request, or the answer to send instead: 413 for a body over {@link MAX_MUTATION_BODY_BYTES}, 400 for
 *   one that is not JSON or not an AdmissionReview v1 (each a refusal naming what is wrong)
 */
export function readAdmissionReview(
  body: string,
): { request: AdmissionRequest } | { answer: MutationAnswer } {
  if (Buffer.byteLength(body) > MAX_MUTATION_BODY_BYTES)
    return {
      answer: refuse(413, '', 413, `AdmissionReview body larger than ${MAX_MUTATION_BODY_BYTES} bytes`),
    };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { answer: refuse(400, '', 400, 'body is not JSON') };
  }
  const parsed = reviewSchema.safeParse(json);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    const uid = (json as { request?: { uid?: unknown } } | null)?.request?.uid;
    return {
      answer: refuse(400, typeof uid === 'string' ? uid : '', 400, `not an AdmissionReview v1: ${detail}`),
    };
  }
  return { request: parsed.data.request };
}

/** A 200 refusal of request `uid` with `code` (400: the object is refused; 500: the webhook failed) and `message`. */
export function refusal(uid: string, code: number, message: string): MutationAnswer {
  return refuse(200, uid, code, message);
}

/**
 * A 200 allowing answer for request `uid`, carrying the JSON Patch (RFC 6902, base64) from `from` to `to` when they
 * differ (fast-json-patch `compare`).
 */
export function patchAnswer(uid: string, from: JsonObject, to: JsonObject): MutationAnswer {
  const allowed: MutationAnswer = {
    statusCode: 200,
    review: {
      apiVersion: ADMISSION_REVIEW_API_VERSION,
      kind: 'AdmissionReview',
      response: { uid, allowed: true },
    },
  };
  const ops = from === to ? [] : jsonpatch.compare(from, to);
  if (ops.length === 0) return allowed;
  allowed.review.response.patchType = 'JSONPatch';
  allowed.review.response.patch = Buffer.from(JSON.stringify(ops)).toString('base64');
  return allowed;
}

/**
 * Answers one AdmissionReview body: the mutator of the request's group/resource/version defaults the object, and the
 * answer carries the JSON Patch from the object sent to it. A request no mutator takes, a DELETE or CONNECT, a
 * subresource or a missing object is allowed unchanged (the webhook configuration should not send those).
 * @returns 200 with the review (refused, code 400, when the mutator throws a MutationError), 400 for a body that
 *   is not an AdmissionReview v1, 413 for one over {@link MAX_MUTATION_BODY_BYTES}
 */
export function handleMutationReview(body: string, mutators: readonly Mutator[]): MutationAnswer {
  const read = readAdmissionReview(body);
  if ('answer' in read) return read.answer;
  const req = read.request;
  const mutator = mutators.find(
    (m) =>
      m.group === req.resource.group &&
      m.resource === req.resource.resource &&
      m.version === req.resource.version,
  );
  const object = req.object as JsonObject | null | undefined;
  if (!mutator || req.subResource || !object || (req.operation !== 'CREATE' && req.operation !== 'UPDATE'))
    return patchAnswer(req.uid, {}, {});
  let mutated: JsonObject;
  try {
    mutated = mutator.mutate({
      operation: req.operation,
      object,
      ...(req.oldObject ? { oldObject: req.oldObject as JsonObject } : {}),
    });
  } catch (e) {
    if (e instanceof MutationError) return refusal(req.uid, 400, e.message);
    return refusal(req.uid, 500, `defaulting failed: ${errorMessage(e)}`);
  }
  return patchAnswer(req.uid, object, mutated);
}
