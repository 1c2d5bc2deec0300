/**
 * Faults found by the randomized fault test (docs/reliability.md#randomized-fault-test):
 * - a scale-down intent was finished after it had gone stale: the ledger lets a successor delete the victims a
 *   predecessor chose for the same scale-down, but once the user has changed the CloneSet, or someone else has
 *   deleted pods, those victims may be wanted again — OpenKruise, which chooses afresh on every reconcile, keeps
 *   them;
 * - a failed delete left its delete expectation pending, so the next pass waited the whole expectation timeout
 *   (5 min) for a delete that never happened; OpenKruise's `deletePods` observes the expectation of a failed
 *   delete at once;
 * - a recorded victim whose delete was still in flight (sent by an invocation killed waiting for the answer, its
 *   expectation stored first) was deleted a second time: the ledger was finished before the expectations gate,
 *   where OpenKruise's `doReconcile` makes no scale write while `SatisfiedExpectations` is false (invariant 8 of
 *   the randomized fault test, docs/reliability.md#mutants).
 *
 * And, found by an integration test's flake: a CloneSet created again under the name of a deleted one inherited
 * its predecessor's pending creates and scale-down intent (the state items are keyed by name); they are now recorded
 * with the owner's UID (lib/reconcile/pods/expectationsOwner.ts).
 */
import { reconcileCloneSet } from '../../../../../lib/controllers/cloneset/index.js';
import { internalError } from './support/recordingKube.js';
import { harness, REQUEST, seedCloneSet } from './support/harness.js';
import type { Lease } from '../../../../../lib/state/index.js';

const KEY = {
  cluster: REQUEST.cluster,
  kind: REQUEST.kind,
  namespace: REQUEST.namespace,
  name: REQUEST.name,
};
const A = 'cs-no-pvc-sample-aaaaa';
const B = 'cs-no-pvc-sample-bbbbb';
const C = 'cs-no-pvc-sample-ccccc';

/** The seed CloneSet reconciled to its two pods (A and B), running and Ready, 30 s later. */
async function twoRunningPods(): Promise<ReturnType<typeof harness>> {
  const h = harness();
  h.kube.apply(seedCloneSet());
  await reconcileCloneSet(h.deps(), REQUEST);
  h.kube.kubelet();
  h.clock.now += 30_000;
  return h;
}

/** The lease of an invocation (`dead`) that takes it now and dies holding it: its writes record what it chose. */
async function deadHolder(h: ReturnType<typeof harness>): Promise<Lease> {
  const taken = await h.stores.leases.acquire(KEY, 'dead', 1000, h.clock.now);
  if (!taken.acquired) throw new Error('lease');
  return taken.lease;
}

describe('finishing a recorded scale-down', () => {
  test('2 → 0 fails after deleting A; the user scales back to 2 before the retry: B is kept, A is replaced, the stale intent cleared', async () => {
    const h = await twoRunningPods();

    const zero = seedCloneSet();
    zero.spec.replicas = 0;
    h.kube.apply(zero);
    let failed = false;
    h.kube.failOn((call) => {
      if (call !== `delete pod ${B}` || failed) return undefined;
      failed = true;
      return internalError(call);
    });
    const first = await reconcileCloneSet(h.deps({ holder: 'inv-2', maxPasses: 1 }), REQUEST);
    expect(first.error).toMatch(/delete pod cs-no-pvc-sample-bbbbb: 500 InternalError/);
    expect([...h.kube.pods.keys()]).toEqual([B]);
    expect((await h.stores.ledger.get(KEY))?.pods.map((p) => p.name)).toEqual([A, B]);
    // B's delete failed, so no delete of B is expected (as OpenKruise's deletePods observes a failed delete);
    // A's is, until a read shows A gone
    expect((await h.stores.expectations.get(KEY)).deletes.map((op) => op.name)).toEqual([A]);

    h.kube.apply(seedCloneSet()); // replicas 2 again
    h.kube.kubelet();
    h.journal.length = 0;
    h.clock.now += 5_000;
    const second = await reconcileCloneSet(h.deps({ holder: 'inv-3', maxPasses: 2 }), REQUEST);
    expect(second.error).toBeUndefined();
    expect(h.journal.slice(0, 9)).toEqual([
      'lease.acquire',
      'expectations.get',
      'expectations.put (none)', // A's delete observed; B's was dropped when its delete failed
      'ledger.get',
      'ledger.clear',
      `expectations.put creates[${C}]`,
      `create pod ${C}`,
      'replace cloneset status cs-no-pvc-sample',
      `event SuccessfulCreate: succeed to create pod ${C}`,
    ]);
    expect([...h.kube.pods.keys()]).toEqual([B, C]);
    expect(await h.stores.ledger.get(KEY)).toBeUndefined();
  });

  test('3 → 2: the delete of the chosen victim fails; someone else deletes another pod: the victim is kept, nothing more is deleted', async () => {
    const h = harness();
    const three = seedCloneSet();
    three.spec.replicas = 3;
    h.kube.apply(three);
    await reconcileCloneSet(h.deps(), REQUEST);
    h.kube.kubelet();
    h.clock.now += 30_000;
    expect([...h.kube.pods.keys()]).toEqual([A, B, C]);

    const two = seedCloneSet(); // replicas 2
    h.kube.apply(two);
    let failed = false;
    h.kube.failOn((call) => {
      if (!call.startsWith('delete pod') || failed) return undefined;
      failed = true;
      return internalError(call);
    });
    const first = await reconcileCloneSet(h.deps({ holder: 'inv-2', maxPasses: 1 }), REQUEST);
    expect(first.error).toMatch(/500 InternalError/);
    const [victim] = (await h.stores.ledger.get(KEY))?.pods.map((p) => p.name) ?? [];
    const other = [A, B, C].find((n) => n !== victim)!;
    h.kube.pods.delete(other); // someone else: now 2 pods for 2 replicas

    h.journal.length = 0;
    h.clock.now += 5_000;
    const second = await reconcileCloneSet(h.deps({ holder: 'inv-3', maxPasses: 3 }), REQUEST);
    expect(second.error).toBeUndefined();
    expect(h.journal.filter((l) => l.startsWith('delete') || l.startsWith('create'))).toEqual([]);
    expect([...h.kube.pods.keys()]).toEqual([A, B, C].filter((n) => n !== other));
    expect(await h.stores.ledger.get(KEY)).toBeUndefined();
  });

  test('a recorded specified delete of a ready pod waits for the budget, as OpenKruise’s deleteReadyLimit: a surge pod comes first', async () => {
    const h = await twoRunningPods();
    const cs = seedCloneSet();
    cs.spec.updateStrategy = { ...cs.spec.updateStrategy, maxSurge: 1, maxUnavailable: 0 };
    cs.spec.scaleStrategy = { podsToDelete: [A] };
    const stored = h.kube.apply(cs);
    // a predecessor chose A for this very spec and died before deleting it
    const dead = await deadHolder(h);
    await h.stores.ledger.record(dead, {
      intentId: 'i-1',
      createdAt: h.clock.now,
      generation: stored.metadata.generation,
      pods: [{ name: A, uid: h.kube.pods.get(A)!.metadata.uid!, reason: 'SpecifiedDelete' }],
    });
    h.clock.now += 2_000;
    h.journal.length = 0;
    await reconcileCloneSet(h.deps({ holder: 'inv-3', maxPasses: 2 }), REQUEST);
    expect(h.journal.filter((l) => /^(delete|create) pod/.test(l))).toEqual([`create pod ${C}`]);
    expect([...h.kube.pods.keys()]).toEqual([A, B, C]);
  });

  test('a recorded victim whose delete is still in flight is not deleted again: the successor waits for its expectation, then clears the intent', async () => {
    const h = await twoRunningPods();
    const one = seedCloneSet();
    one.spec.replicas = 1;
    const stored = h.kube.apply(one);
    // a predecessor chose A, recorded it and its delete expectation, sent the delete and was killed waiting: the
    // API server has not applied the delete yet
    const dead = await deadHolder(h);
    const uid = h.kube.pods.get(A)!.metadata.uid!;
    await h.stores.ledger.record(dead, {
      intentId: 'i-1',
      createdAt: h.clock.now,
      generation: stored.metadata.generation,
      pods: [{ name: A, uid, reason: 'ScaleDown' }],
    });
    await h.stores.expectations.put(dead, {
      creates: [],
      deletes: [{ name: A, uid, at: h.clock.now }],
      updates: [],
    });
    h.clock.now += 2_000;
    h.journal.length = 0;
    await reconcileCloneSet(h.deps({ holder: 'inv-3', maxPasses: 1 }), REQUEST);
    expect(h.journal.filter((l) => /^(delete|create) pod/.test(l))).toEqual([]);
    expect(await h.stores.ledger.get(KEY)).toMatchObject({ intentId: 'i-1' });

    h.kube.pods.delete(A); // the delete in flight lands
    h.clock.now += 5_000;
    h.journal.length = 0;
    await reconcileCloneSet(h.deps({ holder: 'inv-4', maxPasses: 2 }), REQUEST);
    expect(h.journal.filter((l) => /^(delete|create) pod/.test(l))).toEqual([]);
    expect([...h.kube.pods.keys()]).toEqual([B]);
    expect(await h.stores.ledger.get(KEY)).toBeUndefined();
  });
});

describe('a CloneSet created again under the name of a deleted one', () => {
  /**
   * `h`'s CloneSet replaced by one of the same name and a new UID (`cs-uid-2`), `replicas` given; the pods left are
   * its own (as after adopting the orphans of a `--cascade=orphan` delete).
   */
  function createdAgain(h: ReturnType<typeof harness>, replicas: number) {
    for (const p of h.kube.pods.values())
      for (const ref of p.metadata.ownerReferences ?? []) ref.uid = 'cs-uid-2';
    h.kube.cloneSets.delete(REQUEST.name);
    const cs = seedCloneSet();
    cs.spec.replicas = replicas;
    const stored = h.kube.apply(cs);
    stored.metadata.uid = 'cs-uid-2';
    return stored;
  }

  test('does not wait for the creates its predecessor recorded and never made', async () => {
    const h = await twoRunningPods();
    // the first CloneSet recorded a create of C and was deleted (its pods with it) before making it
    const dead = await deadHolder(h);
    await h.stores.expectations.put(dead, {
      creates: [{ name: C, at: h.clock.now }],
      deletes: [],
      updates: [],
      ownerUid: 'cs-uid',
    });
    h.kube.pods.clear();
    createdAgain(h, 2);
    h.clock.now += 2_000;
    h.journal.length = 0;

    await reconcileCloneSet(h.deps({ holder: 'inv-2', maxPasses: 1 }), REQUEST);
    // before: `requeue 2s` and no write until C's expectation timed out (5 min)
    expect(h.journal.filter((l) => /^(create pod|requeue)/.test(l))).toEqual([
      'create pod cs-no-pvc-sample-ccccc',
      'create pod cs-no-pvc-sample-ddddd',
      'requeue 1s',
    ]);
    expect(await h.stores.expectations.get(KEY)).toMatchObject({ ownerUid: 'cs-uid-2' });
  });

  test('does not finish the scale-down its predecessor recorded for the same generation', async () => {
    const h = await twoRunningPods();
    // the first CloneSet chose A at generation 1 and died before deleting it; it is deleted with --cascade=orphan
    // and created again at 1 replica: it adopts A and B and chooses for itself
    const dead = await deadHolder(h);
    await h.stores.ledger.record(dead, {
      intentId: 'i-1',
      createdAt: h.clock.now,
      generation: 1,
      ownerUid: 'cs-uid',
      pods: [{ name: B, uid: h.kube.pods.get(B)!.metadata.uid!, reason: 'ScaleDown' }],
    });
    createdAgain(h, 1);
    h.clock.now += 2_000;
    h.journal.length = 0;

    await reconcileCloneSet(h.deps({ holder: 'inv-2', maxPasses: 3 }), REQUEST);
    // before: the predecessor's B deleted (its intent finished); now cleared, and the CloneSet's own choice is A
    expect(h.journal.filter((l) => /^(ledger|delete pod)/.test(l))).toEqual([
      'ledger.get',
      'ledger.clear',
      `ledger.record [${A}]`,
      `delete pod ${A}`,
      'ledger.clear',
      'ledger.get',
      'ledger.get',
    ]);
    expect([...h.kube.pods.keys()]).toEqual([B]);
  });
});
