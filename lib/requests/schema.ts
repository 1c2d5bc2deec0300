/**
 * The reconcile-request event, version 2 (docs/architecture.md#reconcile-request): an EventBridge event whose
 * `detail` names one object of one kind ({@link ObjectKey}). Events are triggers, not truth; the reconciler
 * re-reads everything from the API server.
 */
import * as z from 'zod';
import { fieldPath, type FieldError } from '../core/errors.js';
import { isGroupKind, type KindLookup, type ObjectKey } from '../core/objectKey.js';
import { InvalidEventError } from './errors.js';

/** EventBridge `source` of every Kruiseless event. */
export const SOURCE = 'kruiseless';
/** EventBridge `detail-type` of a reconcile request, for every kind (the kind is in the detail). */
export const DETAIL_TYPE = 'Reconcile Requested';
/** The only `detail.version` this code understands; a new shape gets a new number (2: `kind`, optional namespace). */
export const EVENT_VERSION = 2;

/**
 * Why a reconcile was requested. Informational only: the reconciler is level-triggered. `ObjectChanged`: the
 * reconciled object itself; `OwnedObjectChanged`: an object it controls (a pod, a PVC; controller-runtime's
 * `Owns`); `MappedObjectChanged`: an object a watch maps to it otherwise (a node, a selected pod; `Watches` with a
 * map function), reserved for the controllers that need one; `Resync`: the periodic sweep; `Requeue`: a timer we
 * set ourselves.
 */
export const RECONCILE_REASONS = [
  'ObjectChanged',
  'OwnedObjectChanged',
  'MappedObjectChanged',
  'Resync',
  'Requeue',
] as const;
/** One of {@link RECONCILE_REASONS}. */
export type ReconcileReason = (typeof RECONCILE_REASONS)[number];

/** The `detail` of a reconcile-request event: which object to look at (its {@link ObjectKey}), and why. */
export interface ReconcileRequest extends ObjectKey {
  version: typeof EVENT_VERSION;
  /** Cluster registry name (docs/architecture.md#cluster-registry). */
  cluster: string;
  /** `<group>/<Kind>` of the reconciled object, one the parser's {@link KindLookup} knows. */
  kind: string;
  /** Present exactly when the kind is namespaced. */
  namespace?: string;
  /** The reconciled object's name. */
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

/**
 * A key part: non-empty, ≤ `max` characters (default 253), no `#` (the DynamoDB key separator,
 * docs/architecture.md#state-table).
 */
function keyPart(max = MAX_NAME): z.ZodString {
  return requiredString()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` })
    .refine((v) => !v.includes('#'), { error: "must not contain '#'" });
}

/** Longest kind: a group (a DNS-1123 subdomain, ≤ 253), `/` and a Kind (≤ 63, a DNS-1123 label's bound). */
const MAX_KIND = MAX_NAME + 1 + MAX_LABEL;

const detailShape = {
  version: z.literal(EVENT_VERSION, { error: `must be ${EVENT_VERSION}` }),
  cluster: keyPart(),
  kind: keyPart(MAX_KIND).refine(isGroupKind, { error: 'must be <group>/<Kind>' }),
  namespace: keyPart()
    .max(MAX_LABEL, { error: `must be at most ${MAX_LABEL} characters` })
    .regex(DNS1123_LABEL, { error: 'must be a DNS-1123 label (lower-case alphanumerics and -)' })
    .optional(),
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
};

const detailSchema = z.strictObject(detailShape, {
  error: (iss) =>
    iss.code === 'unrecognized_keys'
      ? undefined
      : iss.input === undefined
        ? 'is required'
        : 'must be an object',
});

const envelopeSchema = z.looseObject(
  {
    source: z.literal(SOURCE, { error: `must be "${SOURCE}"` }),
    'detail-type': z.literal(DETAIL_TYPE, { error: `must be "${DETAIL_TYPE}"` }),
    detail: detailSchema,
  },
  { error: 'must be an EventBridge event object' },
);

/**
 * Field paths in the order of the clauses of an {@link InvalidEventError}: the schema's order, and the detail's
 * own clause (unknown fields) after those of its fields, as zod reports them.
 */
const FIELD_ORDER = [
  '',
  'source',
  'detail-type',
  ...Object.keys(detailShape).map((k) => `detail.${k}`),
  'detail',
];

/** Position of `path` in {@link FIELD_ORDER}, by its field (`detail.correlationIds[0]` is `detail.correlationIds`). */
function fieldRank(path: string): number {
  const field = /^detail\.[^.[]+/.exec(path)?.[0] ?? path;
  const rank = FIELD_ORDER.indexOf(field);
  return rank === -1 ? FIELD_ORDER.length : rank;
}

/**
 * The checks that need the known kinds, on a detail whose `kind` and `namespace` passed their own checks (the
 * others already have their clause): the kind must be known, and the namespace present exactly when the kind is
 * namespaced (Kubernetes: a namespaced object always has one, a cluster-scoped object never).
 */
function kindErrors(input: unknown, kinds: KindLookup, flagged: ReadonlySet<string>): FieldError[] {
  const detail = (input as { detail?: unknown } | null | undefined)?.detail;
  if (flagged.has('detail.kind') || typeof detail !== 'object' || detail === null || Array.isArray(detail))
    return [];
  const { kind, namespace } = detail as { kind?: unknown; namespace?: unknown };
  if (typeof kind !== 'string') return [];
  const info = kinds(kind);
  if (info === undefined)
    return [{ path: 'detail.kind', message: 'is not a kind this deployment reconciles' }];
  if (flagged.has('detail.namespace')) return [];
  if (info.namespaced && namespace === undefined)
    return [{ path: 'detail.namespace', message: `is required (${kind} is namespaced)` }];
  if (!info.namespaced && namespace !== undefined)
    return [{ path: 'detail.namespace', message: `must be absent (${kind} is cluster-scoped)` }];
  return [];
}

/**
 * Validates an EventBridge event (as a Lambda target receives it) and returns its reconcile request.
 * Envelope fields other than `source`, `detail-type` and `detail` (id, time, account, ...) are ignored; unknown
 * `detail` fields are rejected, since a new shape must come with a new `version`.
 * @param input the parsed event, of unknown shape
 * @param kinds the kinds the caller reconciles (lib/controllers/cloneset/api/kinds.ts `KNOWN_KINDS` today): an unknown `detail.kind`, a
 *   namespace on a cluster-scoped kind and none on a namespaced kind are invalid
 * @returns a new {@link ReconcileRequest}; `namespace`, `resourceVersion` and `correlationIds` only when present
 * @throws InvalidEventError naming every offending field in one line, in schema order, e.g.
 *   `invalid reconcile event: source: must be "kruiseless"; detail.namespace: must be a DNS-1123 label …`
 */
export function parseReconcileEvent(input: unknown, kinds: KindLookup): ReconcileRequest {
  const result = envelopeSchema.safeParse(input);
  // One message per field: the first check it fails (an empty name is not also "not a DNS subdomain").
  const errors = new Map<string, FieldError>();
  for (const issue of result.error?.issues ?? []) {
    const path = fieldPath(issue.path);
    const message =
      issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message;
    if (!errors.has(path)) errors.set(path, { path, message });
  }
  for (const error of kindErrors(input, kinds, new Set(errors.keys()))) errors.set(error.path, error);
  if (!result.success || errors.size > 0) {
    const ordered = [...errors.values()].sort((a, b) => fieldRank(a.path) - fieldRank(b.path));
    throw new InvalidEventError(ordered);
  }
  return canonicalRequest(result.data.detail);
}

/**
 * A copy of `request` with only the detail's fields, in the detail's key order (version, cluster, kind, namespace,
 * name, reason, resourceVersion, correlationIds), the optional ones only when present: the one shape every event
 * detail is written in.
 */
export function canonicalRequest(request: ReconcileRequest): ReconcileRequest {
  const { version, cluster, kind, namespace, name, reason, resourceVersion, correlationIds } = request;
  return {
    version,
    cluster,
    kind,
    ...(namespace !== undefined ? { namespace } : {}),
    name,
    reason,
    ...(resourceVersion !== undefined ? { resourceVersion } : {}),
    ...(correlationIds !== undefined ? { correlationIds } : {}),
  };
}
