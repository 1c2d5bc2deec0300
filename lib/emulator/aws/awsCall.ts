/**
 * SigV4-signed calls to the emulated AWS endpoint for the two services the project has no SDK client for: SQS (JSON
 * protocol, `AmazonSQS.<Action>`) and STS (query protocol). The emulator needs them only to create queues, move
 * messages and assume the functions' roles; the deployed functions never call either.
 */
import { Hash } from '@smithy/hash-node';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { KruiselessError } from '../../core/errors.js';

/** Where and as whom the emulator calls. */
export interface AwsEndpoint {
  /** e.g. `http://127.0.0.1:5000` */
  url: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** An error answer of the emulated service. */
export class AwsCallError extends KruiselessError {
  constructor(
    readonly service: string,
    readonly action: string,
    readonly status: number,
    body: string,
  ) {
    super(`${service} ${action} failed (HTTP ${status}): ${body.slice(0, 500)}`);
    this.name = 'AwsCallError';
  }
}

async function signedPost(
  ep: AwsEndpoint,
  service: string,
  action: string,
  headers: Record<string, string>,
  body: string,
): Promise<string> {
  const url = new URL(ep.url);
  const signer = new SignatureV4({
    credentials: ep.credentials,
    region: ep.region,
    service,
    sha256: Hash.bind(null, 'sha256'),
  });
  const req = await signer.sign(
    new HttpRequest({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: '/',
      headers: { host: url.host, ...headers },
      body,
    }),
  );
  const res = await fetch(`${ep.url}/`, { method: 'POST', headers: req.headers, body });
  const text = await res.text();
  if (!res.ok) throw new AwsCallError(service, action, res.status, text);
  return text;
}

/**
 * One action of a service speaking AWS's JSON protocol (`application/x-amz-json-<version>`, the action named by
 * `x-amz-target: <targetPrefix>.<action>`).
 * @returns the parsed answer (`{}` for actions that answer nothing)
 * @throws AwsCallError on an error answer
 */
async function jsonCall<T>(
  ep: AwsEndpoint,
  service: string,
  version: '1.0' | '1.1',
  targetPrefix: string,
  action: string,
  input: Record<string, unknown>,
): Promise<T> {
  const text = await signedPost(
    ep,
    service,
    action,
    { 'content-type': `application/x-amz-json-${version}`, 'x-amz-target': `${targetPrefix}.${action}` },
    JSON.stringify(input),
  );
  return (text ? JSON.parse(text) : {}) as T;
}

/**
 * One SQS action in the JSON protocol.
 * @returns the parsed answer (`{}` for actions that answer nothing)
 * @throws AwsCallError on an error answer
 */
export function sqs<T = Record<string, unknown>>(
  ep: AwsEndpoint,
  action: string,
  input: Record<string, unknown>,
): Promise<T> {
  return jsonCall<T>(ep, 'sqs', '1.0', 'AmazonSQS', action, input);
}

/**
 * One SSM action in the JSON protocol (e.g. `PutParameter`, to store the admission master secret the way an
 * operator does before the first webhook call).
 * @returns the parsed answer
 * @throws AwsCallError on an error answer
 */
export function ssm<T = Record<string, unknown>>(
  ep: AwsEndpoint,
  action: string,
  input: Record<string, unknown>,
): Promise<T> {
  return jsonCall<T>(ep, 'ssm', '1.1', 'AmazonSSM', action, input);
}

/**
 * One STS action in the query protocol.
 * @returns the XML answer's text values by element name (the first of each name)
 * @throws AwsCallError on an error answer
 */
export async function sts(
  ep: AwsEndpoint,
  action: string,
  params: Record<string, string>,
): Promise<Record<string, string>> {
  const body = new URLSearchParams({ Action: action, Version: '2011-06-15', ...params }).toString();
  const xml = await signedPost(
    ep,
    'sts',
    action,
    { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  );
  const out: Record<string, string> = {};
  for (const m of xml.matchAll(/<([A-Za-z]+)>([^<]*)<\/\1>/g)) out[m[1]] ??= m[2];
  return out;
}

/** The queue URL of an SQS queue ARN (`arn:aws:sqs:<region>:<account>:<name>`). */
export async function queueUrlOfArn(ep: AwsEndpoint, arn: string): Promise<string> {
  const [, , , , account, name] = arn.split(':');
  const out = await sqs<{ QueueUrl: string }>(ep, 'GetQueueUrl', {
    QueueName: name,
    QueueOwnerAWSAccountId: account,
  });
  return out.QueueUrl;
}
