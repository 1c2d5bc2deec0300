/**
 * Lambda's asynchronous invocation (https://docs.aws.amazon.com/lambda/latest/dg/invocation-async.html): the event
 * is accepted at once; a failed run is retried `MaximumRetryAttempts` times (Lambda waits about 1 then 2 minutes;
 * the emulator waits `retryDelaysMs`), and after the last failure the invocation record goes to the on-failure
 * destination, here an SQS queue.
 */
import { queueUrlOfArn, sqs, type AwsEndpoint } from './awsCall.js';
import type { EmulatedFunction, InvokeResult } from './lambda.js';

/** Lambda's waits before the first and later retries, shortened (printed by the demo). */
export const DEFAULT_RETRY_DELAYS_MS = [1000, 2000] as const;

/** What one async invocation ended with. */
export interface AsyncOutcome {
  attempts: number;
  last: InvokeResult;
  /** True when the invocation record was sent to the on-failure destination. */
  deadLettered: boolean;
}

/** Options of {@link invokeAsync}. */
export interface AsyncInvokeOptions {
  ep: AwsEndpoint;
  retryDelaysMs?: readonly number[];
  /** Called after every failed attempt. */
  onFailure?: (fn: EmulatedFunction, result: InvokeResult, attempt: number) => void;
}

/** The record Lambda sends to an on-failure destination. */
function invocationRecord(fn: EmulatedFunction, event: unknown, last: InvokeResult, attempts: number) {
  return {
    version: '1.0',
    timestamp: new Date().toISOString(),
    requestContext: {
      requestId: last.requestId,
      functionArn: `${fn.spec.arn}:$LATEST`,
      condition: 'RetriesExhausted',
      approximateInvokeCount: attempts,
    },
    requestPayload: event,
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    responsePayload: last.ok ? last.result : last.error,
  };
}

/**
 * Invoke `fn` asynchronously with `event` and see it through its retries.
 * @returns how it ended (resolves after the last attempt; callers usually do not wait)
 * @throws AwsCallError when the on-failure destination cannot be written
 */
export async function invokeAsync(
  fn: EmulatedFunction,
  event: unknown,
  opts: AsyncInvokeOptions,
): Promise<AsyncOutcome> {
  const delays = opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  let attempts = 0;
  for (;;) {
    const last = await fn.invoke(event);
    attempts++;
    if (last.ok) return { attempts, last, deadLettered: false };
    opts.onFailure?.(fn, last, attempts);
    if (attempts > fn.spec.maxRetries) {
      const target = fn.spec.onFailureArn;
      if (!target?.includes(':sqs:')) return { attempts, last, deadLettered: false };
      await sqs(opts.ep, 'SendMessage', {
        QueueUrl: await queueUrlOfArn(opts.ep, target),
        MessageBody: JSON.stringify(invocationRecord(fn, event, last, attempts)),
      });
      return { attempts, last, deadLettered: true };
    }
    await new Promise((r) => setTimeout(r, delays[Math.min(attempts - 1, delays.length - 1)]));
  }
}
