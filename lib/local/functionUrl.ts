/**
 * A Lambda Function URL in front of an emulated function (lib/emulator/aws/lambda.ts): an HTTPS server on
 * `https://127.0.0.1:<port>` whose requests become Function URL events (payload format 2.0) and whose answers are
 * the handler's result as Lambda's URL front end writes it back. The emulated stack skips `AWS::Lambda::Url`
 * (lib/emulator/aws/deploy.ts); this serves it for what needs the admission function behind a URL the API server
 * can call — the webhook benchmark (bench/webhook.ts). The certificate is of a CA of its own (a real Function URL
 * has a publicly trusted one), so a webhook configuration pointing here carries that CA's PEM.
 *
 * AWS documents the shapes: "Invoking Lambda function URLs" (request and response payloads). Followed here: a JSON
 * or text body is passed as is with `isBase64Encoded: false`, anything else base64; a result that is an object
 * with `statusCode` is the response, any other result is a 200 JSON body; a function error or timeout is a 502.
 */
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LambdaFunctionURLEvent } from 'aws-lambda';
import type { InvokeResult } from '../emulator/aws/lambda.js';
import { conversionCertificates } from './conversionServer.js';

/** Largest request body accepted, bytes (Lambda's synchronous invocation payload limit is 6 MB). */
export const FUNCTION_URL_MAX_BODY_BYTES = 6 * 1024 * 1024;

/** The HTTP answer written back for one invocation. */
export interface FunctionUrlAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A request as the server read it. */
export interface FunctionUrlRequest {
  method: string;
  /** Path and query, as on the request line (`/a/b?x=1`). */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  sourceIp: string;
}

/** What the front calls: a synchronous invoke of the function (lib/emulator/aws/lambda.ts `EmulatedFunction`). */
export interface InvokableFunction {
  invoke(event: unknown): Promise<InvokeResult>;
}

const TEXT_TYPES = /^(text\/|application\/(json|[a-z.+-]*\+json|xml|x-www-form-urlencoded)\b)/i;

/**
 * The Function URL event (payload format 2.0) of one request, as Lambda builds it.
 * @param now the request's time (ms since the epoch)
 */
export function functionUrlEvent(req: FunctionUrlRequest, now: number): LambdaFunctionURLEvent {
  const [rawPath = '/', rawQueryString = ''] = req.url.split(/\?(.*)/s, 2);
  const text = TEXT_TYPES.test(req.headers['content-type'] ?? '');
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    headers: req.headers,
    requestContext: {
      accountId: 'anonymous',
      apiId: 'emulated',
      domainName: req.headers.host ?? '127.0.0.1',
      domainPrefix: 'emulated',
      http: {
        method: req.method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: req.sourceIp,
        userAgent: req.headers['user-agent'] ?? '',
      },
      requestId: `${now}`,
      routeKey: '$default',
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    isBase64Encoded: !text && req.body.length > 0,
    ...(req.body.length > 0 ? { body: text ? req.body.toString('utf8') : req.body.toString('base64') } : {}),
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The HTTP answer of an invocation's outcome, as the Function URL front end writes it: a result with `statusCode`
 * is taken as the response (`body` base64-decoded when `isBase64Encoded`), any other result is serialised as a 200
 * `application/json` body (a string as is); a function error or timeout is 502 with Lambda's error record.
 */
export function functionUrlAnswer(outcome: InvokeResult): FunctionUrlAnswer {
  if (!outcome.ok)
    return {
      statusCode: 502,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(
        JSON.stringify({ Message: outcome.error.errorMessage, Type: outcome.error.errorType }),
      ),
    };
  const r = outcome.result;
  if (isRecord(r) && typeof r.statusCode === 'number') {
    const headers: Record<string, string> = {};
    if (isRecord(r.headers))
      for (const [k, v] of Object.entries(r.headers)) headers[k.toLowerCase()] = String(v);
    const body = typeof r.body === 'string' ? r.body : '';
    return {
      statusCode: r.statusCode,
      headers,
      body: r.isBase64Encoded === true ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8'),
    };
  }
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(typeof r === 'string' ? r : JSON.stringify(r ?? null)),
  };
}

/** One served request, for the caller's figures. */
export interface ServedRequest {
  rawPath: string;
  statusCode: number;
  /** The invocation's own duration (lib/emulator/aws/lambda.ts), ms: a cold one includes the instance's start. */
  invokeMs: number;
}

/** The running front. */
export interface FunctionUrl {
  /** `https://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  /** PEM of the CA that signed the server's certificate. */
  caPem: string;
  /** Every request answered so far, in order. */
  served: ServedRequest[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= FUNCTION_URL_MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size > FUNCTION_URL_MAX_BODY_BYTES ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Serve `fn` behind a Function URL (see the file comment). A body over {@link FUNCTION_URL_MAX_BODY_BYTES} is 413
 * without an invocation.
 * @throws Error when the certificates cannot be made (openssl) or the port cannot be bound
 */
export async function serveFunctionUrl(fn: InvokableFunction, host = '127.0.0.1'): Promise<FunctionUrl> {
  const { caPem, cert, key } = await conversionCertificates(host);
  const served: ServedRequest[] = [];
  const server = https.createServer({ cert, key }, (req, res) => {
    void (async () => {
      const body = await readBody(req);
      const reply = (a: FunctionUrlAnswer) => {
        res.writeHead(a.statusCode, { ...a.headers, 'content-length': String(a.body.length) });
        res.end(a.body);
      };
      if (!body) {
        reply({ statusCode: 413, headers: {}, body: Buffer.from('payload too large') });
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = String(v);
      const event = functionUrlEvent(
        {
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          headers,
          body,
          sourceIp: req.socket.remoteAddress ?? '',
        },
        Date.now(),
      );
      const outcome = await fn.invoke(event);
      const answer = functionUrlAnswer(outcome);
      served.push({ rawPath: event.rawPath, statusCode: answer.statusCode, invokeMs: outcome.durationMs });
      reply(answer);
    })().catch((e: unknown) => {
      res.writeHead(500);
      res.end(e instanceof Error ? e.message : String(e));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://${host}:${port}`,
    caPem,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
