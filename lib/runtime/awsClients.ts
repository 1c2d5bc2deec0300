/**
 * The configuration every AWS SDK client of the functions is built with (DynamoDB, EventBridge, EventBridge
 * Scheduler, SSM): deadlines, so a blackholed connection fails in seconds instead of running to the Lambda timeout
 * with the lease held (review finding 14). The SDK's own retries (standard mode, 3 attempts) retry a timed-out
 * attempt like any transient error.
 */

/** Longest wait for a TCP/TLS connection to an AWS endpoint, ms. */
export const AWS_CONNECTION_TIMEOUT_MS = 3_000;

/**
 * Longest time one attempt may take, from sending it to the end of the response, ms: DynamoDB, EventBridge and Scheduler answer
 * in milliseconds; three attempts that all time out end in about 15 s, inside every function's timeout but
 * admission's (5 s, which its own deadline covers).
 */
export const AWS_REQUEST_TIMEOUT_MS = 5_000;

/**
 * The part of an SDK client's configuration set here (the SDK's `NodeHttpHandlerOptions`). `throwOnRequestTimeout`:
 * without it @smithy/node-http-handler 4.x only logs a warning when `requestTimeout` passes and keeps waiting.
 */
export interface AwsClientConfig {
  requestHandler: { connectionTimeout: number; requestTimeout: number; throwOnRequestTimeout: true };
}

/**
 * The SDK client configuration with the deadlines; region, credentials and endpoint come from the environment.
 * @param overrides other deadlines, ms (tests)
 */
export function awsClientConfig(
  overrides: { connectionTimeoutMs?: number; requestTimeoutMs?: number } = {},
): AwsClientConfig {
  return {
    requestHandler: {
      connectionTimeout: overrides.connectionTimeoutMs ?? AWS_CONNECTION_TIMEOUT_MS,
      requestTimeout: overrides.requestTimeoutMs ?? AWS_REQUEST_TIMEOUT_MS,
      throwOnRequestTimeout: true,
    },
  };
}
