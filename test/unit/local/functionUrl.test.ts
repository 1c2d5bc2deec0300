/**
 * The emulated Function URL (lib/local/functionUrl.ts): the event Lambda builds from a request, the HTTP answer it
 * writes back from a result, and the HTTPS front over a recording function (a stand-in for the emulated Lambda,
 * whose own process model is tested in test/integration/aws/lambdaInvoker.test.ts).
 */
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { InvokeResult } from '../../../lib/emulator/aws/lambda.js';
import {
  FUNCTION_URL_MAX_BODY_BYTES,
  functionUrlAnswer,
  functionUrlEvent,
  serveFunctionUrl,
  type FunctionUrl,
} from '../../../lib/local/functionUrl.js';

const ok = (result: unknown): InvokeResult => ({ requestId: 'r', durationMs: 7, ok: true, result });

describe('functionUrlEvent', () => {
  it('passes a JSON body as text and splits the query off the path', () => {
    const e = functionUrlEvent(
      {
        method: 'POST',
        url: '/s3cr3t/prod/mutate-pod?timeout=5s',
        headers: { 'content-type': 'application/json', host: '127.0.0.1:9' },
        body: Buffer.from('{"a":1}'),
        sourceIp: '127.0.0.1',
      },
      Date.UTC(2026, 11, 4),
    );
    expect(e).toMatchObject({
      version: '2.0',
      rawPath: '/s3cr3t/prod/mutate-pod',
      rawQueryString: 'timeout=5s',
      body: '{"a":1}',
      isBase64Encoded: false,
      requestContext: {
        http: { method: 'POST', path: '/s3cr3t/prod/mutate-pod' },
        timeEpoch: Date.UTC(2026, 11, 4),
      },
    });
  });

  it('base64-encodes a binary body and leaves out an empty one', () => {
    const bin = functionUrlEvent(
      {
        method: 'POST',
        url: '/x',
        headers: { 'content-type': 'application/octet-stream' },
        body: Buffer.from([0, 255]),
        sourceIp: '',
      },
      0,
    );
    expect([bin.body, bin.isBase64Encoded]).toEqual(['AP8=', true]);
    const none = functionUrlEvent(
      { method: 'GET', url: '/', headers: {}, body: Buffer.alloc(0), sourceIp: '' },
      0,
    );
    expect(['body' in none, none.isBase64Encoded, none.rawQueryString]).toEqual([false, false, '']);
  });
});

describe('functionUrlAnswer', () => {
  it('takes a result with statusCode as the response, decoding a base64 body and lower-casing headers', () => {
    const a = functionUrlAnswer(
      ok({ statusCode: 404, headers: { 'Content-Type': 'text/plain' }, body: 'aGk=', isBase64Encoded: true }),
    );
    expect([a.statusCode, a.headers, a.body.toString()]).toEqual([
      404,
      { 'content-type': 'text/plain' },
      'hi',
    ]);
  });

  it('serialises any other result as a 200 JSON body, and a function error as 502', () => {
    const a = functionUrlAnswer(ok({ allowed: true }));
    expect([a.statusCode, a.body.toString()]).toEqual([200, '{"allowed":true}']);
    const e = functionUrlAnswer({
      requestId: 'r',
      durationMs: 3000,
      ok: false,
      error: { errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 3.00 seconds' },
    });
    expect([e.statusCode, JSON.parse(e.body.toString())]).toEqual([
      502,
      { Message: 'Task timed out after 3.00 seconds', Type: 'Sandbox.Timedout' },
    ]);
  });
});

describe('serveFunctionUrl', () => {
  const events: unknown[] = [];
  let front: FunctionUrl;
  beforeAll(async () => {
    front = await serveFunctionUrl({
      invoke: (event) => {
        events.push(event);
        return Promise.resolve(ok({ statusCode: 201, headers: { 'x-k': 'v' }, body: 'made' }));
      },
    });
  });
  afterAll(() => front.close());

  const post = (path: string, body: Buffer) =>
    new Promise<{ status: number; body: string; header?: string }>((resolve, reject) => {
      const req = https.request(
        `${front.url}${path}`,
        { method: 'POST', ca: front.caPem, headers: { 'content-type': 'application/json' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString(),
              header: res.headers['x-k'] as string | undefined,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  it('invokes the function with the event over TLS its CA verifies, and records the request', async () => {
    await expect(post('/p/q', Buffer.from('{"k":2}'))).resolves.toEqual({
      status: 201,
      body: 'made',
      header: 'v',
    });
    expect(events).toEqual([
      expect.objectContaining({ rawPath: '/p/q', body: '{"k":2}', isBase64Encoded: false }),
    ]);
    expect(front.served).toEqual([{ rawPath: '/p/q', statusCode: 201, invokeMs: 7 }]);
  });

  it('answers 413 for a body over the limit without invoking', async () => {
    const before = events.length;
    const r = await post('/big', Buffer.alloc(FUNCTION_URL_MAX_BODY_BYTES + 1, 0x20));
    expect([r.status, events.length]).toEqual([413, before]);
  });
});
