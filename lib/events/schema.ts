/**
 * The reconcile-request event (docs/architecture.md#reconcile-request): an EventBridge event whose `detail` names one CloneSet
 * key. Events are triggers, not truth; the reconciler re-reads everything from the API server.
 */
import * as z from 'zod';
import { fieldPath, type FieldError } from '../core/errors.js';
import { InvalidEventError } from './errors.js';

/** EventBridge `source` of every Kruiseless event. */
export const SOURCE = 'kruiseless';
/** EventBridge `detail-type` of a reconcile request. */
export const DETAIL_TYPE = 'CloneSet Reconcile Requested';
/** The only `detail.version` this code understands; a new shape gets a new number. */
export const EVENT_VERSION = 1;

/** Why a reconcile was requested. Informational only: the reconciler is level-triggered. */
export const RECONCILE_REASONS = [
  'CloneSetChanged',
  'PodChanged',
  'PVCChanged',
  'Resync',
  'Requeue',
] as const;
/** One of {@link RECONCILE_REASONS}. */
export type ReconcileReason = (typeof RECONCILE_REASONS)[number];

/** The `detail` of a reconcile-request event: which CloneSet to look at, and why. */
export interface ReconcileRequest {
  version: typeof EVENT_VERSION;
  /** Cluster registry name (docs/architecture.md#cluster-registry). */
  cluster: string;
  namespace: string;
  /** CloneSet name. */
  name: string;
  reason: ReconcileReason;
  /** The triggering object's resourceVersion; reads must not be older than this (docs/architecture.md#one-invocation). */
  resourceVersion?: string;
  /**
   * Ids of the observations this request stands for, oldest first, at most {@link MAX_CORRELATION_IDS}: set by the
   * source (watch pump, admission, resync), merged by coalescing, carried by requeues, and put on every log line of
   * the reconcile it causes (README.md#observability). Absent: the reconcile uses the EventBridge event id.
   */
  correlationIds?: string[];
}

/** Most correlation ids one request carries; coalescing keeps the oldest ones. */
export const MAX_CORRELATION_IDS = 10;
/** Longest correlation id (a UUID is 36). */
const MAX_CORRELATION_ID = 64;

/** Longest Kubernetes object name (DNS-1123 subdomain) and the bound used for every key part. */
const MAX_NAME = 253;
/** Longest namespace name (DNS-1123 label). */
const MAX_LABEL = 63;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** A required string whose "missing" and "wrong type" messages read well in one line. */
function requiredString(): z.ZodString {
  return z.string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') });
}

/** A key part: non-empty, ≤ 253 characters, no `#` (the DynamoDB key separator, docs/architecture.md#state-table). */
function keyPart(): z.ZodString {
  return requiredString()
    .min(1, { error: 'must not be empty' })
    .max(MAX_NAME, { error: `must be at most ${MAX_NAME} characters` })
    .refine((v) => !v.includes('#'), { error: "must not contain '#'" });
}

const detailSchema = z.strictObject(
  {
    version: z.literal(EVENT_VERSION, { error: `must be ${EVENT_VERSION}` }),
    cluster: keyPart(),
    namespace: keyPart()
      .max(MAX_LABEL, { error: `must be at most ${MAX_LABEL} characters` })
      .regex(DNS1123_LABEL, { error: 'must be a DNS-1123 label (lower-case alphanumerics and -)' }),
    name: keyPart().regex(DNS1123_SUBDOMAIN, {
      error: 'must be a DNS-1123 subdomain (lower-case alphanumerics, - and .)',
    }),
    reason: z.enum(RECONCILE_REASONS, { error: `must be one of ${RECONCILE_REASONS.join('|')}` }),
    resourceVersion: requiredString().min(1, { error: 'must not be empty' }).optional(),
    correlationIds: z
      .array(
        requiredString()
          .min(1, { error: 'must not be empty' })
          .max(MAX_CORRELATION_ID, { error: `must be at most ${MAX_CORRELATION_ID} characters` }),
        { error: 'must be an array of strings' },
      )
      .min(1, { error: 'must not be empty' })
      .max(MAX_CORRELATION_IDS, { error: `must have at most ${MAX_CORRELATION_IDS} entries` })
      .optional(),
  },
  {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? undefined
        : iss.input === undefined
          ? 'is required'
          : 'must be an object',
  },
);

const envelopeSchema = z.looseObject(
  {
    source: z.literal(SOURCE, { error: `must be "${SOURCE}"` }),
    'detail-type': z.literal(DETAIL_TYPE, { error: `must be "${DETAIL_TYPE}"` }),
    detail: detailSchema,
  },
  { error: 'must be an EventBridge event object' },
);

/** Renders a zod issue path as `detail.namespace` / `detail.items[0]`. */

/**
 * Validates an EventBridge event (as a Lambda target receives it) and returns its reconcile request.
 * Envelope fields other than `source`, `detail-type` and `detail` (id, time, account, ...) are ignored; unknown
 * `detail` fields are rejected, since a new shape must come with a new `version`.
 * @param input the parsed event, of unknown shape
 * @returns a new {@link ReconcileRequest}; `resourceVersion` and `correlationIds` only when present
 * @throws InvalidEventError naming every offending field in one line, e.g.
 *   `invalid reconcile event: source: must be "kruiseless"; detail.namespace: must be a DNS-1123 label …`
 */
export function parseReconcileEvent(input: unknown): ReconcileRequest {
  const result = envelopeSchema.safeParse(input);
  if (!result.success) {
    // One message per field: the first check it fails (an empty name is not also "not a DNS subdomain").
    const errors = new Map<string, FieldError>();
    for (const issue of result.error.issues) {
      const path = fieldPath(issue.path);
      const message =
        issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message;
      if (!errors.has(path)) errors.set(path, { path, message });
    }
    throw new InvalidEventError([...errors.values()]);
  }
  return canonicalRequest(result.data.detail);
}

/**
 * A copy of `request` with only the detail's fields, in the detail's key order (version, cluster, namespace, name,
 * reason, resourceVersion, correlationIds), the optional ones only when present: the one shape every event
 * detail is written in.
 */
export function canonicalRequest(request: ReconcileRequest): ReconcileRequest {
  const { version, cluster, namespace, name, reason, resourceVersion, correlationIds } = request;
  return {
    version,
    cluster,
    namespace,
    name,
    reason,
    ...(resourceVersion !== undefined ? { resourceVersion } : {}),
    ...(correlationIds !== undefined ? { correlationIds } : {}),
  };
}
