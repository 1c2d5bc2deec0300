/**
 * A parameter read once per container and kept, its failures never kept (review finding 7): a rejected read is
 * retried with backoff inside the call, and after a call that failed every attempt, later calls wait out a growing
 * cool-down (failing fast meanwhile) before reading again, so a throttled SSM is neither hammered nor cached as
 * broken for the container's life. Backoff: lib/core/backoff.ts `exponentialDelay`.
 */
import { exponentialDelay } from '../core/backoff.js';
import { systemClock, type Clock } from '../core/clock.js';
import { errorMessage, KruiselessError } from '../core/errors.js';

/** Thrown when the parameter could not be read: every attempt of this call failed, or the cool-down is running. */
export class ParameterUnavailableError extends KruiselessError {
  constructor(
    readonly parameter: string,
    cause: unknown,
  ) {
    super(`parameter ${parameter} unavailable: ${errorMessage(cause)}`, { cause });
    this.name = 'ParameterUnavailableError';
  }
}

/** How reads are retried (all times in ms). */
export interface ParameterRetry {
  /** Reads per call, ≥ 1. */
  attempts: number;
  /** Wait before the second read of a call; doubles for each further one. */
  retryDelayMs: number;
  /** Cool-down after the first call that failed every attempt; doubles with each such call, up to `maxCoolDownMs`. */
  coolDownMs: number;
  /** Longest cool-down. */
  maxCoolDownMs: number;
}

/**
 * Three reads 100 ms and 200 ms apart (all three well inside the admission webhook's 2 s timeout), then a cool-down
 * of 1 s doubling to 1 min.
 */
export const DEFAULT_PARAMETER_RETRY: ParameterRetry = {
  attempts: 3,
  retryDelayMs: 100,
  coolDownMs: 1_000,
  maxCoolDownMs: 60_000,
};

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The reader of one parameter: the first successful value (undefined included) is kept; concurrent calls share one
 * read.
 * @param name the parameter's name (for the error)
 * @param read one read; rejects on failure
 * @returns a function resolving the value
 * @throws (the returned function rejects with) ParameterUnavailableError naming the last failure
 */
export function cachedParameter(
  name: string,
  read: () => Promise<string | undefined>,
  opts: { retry?: ParameterRetry; now?: Clock; sleep?: (ms: number) => Promise<void> } = {},
): () => Promise<string | undefined> {
  const retry = opts.retry ?? DEFAULT_PARAMETER_RETRY;
  const now = opts.now ?? systemClock;
  const sleep = opts.sleep ?? defaultSleep;
  let value: { v: string | undefined } | undefined;
  let inFlight: Promise<string | undefined> | undefined;
  let failedCalls = 0;
  let retryAt = 0;
  let lastError: unknown;

  async function readWithRetries(): Promise<string | undefined> {
    for (let attempt = 1; ; attempt++) {
      try {
        const v = await read();
        value = { v };
        failedCalls = 0;
        return v;
      } catch (e) {
        lastError = e;
        if (attempt >= retry.attempts) break;
        await sleep(exponentialDelay(attempt, retry.retryDelayMs, Number.MAX_SAFE_INTEGER));
      }
    }
    failedCalls++;
    retryAt = now() + exponentialDelay(failedCalls, retry.coolDownMs, retry.maxCoolDownMs);
    throw new ParameterUnavailableError(name, lastError);
  }

  return () => {
    if (value) return Promise.resolve(value.v);
    if (inFlight) return inFlight;
    if (now() < retryAt) return Promise.reject(new ParameterUnavailableError(name, lastError));
    inFlight = readWithRetries().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}
