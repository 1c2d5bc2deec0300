/**
 * The pod-keyed controllers of OpenKruise v1.9.0 as "pod concerns" of one registration (./pod.ts): upstream runs
 * `container-launch-priority-controller` and `pod-readiness-controller` as two controllers each watching pods, each
 * with its own work queue. Kruiseless routes requests, leases and expectations by key kind (`core/Pod`), so two
 * registrations of that kind would share one lease per pod and answer each other's requests; instead one
 * registration hosts both, in order. One invocation for a pod reads it once and runs, under its one lease, each
 * concern whose predicate accepts the pod as read; the registration's `selects` is the union of the predicates
 * (./podKind.ts). Each concern keeps its own folder (lib/controllers/containerlaunchpriority,
 * lib/controllers/podreadiness).
 */
import type { Pod } from '../api/types.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { namespaceOf, type ObjectKey } from '../core/objectKey.js';
import { RESOURCES } from '../kube/resources.js';
import type { KubeClient } from '../kube/types.js';
import type { PassResult } from '../reconcile/reconcile.js';
import type { ReconcileReason } from '../requests/schema.js';

/** What a concern's work needs: the pod reads and writes (through the lease guard), the log and the clock. */
export interface PodConcernDeps {
  kube: Pick<KubeClient, 'get' | 'create' | 'patch'>;
  log: Logger;
  clock: Clock;
}

/** The work of one concern on one pod, given the pod as the invocation's pass read it. */
export type PodConcernRun<P> = (deps: PodConcernDeps, key: ObjectKey, pod: Pod) => Promise<PassResult<P>>;

/**
 * One of OpenKruise's pod-keyed controllers.
 * @typeParam P what its work reports as its plan
 */
export interface PodConcern<P = unknown> {
  /** Its name: the key of its plan in the pass's plan, and its log field (`containerlaunchpriority`, `podreadiness`). */
  readonly name: string;
  /** Its watch predicate on a pod (upstream's predicate on its pod watch). */
  readonly selects: (pod: Pod) => boolean;
  /** Its work on a pod it selects. */
  readonly run: PodConcernRun<P>;
}

/** What one pass of the pod registration did: each concern that ran → its plan, in run order. */
export type PodConcernsPlan = Readonly<Record<string, unknown>>;

/** The only read scope: the pod, whatever the reason. */
export type PodReadScope = 'pod';

/** {@link PodReadScope} for any reason. */
export function podReadScopeFor(_reason: ReconcileReason): PodReadScope {
  return 'pod';
}

/**
 * One pass of the pod registration: GET the pod, then each concern of `concerns`, in order, whose predicate accepts
 * the pod as read, given that pod. The results are joined: writes summed, `acted` if any acted, the shortest
 * requeue, the errors joined with `; `; a concern that finds the pod gone ends the pass as `gone`, and the later
 * ones do not run. A concern's thrown error (a failed read, a non-API error) ends the pass with it.
 * @returns `gone` when the pod does not exist; otherwise the joined result with {@link PodConcernsPlan}
 * @throws failed reads (KubeApiError) and what a concern throws
 */
export function podConcernsPass(
  concerns: readonly PodConcern[],
): (deps: PodConcernDeps, key: ObjectKey) => Promise<PassResult<PodConcernsPlan>> {
  return async (deps, key) => {
    const pod = await deps.kube.get(RESOURCES.pods, { namespace: namespaceOf(key), name: key.name });
    if (!pod) return { gone: true, writes: 0, acted: false };
    const plan: Record<string, unknown> = {};
    let writes = 0;
    let acted = false;
    let requeueAfterSeconds: number | undefined;
    const errors: string[] = [];
    for (const concern of concerns) {
      if (!concern.selects(pod)) continue;
      const result = await concern.run(deps, key, pod);
      writes += result.writes;
      if (result.gone) return { gone: true, writes, acted: false };
      acted ||= result.acted;
      if (result.plan !== undefined) plan[concern.name] = result.plan;
      if (result.error !== undefined) errors.push(result.error);
      if (result.requeueAfterSeconds !== undefined)
        requeueAfterSeconds = Math.min(requeueAfterSeconds ?? Infinity, result.requeueAfterSeconds);
    }
    return {
      gone: false,
      writes,
      acted,
      plan,
      ...(requeueAfterSeconds !== undefined ? { requeueAfterSeconds } : {}),
      ...(errors.length > 0 ? { error: errors.join('; ') } : {}),
    };
  };
}
