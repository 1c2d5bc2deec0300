/**
 * The admission function's parameter reader (SSM GetParameter, decrypted), kept in its own module so that only the
 * admission bundle carries the SSM client.
 */
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import type { ParameterReader } from './aws.js';
import { awsClientConfig } from './awsClients.js';

let client: SSMClient | undefined;

/**
 * Reads SecureString `name` with decryption.
 * @returns its value, undefined when the parameter has none
 * @throws the SDK's errors (ParameterNotFound, AccessDenied, ...)
 */
export const readSsmParameter: ParameterReader = async (name) => {
  client ??= new SSMClient(awsClientConfig());
  const r = await client.send(new GetParameterCommand({ Name: name, WithDecryption: true }));
  return r.Parameter?.Value;
};
