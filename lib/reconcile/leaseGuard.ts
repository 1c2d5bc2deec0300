/**
 * The lease guard on cluster writes (review finding 3; docs/architecture.md#lease): DynamoDB writes are fenced by
 * the lease token, API-server writes cannot be. So a holder sends no API write once its lease has less than
 * {@link LEASE_WRITE_MARGIN_MS} left by its own clock, and a successor takes over only after the lease's end by
 * its clock: with clocks within the margin of each other, a holder's writes are sent before any successor reads.
 * In Lambda the guard never trips (the function is killed 60 s before its lease ends); it stops the holder that
 * outlives its lease where nothing kills it (`kruiseless local`, a stalled process).
 */
import type { Clock } from '../core/clock.js';
import { KruiselessError } from '../core/errors.js';
import { objectKeyText } from '../core/objectKey.js';
import { discoveryReads } from '../kube/discoveryReads.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../kube/request.js';
import type { KubeClient } from '../kube/types.js';
import type { Lease } from '../state/index.js';

/**
 * How long before its lease ends a holder stops sending API writes, ms: one request attempt's deadline
 * (lib/kube/request.ts `DEFAULT_REQUEST_TIMEOUT_MS`), so the last attempt sent is answered or abandoned by the
 * client before the lease ends.
 */
export const LEASE_WRITE_MARGIN_MS = DEFAULT_REQUEST_TIMEOUT_MS;

/** A holder was about to send an API write with less than the margin left on its lease; nothing was sent. */
export class LeaseEndingError extends KruiselessError {
  /**
   * @param operation the refused write, e.g. `patch pods web-abcde`
   * @param expiresAt the lease's end, epoch ms; `now` the holder's clock, epoch ms
   */
  constructor(
    readonly operation: string,
    readonly key: string,
    readonly expiresAt: number,
    readonly now: number,
  ) {
    super(
      `${operation} on behalf of ${key} not sent: the lease ends in ${expiresAt - now} ms (< ${LEASE_WRITE_MARGIN_MS} ms)`,
    );
  }
}

/**
 * `kube` with every write (create, replace, patch, delete) refused once `clock() ≥ lease().expiresAt − marginMs`;
 * Events are dropped from then on (recordEvent never throws); reads pass through.
 * @param lease the held lease, read at each write (a renewal moves its end)
 * @param marginMs default {@link LEASE_WRITE_MARGIN_MS}
 * @returns a client whose writes reject with {@link LeaseEndingError} (before any I/O) past that point
 */
export function leaseGuardedKube(
  kube: KubeClient,
  lease: () => Lease,
  clock: Clock,
  marginMs = LEASE_WRITE_MARGIN_MS,
): KubeClient {
  const ending = (): boolean => clock() >= lease().expiresAt - marginMs;
  const check = (operation: string): void => {
    const { key, expiresAt } = lease();
    if (ending()) throw new LeaseEndingError(operation, objectKeyText(key), expiresAt, clock());
  };
  return {
    get: (resource, ref) => kube.get(resource, ref),
    list: (resource, options) => kube.list(resource, options),
    create: async (resource, object) => {
      check(`create ${resource.plural} ${object.metadata.name ?? ''}`);
      return kube.create(resource, object);
    },
    replace: async (resource, object, options) => {
      check(`replace ${resource.plural} ${object.metadata.name ?? ''}`);
      return kube.replace(resource, object, options);
    },
    patch: async (resource, ref, patch, options) => {
      check(`patch ${resource.plural} ${ref.name}`);
      return kube.patch(resource, ref, patch, options);
    },
    delete: async (resource, ref, preconditions, options) => {
      check(`delete ${resource.plural} ${ref.name}`);
      return kube.delete(resource, ref, preconditions, options);
    },
    // best effort and never throwing (KubeClient.recordEvent): past the point the Event is dropped
    recordEvent: async (resource, object, event, options) => {
      if (!ending()) await kube.recordEvent(resource, object, event, options);
    },
    serverVersion: () => kube.serverVersion(),
    ...discoveryReads(kube),
  };
}
