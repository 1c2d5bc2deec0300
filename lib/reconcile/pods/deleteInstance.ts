/**
 * The one delete path of the reconciler, used by the executor and by finishing a recorded scale-down: record the
 * delete expectations of the pod and its instance's PVCs, then delete the pod, then the PVCs — each with a UID
 * precondition, so a same-named successor is never deleted — treating NotFound as done. As OpenKruise's
 * `deletePods` (pkg/controller/cloneset/sync/cloneset_scale.go): expectations first, PVCs of the instance after the
 * pod.
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

/** What {@link deleteInstance} writes through. */
export interface DeleteContext {
  kube: KubeClient;
  expectations: ExpectationStore;
  lease: Lease;
  namespace: string;
}

/**
 * Delete one instance: `pod` (if given) and `pvcs`. Appends the delete expectations to `expected` (mutated) and
 * stores it before the first delete.
 * @param at epoch ms, the time recorded on the expectations
 * @returns the number of API writes made
 * @throws KubeApiError for a failed delete other than NotFound (a 409 means the UID changed), after dropping the
 *   delete expectations of the objects not deleted; state-store errors (FencedOutError after a takeover)
 */
export async function deleteInstance(
  ctx: DeleteContext,
  expected: Expectations,
  target: { pod?: Doomed; pvcs: Doomed[] },
  at: number,
): Promise<number> {
  const { kube, namespace } = ctx;
  for (const o of [...(target.pod ? [target.pod] : []), ...target.pvcs])
    expected.deletes.push({ name: o.name, uid: o.uid, at });
  await ctx.expectations.put(ctx.lease, expected);
  let writes = 0;
  if (target.pod) {
    const { name, uid } = target.pod;
    await rollBackOnFailure(
      ctx,
      expected,
      [target.pod],
      ignoreNotFound(kube.delete(RESOURCES.pods, { namespace, name }, { uid })),
    );
    writes++;
  }
  for (const [i, c] of target.pvcs.entries()) {
    await rollBackOnFailure(
      ctx,
      expected,
      target.pvcs.slice(i),
      ignoreNotFound(
        kube.delete(RESOURCES.persistentvolumeclaims, { namespace, name: c.name }, { uid: c.uid }),
      ),
    );
    writes++;
  }
  return writes;
}

/**
 * Awaits a delete; when it fails, first drops the delete expectations of `doomed` (the failed object and those not
 * yet attempted) and stores that, as OpenKruise's `deletePods` observes the expectation of a failed delete — else
 * the next pass would wait the whole expectation timeout for a delete that did not happen. A delete whose answer
 * was lost but that was applied shows in the next (quorum) read, so nothing is deleted twice.
 * @throws the delete's error, after the expectations were stored
 */
async function rollBackOnFailure(
  ctx: DeleteContext,
  expected: Expectations,
  doomed: Doomed[],
  del: Promise<unknown>,
): Promise<void> {
  try {
    await del;
  } catch (e) {
    expected.deletes = expected.deletes.filter(
      (op) => !doomed.some((d) => d.name === op.name && d.uid === op.uid),
    );
    await ctx.expectations.put(ctx.lease, expected);
    throw e;
  }
}
