/**
 * What the loop-level tests of test/unit/reconcile share: a request builder for one object key, and the deps of one
 * invocation of the real loop (lib/reconcile/reconcile.ts `reconcileObject`) with an in-memory lease store, a clock
 * the test drives, inline waits up to 10 s and a dirty-mark poll every 250 ms (the reconcile handler's).
 */
import { silentLogger } from '../../../../lib/core/logger.js';
import type { ObjectKey } from '../../../../lib/core/objectKey.js';
import type { KubeClient } from '../../../../lib/kube/types.js';
import type { LoopDeps } from '../../../../lib/reconcile/reconcile.js';
import {
  EVENT_VERSION,
  type ReconcileReason,
  type ReconcileRequest,
} from '../../../../lib/requests/index.js';
import type { LeaseStore } from '../../../../lib/state/index.js';

/** `(reason, resourceVersion?) → ReconcileRequest` for `key` (cluster, kind, namespace, name). */
export function requestFor(
  key: ObjectKey & { cluster: string; kind: string },
): (reason: ReconcileReason, resourceVersion?: string) => ReconcileRequest {
  return (reason, resourceVersion) => ({
    version: EVENT_VERSION,
    ...key,
    reason,
    ...(resourceVersion === undefined ? {} : { resourceVersion }),
  });
}

/**
 * The deps of one invocation: `now` is the clock's reading at its start (the deadline is 60 s after it), `clock` the
 * clock, `sleep` advances it; holder `req-1/1` unless given.
 */
export function loopDeps(o: {
  kube: KubeClient;
  leases: LeaseStore;
  now: number;
  clock: () => number;
  sleep: (ms: number) => Promise<void>;
  holder?: string;
}): LoopDeps & { kube: KubeClient } {
  return {
    kube: o.kube,
    leases: o.leases,
    requeue: { requeueAfter: async () => undefined },
    log: silentLogger,
    clock: o.clock,
    holder: o.holder ?? 'req-1/1',
    sleep: o.sleep,
    deadlineMs: o.now + 60_000,
    leaseDurationMs: 900_000,
    maxInlineWaitSeconds: 10,
    maxPasses: 5,
    dirtyPollMs: 250,
  };
}
