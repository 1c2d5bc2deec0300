/**
 * Timers, relists, takeovers and deletions on the real API server and dynalite (docs/architecture.md#watch-pump,
 * #requeue, #lease, #expectations):
 * 1. a wait longer than the inline limit (minReadySeconds 15 > maxInlineWaitSeconds 10) goes to the requeue
 *    scheduler, and that requeue alone makes the CloneSet available;
 * 2. a watch checkpoint too old for the API server (410 Gone) makes the pump relist: every CloneSet is re-announced
 *    and the checkpoint moves on;
 * 3. a lease taken over after expiry fences every later write of the old holder, also in the middle of a reconcile;
 * 4. a deleted CloneSet: reconcile says `gone`, clears its expectations, and the garbage collector removes its pods.
 *
 * No watch pump and no resync run here: every reconcile is the reconcile handler (lib/runtime/handlers/reconcile.ts) invoked
 * by the test, or by the in-process bus when a requeue fires, with state on this file's own dynalite. So nothing
 * but the test's own invocations and the requeue timer can reconcile this file's CloneSets (the other e2e files'
 * pipelines route only their own namespaces).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { GetItemCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CLONESET_KIND } from '../../../lib/controllers/cloneset/api/kinds.js';
import type { CloneSet, Pod } from '../../../lib/api/types.js';
import {
  type EventPublisher,
  type ReconcileRequest,
  type RequeueScheduler,
} from '../../../lib/requests/index.js';
import {
  LocalBus,
  LocalRequeueScheduler,
  bindServerlessRules,
  loadRulesFromServerless,
} from '../../../lib/emulator/index.js';
import { systemClock } from '../../../lib/core/clock.js';
import { pumpCluster } from '../../../lib/source/pump.js';
import { watchStreams } from '../../../lib/source/watchSpec.js';
import { CONTROLLERS } from '../../../lib/controllers/index.js';
import { createKubeClient } from '../../../lib/kube/index.js';
import type { KubeClient } from '../../../lib/kube/types.js';
import { countingKube, difference, snapshot, type CallCounts } from '../../../lib/runtime/counting.js';
import { reconcileCloneSet } from '../../../lib/controllers/cloneset/index.js';
import { UnknownClusterError, type Runtime } from '../../../lib/runtime/types.js';
import {
  FencedOutError,
  objectKeyString,
  createStateStores,
  ensureTable,
  type ExpectationStore,
  type Expectations,
  type Lease,
  type StateStores,
} from '../../../lib/state/index.js';
import { reconcileHandler, type ReconcileSummary } from '../../../lib/runtime/handlers/reconcile.js';
import { useTestNamespace } from '../support/cluster.js';
import { uniqueTableName, useDynalite } from '../support/dynamo.js';
import {
  E2E_CLUSTER,
  RecordingLogger,
  activePods,
  applySeed,
  cloneSetKey,
  envelope,
  getCloneSet,
  listPods,
  namespaceScopedServerlessYml,
  patchCloneSet,
  podCondition,
  reconcileRequest,
  UUID_PATTERN,
} from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';
import { CLONESET_RESOURCE } from '../../../lib/controllers/cloneset/api/resource.js';

const ctx = useTestNamespace('e2e-timers');
const dynamo = useDynalite();
const STEP_TIMEOUT_MS = 60_000;
/** The reconcile handler's inline-wait limit (lib/runtime/handlers/reconcile.ts `maxInlineWaitSeconds`). */
const MAX_INLINE_WAIT_SECONDS = 10;
const MIN_READY_SECONDS = 15;
const TIMER = 'timer';
const TAKEOVER = 'takeover';
/** A CloneSet nothing reconciles (test 2). */
const IDLE = 'idle';
const EMPTY = { creates: [], deletes: [], updates: [] };
/** Nothing pending, as a CloneSet pass stores it: with what it learnt of its PVCs (none, no claim templates). */
const SETTLED = { ...EMPTY, ownsClaims: false };

let client: DynamoDBClient;
let tableName: string;
let stores: StateStores;
let kube: KubeClient;
const counts: CallCounts = { kube: {}, dynamo: {}, dynamoWatch: {} };
const logger = new RecordingLogger();

/** Requeues asked for by setup invocations: recorded, never delivered. */
const setupRequeues: { request: ReconcileRequest; seconds: number }[] = [];
const dropRequeue: RequeueScheduler = {
  async requeueAfter(request, seconds) {
    setupRequeues.push({ request, seconds });
  },
};
const noPublisher: EventPublisher = {
  async publish() {
    throw new Error('nothing may publish in this test file except the requeue scheduler under test');
  },
};

/** A Runtime over this file's dynalite and the real API server. */
function runtimeWith(requeue: RequeueScheduler, publisher: EventPublisher = noPublisher): Runtime {
  return {
    stores,
    publisher,
    requeue,
    clusterNames: async () => [E2E_CLUSTER],
    cluster: async (name) => {
      if (name !== E2E_CLUSTER) throw new UnknownClusterError(name);
      return { name, kc: ctx.kc, kube };
    },
    admissionSecret: async () => undefined,
  };
}

/** The reconcile handler of the setup steps (its requeues are dropped). */
const setupReconcile = reconcileHandler(() => runtimeWith(dropRequeue), logger);

/** The seed CloneSet renamed to `name`, with its own selector and template labels (no overlap between sets). */
function applyNamed(name: string, change: (cs: CloneSet) => void = () => undefined): Promise<CloneSet> {
  return applySeed(ctx.custom, ctx.namespace, (cs) => {
    cs.metadata.name = name;
    cs.metadata.labels = { app: name };
    cs.spec.selector = { matchLabels: { app: name } };
    cs.spec.template.metadata = { labels: { app: name } };
    change(cs);
  });
}

/** Active pods controlled by the CloneSet `uid`. */
async function podsOf(uid: string): Promise<Pod[]> {
  return (await activePods(ctx.core, ctx.namespace)).filter((p) =>
    (p.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === uid),
  );
}

/** The raw DynamoDB item of a CloneSet key (lease, expectations, scaledown). */
async function rawItem(
  name: string,
  sk: 'lease' | 'expectations' | 'scaledown',
): Promise<Record<string, AttributeValue> | undefined> {
  const pk = objectKeyString(cloneSetKey(ctx.namespace, name));
  const out = await client.send(
    new GetItemCommand({ TableName: tableName, Key: { pk: { S: pk }, sk: { S: sk } }, ConsistentRead: true }),
  );
  return out.Item;
}

/** holder, token and expiresAt of the stored lease. */
async function storedLease(name: string): Promise<{ holder?: string; token: number; expiresAt: number }> {
  const item = await rawItem(name, 'lease');
  return {
    holder: item?.holder?.S,
    token: Number(item?.token?.N ?? NaN),
    expiresAt: Number(item?.expiresAt?.N ?? NaN),
  };
}

async function fenceOf(name: string, sk: 'expectations' | 'scaledown'): Promise<number> {
  return Number((await rawItem(name, sk))?.fence?.N ?? NaN);
}

beforeAll(async () => {
  client = dynamo.client();
  tableName = uniqueTableName('timers');
  await ensureTable(client, tableName);
  stores = createStateStores({ client, tableName });
  kube = countingKube(createKubeClient(ctx.kc, { logger }), counts);
});

describe('timers, relist, takeover and deletion on the real API server', () => {
  test(
    `a ${MIN_READY_SECONDS} s minReadySeconds wait goes to the requeue scheduler, and that requeue alone makes the CloneSet available`,
    async () => {
      const created = await applyNamed(TIMER, (cs) => {
        cs.spec.minReadySeconds = MIN_READY_SECONDS;
      });
      const uid = created.metadata.uid ?? '';
      const request = reconcileRequest(ctx.namespace, TIMER, 'ObjectChanged');

      // Setup: create the pods, wait until both are Ready, and let status record readyReplicas 2 / available 0.
      expect(await setupReconcile(envelope({ ...request }))).toMatchObject({ result: 'reconciled' });
      await waitFor('2 Ready pods', 30_000, async () => {
        const pods = await podsOf(uid);
        return pods.length === 2 && pods.every((p) => podCondition(p, 'Ready')?.status === 'True');
      });
      expect(await setupReconcile(envelope({ ...request, reason: 'OwnedObjectChanged' }))).toMatchObject({
        result: 'reconciled',
        requeuedAfterSeconds: MIN_READY_SECONDS,
      });
      const before = (await getCloneSet(ctx.custom, ctx.namespace, TIMER)).status;
      expect(before).toMatchObject({ replicas: 2, readyReplicas: 2, availableReplicas: 0 });

      // The runtime under test: a LocalRequeueScheduler publishing to a bus routed by the serverless.yml rule,
      // whose target records each delivery and runs the reconcile handler.
      const asked: { request: ReconcileRequest; seconds: number; at: number }[] = [];
      const delivered: {
        detail: unknown;
        at: number;
        availableBefore?: number;
        kubeCallsSinceMeasured: Record<string, number>;
        summary?: ReconcileSummary;
      }[] = [];
      let afterMeasured = snapshot(counts);
      class RecordingRequeue extends LocalRequeueScheduler {
        override requeueAfter(r: ReconcileRequest, seconds: number, fromMs?: number): Promise<void> {
          asked.push({ request: structuredClone(r), seconds, at: Date.now() });
          return super.requeueAfter(r, seconds, fromMs);
        }
      }
      const rules = bindServerlessRules(
        loadRulesFromServerless(namespaceScopedServerlessYml(ctx.namespace)),
        {
          reconcile: async (event) => {
            const entry: (typeof delivered)[number] = {
              detail: event.detail,
              at: Date.now(),
              kubeCallsSinceMeasured: difference(afterMeasured, counts).kube,
            };
            delivered.push(entry);
            entry.availableBefore = (await getCloneSet(ctx.custom, ctx.namespace, TIMER)).status
              ?.availableReplicas;
            entry.summary = await handler(event);
          },
        },
      );
      const bus = new LocalBus({ rules });
      const requeue = new RecordingRequeue({ publisher: bus });
      const handler = reconcileHandler(() => runtimeWith(requeue, bus), logger);

      try {
        // The measured invocation: nothing to do but wait 15 s > 10 s, so it hands the wait to the scheduler.
        const measured = await handler(envelope({ ...request, reason: 'OwnedObjectChanged' }));
        afterMeasured = snapshot(counts);
        const measuredAt = Date.now();
        expect(measured).toEqual({
          key: `${E2E_CLUSTER}/${CLONESET_KIND}/${ctx.namespace}/${TIMER}`,
          result: 'reconciled',
          passes: 1,
          writes: 0,
          requeuedAfterSeconds: MIN_READY_SECONDS,
        });
        expect(MIN_READY_SECONDS).toBeGreaterThan(MAX_INLINE_WAIT_SECONDS);
        expect(asked.map(({ request: r, seconds }) => ({ request: r, seconds }))).toEqual([
          { request: { ...request, reason: 'Requeue' }, seconds: measured.requeuedAfterSeconds },
        ]);
        expect(requeue.size).toBe(1);

        // Until the requeue fires, availableReplicas stays 0; sample it while waiting.
        const samples: { at: number; available?: number }[] = [];
        await waitFor('the requeue-driven reconcile', (MIN_READY_SECONDS + 10) * 1000, async () => {
          const s = (await getCloneSet(ctx.custom, ctx.namespace, TIMER)).status;
          samples.push({ at: Date.now(), available: s?.availableReplicas });
          return delivered[0]?.summary !== undefined;
        });
        await bus.drain();

        // exactly one delivery: the Requeue request, no earlier than the asked delay after it was asked
        expect(delivered.map((d) => d.detail)).toEqual([{ ...request, reason: 'Requeue' }]);
        const [fired] = delivered;
        expect(fired.at - asked[0].at).toBeGreaterThanOrEqual(MIN_READY_SECONDS * 1000);
        expect(fired.at - asked[0].at).toBeLessThan((MIN_READY_SECONDS + 2) * 1000);
        // no other reconcile read the cluster in between, and the CloneSet was still unavailable when it fired
        expect(fired.kubeCallsSinceMeasured).toEqual({});
        expect(fired.availableBefore).toBe(0);
        const waiting = samples.filter((s) => s.at < fired.at);
        expect(waiting.length).toBeGreaterThan(10);
        expect(waiting[waiting.length - 1].at - measuredAt).toBeGreaterThan((MIN_READY_SECONDS - 1) * 1000);
        expect(new Set(waiting.map((s) => s.available))).toEqual(new Set([0]));
        // the requeue-driven reconcile wrote the status (one write) and asked for no further requeue
        expect(fired.summary).toEqual({
          key: `${E2E_CLUSTER}/${CLONESET_KIND}/${ctx.namespace}/${TIMER}`,
          result: 'reconciled',
          passes: 1,
          writes: 1,
        });
        expect(asked).toHaveLength(1);
        expect(requeue.size).toBe(0);
        const after = (await getCloneSet(ctx.custom, ctx.namespace, TIMER)).status;
        expect(after).toMatchObject({ replicas: 2, readyReplicas: 2, availableReplicas: 2 });
        for (const s of samples.filter((x) => x.available !== 0)) expect(s.at).toBeGreaterThan(fired.at);
      } finally {
        requeue.close();
        await bus.drain();
      }
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'a clonesets checkpoint at resourceVersion "1" gets 410 Gone: the pump relists, re-announces every CloneSet and moves the checkpoint on',
    async () => {
      const stream = watchStreams(CONTROLLERS).find((s) => s.resource === 'clonesets');
      if (!stream) throw new Error('no clonesets stream');
      // the stale checkpoint, through the real store
      const seeded = await stores.watches.acquire(E2E_CLUSTER, 'e2e-stale', 10_000, Date.now());
      expect(seeded).toEqual({ acquired: true, token: 1 });
      await stores.watches.release(E2E_CLUSTER, 'e2e-stale', seeded.token, { clonesets: '1' });

      // a second CloneSet, never reconciled, so the relist must announce more than one key of this namespace
      await applyNamed(IDLE, (cs) => {
        cs.spec.replicas = 0;
      });
      const mine = (
        (await ctx.custom.listNamespacedCustomObject({
          group: 'apps.kruise.io',
          version: 'v1alpha1',
          namespace: ctx.namespace,
          plural: 'clonesets',
        })) as { items: CloneSet[] }
      ).items;
      mine.sort((x, y) => (x.metadata.name ?? '').localeCompare(y.metadata.name ?? ''));
      expect(mine.map((c) => c.metadata.name)).toEqual([IDLE, TIMER]);

      const published: ReconcileRequest[] = [];
      const recorder: EventPublisher = {
        async publish(requests) {
          published.push(...structuredClone(requests));
          return { published: requests.length, calls: 1, retried: 0 };
        },
      };
      const pumpLogger = new RecordingLogger();
      const started = Date.now();
      const [result] = await pumpCluster(
        {
          cluster: E2E_CLUSTER,
          kc: ctx.kc,
          kube: createKubeClient(ctx.kc), // the relist's LIST; not counted with the reconciles' calls
          watches: stores.watches,
          publisher: recorder,
          holder: 'e2e-pump',
          clock: systemClock,
          deadlineMs: started + 5000,
          leaseDurationMs: 30_000,
          watchTimeoutSeconds: 10,
          flushIntervalMs: 500,
          checkpointIntervalMs: 1000,
          log: pumpLogger,
        },
        [stream],
      );
      expect(Date.now() - started).toBeLessThan(8000);

      // the expired watch, then (after the relist's LIST) one from the list's resourceVersion, aborted at the deadline
      expect(result).toMatchObject({
        resource: 'clonesets',
        acquired: true,
        waitedMs: 0,
        relists: 1,
        watches: 2,
      });
      expect(pumpLogger.records.map((r) => [r.level, r.message, r.extra])).toEqual([
        [
          'warn',
          'watch resourceVersion expired; restarting from a full list',
          [{ cluster: E2E_CLUSTER, resource: 'clonesets' }],
        ],
      ]);
      // every CloneSet of this namespace was re-announced as changed, at its current resourceVersion
      const ours = published
        .filter((r) => r.namespace === ctx.namespace)
        .sort((x, y) => x.name.localeCompare(y.name));
      expect(ours).toEqual(
        mine.map((c) => ({
          version: 2,
          cluster: E2E_CLUSTER,
          kind: 'apps.kruise.io/CloneSet',
          namespace: ctx.namespace,
          name: c.metadata.name,
          reason: 'ObjectChanged',
          resourceVersion: c.metadata.resourceVersion,
          correlationIds: [expect.stringMatching(UUID_PATTERN)], // one new id per observed change
        })),
      );
      expect(new Set(ours.map((r) => r.correlationIds?.[0])).size).toBe(ours.length);
      expect(result.changes).toBe(published.length);

      // the checkpoint now holds the relisted resume point (etcd revisions: numeric, newer than every object)
      const next = await stores.watches.acquire(E2E_CLUSTER, 'e2e-check', 10_000, Date.now());
      await stores.watches.release(E2E_CLUSTER, 'e2e-check', next.token);
      expect(next.acquired).toBe(true);
      expect(next.token).toBe(3); // e2e-stale, e2e-pump, e2e-check
      const resumed = next.resumePoints?.clonesets;
      expect(resumed).toBe(result.resourceVersion);
      const newest = Math.max(...mine.map((c) => Number(c.metadata.resourceVersion)));
      expect(Number(resumed)).toBeGreaterThanOrEqual(newest);
      expect(Number(resumed)).toBeGreaterThan(1);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'a lease taken over after expiry fences the old holder: its writes fail, and a reconcile fenced mid-way stops without writing',
    async () => {
      const created = await applyNamed(TAKEOVER, (cs) => {
        cs.spec.replicas = 1;
      });
      const uid = created.metadata.uid ?? '';
      const key = cloneSetKey(ctx.namespace, TAKEOVER);
      const request = reconcileRequest(ctx.namespace, TAKEOVER, 'ObjectChanged');
      expect(await setupReconcile(envelope({ ...request }))).toMatchObject({ result: 'reconciled' });
      expect(await podsOf(uid)).toHaveLength(1);

      // Invocation A takes a 2 s lease and stalls without releasing.
      const takenA = await stores.leases.acquire(key, 'invocation-A', 2000, Date.now());
      if (!takenA.acquired) throw new Error(`lease not free: held by ${takenA.heldBy}`);
      const a: Lease = takenA.lease;
      await patchCloneSet(
        ctx.custom,
        ctx.namespace,
        [{ op: 'replace', path: '/spec/replicas', value: 2 }],
        TAKEOVER,
      );
      await sleep(Math.max(0, a.expiresAt - Date.now()) + 100);

      // Invocation B (the reconcile handler) takes over with a higher token and reconciles normally.
      const c0 = snapshot(counts);
      const b = await setupReconcile(envelope({ ...request }));
      expect(b).toMatchObject({ result: 'reconciled' });
      expect(difference(c0, counts).kube).toMatchObject({ 'create pods': 1 });
      expect(difference(c0, counts).kube['delete pods']).toBeUndefined();
      expect(await podsOf(uid)).toHaveLength(2);
      const afterB = await storedLease(TAKEOVER);
      expect(afterB).toMatchObject({ token: a.token + 1, expiresAt: 0 });
      expect(afterB.holder).not.toBe('invocation-A');
      expect(await fenceOf(TAKEOVER, 'expectations')).toBe(a.token + 1);
      expect(await fenceOf(TAKEOVER, 'scaledown')).toBe(a.token + 1);

      // A wakes up: every write with its old lease is fenced out and changes nothing.
      const ghost = { creates: [{ name: `${TAKEOVER}-ghost`, at: Date.now() }], deletes: [], updates: [] };
      await expect(stores.expectations.put(a, ghost)).rejects.toThrow(FencedOutError);
      await expect(stores.expectations.put(a, ghost)).rejects.toMatchObject({
        operation: 'expectations.put',
        token: a.token,
      });
      await expect(
        stores.ledger.record(a, {
          intentId: 'stale-intent',
          createdAt: Date.now(),
          pods: [{ name: `${TAKEOVER}-x`, uid: 'u', reason: 'stale' }],
        }),
      ).rejects.toMatchObject({ name: 'FencedOutError', operation: 'ledger.record', token: a.token });
      await expect(stores.leases.renew(a, 2000, Date.now())).rejects.toThrow(FencedOutError);
      await expect(stores.leases.release(a)).rejects.toThrow(FencedOutError);
      expect(await stores.expectations.get(key)).toEqual({ ...SETTLED, ownerUid: uid });
      expect(await stores.ledger.get(key)).toBeUndefined();
      expect(await storedLease(TAKEOVER)).toEqual(afterB);

      // A reconcile fenced mid-way: invocation C reads replicas 3 and plans a create, but while it reads, its
      // lease (1.5 s) runs out and a successor takes over. Its expectations write (before the create) is fenced:
      // it returns `fenced` and writes nothing, neither to the cluster nor to DynamoDB.
      await patchCloneSet(
        ctx.custom,
        ctx.namespace,
        [{ op: 'replace', path: '/spec/replicas', value: 3 }],
        TAKEOVER,
      );
      let successor: Lease | undefined;
      let stalled = false;
      const stallingKube: KubeClient = {
        ...kube,
        async get(resource, ref) {
          if (resource.plural === CLONESET_RESOURCE.plural && !stalled) {
            stalled = true;
            await sleep(1600);
            const s = await stores.leases.acquire(key, 'successor', 30_000, Date.now());
            if (s.acquired) successor = s.lease;
          }
          return kube.get(resource, ref);
        },
      };
      // C's expectation writes, recorded on their way to the real store
      const putsOfC: { expectations: Expectations; error?: unknown }[] = [];
      const recordingExpectations: ExpectationStore = {
        get: (k) => stores.expectations.get(k),
        async put(lease, expectations) {
          const attempt: (typeof putsOfC)[number] = { expectations: structuredClone(expectations) };
          putsOfC.push(attempt);
          try {
            await stores.expectations.put(lease, expectations);
          } catch (e) {
            attempt.error = e;
            throw e;
          }
        },
      };
      const c1 = snapshot(counts);
      const fenced = await reconcileCloneSet(
        {
          kube: stallingKube,
          leases: stores.leases,
          expectations: recordingExpectations,
          ledger: stores.ledger,
          requeue: dropRequeue,
          log: logger,
          holder: 'invocation-C',
          clock: () => Date.now(),
          sleep: (ms) => sleep(ms),
          deadlineMs: Date.now() + 30_000,
          leaseDurationMs: 1500,
          maxInlineWaitSeconds: MAX_INLINE_WAIT_SECONDS,
          maxPasses: 20,
          newInstanceId: () => 'fxncd',
        },
        { ...request },
      );
      expect(successor?.token).toBe(a.token + 3); // A, B, C, successor
      expect(fenced).toEqual({ result: 'fenced', passes: 1, writes: 0 });
      // its one DynamoDB write: the expectation of the pod it was about to create, fenced out
      expect(putsOfC).toHaveLength(1);
      expect(putsOfC[0].expectations).toEqual({
        creates: [{ name: `${TAKEOVER}-fxncd`, at: expect.any(Number) }],
        deletes: [],
        updates: [],
        // carried from the stored item: an earlier pass's PVC LIST found none, so this pass lists none (below)
        ownsClaims: false,
        ownerUid: uid,
      });
      expect(putsOfC[0].error).toBeInstanceOf(FencedOutError);
      expect(putsOfC[0].error).toMatchObject({ operation: 'expectations.put', token: a.token + 2 });
      expect(difference(c1, counts).kube).toEqual({
        'get clonesets': 1,
        'list pods': 1,
        'list controllerrevisions': 1,
      });
      expect((await podsOf(uid)).map((p) => p.metadata.name)).not.toContain(`${TAKEOVER}-fxncd`);
      expect(await podsOf(uid)).toHaveLength(2);
      expect(await stores.expectations.get(key)).toEqual({ ...SETTLED, ownerUid: uid });
      expect(await fenceOf(TAKEOVER, 'expectations')).toBe(a.token + 3);
      expect(await storedLease(TAKEOVER)).toEqual({
        holder: 'successor',
        token: a.token + 3,
        expiresAt: successor?.expiresAt,
      });
      expect(logger.records.filter((r) => r.message.startsWith('lease taken over'))).toHaveLength(1);

      // The successor finishes; the next invocation creates exactly the one missing pod.
      if (!successor) throw new Error('the successor did not take the lease over');
      expect(await stores.leases.release(successor)).toBe('released');
      const c2 = snapshot(counts);
      expect(await setupReconcile(envelope({ ...request }))).toMatchObject({ result: 'reconciled' });
      expect(difference(c2, counts).kube).toMatchObject({ 'create pods': 1 });
      expect(await podsOf(uid)).toHaveLength(3);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'a deleted CloneSet: reconcile returns gone and clears its expectations; the garbage collector removes its pods',
    async () => {
      const cs = await getCloneSet(ctx.custom, ctx.namespace, TAKEOVER);
      const uid = cs.metadata.uid ?? '';
      const key = cloneSetKey(ctx.namespace, TAKEOVER);
      const pods = await podsOf(uid);
      expect(pods).toHaveLength(3);
      for (const p of pods) {
        expect(p.metadata.ownerReferences).toEqual([
          {
            apiVersion: 'apps.kruise.io/v1beta1',
            kind: 'CloneSet',
            name: TAKEOVER,
            uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ]);
      }

      // leave something in the expectations item, as an invocation that died after recording would
      const taken = await stores.leases.acquire(key, 'e2e-recorder', 10_000, Date.now());
      if (!taken.acquired) throw new Error(`lease not free: held by ${taken.heldBy}`);
      const pending = {
        creates: [{ name: `${TAKEOVER}-pending`, at: Date.now() }],
        deletes: [],
        updates: [],
      };
      await stores.expectations.put(taken.lease, pending);
      expect(await stores.leases.release(taken.lease)).toBe('released');
      expect(await stores.expectations.get(key)).toEqual(pending);

      await ctx.custom.deleteNamespacedCustomObject({
        group: 'apps.kruise.io',
        version: 'v1alpha1',
        namespace: ctx.namespace,
        plural: 'clonesets',
        name: TAKEOVER,
      });
      const c0 = snapshot(counts);
      const gone = await setupReconcile(
        envelope({ ...reconcileRequest(ctx.namespace, TAKEOVER, 'ObjectChanged') }),
      );
      expect(gone).toEqual({
        key: `${E2E_CLUSTER}/${CLONESET_KIND}/${ctx.namespace}/${TAKEOVER}`,
        result: 'gone',
        passes: 1,
        writes: 0,
      });
      expect(difference(c0, counts).kube).toEqual({ 'get clonesets': 1 });
      expect(await stores.expectations.get(key)).toEqual(EMPTY);
      expect(await fenceOf(TAKEOVER, 'expectations')).toBe((await storedLease(TAKEOVER)).token);
      expect((await storedLease(TAKEOVER)).expiresAt).toBe(0);

      // the garbage collector deletes the pods the CloneSet owned; the other CloneSet's pods stay
      const left = await waitFor('the pods garbage-collected', 30_000, async () => {
        const all = await listPods(ctx.core, ctx.namespace);
        return all.some((p) => p.metadata.ownerReferences?.[0]?.uid === uid) ? undefined : all;
      });
      expect(left.map((p) => p.metadata.ownerReferences?.[0]?.name)).toEqual([TIMER, TIMER]);
    },
    STEP_TIMEOUT_MS,
  );
});
