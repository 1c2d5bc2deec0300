/**
 * A duplicated event and two reconcile invocations for one key at once change nothing extra;
 * and a scale-down decision recorded by an invocation that died is finished by its successor (docs/architecture.md#lease,
 * #ledger: replaying any event any number of times, after any crash, converges to the same cluster state).
 * Real API server, real dynalite, the embedded pipeline running in the background the whole time.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { AppsV1Api } from '@kubernetes/client-node';
import type { ControllerRevision, Pod } from '../../../lib/api/types.js';
import { planCloneSet } from '../../../lib/controllers/cloneset/plan/plan.js';
import { difference, snapshot } from '../../../lib/runtime/counting.js';
import type { Embedded } from '../../../lib/local/embedded.js';
import { reconcileHandler, type ReconcileSummary } from '../../../lib/runtime/handlers/reconcile.js';
import { useTestNamespace } from '../support/cluster.js';
import {
  RecordingLogger,
  SEED_NAME,
  activePods,
  applySeedAndSettle,
  cloneSetKey,
  countReasons,
  envelope,
  eventsOf,
  getCloneSet,
  kubeWrites,
  listPods,
  patchCloneSet,
  reconcileRequest,
  settle,
  startPipeline,
} from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('e2e-idem');
let embedded: Embedded;
const STEP_TIMEOUT_MS = 120_000;

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace);
  await applySeedAndSettle(ctx.custom, ctx.namespace, embedded);
}, STEP_TIMEOUT_MS);

afterAll(async () => {
  await embedded?.stop();
});

/** name → [uid, resourceVersion] of every pod in the namespace. */
async function podVersions(): Promise<Record<string, [string, string]>> {
  return Object.fromEntries(
    (await listPods(ctx.core, ctx.namespace)).map((p) => [
      p.metadata.name ?? '',
      [p.metadata.uid ?? '', p.metadata.resourceVersion ?? ''],
    ]),
  );
}

/** Wait until `n` pods are Ready and the CloneSet's status says so, then until the pipeline is quiet. */
async function settledAt(n: number): Promise<Pod[]> {
  await waitFor(`the CloneSet settled at ${n} Ready pods`, 60_000, async () => {
    const cs = await getCloneSet(ctx.custom, ctx.namespace);
    const s = cs.status;
    const pods = await listPods(ctx.core, ctx.namespace);
    return (
      !!s &&
      pods.length === n &&
      s.observedGeneration === cs.metadata.generation &&
      s.replicas === n &&
      s.readyReplicas === n &&
      s.availableReplicas === n
    );
  });
  await settle(embedded);
  return listPods(ctx.core, ctx.namespace);
}

describe('replayed and concurrent reconcile requests', () => {
  test(
    'the same reconcile request published 5 times onto the bus changes nothing',
    async () => {
      const pods = await podVersions();
      const csVersion = (await getCloneSet(ctx.custom, ctx.namespace)).metadata.resourceVersion;
      expect(Object.keys(pods)).toHaveLength(2);
      const c0 = snapshot(embedded.counts);

      const request = reconcileRequest(ctx.namespace);
      for (let i = 0; i < 5; i++) await embedded.bus.publish([request]);
      await settle(embedded);

      const diff = difference(c0, embedded.counts);
      // the requests were delivered and read the world (each ran or was folded into a run by the dirty flag) …
      expect(diff.kube['get clonesets']).toBeGreaterThanOrEqual(1);
      // … and wrote nothing: no pod created, deleted or patched, no status, revision or Event written
      expect(kubeWrites(diff.kube)).toEqual({});
      expect(await podVersions()).toEqual(pods);
      expect((await getCloneSet(ctx.custom, ctx.namespace)).metadata.resourceVersion).toBe(csVersion);
      expect(embedded.deadLetters()).toEqual([]);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'two reconcile invocations at once during a scale-up 2 → 4 create exactly 2 pods',
    async () => {
      const logger = new RecordingLogger();
      const reconcile = reconcileHandler(() => embedded.runtime, logger);
      const before = await podVersions();
      const c0 = snapshot(embedded.counts);

      let most = 0;
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          most = Math.max(most, (await activePods(ctx.core, ctx.namespace).catch(() => [])).length);
          await sleep(50);
        }
      })();
      let results: ReconcileSummary[];
      try {
        await patchCloneSet(ctx.custom, ctx.namespace, [{ op: 'replace', path: '/spec/replicas', value: 4 }]);
        // both invocations start before the watch pump has published the change (it flushes once a second)
        const event = envelope({ ...reconcileRequest(ctx.namespace, SEED_NAME, 'ObjectChanged') });
        results = await Promise.all([reconcile(event), reconcile(structuredClone(event))]);
        await settledAt(4);
      } finally {
        watching = false;
        await watcher;
      }

      // one invocation held the lease; the other found it live, set the dirty flag and returned `deferred`
      // (the pump's own request for the change may also have been deferred, or run afterwards as a no-op)
      const deferred = results.filter((r) => r.result === 'deferred');
      const reconciled = results.filter((r) => r.result === 'reconciled');
      expect(deferred.length).toBeGreaterThanOrEqual(1);
      for (const r of deferred) expect(r).toMatchObject({ passes: 0, writes: 0 });
      expect(reconciled.filter((r) => r.writes > 0).length).toBeLessThanOrEqual(1);

      const diff = difference(c0, embedded.counts);
      expect(diff.kube['create pods']).toBe(2);
      expect(diff.kube['delete pods']).toBeUndefined();
      expect(most).toBeLessThanOrEqual(4);
      const after = await podVersions();
      expect(Object.keys(after)).toHaveLength(4);
      for (const [name, [uid]] of Object.entries(before)) expect(after[name]?.[0]).toBe(uid);
      expect(await embedded.runtime.stores.expectations.get(cloneSetKey(ctx.namespace))).toEqual({
        creates: [],
        deletes: [],
        updates: [],
        ownsClaims: false,
        // recorded for this CloneSet (a same-named successor would read them as none)
        ownerUid: (await getCloneSet(ctx.custom, ctx.namespace)).metadata.uid,
      });
      expect(embedded.deadLetters()).toEqual([]);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'a scale-down intent recorded by an invocation that died is finished: exactly that pod is deleted',
    async () => {
      const { stores } = embedded.runtime;
      const key = cloneSetKey(ctx.namespace);
      const pods = await settledAt(4);
      const c0 = snapshot(embedded.counts);

      // The dead invocation: it took the lease, saw replicas 3, wrote its choice to the ledger and died before
      // deleting. Its lease runs out by itself; reconciles arriving meanwhile are deferred.
      const leaseMs = 3000;
      const taken = await stores.leases.acquire(key, 'e2e-dead-invocation', leaseMs, Date.now());
      if (!taken.acquired) throw new Error(`lease not free: held by ${taken.heldBy}`);
      const dead = taken.lease;
      const cs = await patchCloneSet(ctx.custom, ctx.namespace, [
        { op: 'replace', path: '/spec/replicas', value: 3 },
      ]);

      // Choose a victim the planner would NOT choose on its own, so ignoring the ledger would delete another pod.
      const apps = ctx.kc.makeApiClient(AppsV1Api);
      const revisions = (await apps.listNamespacedControllerRevision({ namespace: ctx.namespace }))
        .items as unknown as ControllerRevision[];
      const own = planCloneSet({
        cloneSet: cs,
        pods,
        pvcs: [],
        revisions,
        now: new Date(),
        newInstanceId: () => 'zzzzz',
      });
      const plannerChoice = own.actions.flatMap((a) => (a.type === 'DeletePod' ? [a.pod.name] : []));
      expect(plannerChoice).toHaveLength(1);
      const victim = pods.find((p) => !plannerChoice.includes(p.metadata.name ?? ''));
      if (!victim) throw new Error('no pod other than the planner choice');
      const victimName = victim.metadata.name ?? '';
      await stores.ledger.record(dead, {
        intentId: 'e2e-dead-intent',
        createdAt: Date.now(),
        pods: [
          { name: victimName, uid: victim.metadata.uid ?? '', reason: 'e2e: chosen by the dead invocation' },
        ],
      });
      expect(Date.now()).toBeLessThan(dead.expiresAt); // the setup ran inside the dead lease
      expect(await podVersions()).toEqual(
        Object.fromEntries(
          pods.map((p) => [p.metadata.name ?? '', [p.metadata.uid ?? '', p.metadata.resourceVersion ?? '']]),
        ),
      );

      // The successor: the retried (or resync) event after the lease expired.
      await sleep(Math.max(0, dead.expiresAt - Date.now()) + 200);
      await embedded.bus.publish([reconcileRequest(ctx.namespace, SEED_NAME, 'Requeue')]);
      const left = await settledAt(3);

      expect(left.map((p) => p.metadata.name).sort()).toEqual(
        pods
          .map((p) => p.metadata.name)
          .filter((n) => n !== victimName)
          .sort(),
      );
      for (const p of left)
        expect(p.metadata.uid).toBe(pods.find((q) => q.metadata.name === p.metadata.name)?.metadata.uid);
      const diff = difference(c0, embedded.counts);
      expect(diff.kube['delete pods']).toBe(1);
      expect(diff.kube['create pods']).toBeUndefined();
      expect(await stores.ledger.get(key)).toBeUndefined();
      expect(await stores.expectations.get(key)).toEqual({
        creates: [],
        deletes: [],
        updates: [],
        ownsClaims: false,
        ownerUid: cs.metadata.uid,
      });

      const uid = cs.metadata.uid ?? '';
      const deletes = (await eventsOf(ctx.core, ctx.namespace, uid)).filter(
        (e) => e.reason === 'SuccessfulDelete',
      );
      expect(deletes.map((e) => e.message)).toEqual([`succeed to delete pod ${victimName}`]);
      expect(countReasons(deletes)).toEqual({ SuccessfulDelete: 1 });
    },
    STEP_TIMEOUT_MS,
  );
});
