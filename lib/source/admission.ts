/**
 * The admission source (docs/architecture.md#admission): the API server calls a webhook on writes of CloneSets, pods, pods/status
 * and PVCs; Kruiseless turns the AdmissionReview into a reconcile request and always allows the write.
 */
import { KruiselessError } from '../core/errors.js';
import * as z from 'zod';
import type { JsonObject } from '../api/types.js';
import type { ReconcileRequest } from '../requests/index.js';
import { requestForObject, type WatchedKind } from './requestForObject.js';

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

const KINDS: Record<string, WatchedKind> = {
  CloneSet: 'CloneSet',
  Pod: 'Pod',
  PersistentVolumeClaim: 'PersistentVolumeClaim',
};

/**
 * Parse an AdmissionReview v1 body and map it to reconcile requests.
 * @param body the raw JSON text
 * @returns the allow response and the requests (none when the object does not concern a CloneSet)
 * @throws InvalidAdmissionReviewError naming what is wrong (invalid JSON, wrong apiVersion/kind, missing uid…)
 */
export function handleAdmissionReview(
  cluster: string,
  body: string,
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
  const kind = KINDS[req.kind.kind];
  if (kind) {
    for (const obj of [req.object, req.oldObject]) {
      if (!obj) continue;
      const o = obj as JsonObject;
      const meta = { ...((o.metadata ?? {}) as JsonObject) };
      if (!meta.namespace && req.namespace) meta.namespace = req.namespace;
      const r = requestForObject(cluster, kind, { ...o, metadata: meta });
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
