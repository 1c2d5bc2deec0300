/**
 * A controller's {@link Reconciler} from its pass function and read scopes, with every API write of the pass sent
 * through the lease guard (./leaseGuard.ts; review finding 3: API writes are not token-fenced). Every pod-set
 * controller's reconcile.ts is this one call.
 */
import type { Clock } from '../core/clock.js';
import type { ObjectKey } from '../core/objectKey.js';
import type { EventCorrelationState } from '../kube/eventCorrelation.js';
import type { KubeClient } from '../kube/types.js';
import type { ReconcileReason } from '../requests/schema.js';
import type { Lease } from '../state/index.js';
import { leaseGuardedKube } from './leaseGuard.js';
import type { PassResult, Reconciler } from './reconcile.js';

/** A controller's pass: what lib/controllers/<kind>/pass.ts `runPass` is. */
export type GuardedPass<D, P, Scope> = (
  deps: D,
  key: ObjectKey,
  lease: Lease,
  recordedEvents: Set<string>,
  scope: Scope,
  eventCorrelation: { state: EventCorrelationState },
) => Promise<PassResult<P>>;

/**
 * The reconciler of `pass`: its deps' client wrapped by {@link leaseGuardedKube} over the pass's lease.
 * @param readScope the read scope of a request reason
 */
export function guardedReconciler<D extends { kube: KubeClient; clock: Clock }, P, Scope>(
  readScope: (reason: ReconcileReason) => Scope,
  pass: GuardedPass<D, P, Scope>,
): Reconciler<D, P, Scope> {
  return {
    readScope,
    pass: (deps, key, env) =>
      pass(
        { ...deps, kube: leaseGuardedKube(deps.kube, () => env.lease, deps.clock) },
        key,
        env.lease,
        env.recordedEvents,
        env.scope,
        env.eventCorrelation,
      ),
  };
}
