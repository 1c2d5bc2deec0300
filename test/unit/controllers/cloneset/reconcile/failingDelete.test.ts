/**
 * Review finding 1 (docs/reliability.md#backoff): a delete that keeps failing while a recorded scale-down is being
 * finished. OpenKruise's `deletePods` (pkg/controller/cloneset/sync/cloneset_scale.go) records a FailedDelete
 * Event and returns the error; `syncCloneSet` sets the FailedScale condition, the status is still updated, and the
 * rate limiter backs the CloneSet off. The same here: every invocation after the first finishes the recorded
 * intent, its delete fails, and the pass reports it like a failed delete of the executor — no throw to Lambda.
 */
import { reconcileCloneSet } from '../../../../../lib/controllers/cloneset/index.js';
import { KubeApiError } from '../../../../../lib/kube/errors.js';
import type { ReconcileOutcome } from '../../../../../lib/reconcile/reconcile.js';
import { harness, REQUEST, seedCloneSet, type Harness } from './support/harness.js';

const KEY = {
  cluster: REQUEST.cluster,
  kind: REQUEST.kind,
  namespace: REQUEST.namespace,
  name: REQUEST.name,
};
const A = 'cs-no-pvc-sample-aaaaa';
const B = 'cs-no-pvc-sample-bbbbb';
const C = 'cs-no-pvc-sample-ccccc';
const DENIED = 'admission webhook "policy.example.com" denied the request: pods may not be deleted';

/** The seed CloneSet at 3 ready pods, then scaled to 1 while every pod DELETE is refused with 403. */
async function denyingDeletes(): Promise<Harness> {
  const h = harness();
  const three = seedCloneSet();
  three.spec.replicas = 3;
  h.kube.apply(three);
  await reconcileCloneSet(h.deps(), REQUEST);
  h.kube.kubelet();
  h.clock.now += 30_000;
  expect([...h.kube.pods.keys()]).toEqual([A, B, C]);
  const one = seedCloneSet();
  one.spec.replicas = 1;
  h.kube.apply(one);
  h.kube.failOn((call) =>
    call.startsWith('delete pod ') ? new KubeApiError(call, 403, 'Forbidden', DENIED) : undefined,
  );
  h.journal.length = 0;
  return h;
}

/** Invocation `n`, as its requeue fires. */
function invoke(h: Harness, n: number): Promise<ReconcileOutcome> {
  return reconcileCloneSet(h.deps({ holder: `inv-${n}`, deadlineMs: h.clock.now + 60_000 }), {
    ...REQUEST,
    reason: 'Requeue',
  });
}

const FAILED = (pod: string) => `delete pod ${pod}: 403 Forbidden: ${DENIED}`;

describe('finishing a recorded scale-down whose delete keeps failing (finding 1)', () => {
  test('five invocations: none throws; FailedDelete Event and FailedScale condition each time; failures 1…5 back off 1, 2, 4, 8, 16 s; the intent stays', async () => {
    const h = await denyingDeletes();
    const outcomes: ReconcileOutcome[] = [];
    for (let n = 1; n <= 5; n++) {
      const out = await invoke(h, n);
      outcomes.push(out);
      if (n === 2) {
        // the second invocation finishes the recorded intent: the delete, its rollback, its Event; the status
        // already says FailedScale with this message, so it is not rewritten
        expect(h.journal).toEqual([
          'lease.acquire',
          'expectations.get',
          'ledger.get',
          `expectations.put deletes[${A},${B}]`,
          `delete pod ${A}`,
          'expectations.put (none)',
          `event FailedDelete: failed to delete pod ${A}: ${DENIED}`,
          'requeue 2s',
          'lease.release (failures 2)',
        ]);
      }
      h.journal.length = 0;
      h.clock.now += (out.requeuedAfterSeconds ?? 0) * 1000;
    }
    expect(outcomes.map((o) => [o.result, o.failures, o.requeuedAfterSeconds, o.error])).toEqual(
      [1, 2, 3, 4, 5].map((n) => ['reconciled', n, 2 ** (n - 1), FAILED(A)]),
    );
    expect([...h.kube.pods.keys()]).toEqual([A, B, C]);
    const conditions = h.kube.cloneSets.get(REQUEST.name)?.status?.conditions ?? [];
    expect(conditions.map((c) => [c.type, c.status, c.message])).toEqual([['FailedScale', 'True', DENIED]]);
    expect(h.kube.events.filter((e) => e.reason === 'FailedDelete').map((e) => e.message)).toEqual(
      Array.from({ length: 5 }, () => `failed to delete pod ${A}: ${DENIED}`),
    );
    expect((await h.stores.ledger.get(KEY))?.pods.map((p) => p.name)).toEqual([A, B]);
    expect((await h.stores.expectations.get(KEY)).deletes).toEqual([]);
  });

  test('the status is still written while the intent cannot be finished: a pod that turns unready shows in readyReplicas', async () => {
    const h = await denyingDeletes();
    await invoke(h, 1);
    expect(h.kube.cloneSets.get(REQUEST.name)?.status?.readyReplicas).toBe(3);
    const c = h.kube.pods.get(C)!;
    c.status!.conditions = c.status!.conditions!.map((cond) =>
      cond.type === 'Ready' ? { ...cond, status: 'False' } : cond,
    );
    h.clock.now += 1000;
    h.journal.length = 0;
    const out = await invoke(h, 2);
    expect([out.failures, out.requeuedAfterSeconds, out.error]).toEqual([2, 2, FAILED(A)]);
    expect(h.journal).toContain('replace cloneset status cs-no-pvc-sample');
    expect(h.kube.cloneSets.get(REQUEST.name)?.status?.readyReplicas).toBe(2);
  });
});
