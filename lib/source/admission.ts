/**
 * The admission source (docs/architecture.md#admission): the API server calls a webhook on writes of the resources
 * the registered controllers watch (for CloneSet: clonesets, pods, pods/status and PVCs); Kruiseless turns the
 * AdmissionReview into reconcile requests through the same watch specs as the pump (./watchSpec.ts) and always
 * allows the write. Mapped watches (`Map`) are left to the pump: an admission answer does not wait for reads.
 */
import { KruiselessError } from '../core/errors.js';
import * as z from 'zod';
import type { JsonObject } from '../api/types.js';
import type { ReconcileRequest } from '../requests/index.js';
import { requestForObject, type WatchStream } from './watchSpec.js';

/** Largest AdmissionReview body accepted, bytes (the API server caps objects at ~1.5 MiB; reviews carry two). */
export const MAX_ADMISSION_BODY_BYTES = 4 * 1024 * 1024;

const reviewSchema = z.object({
  apiVersion: z.literal('admission.k8s.io/v1'),
  kind: z.literal('AdmissionReview'),
  request: z.object({
    uid: z.string().min(1),
    kind: z.object({ group: z.string(), version: z.string(), kind: z.string() }),
    namespace: z.string().optional(),
    operation: z.string(),
    object: z.record(z.string(), z.unknown()).nullable().optional(),
    oldObject: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
});

/** Thrown for a body that is not a well-formed AdmissionReview v1. */
export class InvalidAdmissionReviewError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidAdmissionReviewError';
  }
}

/** The AdmissionReview response that allows the request (`uid` echoed, as the API server requires). */
export interface AdmissionResponse {
  apiVersion: 'admission.k8s.io/v1';
  kind: 'AdmissionReview';
  response: { uid: string; allowed: true };
}

/**
 * Parse an AdmissionReview v1 body and map it to reconcile requests.
 * @param body the raw JSON text
 * @param streams the registered controllers' watch streams (lib/source/watchSpec.ts `watchStreams`)
 * @returns the allow response and the requests (none when the object concerns no reconciled object)
 * @throws InvalidAdmissionReviewError naming what is wrong (invalid JSON, wrong apiVersion/kind, missing uid…)
 */
export function handleAdmissionReview(
  cluster: string,
  body: string,
  streams: readonly WatchStream[],
): { response: AdmissionResponse; requests: ReconcileRequest[] } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new InvalidAdmissionReviewError('body is not JSON');
  }
  const parsed = reviewSchema.safeParse(json);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new InvalidAdmissionReviewError(`not an AdmissionReview v1: ${detail}`);
  }
  const req = parsed.data.request;
  const requests: ReconcileRequest[] = [];
  const consumers = streams
    .filter((s) => s.watched.group === req.kind.group && s.watched.kind === req.kind.kind)
    .flatMap((s) => s.consumers);
  for (const { controller, spec } of consumers) {
    if (spec.type === 'Map') continue;
    for (const obj of [req.object, req.oldObject]) {
      if (!obj) continue;
      const o = obj as JsonObject;
      const meta = { ...((o.metadata ?? {}) as JsonObject) };
      if (!meta.namespace && req.namespace) meta.namespace = req.namespace;
      const r = requestForObject(cluster, controller, spec, { ...o, metadata: meta });
      if (r) {
        requests.push(r);
        break;
      }
    }
  }
  return {
    response: {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: req.uid, allowed: true },
    },
    requests,
  };
}
