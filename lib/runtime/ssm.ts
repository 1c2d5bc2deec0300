/**
 * The admission function's parameter reader (SSM GetParameter, decrypted), kept in its own module so that only the
 * admission bundle carries the SSM client. One SDK attempt with short deadlines: the retries are
 * ./cachedParameter.ts's, so that all of them fit in the webhook's 2 s timeout (3 × 500 ms + 300 ms of backoff).
 */
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import type { ParameterReader } from './aws.js';
import { awsClientConfig } from './awsClients.js';

/** Deadline of one GetParameter attempt, for the connection and for the answer each, ms. */
export const SSM_READ_TIMEOUT_MS = 500;

let client: SSMClient | undefined;

/**
 * Reads SecureString `name` with decryption, one attempt.
 * @returns its value, undefined when the parameter has none
 * @throws the SDK's errors (ParameterNotFound, AccessDenied, ThrottlingException, TimeoutError, ...)
 */
export const readSsmParameter: ParameterReader = async (name) => {
  client ??= new SSMClient({
    ...awsClientConfig({ connectionTimeoutMs: SSM_READ_TIMEOUT_MS, requestTimeoutMs: SSM_READ_TIMEOUT_MS }),
    maxAttempts: 1,
  });
  const r = await client.send(new GetParameterCommand({ Name: name, WithDecryption: true }));
  return r.Parameter?.Value;
};
