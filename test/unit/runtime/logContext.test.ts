/**
 * Lambda context on the handlers' log lines (Powertools Logger `addContext`): cold start on the first invocation of
 * a container only, and the request id of each invocation. An event the handler rejects needs no runtime, so the
 * reconcile handler runs here for real without AWS.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Context } from 'aws-lambda';
import { reconcileHandler } from '../../../lib/runtime/handlers/reconcile.js';
import type { Runtime } from '../../../lib/runtime/types.js';
import { CapturingLogger } from '../support/capturingLogger.js';

function context(requestId: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'kruiseless-ci-reconcile',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:kruiseless-ci-reconcile',
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: '/aws/lambda/kruiseless-ci-reconcile',
    logStreamName: 'stream',
    getRemainingTimeInMillis: () => 120_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

describe('reconcile handler log context', () => {
  const before = process.env.AWS_LAMBDA_INITIALIZATION_TYPE;
  beforeAll(() => {
    process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand'; // as Lambda sets it; Powertools reads it at construction
  });
  afterAll(() => {
    if (before === undefined) delete process.env.AWS_LAMBDA_INITIALIZATION_TYPE;
    else process.env.AWS_LAMBDA_INITIALIZATION_TYPE = before;
  });

  it('puts cold start and the request id on every line', async () => {
    const logger = new CapturingLogger();
    const noRuntime = (): Runtime => {
      throw new Error('a rejected event must not reach the runtime');
    };
    const handler = reconcileHandler(noRuntime, logger);
    await expect(handler({ source: 'other' }, context('req-1'))).rejects.toThrow('invalid reconcile event');
    await expect(handler({ source: 'other' }, context('req-2'))).rejects.toThrow('invalid reconcile event');
    expect(
      logger.lines.map((l) => [l.message, l.cold_start, l.function_request_id, l.function_name]),
    ).toEqual([
      ['rejected reconcile event', true, 'req-1', 'kruiseless-ci-reconcile'],
      ['rejected reconcile event', false, 'req-2', 'kruiseless-ci-reconcile'],
    ]);
  });
});
