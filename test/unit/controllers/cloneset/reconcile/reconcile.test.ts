/**
 * The reconcile invocation run against a recording API server and the in-memory state stores (the shape of
 * kubernetes' `replica_set_test.go`: a fake client that records actions, tests that assert the ordered list).
 */
import { failedCreateMessage } from './support/failedCreate.js';
import { KubeApiError } from '../../../../../lib/kube/errors.js';
import { reconcileCloneSet } from '../../../../../lib/controllers/cloneset/index.js';
import type { LeaseStore } from '../../../../../lib/state/index.js';
import { internalError, conflict } from './support/recordingKube.js';
import { harness, REQUEST, seedCloneSet, type Harness } from './support/harness.js';

const KEY = {
  cluster: REQUEST.cluster,
  kind: REQUEST.kind,
  namespace: REQUEST.namespace,
  name: REQUEST.name,
};
const A = 'cs-no-pvc-sample-aaaaa';
const B = 'cs-no-pvc-sample-bbbbb';

/** Whether anyone else could take the lease right now (the invariant: a returned invocation holds none). */
async function leaseIsFree(h: Harness): Promise<boolean> {
  const r = await h.stores.leases.acquire(KEY, 'probe', 1000, h.clock.now);
  if (r.acquired) await h.stores.leases.release(r.lease);
  return r.acquired;
}

/** The seed CloneSet, and another invocation marking the lease dirty while the pass creates pod A. */
function markedWhileCreating(): Harness {
  const h = harness();
  h.kube.apply(seedCloneSet());
  h.kube.failOn((call) => {
    if (call === `create pod ${A}`) void h.stores.leases.acquire(KEY, 'inv-2', 120_000, h.clock.now);
    return undefined;
  });
  return h;
}

async function seedTwoReadyPods(h: Harness): Promise<void> {
  h.kube.apply(seedCloneSet());
  await reconcileCloneSet(h.deps(), REQUEST);
  h.kube.kubelet();
  h.journal.length = 0;
  h.clock.now += 30_000;
}

describe('reconcileCloneSet: the seed story (examples/cs-no-pvc-sample.yaml)', () => {
  test('2 replicas from nothing: revision, then creates in slow-start batches with expectations first, status, Events', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    const out = await reconcileCloneSet(h.deps(), REQUEST);
    expect({ ...out, plan: undefined }).toEqual({
      result: 'reconciled',
      passes: 3,
      writes: 7,
      plan: undefined,
    });
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'ledger.get',
      'create controllerrevision cs-no-pvc-sample-7fb7468d98',
      `expectations.put creates[${A}]`,
      `create pod ${A}`,
      `expectations.put creates[${A},${B}]`,
      `create pod ${B}`,
      'replace cloneset status cs-no-pvc-sample',
      `event SuccessfulCreate: succeed to create pod ${A}`,
      `event SuccessfulCreate: succeed to create pod ${B}`,
      'expectations.get',
      'expectations.put (none)',
      'ledger.get',
      // InPlaceUpdateReady and the first KruisePodReady of each pod, in one write per pod (statusPatches.ts)
      `patch pod status ${A}`,
      `patch pod status ${B}`,
      `expectations.put updates[${A},${B}]`,
      'replace cloneset status cs-no-pvc-sample',
      'expectations.get',
      'expectations.put (none)',
      'ledger.get',
      'lease.release',
    ]);
    expect([...h.kube.pods.keys()]).toEqual([A, B]);
    for (const pod of h.kube.pods.values())
      expect(
        (pod.status?.conditions ?? [])
          .filter((c) => c.type === 'InPlaceUpdateReady' || c.type === 'KruisePodReady')
          .map((c) => `${c.type}=${c.status}`)
          .sort(),
      ).toEqual(['InPlaceUpdateReady=True', 'KruisePodReady=True']);
    expect(h.requeues).toEqual([]);
    expect(await leaseIsFree(h)).toBe(true);
  });

  test('then 1 replica and a new image: ledger before the delete, in-place update, grace period slept inline', async () => {
    const h = harness();
    await seedTwoReadyPods(h);
    const cs = seedCloneSet();
    cs.spec.replicas = 1;
    cs.spec.template.spec.containers[0].image = 'nginx:1.19-alpine';
    h.kube.apply(cs);
    const out = await reconcileCloneSet(h.deps({ deadlineMs: h.clock.now + 60_000 }), REQUEST);
    expect({ ...out, plan: undefined }).toEqual({
      result: 'reconciled',
      passes: 6,
      writes: 10,
      plan: undefined,
    });
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'ledger.get',
      'create controllerrevision cs-no-pvc-sample-6ccb957675',
      `ledger.record [${A}]`,
      `expectations.put deletes[${A}]`,
      `delete pod ${A}`,
      'ledger.clear',
      'replace cloneset status cs-no-pvc-sample',
      `event SuccessfulDelete: succeed to delete pod ${A}`,
      'expectations.get',
      'expectations.put (none)',
      'ledger.get',
      `patch pod ${B}`,
      `expectations.put updates[${B}]`,
      'replace cloneset status cs-no-pvc-sample',
      'expectations.get',
      'expectations.put (none)',
      'ledger.get',
      `patch pod status ${B}`,
      `patch pod ${B}`,
      `expectations.put updates[${B}]`,
      'replace cloneset status cs-no-pvc-sample',
      `event SuccessfulUpdatePodInPlace: successfully update pod ${B} in-place(revision cs-no-pvc-sample-6ccb957675)`,
      'expectations.get',
      'expectations.put (none)',
      'ledger.get',
      'replace cloneset status cs-no-pvc-sample',
      'sleep 5000ms',
      'expectations.get',
      'ledger.get',
      `patch pod ${B}`,
      `expectations.put updates[${B}]`,
      'expectations.get',
      'expectations.put (none)',
      'ledger.get',
      'lease.release',
    ]);
    expect([...h.kube.pods.keys()]).toEqual([B]);
    expect(h.kube.pods.get(B)?.spec.containers[0].image).toBe('nginx:1.19-alpine');
    expect(await leaseIsFree(h)).toBe(true);
  });
});

describe('reconcileCloneSet: failures', () => {
  test('a failed create: later creates skipped, its expectation rolled back, FailedCreate Event and FailedScale condition, retry after the first backoff step (1 s)', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    h.kube.failOn((call) => (call === `create pod ${B}` ? internalError(call) : undefined));
    const out = await reconcileCloneSet(h.deps({ maxPasses: 2 }), REQUEST);
    expect(out.result).toBe('reconciled');
    expect(out.error).toMatch(/500 InternalError/);
    expect(out.requeuedAfterSeconds).toBe(1);
    expect(out.failures).toBe(1);
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'ledger.get',
      'create controllerrevision cs-no-pvc-sample-7fb7468d98',
      `expectations.put creates[${A}]`,
      `create pod ${A}`,
      `expectations.put creates[${A},${B}]`,
      `create pod ${B}`,
      `expectations.put creates[${A}]`,
      'replace cloneset status cs-no-pvc-sample',
      `event SuccessfulCreate: succeed to create pod ${A}`,
      failedCreateMessage('etcd is unavailable', B, 'event FailedCreate: '),
      'requeue 1s',
      'lease.release (failures 1)',
    ]);
    const status = [...h.kube.cloneSets.values()][0].status;
    expect(status?.conditions?.map((c) => [c.type, c.status, c.message])).toEqual([
      ['FailedScale', 'True', 'etcd is unavailable'],
    ]);
    expect(await leaseIsFree(h)).toBe(true);
  });

  test('AlreadyExists on create for a pod the plan did not see is an unobserved create, not a failure', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    // the first POST of B reached the API server but its answer was lost; the retry meets the pod it created
    h.kube.failOn((call) => {
      if (call !== `create pod ${B}` || h.kube.pods.has(B)) return undefined;
      h.kube.pods.set(B, {
        metadata: {
          name: B,
          namespace: 'default',
          uid: `uid-${B}`,
          resourceVersion: '1',
          labels: { ...h.kube.pods.get(A)?.metadata.labels, 'apps.kruise.io/cloneset-instance-id': 'bbbbb' },
          ownerReferences: h.kube.pods.get(A)?.metadata.ownerReferences,
        },
        spec: structuredClone(h.kube.pods.get(A)!.spec),
        status: { phase: 'Pending' },
      });
      return new KubeApiError(call, 409, 'AlreadyExists', `pods "${B}" already exists`);
    });
    const out = await reconcileCloneSet(h.deps(), REQUEST);
    expect(out.error).toBeUndefined();
    expect(h.kube.events.map((e) => e.reason)).toEqual(['SuccessfulCreate', 'SuccessfulCreate']);
    expect(h.journal.slice(0, 11)).toEqual([
      'lease.acquire',
      'expectations.get',
      'ledger.get',
      'create controllerrevision cs-no-pvc-sample-7fb7468d98',
      `expectations.put creates[${A}]`,
      `create pod ${A}`,
      `expectations.put creates[${A},${B}]`,
      `create pod ${B}`,
      'replace cloneset status cs-no-pvc-sample',
      `event SuccessfulCreate: succeed to create pod ${A}`,
      `event SuccessfulCreate: succeed to create pod ${B}`,
    ]);
    expect([...h.kube.pods.keys()]).toEqual([A, B]);
    const status = [...h.kube.cloneSets.values()][0].status;
    expect(status?.conditions ?? []).toEqual([]);
  });

  /** The seed with a new image, where the first in-place patch of A meets a 409 Conflict. */
  async function rolloutWithConflictOnA(): Promise<Harness> {
    const h = harness();
    await seedTwoReadyPods(h);
    const cs = seedCloneSet();
    cs.spec.template.spec.containers[0].image = 'nginx:1.19-alpine';
    h.kube.apply(cs);
    let conflicts = 0;
    h.kube.failOn((call) => (call === `patch pod ${A}` && conflicts++ === 0 ? conflict(call) : undefined));
    return h;
  }

  test('one write at a time: a 409 Conflict mid-plan stops the remaining actions and re-plans at once, without a failure', async () => {
    const h = await rolloutWithConflictOnA();
    const out = await reconcileCloneSet(h.deps({ maxPasses: 2, writeConcurrency: 1 }), REQUEST);
    expect(out.error).toBeUndefined();
    // pass 1: A's lifecycle patch (PreparingNormal → Normal) meets 409: B is not touched;
    // pass 2 re-reads at once and carries on from what the API server shows
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'ledger.get',
      'create controllerrevision cs-no-pvc-sample-6ccb957675',
      `patch pod ${A}`,
      'replace cloneset status cs-no-pvc-sample',
      'expectations.get',
      'ledger.get',
      `patch pod ${A}`,
      `patch pod ${B}`,
      `expectations.put updates[${A},${B}]`,
      'requeue 1s',
      'lease.release',
    ]);
    expect(h.kube.events.filter((e) => e.type === 'Warning')).toEqual([]);
  });

  test('patches of different pods in flight together: B is patched beside A, the conflict on A still re-plans at once', async () => {
    const h = await rolloutWithConflictOnA();
    const out = await reconcileCloneSet(h.deps({ maxPasses: 2 }), REQUEST);
    expect(out.error).toBeUndefined();
    // pass 1: A's and B's patches go out together; A meets the 409, B's succeeds and is expected
    expect(h.journal.slice(0, 4)).toEqual([
      'lease.acquire',
      'expectations.get',
      'ledger.get',
      'create controllerrevision cs-no-pvc-sample-6ccb957675',
    ]);
    expect([...h.journal.slice(4, 6)].sort()).toEqual([`patch pod ${A}`, `patch pod ${B}`]);
    // pass 2 re-reads at once and has only A left to patch
    expect(h.journal.slice(6)).toEqual([
      `expectations.put updates[${B}]`,
      'replace cloneset status cs-no-pvc-sample',
      'expectations.get',
      'expectations.put (none)',
      'ledger.get',
      `patch pod ${A}`,
      `expectations.put updates[${A}]`,
      'replace cloneset status cs-no-pvc-sample',
      'requeue 1s',
      'lease.release',
    ]);
    expect(h.kube.events.filter((e) => e.type === 'Warning')).toEqual([]);
  });
});

describe('reconcileCloneSet: the lease', () => {
  test('another holder: mark it dirty and return deferred, writing nothing', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    await h.stores.leases.acquire(KEY, 'other', 120_000, h.clock.now);
    const out = await reconcileCloneSet(h.deps(), REQUEST);
    expect(out).toEqual({ result: 'deferred', passes: 0, writes: 0 });
    expect(h.journal).toEqual(['lease.acquire']);
    expect(h.kube.pods.size).toBe(0);
  });

  test('a resync deferred under a foreign, live lease whose holder died (issue 18, the fault front’s kill): a requeue 1 s after that lease’s end, which finds the lease free and reconciles', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    // the killed holder took its lease 45 s ago for 180 s (Lambda's remaining 120 s + 60 s) and never releases it;
    // its dirty flag is never read, and the resync's request id is not the holder's
    await h.stores.leases.acquire(KEY, 'local-killed/exec-a', 180_000, h.clock.now - 45_000);
    const out = await reconcileCloneSet(h.deps({ holder: 'resync-1/exec-b' }), {
      ...REQUEST,
      reason: 'Resync',
    });
    // the lease ends in 135 s: the requeue is due at 136 s, never before the end
    expect(out).toEqual({ result: 'deferred', passes: 0, writes: 0, requeuedAfterSeconds: 136 });
    expect(h.journal).toEqual(['lease.acquire', 'requeue 136s']);
    expect(h.kube.pods.size).toBe(0);
    h.journal.length = 0;
    h.clock.now += 136_000;
    const again = await reconcileCloneSet(
      h.deps({ holder: 'requeue-1/exec-c', deadlineMs: h.clock.now + 60_000 }),
      {
        ...REQUEST,
        reason: 'Requeue',
      },
    );
    expect(again.result).toBe('reconciled');
    expect(h.kube.pods.size).toBe(2);
    expect(await leaseIsFree(h)).toBe(true);
  });

  test('an event during the run (dirty): run again before releasing', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    let marked = false;
    h.kube.failOn((call) => {
      if (call === `create pod ${A}` && !marked) {
        marked = true;
        void h.stores.leases.acquire(KEY, 'inv-2', 120_000, h.clock.now);
      }
      return undefined;
    });
    const out = await reconcileCloneSet(h.deps(), REQUEST);
    expect(out.passes).toBe(4);
    expect(h.journal.slice(-5)).toEqual([
      'ledger.get',
      'lease.release',
      'expectations.get',
      'ledger.get',
      'lease.release',
    ]);
    expect(await leaseIsFree(h)).toBe(true);
  });

  test('a dirty lease when the pass budget is used up: requeue, and return holding no lease even if another event arrives meanwhile', async () => {
    const h = markedWhileCreating();
    const deps = h.deps({ maxPasses: 1 });
    const release = deps.leases.release.bind(deps.leases);
    let releases = 0;
    const leases: LeaseStore = {
      acquire: deps.leases.acquire.bind(deps.leases),
      renew: deps.leases.renew.bind(deps.leases),
      takeDirty: deps.leases.takeDirty.bind(deps.leases),
      async release(...args) {
        const answer = await release(...args);
        // one more event arrives between the first and the second release
        if (releases++ === 0) await h.stores.leases.acquire(KEY, 'inv-3', 120_000, h.clock.now);
        return answer;
      },
    };
    const out = await reconcileCloneSet({ ...deps, leases }, REQUEST);
    expect(out.requeuedAfterSeconds).toBe(1);
    expect(h.journal.slice(-3)).toEqual(['requeue 1s', 'lease.release', 'lease.release']);
    expect(await leaseIsFree(h)).toBe(true);
  });

  test('a dirty lease when the pass budget is used up hands the marked events to a fresh invocation on the bus at once (read as a change: the marks keep no reason), after the release; the requeue stays as the net', async () => {
    const h = markedWhileCreating();
    const handedOff: string[] = [];
    const out = await reconcileCloneSet(
      h.deps({
        maxPasses: 1,
        handOff: async (next) => {
          h.journal.push(`handOff ${next.reason}`);
          handedOff.push(`${next.reason} ${next.namespace}/${next.name}`);
        },
      }),
      REQUEST,
    );
    expect(out.requeuedAfterSeconds).toBe(1);
    expect(out.handedOff).toBe(true);
    expect(h.journal.slice(-4)).toEqual([
      'requeue 1s',
      'lease.release',
      'lease.release',
      'handOff OwnedObjectChanged',
    ]);
    expect(handedOff).toEqual([`OwnedObjectChanged ${REQUEST.namespace}/${REQUEST.name}`]);
    expect(await leaseIsFree(h)).toBe(true);
  });

  test('a hand-off that fails is not thrown: the requeue is left to cover the marked events', async () => {
    const h = markedWhileCreating();
    const out = await reconcileCloneSet(
      h.deps({
        maxPasses: 1,
        handOff: async () => {
          throw new Error('PutEvents refused');
        },
      }),
      REQUEST,
    );
    expect(out.requeuedAfterSeconds).toBe(1);
    expect(out.handedOff).toBeUndefined();
    expect(h.requeues).toEqual([{ seconds: 1 }]);
    expect(await leaseIsFree(h)).toBe(true);
  });

  test('no hand-off when the budget runs out with nothing marked: the next event starts the next invocation', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    let handOffs = 0;
    const out = await reconcileCloneSet(
      h.deps({
        maxPasses: 1,
        handOff: async () => void handOffs++,
      }),
      REQUEST,
    );
    expect(out.passes).toBe(1);
    expect(handOffs).toBe(0);
    expect(out.handedOff).toBeUndefined();
  });

  test('a dirty lease at the time deadline: requeue after 1 s and release', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    h.kube.failOn((call) => {
      if (call === `create pod ${A}`) {
        void h.stores.leases.acquire(KEY, 'inv-2', 120_000, h.clock.now);
        h.clock.now += 61_000; // the pass ran past the deadline
      }
      return undefined;
    });
    const out = await reconcileCloneSet(h.deps(), REQUEST);
    expect({ ...out, plan: undefined }).toEqual({
      result: 'reconciled',
      passes: 1,
      writes: 4,
      requeuedAfterSeconds: 1,
      plan: undefined,
    });
    expect(h.journal.slice(-3)).toEqual(['requeue 1s', 'lease.release', 'lease.release']);
    expect(await leaseIsFree(h)).toBe(true);
  });

  test('fencing mid-pass: after a takeover the old holder writes nothing more and returns fenced', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    h.kube.failOn((call) => {
      // the lease expired (the invocation stalled) and a successor took it over
      if (call === `create pod ${A}`)
        void h.stores.leases.acquire(KEY, 'successor', 120_000, h.clock.now + 200_000);
      return undefined;
    });
    const out = await reconcileCloneSet(h.deps(), REQUEST);
    expect(out.result).toBe('fenced');
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'ledger.get',
      'create controllerrevision cs-no-pvc-sample-7fb7468d98',
      `expectations.put creates[${A}]`,
      `create pod ${A}`,
      `expectations.put creates[${A},${B}]`,
    ]);
    expect([...h.kube.pods.keys()]).toEqual([A]);
  });

  test('a state-store failure releases the lease and is thrown', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    const deps = h.deps();
    const boom = new Error('DynamoDB is down');
    const out = reconcileCloneSet(
      { ...deps, ledger: { ...deps.ledger, get: () => Promise.reject(boom) } },
      REQUEST,
    );
    await expect(out).rejects.toBe(boom);
    expect(await leaseIsFree(h)).toBe(true);
  });

  test('a deleted CloneSet: expectations cleared, gone, no requeue', async () => {
    const h = harness();
    const out = await reconcileCloneSet(h.deps(), REQUEST);
    expect(out).toEqual({ result: 'gone', passes: 1, writes: 0 });
    // the stored expectations are read before the world (they decide whether PVCs are listed)
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'expectations.put (none)',
      'lease.release',
    ]);
  });

  test('a scale-down recorded by a predecessor that died is finished first, not chosen again', async () => {
    const h = harness();
    await seedTwoReadyPods(h);
    const one = seedCloneSet();
    one.spec.replicas = 1; // the predecessor was scaling 2 → 1
    h.kube.apply(one);
    const taken = await h.stores.leases.acquire(KEY, 'dead', 1000, h.clock.now);
    if (!taken.acquired) throw new Error('lease');
    const a = h.kube.pods.get(A)!;
    await h.stores.ledger.record(taken.lease, {
      intentId: 'i-1',
      createdAt: h.clock.now,
      pods: [{ name: A, uid: a.metadata.uid!, reason: 'ScaleDown' }],
    });
    h.clock.now += 2000; // the predecessor's lease expired
    await reconcileCloneSet(h.deps({ maxPasses: 1, deadlineMs: h.clock.now + 60_000 }), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'ledger.get',
      `expectations.put deletes[${A}]`,
      `delete pod ${A}`,
      `event SuccessfulDelete: succeed to delete pod ${A}`,
      'ledger.clear',
      'requeue 1s',
      'lease.release',
    ]);
    expect([...h.kube.pods.keys()]).toEqual([B]);
  });

  test('expectations unobserved for longer than the timeout are dropped and the CloneSet re-planned', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    const taken = await h.stores.leases.acquire(KEY, 'old', 1000, h.clock.now);
    if (!taken.acquired) throw new Error('lease');
    await h.stores.expectations.put(taken.lease, {
      creates: [{ name: 'cs-no-pvc-sample-lost1', at: h.clock.now }],
      deletes: [],
      updates: [],
    });
    await h.stores.leases.release(taken.lease);
    h.clock.now += 61_000;
    const out = await reconcileCloneSet(
      h.deps({ maxPasses: 1, deadlineMs: h.clock.now + 60_000, options: { expectationTimeoutSeconds: 60 } }),
      REQUEST,
    );
    expect(h.journal.slice(0, 5)).toEqual([
      'lease.acquire',
      'expectations.get',
      'expectations.put (none)',
      'ledger.get',
      'create controllerrevision cs-no-pvc-sample-7fb7468d98',
    ]);
    expect(out.writes).toBeGreaterThan(0);
  });

  test('while expectations are pending nothing is written but status, and the pass looks again in 2 s', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    const taken = await h.stores.leases.acquire(KEY, 'old', 1000, h.clock.now);
    if (!taken.acquired) throw new Error('lease');
    await h.stores.expectations.put(taken.lease, {
      creates: [{ name: 'cs-no-pvc-sample-slow1', at: h.clock.now }],
      deletes: [],
      updates: [],
      ownsClaims: false,
    });
    await h.stores.leases.release(taken.lease);
    const out = await reconcileCloneSet(h.deps({ maxPasses: 1, maxInlineWaitSeconds: 0 }), REQUEST);
    expect(out.requeuedAfterSeconds).toBe(2);
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'ledger.get',
      'replace cloneset status cs-no-pvc-sample',
      'requeue 2s',
      'lease.release',
    ]);
  });

  test('what a pass learnt of its PVCs is stored at its end when nothing else of it stored the expectations', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    const taken = await h.stores.leases.acquire(KEY, 'old', 1000, h.clock.now);
    if (!taken.acquired) throw new Error('lease');
    const pending = {
      creates: [{ name: 'cs-no-pvc-sample-slow1', at: h.clock.now }],
      deletes: [],
      updates: [],
    };
    // an item written before the flag was kept
    await h.stores.expectations.put(taken.lease, pending);
    await h.stores.leases.release(taken.lease);
    await reconcileCloneSet(h.deps({ maxPasses: 1, maxInlineWaitSeconds: 0 }), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'ledger.get',
      'replace cloneset status cs-no-pvc-sample',
      'expectations.put creates[cs-no-pvc-sample-slow1]',
      'requeue 2s',
      'lease.release',
    ]);
    expect(await h.stores.expectations.get(KEY)).toEqual({
      ...pending,
      ownsClaims: false,
      ownerUid: 'cs-uid',
    });
  });

  test('a kill between the requeue and the release (review finding 17): the timer is already scheduled when the release dies', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    const taken = await h.stores.leases.acquire(KEY, 'old', 1000, h.clock.now);
    if (!taken.acquired) throw new Error('lease');
    await h.stores.expectations.put(taken.lease, {
      creates: [{ name: 'cs-no-pvc-sample-slow1', at: h.clock.now }],
      deletes: [],
      updates: [],
    });
    await h.stores.leases.release(taken.lease);
    const deps = h.deps({ maxPasses: 1, maxInlineWaitSeconds: 0 });
    const killed = new Error('Runtime.ExitError: the invocation was killed');
    const leases: LeaseStore = {
      ...deps.leases,
      acquire: deps.leases.acquire.bind(deps.leases),
      renew: deps.leases.renew.bind(deps.leases),
      release: () => Promise.reject(killed),
    };
    await expect(reconcileCloneSet({ ...deps, leases }, REQUEST)).rejects.toBe(killed);
    expect(h.requeues).toEqual([{ seconds: 2 }]);
    expect(h.journal.slice(-1)).toEqual(['requeue 2s']);
  });

  test('others mark the lease dirty before every release (review finding 18): at the pass budget one requeue and one unconditional release end the invocation', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    const deps = h.deps({ maxPasses: 2 });
    let releases = 0;
    const leases: LeaseStore = {
      acquire: deps.leases.acquire.bind(deps.leases),
      renew: deps.leases.renew.bind(deps.leases),
      takeDirty: deps.leases.takeDirty.bind(deps.leases),
      async release(...args) {
        if (++releases > 20) throw new Error('release loops without bound');
        await h.stores.leases.acquire(KEY, `marker-${releases}`, 120_000, h.clock.now); // marks dirty
        return deps.leases.release(...args);
      },
    };
    const out = await reconcileCloneSet({ ...deps, leases }, REQUEST);
    expect({
      result: out.result,
      passes: out.passes,
      requeuedAfterSeconds: out.requeuedAfterSeconds,
    }).toEqual({
      result: 'reconciled',
      passes: 2,
      requeuedAfterSeconds: 1,
    });
    expect(releases).toBe(2);
    expect(h.journal.filter((l) => l.startsWith('requeue') || l.startsWith('lease.'))).toEqual([
      'lease.acquire',
      'requeue 1s',
      'lease.release',
      'lease.release',
    ]);
    expect(await leaseIsFree(h)).toBe(true);
  });

  test('another execution of the same request holds the lease (a Lambda retry after a crash): mark it dirty and requeue for 1 s after its end (review finding 3)', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    await h.stores.leases.acquire(KEY, 'req-1/exec-a', 120_000, h.clock.now - 30_000);
    const out = await reconcileCloneSet(h.deps({ holder: 'req-1/exec-b' }), REQUEST);
    expect(out).toEqual({ result: 'deferred', passes: 0, writes: 0, requeuedAfterSeconds: 91 });
    expect(h.journal).toEqual(['lease.acquire', 'requeue 91s']);
    expect(h.kube.pods.size).toBe(0);
  });

  test('a requeue finds the lease held (it may be the holder’s own hand-off, fired before its release): it looks again in 1 s', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    await h.stores.leases.acquire(KEY, 'req-1/exec-a', 120_000, h.clock.now);
    const out = await reconcileCloneSet(h.deps({ holder: 'req-2/exec-c' }), {
      ...REQUEST,
      reason: 'Requeue',
    });
    expect(out).toEqual({ result: 'deferred', passes: 0, writes: 0, requeuedAfterSeconds: 1 });
    expect(h.journal).toEqual(['lease.acquire', 'requeue 1s']);
  });

  test('a holder that outlives its lease mid patch run (review finding 3): no API write after the guard, the rest requeued, the lease freed', async () => {
    const h = harness();
    await seedTwoReadyPods(h);
    const cs = seedCloneSet();
    cs.spec.template.spec.containers[0].image = 'nginx:1.19-alpine';
    h.kube.apply(cs);
    let stalled = false;
    h.kube.failOn((call) => {
      // the first patch hangs for a whole lease length (nothing kills the invocation, as in kruiseless local)
      if (call.startsWith('patch pod') && !stalled) {
        stalled = true;
        h.clock.now += 120_000;
      }
      return undefined;
    });
    const out = await reconcileCloneSet(h.deps({ writeConcurrency: 1 }), REQUEST);
    expect({ result: out.result, requeuedAfterSeconds: out.requeuedAfterSeconds }).toEqual({
      result: 'fenced',
      requeuedAfterSeconds: 1,
    });
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'ledger.get',
      'create controllerrevision cs-no-pvc-sample-6ccb957675',
      `patch pod ${A}`,
      'requeue 1s',
      'lease.release',
    ]);
    expect(await leaseIsFree(h)).toBe(true);
  });
});
