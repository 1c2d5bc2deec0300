/**
 * The Lambda-like invoker of lib/emulator/aws on real zips and moto's SQS: init once per instance, the context
 * object, a handler error leaving the instance warm, a timeout killing it, and async retries ending with Lambda's
 * invocation record in the on-failure queue. The zips are written here (three small handlers) so that each fault
 * is caused for real. Skipped, with the reason printed, only when moto cannot be installed.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { invokeAsync } from '../../../lib/emulator/aws/asyncInvoke.js';
import { sqs, type AwsEndpoint } from '../../../lib/emulator/aws/awsCall.js';
import { EmulatedFunction, type InvokeResult } from '../../../lib/emulator/aws/lambda.js';
import type { FunctionSpec } from '../../../lib/emulator/aws/stackModel.js';
import { startMoto } from '../../../lib/emulator/moto.js';
import type { LocalDynamo } from '../../../lib/emulator/localDynamo.js';
import { motoSuite } from '../support/moto.js';

const describeIfMoto = motoSuite('test/integration/aws/lambdaInvoker.test.ts');

const HANDLERS = `
let calls = 0; // module state: survives between invocations of one warm instance
export const echo = async (event, context) => ({
  event, calls: ++calls, fn: context.functionName, id: context.awsRequestId, left: context.getRemainingTimeInMillis(),
  region: process.env.AWS_REGION, table: process.env.TABLE_NAME,
});
export const fail = async () => { throw new TypeError('no such CloneSet'); };
export const slow = () => new Promise((r) => setTimeout(r, 5000));
`;

let dir: string;
let moto: LocalDynamo;
let ep: AwsEndpoint;
const stopping: EmulatedFunction[] = [];

function fn(handler: string, extra: Partial<FunctionSpec> = {}): EmulatedFunction {
  const f = new EmulatedFunction(
    {
      logicalId: handler,
      name: `test-${handler}`,
      arn: `arn:aws:lambda:us-east-1:123456789012:function:test-${handler}`,
      handler: `functions/h.${handler}`,
      zip: path.join(dir, 'h.zip'),
      timeoutSeconds: 30,
      memoryMb: 128,
      env: { TABLE_NAME: 'from-template' },
      roleArn: 'arn:aws:iam::123456789012:role/r',
      concurrency: 2,
      maxRetries: 2,
      ...extra,
    },
    { runtimeEnv: { AWS_REGION: 'us-east-1' }, workDir: dir, logFile: path.join(dir, `${handler}.log`) },
  );
  stopping.push(f);
  return f;
}

describeIfMoto('the emulated Lambda invoker', () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kruiseless-invoker-'));
    fs.mkdirSync(path.join(dir, 'src', 'functions'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', 'functions', 'h.mjs'), HANDLERS);
    execFileSync('python3', ['-m', 'zipfile', '-c', path.join(dir, 'h.zip'), 'functions'], {
      cwd: path.join(dir, 'src'),
    });
    moto = await startMoto();
    ep = { url: moto.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } };
  }, 60_000);

  afterAll(async () => {
    await Promise.all(stopping.map((f) => f.stop()));
    await moto?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('initialises once, then serves invocations warm with the context and the environment', async () => {
    const f = fn('echo');
    const observed: InvokeResult[] = [];
    const unobserve = f.onInvoked((r) => observed.push(r));
    f.onInvoked(() => {
      throw new Error('an observer that fails changes nothing');
    });
    const a = await f.invoke({ n: 1 });
    unobserve();
    const b = await f.invoke({ n: 2 });
    // told of the first invocation only, with the result the caller got
    expect(observed).toEqual([a]);
    for (const [r, n] of [
      [a, 1],
      [b, 2],
    ] as const) {
      expect(r.ok).toBe(true);
      const out = (r as { result: Record<string, unknown> }).result;
      expect(out).toMatchObject({ event: { n }, calls: n, fn: 'test-echo', id: r.requestId });
      expect(out.region).toBe('us-east-1');
      expect(out.table).toBe('from-template');
      expect(out.left).toBeGreaterThan(25_000);
      expect(out.left).toBeLessThanOrEqual(30_000);
    }
    expect(f.stats).toEqual({ invocations: 2, errors: 0, timeouts: 0, coldStarts: 1 });
  }, 30_000);

  test('recycle stops the idle instances: the next invocation starts cold with fresh module state', async () => {
    const f = fn('echo');
    await f.invoke({ n: 1 });
    const warm = await f.invoke({ n: 2 });
    expect((warm as { result: { calls: number } }).result.calls).toBe(2);
    await expect(f.recycle()).resolves.toBe(1);
    const cold = await f.invoke({ n: 3 });
    expect((cold as { result: { calls: number } }).result.calls).toBe(1);
    expect(f.stats).toEqual({ invocations: 3, errors: 0, timeouts: 0, coldStarts: 2 });
    await expect(f.recycle()).resolves.toBe(1);
    await expect(f.recycle()).resolves.toBe(0);
  }, 30_000);

  test('kills an instance at the timeout; the next invocation starts cold', async () => {
    const f = fn('slow', { timeoutSeconds: 1 });
    const r = await f.invoke({});
    expect(r).toMatchObject({
      ok: false,
      error: { errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 1.00 seconds' },
    });
    expect(r.durationMs).toBeGreaterThanOrEqual(1000);
    expect(r.durationMs).toBeLessThan(3000);
    await f.invoke({});
    expect(f.stats).toEqual({ invocations: 2, errors: 2, timeouts: 2, coldStarts: 2 });
  }, 30_000);

  test('retries a failing async invocation twice, then sends the invocation record to the on-failure queue', async () => {
    const { QueueUrl } = await sqs<{ QueueUrl: string }>(ep, 'CreateQueue', { QueueName: 'dlq' });
    const f = fn('fail', { onFailureArn: 'arn:aws:sqs:us-east-1:123456789012:dlq' });
    const attempts: number[] = [];
    const out = await invokeAsync(
      f,
      { detail: { name: 'x' } },
      { ep, retryDelaysMs: [10, 10], onFailure: (_f, _r, n) => attempts.push(n) },
    );
    expect(attempts).toEqual([1, 2, 3]);
    expect(out).toMatchObject({ attempts: 3, deadLettered: true });
    // a handler error leaves the instance warm: one cold start for three attempts
    expect(f.stats).toEqual({ invocations: 3, errors: 3, timeouts: 0, coldStarts: 1 });
    const { Messages } = await sqs<{ Messages: { Body: string }[] }>(ep, 'ReceiveMessage', {
      QueueUrl,
      MaxNumberOfMessages: 10,
    });
    expect(Messages).toHaveLength(1);
    expect(JSON.parse(Messages[0].Body)).toMatchObject({
      version: '1.0',
      requestContext: {
        functionArn: 'arn:aws:lambda:us-east-1:123456789012:function:test-fail:$LATEST',
        condition: 'RetriesExhausted',
        approximateInvokeCount: 3,
      },
      requestPayload: { detail: { name: 'x' } },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      responsePayload: { errorType: 'TypeError', errorMessage: 'no such CloneSet' },
    });
  }, 30_000);
});
