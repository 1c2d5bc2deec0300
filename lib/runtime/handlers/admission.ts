/**
 * The `admission` handler (Function URL, the optional fast source of docs/architecture.md#lib-source): receives AdmissionReview v1 calls for
 * the resources the registered controllers watch (for CloneSet: clonesets, pods, pods/status and PVCs) at
 * `/<secret>/<cluster>`, forwards the object keys they concern, and always allows.
 * The API server cannot add headers to webhook calls, so the unguessable path segment authenticates the caller;
 * bodies over the size limit or not shaped like an AdmissionReview get a clear 4xx.
 */
import { timingSafeEqual } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context, LambdaFunctionURLEvent, LambdaFunctionURLResult } from 'aws-lambda';
import {
  InvalidAdmissionReviewError,
  MAX_ADMISSION_BODY_BYTES,
  handleAdmissionReview,
} from '../../source/admission.js';
import { withCorrelationIds } from '../../requests/index.js';
import { CONTROLLER_KINDS } from '../../controllers/kinds.js';
import type { ControllerKind } from '../../controllers/controller.js';
import { watchStreams } from '../../source/watchSpec.js';
import type { Runtime } from '../types.js';

function reply(statusCode: number, body: unknown): LambdaFunctionURLResult {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Build the handler for a runtime. */
export function admissionHandler(
  getRuntime: () => Runtime,
  logger: Logger = new Logger({ serviceName: 'kruiseless' }),
  controllers: readonly ControllerKind[] = CONTROLLER_KINDS,
) {
  const streams = watchStreams(controllers);
  return async (
    event: Pick<LambdaFunctionURLEvent, 'rawPath' | 'body' | 'isBase64Encoded'>,
    context?: Context,
  ): Promise<LambdaFunctionURLResult> => {
    if (context) logger.addContext(context);
    const runtime = getRuntime();
    const expected = await runtime.admissionSecret();
    const [secret = '', cluster = '', ...rest] = (event.rawPath ?? '').split('/').filter(Boolean);
    if (!expected || !sameSecret(secret, expected) || !cluster || rest.length > 0) {
      logger.warn('admission call rejected: wrong path or secret', { pathSegments: rest.length + 2 });
      return reply(404, { message: 'not found' });
    }
    const raw = event.body ?? '';
    const body = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
    if (Buffer.byteLength(body) > MAX_ADMISSION_BODY_BYTES) {
      logger.warn('admission body too large', {
        bytes: Buffer.byteLength(body),
        limit: MAX_ADMISSION_BODY_BYTES,
      });
      return reply(413, { message: `AdmissionReview body larger than ${MAX_ADMISSION_BODY_BYTES} bytes` });
    }
    try {
      const { response, requests } = handleAdmissionReview(cluster, body, streams);
      if (requests.length > 0) {
        try {
          const forwarded = withCorrelationIds(requests);
          await runtime.publisher.publish(forwarded);
          logger.debug('forwarded', { requests: forwarded });
        } catch (e) {
          // never block the cluster: the watch pump and the resync will deliver this change too
          logger.error('could not forward admission event', { error: (e as Error).message });
        }
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
