/**
 * The one delete path of the reconciler, used by the executor and by finishing a recorded scale-down: record the
 * delete expectations of a run of instances (each a pod and its PVCs) in one write, then delete them one object at
 * a time — the pod, then its PVCs, each with a UID precondition, so a same-named successor is never deleted —
 * treating NotFound as done. As OpenKruise's `deletePods` (pkg/controller/cloneset/sync/cloneset_scale.go):
 * expectations first, PVCs of an instance after its pod. OpenKruise raises its in-memory expectations per pod; a
 * durable write per pod would rewrite the whole expectations item once per delete (quadratic write units: review
 * finding 4, docs/reliability.md#dynamodb-capacity), so the run is recorded at once.
 */
import { ignoreNotFound } from '../../kube/errors.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import type { Expectations, ExpectationStore, Lease } from '../../state/index.js';

/** An object to delete: its name and the UID it must still have. */
export interface Doomed {
  name: string;
  uid: string;
}

/** One instance to delete: its pod (absent for a PVC on its own) and its PVCs. */
export interface DeleteTarget {
  pod?: Doomed;
  pvcs: Doomed[];
}

/** What {@link deleteInstances} writes through. */
export interface DeleteContext {
  kube: KubeClient;
  expectations: ExpectationStore;
  lease: Lease;
  namespace: string;
}

const objectsOf = (t: DeleteTarget): { doomed: Doomed; pod: boolean }[] => [
  ...(t.pod ? [{ doomed: t.pod, pod: true }] : []),
  ...t.pvcs.map((doomed) => ({ doomed, pod: false })),
];

/**
 * Delete `targets` in order. Appends the delete expectations of every object of every target to `expected`
 * (mutated) and stores it once, before the first delete. When a delete fails (or `onDeleted` throws), first drops
 * the delete expectations of every object not deleted — the failed one and those not yet attempted, of this target
 * and the later ones — and stores that, as OpenKruise's `deletePods` observes the expectation of a failed delete
 * (else the next pass would wait the whole expectation timeout for deletes that did not happen). A delete whose
 * answer was lost but that was applied shows in the next (quorum) read, so nothing is deleted twice.
 * @param at epoch ms, the time recorded on the expectations
 * @param onDeleted awaited after target `index` is deleted (its pod and PVCs; `writes` API writes), before the next
 * @returns the number of API writes made
 * @throws KubeApiError for a failed delete other than NotFound (a 409 means the UID changed), after the rollback;
 *   what `onDeleted` throws, after the rollback; state-store errors (FencedOutError after a takeover)
 */
export async function deleteInstances(
  ctx: DeleteContext,
  expected: Expectations,
  targets: readonly DeleteTarget[],
  at: number,
  onDeleted?: (index: number, writes: number) => Promise<void> | void,
): Promise<number> {
  if (targets.length === 0) return 0;
  const { kube, namespace } = ctx;
  for (const t of targets)
    for (const { doomed } of objectsOf(t)) expected.deletes.push({ name: doomed.name, uid: doomed.uid, at });
  await ctx.expectations.put(ctx.lease, expected);
  let writes = 0;
  for (const [i, t] of targets.entries()) {
    const objects = objectsOf(t);
    let done = 0;
    try {
      for (const { doomed, pod } of objects) {
        const resource = pod ? RESOURCES.pods : RESOURCES.persistentvolumeclaims;
        await ignoreNotFound(kube.delete(resource, { namespace, name: doomed.name }, { uid: doomed.uid }));
        done++;
      }
      await onDeleted?.(i, done);
    } catch (e) {
      const notDeleted = new Set(
        [...objects.slice(done), ...targets.slice(i + 1).flatMap(objectsOf)].map(
          ({ doomed }) => `${doomed.name}/${doomed.uid}`,
        ),
      );
      expected.deletes = expected.deletes.filter((op) => !notDeleted.has(`${op.name}/${op.uid}`));
      await ctx.expectations.put(ctx.lease, expected);
      throw e;
    }
    writes += done;
  }
  return writes;
}
