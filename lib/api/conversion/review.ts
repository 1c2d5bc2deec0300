/**
 * The ConversionReview exchange of a CRD conversion webhook (apiextensions.k8s.io/v1 `ConversionReview`, Kubernetes'
 * "Webhook conversion"; OpenKruise answers it with controller-runtime's `pkg/webhook/conversion`): the API server
 * POSTs `{request: {uid, desiredAPIVersion, objects[]}}` and expects `{response: {uid, convertedObjects[],
 * result: {status}}}`, every object converted or a `Failure` result whose message the API server's caller sees.
 * Pure: the transport (the admission function's Function URL, the embedded runtime's HTTPS server) is elsewhere.
 */
import * as z from 'zod';
import { errorMessage } from '../../core/errors.js';
import type { JsonObject } from '../types.js';
import { ConversionError, type CrdConverter } from './converter.js';

/** The ConversionReview version understood, and the only one the CRDs' `conversionReviewVersions` list. */
export const CONVERSION_REVIEW_API_VERSION = 'apiextensions.k8s.io/v1';

/** Largest ConversionReview body accepted, bytes (a list read converts every object of the page in one review). */
export const MAX_CONVERSION_BODY_BYTES = 6 * 1024 * 1024;

const reviewSchema = z.object({
  apiVersion: z.literal(CONVERSION_REVIEW_API_VERSION),
  kind: z.literal('ConversionReview'),
  request: z.object({
    uid: z.string().min(1),
    desiredAPIVersion: z.string().min(1),
    objects: z.array(z.record(z.string(), z.unknown())),
  }),
});

/** The `result` of a response: `metav1.Status` with the fields the API server reads. */
export interface ConversionResult {
  status: 'Success' | 'Failure';
  /** Why it failed (Failure only). */
  message?: string;
}

/** The ConversionReview answered. */
export interface ConversionReviewResponse {
  apiVersion: typeof CONVERSION_REVIEW_API_VERSION;
  kind: 'ConversionReview';
  response: {
    /** The request's uid; empty when the body was not a ConversionReview. */
    uid: string;
    /** The objects in the request's order, each of `desiredAPIVersion`; empty on Failure. */
    convertedObjects: JsonObject[];
    result: ConversionResult;
  };
}

/** An HTTP answer: 200 with a review (Success or Failure), or 400 with a Failure review for an unreadable body. */
export interface ConversionAnswer {
  statusCode: 200 | 400 | 413;
  review: ConversionReviewResponse;
}

function answer(
  statusCode: ConversionAnswer['statusCode'],
  uid: string,
  result: ConversionResult,
  objects: JsonObject[] = [],
): ConversionAnswer {
  return {
    statusCode,
    review: {
      apiVersion: CONVERSION_REVIEW_API_VERSION,
      kind: 'ConversionReview',
      response: { uid, convertedObjects: objects, result },
    },
  };
}

/** `group/version` split; the core group has no slash. */
function groupVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.lastIndexOf('/');
  return i < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/**
 * Converts one object to `desiredAPIVersion` with the converter of its group/Kind (an object already of that
 * version is returned as it is).
 * @throws ConversionError for an object with no apiVersion or kind, a group/Kind no converter handles, or a
 *   version the converter does not serve; what the converter throws
 */
export function convertObject(
  object: JsonObject,
  desiredAPIVersion: string,
  converters: readonly CrdConverter[],
): JsonObject {
  const { apiVersion, kind } = object;
  const name = describe(object);
  if (typeof apiVersion !== 'string' || typeof kind !== 'string')
    throw new ConversionError(`${name}: an object to convert needs apiVersion and kind`);
  const from = groupVersion(apiVersion);
  const to = groupVersion(desiredAPIVersion);
  if (from.group !== to.group)
    throw new ConversionError(
      `${name}: cannot convert ${apiVersion} to another group (${desiredAPIVersion})`,
    );
  const converter = converters.find((c) => c.group === from.group && c.kind === kind);
  if (!converter) throw new ConversionError(`${name}: no converter for ${kind}.${from.group}`);
  for (const v of [from.version, to.version])
    if (!converter.versions.includes(v))
      throw new ConversionError(
        `${name}: ${kind}.${from.group} has no version ${v} (converts ${converter.versions.join(', ')})`,
      );
  if (from.version === to.version) return object;
  return converter.convert(object, from.version, to.version);
}

/** `<kind> <namespace>/<name>` of an object, for messages. */
function describe(object: JsonObject): string {
  const meta =
    typeof object.metadata === 'object' && object.metadata !== null && !Array.isArray(object.metadata)
      ? object.metadata
      : {};
  const kind = typeof object.kind === 'string' ? object.kind : 'object';
  const ns = typeof meta.namespace === 'string' && meta.namespace ? `${meta.namespace}/` : '';
  return `${kind} ${ns}${typeof meta.name === 'string' ? meta.name : '(no name)'}`;
}

/**
 * Answers one ConversionReview. Never throws: a body that is not JSON or not a ConversionReview v1 gets a 400 with a
 * Failure review (uid empty), one over {@link MAX_CONVERSION_BODY_BYTES} a 413; an object that cannot be converted
 * (unknown group/Kind or version, a converter's ConversionError) fails the whole review with a Failure result
 * naming the object, as the API server accepts no partial answer.
 * @param body the raw JSON text of the request
 * @param converters the registered converters (lib/controllers/conversions.ts)
 */
export function handleConversionReview(body: string, converters: readonly CrdConverter[]): ConversionAnswer {
  if (Buffer.byteLength(body) > MAX_CONVERSION_BODY_BYTES)
    return answer(413, '', {
      status: 'Failure',
      message: `ConversionReview body larger than ${MAX_CONVERSION_BODY_BYTES} bytes`,
    });
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return answer(400, '', { status: 'Failure', message: 'body is not JSON' });
  }
  const parsed = reviewSchema.safeParse(json);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    const uid = (json as { request?: { uid?: unknown } } | null)?.request?.uid;
    return answer(400, typeof uid === 'string' ? uid : '', {
      status: 'Failure',
      message: `not a ConversionReview ${CONVERSION_REVIEW_API_VERSION}: ${detail}`,
    });
  }
  const { uid, desiredAPIVersion, objects } = parsed.data.request;
  try {
    const converted = objects.map((o) => convertObject(o as JsonObject, desiredAPIVersion, converters));
    return answer(200, uid, { status: 'Success' }, converted);
  } catch (e) {
    const message = e instanceof ConversionError ? e.message : `conversion failed: ${errorMessage(e)}`;
    return answer(200, uid, { status: 'Failure', message });
  }
}
