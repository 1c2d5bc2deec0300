/**
 * A controller's {@link Reconciler} from its pass function and read scopes, with every API write of the pass sent
 * through the lease guard (./leaseGuard.ts; review finding 3: API writes are not token-fenced). Every pod-set
 * controller's reconcile.ts is this one call.
 */
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { ObjectKey } from '../core/objectKey.js';
import type { EventCorrelationState } from '../kube/eventCorrelation.js';
import type { KubeClient, ObjectRef } from '../kube/types.js';
import type { ReconcileReason } from '../requests/schema.js';
import type { Lease } from '../state/index.js';
import { flooredKube } from '../kube/listFloors.js';
import { frozenListsKube } from '../kube/frozenLists.js';
import { ReusedLists, reusingKube } from '../kube/reusedLists.js';
import { keepingKube } from '../kube/keptObject.js';
import { WatchedLists, watchingKube } from '../kube/watchedLists.js';
import { isOneOf, type Resource } from '../kube/resource.js';
import { leaseGuardedKube } from './leaseGuard.js';
import type { PassEnv, PassResult, Reconciler } from './reconcile.js';

/** The API reference of an object key: its namespace (when it has one) and name. */
function refOf(key: ObjectKey): ObjectRef {
  return { ...(key.namespace !== undefined ? { namespace: key.namespace } : {}), name: key.name };
}

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
 * The reconciler of `pass`: its deps' client wrapped by {@link leaseGuardedKube} over the pass's lease, and, for the
 * `floored` resources, by lib/kube/listFloors.ts `flooredKube` over the invocation's floors (LISTs answered
 * `NotOlderThan` what the object's invocations have seen, written and been woken by, without the watch cache's wait).
 * @param readScope the read scope of a request reason
 * @param floored resources whose changes wake the object (its pods and PVCs) or that only it writes (its
 *   ControllerRevisions); default none
 * @param reused resources that only the object's controller writes and no event reports (its ControllerRevisions):
 *   their LISTs answered from the invocation's last answer to the same query (lib/kube/reusedLists.ts `reusingKube`),
 *   kept for the invocation's passes; default none
 * @param watched floored resources whose floored LISTs an invocation's later passes answer from a watch it keeps
 *   (lib/kube/watchedLists.ts `watchingKube`; its pods), closed when the invocation ends; only where the loop owns
 *   the env ({@link PassEnv.atEnd}) and the deps' client can watch; default none. Every LIST of them, in every
 *   pass and whoever answers it, gives deep-frozen objects (lib/kube/frozenLists.ts): a view shares its objects
 *   with the passes it answers, so no pass may change a listed one, and a pass that tries throws in every test
 * @param kept the reconciled object's resource, when its GET is answered from the invocation's copy of it
 *   (lib/kube/keptObject.ts `keepingKube`; dropped by a dirty mark of a change of the object, by a write of it, and
 *   after 10 s); only where the loop gives the env a copy ({@link PassEnv.keptObject}); default none
 * @throws Error when a `watched` resource is not `floored` (a programming error of the controller's registration)
 */
export function guardedReconciler<D extends { kube: KubeClient; clock: Clock; log?: Logger }, P, Scope>(
  readScope: (reason: ReconcileReason) => Scope,
  pass: GuardedPass<D, P, Scope>,
  floored: readonly Resource[] = [],
  reused: readonly Resource[] = [],
  watched: readonly Resource[] = [],
  kept?: Resource,
): Reconciler<D, P, Scope> {
  const isFloored = isOneOf(floored);
  const unfloored = watched.filter((r) => !isFloored(r));
  if (unfloored.length > 0) {
    // a view is fed by the watch from the invocation's floor: without a floor it would wait for one forever
    throw new Error(`watched resources must be floored too: ${unfloored.map((r) => r.plural).join(', ')}`);
  }
  // one set of kept answers per invocation: the loop threads one env through an invocation's passes
  const listsOf = new WeakMap<PassEnv<Scope>, ReusedLists>();
  const viewsOf = new WeakMap<PassEnv<Scope>, WatchedLists>();
  /** The deps' client, its watched LISTs answered from the invocation's views when it has any. */
  const viewed = (deps: D, env: PassEnv<Scope>): KubeClient => {
    if (watched.length === 0 || env.atEnd === undefined || !env.listFloors || !deps.kube.watch)
      return deps.kube;
    let views = viewsOf.get(env);
    if (views === undefined) {
      const made = new WatchedLists();
      env.atEnd.push(() => made.close());
      viewsOf.set(env, (views = made));
    }
    return watchingKube(deps.kube, views, watched, (e) =>
      deps.log?.warn("the invocation's pods watch failed; its passes list them from the API server", {
        error: errorMessage(e),
      }),
    );
  };
  const clientOf = (deps: D, env: PassEnv<Scope>, key: ObjectKey): KubeClient => {
    const guarded = leaseGuardedKube(viewed(deps, env), () => env.lease, deps.clock);
    const floorsRead =
      env.listFloors && floored.length > 0
        ? flooredKube(guarded, env.listFloors, floored, deps.clock)
        : guarded;
    const read =
      kept !== undefined && env.keptObject !== undefined
        ? keepingKube(floorsRead, env.keptObject, kept, refOf(key), deps.clock)
        : floorsRead;
    if (reused.length === 0) return frozenListsKube(read, watched);
    let lists = listsOf.get(env);
    if (lists === undefined) listsOf.set(env, (lists = new ReusedLists()));
    return frozenListsKube(reusingKube(read, lists, reused, deps.clock), watched);
  };
  return {
    readScope,
    pass: (deps, key, env) =>
      pass(
        { ...deps, kube: clientOf(deps, env, key) },
        key,
        env.lease,
        env.recordedEvents,
        env.scope,
        env.eventCorrelation,
      ),
  };
}
