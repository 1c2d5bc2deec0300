/**
 * Review finding 10 (docs/reliability.md#backoff): a read that keeps failing (a 429 or 5xx after the HTTP layer's
 * retries) is a failed pass like a failed write: counted on the lease, backed off by the loop, the lease released,
 * nothing thrown to Lambda (whose retries at +1 and +2 minutes end in the dead-letter queue). OpenKruise's
 * `Reconcile` returns a failed list's error and the rate limiter requeues the CloneSet; it records no Event or
 * condition for it, and neither does this.
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
const SHED = 'the server has received too many requests and has asked us to try again later';

function invoke(h: Harness, n: number): Promise<ReconcileOutcome> {
  return reconcileCloneSet(h.deps({ holder: `inv-${n}`, deadlineMs: h.clock.now + 60_000 }), {
    ...REQUEST,
    reason: 'Requeue',
  });
}

describe('a read that keeps failing (finding 10)', () => {
  test('LIST pods answers 429 three times: no throw, failures 1, 2, 3 stored with the release, requeues after 1, 2, 4 s; then the reads recover and the count resets', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    await reconcileCloneSet(h.deps(), REQUEST);
    h.kube.kubelet();
    h.clock.now += 30_000;
    let failing = true;
    h.kube.failOn((call) =>
      failing && call === 'list pods' ? new KubeApiError(call, 429, 'TooManyRequests', SHED) : undefined,
    );
    h.journal.length = 0;
    const outcomes: unknown[] = [];
    for (let n = 1; n <= 3; n++) {
      const out = await invoke(h, n);
      outcomes.push([out.result, out.passes, out.writes, out.failures, out.requeuedAfterSeconds, out.error]);
      h.clock.now += (out.requeuedAfterSeconds ?? 0) * 1000;
    }
    expect(outcomes).toEqual(
      [1, 2, 3].map((n) => ['reconciled', 1, 0, n, 2 ** (n - 1), `list pods: 429 TooManyRequests: ${SHED}`]),
    );
    expect(h.journal).toEqual(
      [1, 2, 3].flatMap((n) => [
        'lease.acquire',
        'expectations.get',
        `requeue ${2 ** (n - 1)}s`,
        `lease.release (failures ${n})`,
      ]),
    );
    failing = false;
    h.journal.length = 0;
    const ok = await invoke(h, 4);
    expect([ok.error, ok.failures]).toEqual([undefined, undefined]);
    const probe = await h.stores.leases.acquire(KEY, 'probe', 1000, h.clock.now);
    expect(probe).toMatchObject({ acquired: true, failures: 0 });
  });

  test('the CloneSet GET itself fails with 500: counted and backed off the same way', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    h.kube.failOn((call) =>
      call.startsWith('get cloneset ')
        ? new KubeApiError(call, 500, 'InternalError', 'etcd is unavailable')
        : undefined,
    );
    const out = await invoke(h, 1);
    expect([out.result, out.failures, out.requeuedAfterSeconds, out.error]).toEqual([
      'reconciled',
      1,
      1,
      'get cloneset cs-no-pvc-sample: 500 InternalError: etcd is unavailable',
    ]);
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'requeue 1s',
      'lease.release (failures 1)',
    ]);
  });
});
