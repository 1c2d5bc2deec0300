/**
 * executePlan on hand-made plans against the recording API server: the whole ordered write list for every kind of
 * write, and how each kind of API error is handled.
 */
import { failedCreateMessage } from './support/failedCreate.js';
import type { CloneSet, Pod } from '../../../../../lib/api/types.js';
import type { Plan } from '../../../../../lib/controllers/cloneset/plan/types.js';
import type { Action } from '../../../../../lib/podset/actions.js';
import { silentLogger } from '../../../../../lib/core/logger.js';
import { diffRecord } from '../../../support/fixtures.js';
import { KubeApiError } from '../../../../../lib/kube/errors.js';
import { emptyCorrelation } from '../../../../../lib/kube/eventCorrelation.js';
import { RESOURCES } from '../../../../../lib/kube/resources.js';
import type { KubeEvent } from '../../../../../lib/kube/types.js';
import { executePlan, type ExecuteContext } from '../../../../../lib/controllers/cloneset/execute.js';
import { finishScaleDown } from '../../../../../lib/controllers/cloneset/finishScaleDown.js';
import { createMemoryStores, FencedOutError, type Lease } from '../../../../../lib/state/index.js';
import {
  conflict,
  internalError,
  RecordingKube,
  recordingStores,
  type Journal,
} from './support/recordingKube.js';
import { seedCloneSet, T0 } from './support/harness.js';

const KEY = {
  cluster: 'test',
  kind: 'apps.kruise.io/CloneSet',
  namespace: 'default',
  name: 'cs-no-pvc-sample',
};

function pod(name: string, extra: Partial<Pod['metadata']> = {}): Pod {
  return {
    metadata: {
      name,
      namespace: 'default',
      labels: { 'apps.kruise.io/cloneset-instance-id': name.slice(-5) },
      ...extra,
    },
    spec: { containers: [{ name: 'nginx', image: 'nginx:1.18-alpine' }] },
  };
}

function emptyPlan(overrides: Partial<Plan> = {}): Plan {
  return {
    validationErrors: [],
    revisions: { updateRevision: 'r2', currentRevision: 'r1', collisionCount: 0, deleteNames: [] },
    phase: 'scale',
    diff: diffRecord({}),
    actions: [],
    status: { observedGeneration: 1, replicas: 1 } as Plan['status'],
    statusChanged: true,
    events: [],
    ...overrides,
  };
}

interface Setup {
  journal: Journal;
  kube: RecordingKube;
  cloneSet: CloneSet;
  lease: Lease;
  ctx: (o?: Partial<ExecuteContext>) => ExecuteContext;
  stores: ReturnType<typeof createMemoryStores>;
}

async function setup(): Promise<Setup> {
  const journal: Journal = [];
  const kube = new RecordingKube(journal, () => new Date(T0));
  const cloneSet = kube.apply(seedCloneSet());
  for (const name of ['cs-x-aaaaa', 'cs-x-bbbbb']) {
    const p = await kube.create(RESOURCES.pods, pod(name));
    kube.pods.set(name, p);
  }
  await kube.create(RESOURCES.persistentvolumeclaims, {
    metadata: { name: 'data-cs-x-bbbbb', namespace: 'default' },
    spec: {},
  });
  await kube.create(RESOURCES.controllerrevisions, {
    metadata: { name: 'r0', namespace: 'default' },
    revision: 0,
  });
  journal.length = 0;
  const stores = createMemoryStores();
  const acquired = await stores.leases.acquire(KEY, 'inv-1', 60_000, T0);
  if (!acquired.acquired) throw new Error('lease');
  const recorded = recordingStores(stores, journal, { expectations: true });
  return {
    journal,
    kube,
    cloneSet,
    lease: acquired.lease,
    stores,
    ctx: (o = {}) => ({
      kube,
      lease: acquired.lease,
      expectations: recorded.expectations,
      ledger: recorded.ledger,
      cloneSet,
      pods: [...kube.pods.values()],
      pvcs: [...kube.pvcs.values()],
      pending: { creates: [], deletes: [], updates: [] },
      clock: () => T0,
      newIntentId: () => 'intent-1',
      log: silentLogger,
      // one write at a time: the exact order of the writes (concurrent writes have their own tests below)
      writeConcurrency: 1,
      ...o,
    }),
  };
}

describe('executePlan: the order of writes', () => {
  test('revision → ledger → expectations → deletes/creates → status → podsToDelete → history → Events', async () => {
    const s = await setup();
    const a = s.kube.pods.get('cs-x-aaaaa')!;
    const b = s.kube.pods.get('cs-x-bbbbb')!;
    const plan = emptyPlan({
      revisions: {
        updateRevision: 'r2',
        currentRevision: 'r1',
        collisionCount: 0,
        create: { metadata: { name: 'r2', namespace: 'default' }, revision: 2 },
        deleteNames: ['r0'],
      },
      actions: [
        {
          type: 'DeletePod',
          pod: { name: 'cs-x-aaaaa', uid: a.metadata.uid! },
          reason: 'SpecifiedDelete',
          pvcNames: [],
        },
        {
          type: 'DeletePod',
          pod: { name: 'cs-x-bbbbb', uid: b.metadata.uid! },
          reason: 'ScaleDown',
          pvcNames: ['data-cs-x-bbbbb'],
        },
        { type: 'CreatePod', pod: pod('cs-x-ccccc'), pvcs: [], revision: 'r2', batch: 0 },
      ],
      podsToDelete: [],
      events: [{ type: 'Normal', reason: 'Planned', message: 'from the planner' }],
    });
    const out = await executePlan(s.ctx(), plan);
    expect(out).toEqual({ writes: 8 });
    expect(s.journal).toEqual([
      'create controllerrevision r2',
      'ledger.record [cs-x-aaaaa,cs-x-bbbbb]',
      'expectations.put deletes[cs-x-aaaaa,cs-x-bbbbb,data-cs-x-bbbbb]',
      'delete pod cs-x-aaaaa',
      'delete pod cs-x-bbbbb',
      'delete persistentvolumeclaim data-cs-x-bbbbb',
      'expectations.put creates[cs-x-ccccc] deletes[cs-x-aaaaa,cs-x-bbbbb,data-cs-x-bbbbb]',
      'create pod cs-x-ccccc',
      'ledger.clear',
      'replace cloneset status cs-no-pvc-sample',
      'patch cloneset cs-no-pvc-sample {"spec":{"scaleStrategy":{"podsToDelete":null}}}',
      'delete controllerrevision r0',
      'event Planned: from the planner',
      'event SuccessfulDelete: succeed to delete pod cs-x-aaaaa',
      'event SuccessfulDelete: succeed to delete pod cs-x-bbbbb',
      'event SuccessfulCreate: succeed to create pod cs-x-ccccc',
    ]);
    expect(await s.stores.ledger.get(KEY)).toBeUndefined();
  });

  test('pod patches: preconditioned ones chain the resourceVersion each write returned; update expectations saved once', async () => {
    const s = await setup();
    const a = s.kube.pods.get('cs-x-aaaaa')!;
    const plan = emptyPlan({
      statusChanged: false,
      actions: [
        {
          type: 'PatchPod',
          pod: { name: 'cs-x-aaaaa', uid: a.metadata.uid!, resourceVersion: a.metadata.resourceVersion },
          reason: 'InPlaceUpdate',
          patch: { metadata: { labels: { step: '1' } } },
        },
        {
          type: 'PatchPod',
          pod: { name: 'cs-x-aaaaa', uid: a.metadata.uid!, resourceVersion: a.metadata.resourceVersion },
          reason: 'InPlaceUpdateNextBatch',
          patch: { metadata: { labels: { step: '2' } } },
        },
        {
          type: 'PatchPodStatus',
          pod: { name: 'cs-x-aaaaa', uid: a.metadata.uid! },
          reason: 'MarkPodReady',
          patch: { status: { phase: 'Running' } },
        },
        { type: 'PatchPVCOwner', name: 'data-cs-x-bbbbb', uid: 'uid-data-cs-x-bbbbb', ownerReferences: [] },
        { type: 'DeletePVC', name: 'data-cs-x-bbbbb', uid: 'uid-data-cs-x-bbbbb' },
      ],
    });
    const out = await executePlan(s.ctx(), plan);
    expect(out).toEqual({ writes: 5 });
    expect(s.journal).toEqual([
      'patch pod cs-x-aaaaa',
      'patch pod cs-x-aaaaa',
      'patch pod status cs-x-aaaaa',
      'patch persistentvolumeclaim data-cs-x-bbbbb {"metadata":{"ownerReferences":[]}}',
      'expectations.put deletes[data-cs-x-bbbbb] updates[cs-x-aaaaa]',
      'delete persistentvolumeclaim data-cs-x-bbbbb',
      'expectations.put deletes[data-cs-x-bbbbb] updates[cs-x-aaaaa]',
      'event SuccessfulUpdatePodInPlace: successfully update pod cs-x-aaaaa in-place(revision r2)',
    ]);
    expect(s.kube.pods.get('cs-x-aaaaa')?.metadata.labels?.step).toBe('2');
  });

  test('an in-place resize: PATCH pods/resize (preconditioned on the planned version) before the pod patch (preconditioned on the version the resize returned)', async () => {
    const s = await setup();
    const a = s.kube.pods.get('cs-x-aaaaa')!;
    const sent: { subresource?: string; body: unknown; resourceVersion?: string }[] = [];
    const returned: string[] = [];
    const patch = s.kube.patch.bind(s.kube);
    s.kube.patch = (resource, ref, change, options = {}) => {
      sent.push({
        ...(options.subresource ? { subresource: options.subresource } : {}),
        body: change.body,
        ...(options.preconditions?.resourceVersion
          ? { resourceVersion: options.preconditions.resourceVersion }
          : {}),
      });
      return patch(resource, ref, change, options).then((o) => {
        returned.push(o.metadata.resourceVersion ?? '');
        return o;
      });
    };
    const resize = { spec: { containers: [{ name: 'nginx', resources: { requests: { cpu: '150m' } } }] } };
    const plan = emptyPlan({
      phase: 'update',
      statusChanged: false,
      actions: [
        {
          type: 'PatchPod',
          pod: { name: 'cs-x-aaaaa', uid: a.metadata.uid!, resourceVersion: a.metadata.resourceVersion },
          reason: 'InPlaceUpdate',
          patch: { metadata: { labels: { 'controller-revision-hash': 'r2' } } },
          resize,
        },
      ],
    });
    const out = await executePlan(s.ctx(), plan);
    expect(out).toEqual({ writes: 2 });
    expect(s.journal).toEqual([
      'patch pod resize cs-x-aaaaa',
      'patch pod cs-x-aaaaa',
      'expectations.put updates[cs-x-aaaaa]',
      'event SuccessfulUpdatePodInPlace: successfully update pod cs-x-aaaaa in-place(revision r2)',
    ]);
    const resizedRv = returned[0];
    expect(sent).toEqual([
      { subresource: 'resize', body: resize, resourceVersion: a.metadata.resourceVersion },
      {
        body: { metadata: { labels: { 'controller-revision-hash': 'r2' } } },
        resourceVersion: resizedRv,
      },
    ]);
    const stored = s.kube.pods.get('cs-x-aaaaa')!;
    expect(stored.spec.containers[0].resources).toEqual({ requests: { cpu: '150m' } });
    expect(stored.metadata.labels?.['controller-revision-hash']).toBe('r2');
  });

  test('a resize answered 409 because the kubelet wrote the status since the list: retried in place, no conflict left to the next pass', async () => {
    const s = await setup();
    const a = s.kube.pods.get('cs-x-aaaaa')!;
    // the pods as listed, then the kubelet's status write
    const ctx = s.ctx({ pods: [...s.kube.pods.values()].map((p) => structuredClone(p)) });
    a.status = { phase: 'Running' };
    a.metadata.resourceVersion = s.kube.advanceResourceVersion();
    const plan = emptyPlan({
      phase: 'update',
      statusChanged: false,
      actions: [
        {
          type: 'PatchPod',
          pod: {
            name: 'cs-x-aaaaa',
            uid: a.metadata.uid!,
            resourceVersion: ctx.pods[0].metadata.resourceVersion,
          },
          reason: 'InPlaceUpdate',
          patch: { metadata: { labels: { 'controller-revision-hash': 'r2' } } },
          resize: { spec: { containers: [{ name: 'nginx', resources: { requests: { cpu: '150m' } } }] } },
        },
      ],
    });
    const out = await executePlan(ctx, plan);
    expect(out).toEqual({ writes: 2 });
    expect(s.journal.filter((l) => l.startsWith('patch pod'))).toEqual([
      'patch pod resize cs-x-aaaaa',
      'patch pod resize cs-x-aaaaa',
      'patch pod cs-x-aaaaa',
    ]);
    expect(s.kube.pods.get('cs-x-aaaaa')!.metadata.labels?.['controller-revision-hash']).toBe('r2');
  });

  test('a failed resize: the pod patch is not sent, FailedUpdatePodInPlace names the resize error', async () => {
    const s = await setup();
    s.kube.failOn((call) => (call === 'patch pod resize cs-x-aaaaa' ? internalError(call) : undefined));
    const plan = emptyPlan({
      phase: 'update',
      actions: [
        {
          type: 'PatchPod',
          pod: { name: 'cs-x-aaaaa', uid: 'u' },
          reason: 'InPlaceUpdate',
          patch: { metadata: { labels: { 'controller-revision-hash': 'r2' } } },
          resize: { spec: { containers: [{ name: 'nginx', resources: { requests: { cpu: '150m' } } }] } },
        },
      ],
    });
    const out = await executePlan(s.ctx(), plan);
    expect(out.error).toBeDefined();
    expect(s.journal.filter((l) => l.startsWith('patch pod'))).toEqual(['patch pod resize cs-x-aaaaa']);
    expect(s.kube.events.map((e) => `${e.reason}: ${e.message}`)).toEqual([
      'FailedUpdatePodInPlace: failed to update pod cs-x-aaaaa in-place(revision r2): etcd is unavailable',
    ]);
    expect([...s.kube.cloneSets.values()][0].status?.conditions?.[0]?.type).toBe('FailedUpdate');
  });

  test('a pod update names the revision its action carries (a partition rollback targets the current revision)', async () => {
    const s = await setup();
    const a = s.kube.pods.get('cs-x-aaaaa')!;
    const b = s.kube.pods.get('cs-x-bbbbb')!;
    const plan = emptyPlan({
      statusChanged: false,
      actions: [
        {
          type: 'PatchPod',
          pod: { name: 'cs-x-aaaaa', uid: a.metadata.uid!, resourceVersion: a.metadata.resourceVersion },
          reason: 'InPlaceUpdate',
          patch: { metadata: { labels: { step: '1' } } },
          revision: 'r1',
        },
        {
          type: 'PatchPod',
          pod: { name: 'cs-x-bbbbb', uid: b.metadata.uid!, resourceVersion: b.metadata.resourceVersion },
          reason: 'RecreateUpdate',
          patch: { metadata: { labels: { 'apps.kruise.io/specified-delete': 'true' } } },
          revision: 'r1',
        },
      ],
    });
    await executePlan(s.ctx(), plan);
    expect(s.journal.filter((l) => l.startsWith('event'))).toEqual([
      'event SuccessfulUpdatePodInPlace: successfully update pod cs-x-aaaaa in-place(revision r1)',
      'event SuccessfulUpdatePodReCreate: successfully patch pod cs-x-bbbbb specified-delete for update(revision r1)',
    ]);
  });

  test('an Event already recorded by this invocation is not recorded again', async () => {
    const s = await setup();
    const recordedEvents = new Set<string>();
    const plan = emptyPlan({
      statusChanged: false,
      events: [{ type: 'Warning', reason: 'ScaleUpLimited', message: 'limited' }],
    });
    await executePlan(s.ctx({ recordedEvents }), plan);
    await executePlan(s.ctx({ recordedEvents }), plan);
    expect(s.journal).toEqual(['event ScaleUpLimited: limited']);
  });

  test('Events go through the correlator, its state kept across passes: 9 as they are, 16 aggregated, 5 dropped', async () => {
    const s = await setup();
    const eventCorrelation = { state: emptyCorrelation() };
    const msg = (i: number): string => `succeed to create pod p-${i}`;
    const events = (from: number, to: number): KubeEvent[] =>
      Array.from({ length: to - from + 1 }, (_, k) => ({
        type: 'Normal' as const,
        reason: 'SuccessfulCreate',
        message: msg(from + k),
      }));
    await executePlan(
      s.ctx({ eventCorrelation }),
      emptyPlan({ statusChanged: false, events: events(1, 12) }),
    );
    await executePlan(
      s.ctx({ eventCorrelation }),
      emptyPlan({ statusChanged: false, events: events(13, 30) }),
    );
    expect(s.journal).toEqual([
      ...Array.from({ length: 9 }, (_, k) => `event SuccessfulCreate: ${msg(k + 1)}`),
      ...Array.from(
        { length: 16 },
        (_, k) => `event SuccessfulCreate: (combined from similar events): ${msg(k + 10)}`,
      ),
    ]);
    const stored = [...s.kube.eventObjects.values()].map((e) => [e.message, e.count]);
    expect(stored).toEqual([
      ...Array.from({ length: 9 }, (_, k) => [msg(k + 1), 1]),
      [`(combined from similar events): ${msg(25)}`, 16],
    ]);
  });
});

/** 7 creations in slow-start batches of 1, 2 and 4 (cs-x-c0 … cs-x-c6). */
function sevenCreates(): Plan['actions'] {
  const batch = [0, 1, 1, 2, 2, 2, 2];
  return batch.map((b, i) => ({
    type: 'CreatePod',
    pod: pod(`cs-x-c${i}`),
    pvcs: [],
    revision: 'r2',
    batch: b,
  }));
}

/**
 * `kube` whose pod creates and patches answer after 5 ms (the fake API server answers at once, which would never
 * overlap two writes), counting how many are in flight. Calls still reach the recording server in call order.
 */
function slowWrites(kube: RecordingKube): { kube: RecordingKube; maxInFlight: () => number } {
  let inFlight = 0;
  let max = 0;
  const slow = new Proxy(kube, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || !['create', 'patch'].includes(String(prop))) return value;
      return async (...args: unknown[]) => {
        inFlight++;
        max = Math.max(max, inFlight);
        try {
          const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          await new Promise((r) => setTimeout(r, 5));
          return result;
        } finally {
          inFlight--;
        }
      };
    },
  });
  return { kube: slow, maxInFlight: () => max };
}

describe('executePlan: concurrent writes (writeConcurrency > 1)', () => {
  test('each slow-start batch goes out concurrently, bounded, after its expectations; the batches stay in order', async () => {
    const s = await setup();
    const slow = slowWrites(s.kube);
    const out = await executePlan(
      s.ctx({ kube: slow.kube, writeConcurrency: 3 }),
      emptyPlan({ actions: sevenCreates() }),
    );
    expect(out).toEqual({ writes: 8 });
    expect(slow.maxInFlight()).toBe(3); // the batch of 4 is held to 3 at a time
    const creates = (...i: number[]) => i.map((n) => `create pod cs-x-c${n}`);
    expect(s.journal.slice(0, 10)).toEqual([
      'expectations.put creates[cs-x-c0]',
      ...creates(0),
      'expectations.put creates[cs-x-c0,cs-x-c1,cs-x-c2]',
      ...creates(1, 2),
      'expectations.put creates[cs-x-c0,cs-x-c1,cs-x-c2,cs-x-c3,cs-x-c4,cs-x-c5,cs-x-c6]',
      ...creates(3, 4, 5, 6),
    ]);
    expect([...s.kube.pods.keys()].filter((n) => n.startsWith('cs-x-c'))).toHaveLength(7);
  });

  test('with writeConcurrency 1 the same plan is written one create at a time', async () => {
    const s = await setup();
    const slow = slowWrites(s.kube);
    await executePlan(
      s.ctx({ kube: slow.kube, writeConcurrency: 1 }),
      emptyPlan({ actions: sevenCreates() }),
    );
    expect(slow.maxInFlight()).toBe(1);
  });

  test('a failed create lets its batch finish and stops the next batch (slowStartBatch)', async () => {
    const s = await setup();
    s.kube.failOn((call) => (call === 'create pod cs-x-c1' ? internalError(call) : undefined));
    const slow = slowWrites(s.kube);
    const out = await executePlan(
      s.ctx({ kube: slow.kube, writeConcurrency: 16 }),
      emptyPlan({ actions: sevenCreates() }),
    );
    expect((out.error as KubeApiError).statusCode).toBe(500);
    expect(out.writes).toBe(3); // c0, c2 and the status
    expect(s.journal).toEqual([
      'expectations.put creates[cs-x-c0]',
      'create pod cs-x-c0',
      'expectations.put creates[cs-x-c0,cs-x-c1,cs-x-c2]',
      'create pod cs-x-c1',
      'create pod cs-x-c2',
      'expectations.put creates[cs-x-c0,cs-x-c2]',
      'replace cloneset status cs-no-pvc-sample',
      'event SuccessfulCreate: succeed to create pod cs-x-c0',
      'event SuccessfulCreate: succeed to create pod cs-x-c2',
      failedCreateMessage('etcd is unavailable', 'cs-x-c1', 'event FailedCreate: '),
    ]);
  });

  test('every refused create of a batch is a FailedCreate, as OpenKruise records one per pod (createOnePod)', async () => {
    const s = await setup();
    s.kube.failOn((call) =>
      call === 'create pod cs-x-c1' || call === 'create pod cs-x-c2' ? internalError(call) : undefined,
    );
    const out = await executePlan(s.ctx({ writeConcurrency: 16 }), emptyPlan({ actions: sevenCreates() }));
    expect((out.error as KubeApiError).statusCode).toBe(500);
    expect(s.journal.filter((l) => l.startsWith('event'))).toEqual([
      'event SuccessfulCreate: succeed to create pod cs-x-c0',
      failedCreateMessage('etcd is unavailable', 'cs-x-c2', 'event FailedCreate: '),
      failedCreateMessage('etcd is unavailable', 'cs-x-c1', 'event FailedCreate: '),
    ]);
  });

  test('a run of pod patches goes out concurrently; after a failure no further patch starts', async () => {
    const s = await setup();
    const names = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'].map((n) => `cs-x-${n}`);
    for (const n of names)
      s.kube.pods.set(n, { ...pod(n), metadata: { ...pod(n).metadata, uid: `uid-${n}` } });
    s.journal.length = 0;
    s.kube.failOn((call) => (call === 'patch pod cs-x-p1' ? internalError(call) : undefined));
    const slow = slowWrites(s.kube);
    const out = await executePlan(
      s.ctx({ kube: slow.kube, writeConcurrency: 4 }),
      emptyPlan({
        phase: 'update',
        statusChanged: false,
        actions: names.map((n) => ({
          type: 'PatchPod',
          pod: { name: n, uid: `uid-${n}` },
          reason: 'LifecycleTransition' as const,
          patch: { metadata: { labels: { touched: 'yes' } } },
        })),
      }),
    );
    expect((out.error as KubeApiError).statusCode).toBe(500);
    expect(slow.maxInFlight()).toBe(4);
    // p0…p3 started together (p1 failed at once); p4 and p5 were never started
    expect(s.journal.filter((l) => l.startsWith('patch pod'))).toEqual(
      names.slice(0, 4).map((n) => `patch pod ${n}`),
    );
    expect(out.writes).toBe(4); // p0, p2, p3 and the failure's status write
  });
});

describe('executePlan: API errors', () => {
  test('AlreadyExists for a name the plan saw taken (an evicted pod still holding it) is FailedCreate', async () => {
    const s = await setup();
    const plan = emptyPlan({
      actions: [{ type: 'CreatePod', pod: pod('cs-x-aaaaa'), pvcs: [], revision: 'r2', batch: 0 }],
    });
    const out = await executePlan(s.ctx(), plan);
    expect(out.error).toBeInstanceOf(KubeApiError);
    expect((out.error as KubeApiError).reason).toBe('AlreadyExists');
    expect(s.journal).toEqual([
      'expectations.put creates[cs-x-aaaaa]',
      'create pod cs-x-aaaaa',
      'expectations.put (none)',
      'replace cloneset status cs-no-pvc-sample',
      failedCreateMessage('pods "cs-x-aaaaa" already exists', 'cs-x-aaaaa', 'event FailedCreate: '),
    ]);
  });

  test("no create succeeded (a quota refusing them): the plan's ifNoneCreated writes are made, the create's error stays", async () => {
    const s = await setup();
    const b = s.kube.pods.get('cs-x-bbbbb')!;
    s.kube.failOn((call) => (call === 'create pod cs-x-ccccc' ? internalError(call) : undefined));
    const normal: Action = {
      type: 'PatchPod',
      pod: { name: 'cs-x-bbbbb', uid: b.metadata.uid! },
      reason: 'LifecycleTransition',
      patch: { metadata: { labels: { 'lifecycle.apps.kruise.io/state': 'Normal' } } },
    };
    const create: Action = { type: 'CreatePod', pod: pod('cs-x-ccccc'), pvcs: [], revision: 'r2', batch: 0 };
    const out = await executePlan(s.ctx(), emptyPlan({ actions: [create], ifNoneCreated: [normal] }));
    expect((out.error as KubeApiError).statusCode).toBe(500);
    expect(s.journal.filter((l) => !l.startsWith('event'))).toEqual([
      'expectations.put creates[cs-x-ccccc]',
      'create pod cs-x-ccccc',
      'expectations.put (none)',
      'patch pod cs-x-bbbbb',
      'expectations.put updates[cs-x-bbbbb]',
      'replace cloneset status cs-no-pvc-sample',
    ]);
    expect(s.kube.pods.get('cs-x-bbbbb')?.metadata.labels?.['lifecycle.apps.kruise.io/state']).toBe('Normal');
  });

  test('a failed delete: FailedDelete, its expectation dropped, the ledger keeps the intent, podsToDelete is not truncated', async () => {
    const s = await setup();
    const a = s.kube.pods.get('cs-x-aaaaa')!;
    s.kube.failOn((call) => (call === 'delete pod cs-x-aaaaa' ? internalError(call) : undefined));
    const plan = emptyPlan({
      actions: [
        {
          type: 'DeletePod',
          pod: { name: 'cs-x-aaaaa', uid: a.metadata.uid! },
          reason: 'ScaleDown',
          pvcNames: [],
        },
      ],
      podsToDelete: [],
    });
    const out = await executePlan(s.ctx(), plan);
    expect(out.error?.message).toMatch(/500 InternalError/);
    expect(out.writes).toBe(1);
    expect(s.journal).toEqual([
      'ledger.record [cs-x-aaaaa]',
      'expectations.put deletes[cs-x-aaaaa]',
      'delete pod cs-x-aaaaa',
      'expectations.put (none)', // the failed delete is not expected any more (OpenKruise's deletePods)
      'replace cloneset status cs-no-pvc-sample',
      'event FailedDelete: failed to delete pod cs-x-aaaaa: etcd is unavailable',
    ]);
    expect((await s.stores.ledger.get(KEY))?.pods.map((p) => p.name)).toEqual(['cs-x-aaaaa']);
    expect([...s.kube.cloneSets.values()][0].status?.conditions?.[0]?.type).toBe('FailedScale');
  });

  test('a run of deletions stores its expectations once, before the first delete (review finding 4)', async () => {
    const s = await setup();
    const [a, b] = ['cs-x-aaaaa', 'cs-x-bbbbb'].map((n) => s.kube.pods.get(n)!);
    const plan = emptyPlan({
      actions: [a, b].map((p) => ({
        type: 'DeletePod' as const,
        pod: { name: p.metadata.name!, uid: p.metadata.uid! },
        reason: 'ScaleDown',
        pvcNames: [],
      })),
    });
    const out = await executePlan(s.ctx(), plan);
    expect(out).toEqual({ writes: 3 });
    expect(s.journal).toEqual([
      'ledger.record [cs-x-aaaaa,cs-x-bbbbb]',
      'expectations.put deletes[cs-x-aaaaa,cs-x-bbbbb]',
      'delete pod cs-x-aaaaa',
      'delete pod cs-x-bbbbb',
      'ledger.clear',
      'replace cloneset status cs-no-pvc-sample',
      'event SuccessfulDelete: succeed to delete pod cs-x-aaaaa',
      'event SuccessfulDelete: succeed to delete pod cs-x-bbbbb',
    ]);
  });

  test('a failed delete in a run: the expectations of it and of every deletion after it rolled back in one write', async () => {
    const s = await setup();
    const [a, b] = ['cs-x-aaaaa', 'cs-x-bbbbb'].map((n) => s.kube.pods.get(n)!);
    s.kube.failOn((call) =>
      call === 'delete persistentvolumeclaim data-cs-x-bbbbb' ? internalError(call) : undefined,
    );
    const plan = emptyPlan({
      actions: [
        {
          type: 'DeletePod',
          pod: { name: a.metadata.name!, uid: a.metadata.uid! },
          reason: 'ScaleDown',
          pvcNames: [],
        },
        {
          type: 'DeletePod',
          pod: { name: b.metadata.name!, uid: b.metadata.uid! },
          reason: 'ScaleDown',
          pvcNames: ['data-cs-x-bbbbb'],
        },
        { type: 'DeletePod', pod: { name: 'cs-x-ccccc', uid: 'u-c' }, reason: 'ScaleDown', pvcNames: [] },
      ],
      podsToDelete: [],
    });
    const out = await executePlan(s.ctx(), plan);
    expect(out.error?.message).toMatch(/500 InternalError/);
    expect(out.writes).toBe(2); // pod a; the status (pod b's delete belongs to the failed deletion)
    expect(s.journal).toEqual([
      'ledger.record [cs-x-aaaaa,cs-x-bbbbb,cs-x-ccccc]',
      'expectations.put deletes[cs-x-aaaaa,cs-x-bbbbb,data-cs-x-bbbbb,cs-x-ccccc]',
      'delete pod cs-x-aaaaa',
      'delete pod cs-x-bbbbb',
      'delete persistentvolumeclaim data-cs-x-bbbbb',
      // pod b was deleted and stays expected; its PVC failed and cs-x-ccccc was not attempted
      'expectations.put deletes[cs-x-aaaaa,cs-x-bbbbb]',
      'replace cloneset status cs-no-pvc-sample',
      'event SuccessfulDelete: succeed to delete pod cs-x-aaaaa',
      'event FailedDelete: failed to delete pod cs-x-bbbbb: etcd is unavailable',
    ]);
    expect((await s.stores.expectations.get(KEY)).deletes.map((d) => d.name)).toEqual([
      'cs-x-aaaaa',
      'cs-x-bbbbb',
    ]);
    expect([...s.kube.pods.keys()]).toEqual([]);
  });

  test('a failed in-place patch in the update phase: FailedUpdatePodInPlace and a FailedUpdate condition', async () => {
    const s = await setup();
    s.kube.failOn((call) => (call === 'patch pod cs-x-aaaaa' ? internalError(call) : undefined));
    const plan = emptyPlan({
      phase: 'update',
      actions: [
        { type: 'PatchPod', pod: { name: 'cs-x-aaaaa', uid: 'u' }, reason: 'InPlaceUpdate', patch: {} },
      ],
    });
    const out = await executePlan(s.ctx(), plan);
    expect(out.error).toBeDefined();
    expect(s.kube.events.map((e) => `${e.reason}: ${e.message}`)).toEqual([
      'FailedUpdatePodInPlace: failed to update pod cs-x-aaaaa in-place(revision r2): etcd is unavailable',
    ]);
    expect([...s.kube.cloneSets.values()][0].status?.conditions?.[0]?.type).toBe('FailedUpdate');
  });

  test('a failed revision create stops everything after it; no action Event', async () => {
    const s = await setup();
    s.kube.failOn((call) => (call.startsWith('create controllerrevision') ? internalError(call) : undefined));
    const plan = emptyPlan({
      revisions: {
        updateRevision: 'r2',
        currentRevision: 'r1',
        collisionCount: 0,
        create: { metadata: { name: 'r2', namespace: 'default' }, revision: 2 },
        deleteNames: [],
      },
      actions: [{ type: 'CreatePod', pod: pod('cs-x-ccccc'), pvcs: [], revision: 'r2', batch: 0 }],
    });
    const out = await executePlan(s.ctx(), plan);
    expect(out.error).toBeDefined();
    expect(s.journal).toEqual(['create controllerrevision r2', 'replace cloneset status cs-no-pvc-sample']);
  });

  test('a 409 on the status write is a conflict: no podsToDelete truncation, history still truncated', async () => {
    const s = await setup();
    s.kube.failOn((call) => (call.startsWith('replace cloneset status') ? conflict(call) : undefined));
    const plan = emptyPlan({
      podsToDelete: [],
      revisions: { ...emptyPlan().revisions, deleteNames: ['r0'] },
    });
    const out = await executePlan(s.ctx(), plan);
    expect(out).toEqual({ writes: 1, conflict: true });
    expect(s.journal).toEqual(['replace cloneset status cs-no-pvc-sample', 'delete controllerrevision r0']);
  });

  test('a failed status write is the error; failed truncations are only logged', async () => {
    const s = await setup();
    s.kube.failOn((call) =>
      call.startsWith('replace cloneset status') || call.startsWith('delete controllerrevision')
        ? internalError(call)
        : undefined,
    );
    const plan = emptyPlan({ revisions: { ...emptyPlan().revisions, deleteNames: ['r0'] } });
    const out = await executePlan(s.ctx(), plan);
    expect(out.error?.message).toMatch(/replace cloneset status/);
    expect(out.writes).toBe(0);
    expect(s.journal).toEqual(['replace cloneset status cs-no-pvc-sample', 'delete controllerrevision r0']);
  });

  test('a failed podsToDelete patch is logged, not reported', async () => {
    const s = await setup();
    s.kube.failOn((call) => (call.startsWith('patch cloneset') ? internalError(call) : undefined));
    const out = await executePlan(s.ctx(), emptyPlan({ podsToDelete: ['x'] }));
    expect(out).toEqual({ writes: 1 });
  });

  test('a fenced expectations write is thrown before the write it guards', async () => {
    const s = await setup();
    await s.stores.leases.acquire(KEY, 'successor', 60_000, T0 + 120_000);
    const plan = emptyPlan({
      actions: [{ type: 'CreatePod', pod: pod('cs-x-ccccc'), pvcs: [], revision: 'r2', batch: 0 }],
    });
    await expect(executePlan(s.ctx(), plan)).rejects.toBeInstanceOf(FencedOutError);
    expect(s.journal).toEqual(['expectations.put creates[cs-x-ccccc]']);
  });

  test('a non-API error of a write propagates', async () => {
    const s = await setup();
    const bug = new TypeError('bug');
    s.kube.patch = () => Promise.reject(bug);
    const plan = emptyPlan({
      actions: [
        { type: 'PatchPod', pod: { name: 'cs-x-aaaaa', uid: 'u' }, reason: 'LifecycleTransition', patch: {} },
      ],
    });
    await expect(executePlan(s.ctx(), plan)).rejects.toBe(bug);
  });
});

describe('finishScaleDown: a recorded intent is finished, not re-chosen', () => {
  test('deletes the recorded pods that still exist with their UID (and their PVCs), then clears the intent', async () => {
    const s = await setup();
    const b = s.kube.pods.get('cs-x-bbbbb')!;
    const intent = {
      intentId: 'i-1',
      createdAt: T0,
      pods: [
        { name: 'cs-x-bbbbb', uid: b.metadata.uid!, reason: 'ScaleDown' },
        { name: 'cs-x-aaaaa', uid: 'an-older-uid', reason: 'ScaleDown' },
        { name: 'cs-x-gone', uid: 'u', reason: 'ScaleDown' },
      ],
    };
    await s.stores.ledger.record(s.lease, intent);
    const ctx = s.ctx();
    const writes = await finishScaleDown(
      {
        ...ctx,
        cloneSet: { ...ctx.cloneSet, spec: { ...ctx.cloneSet.spec, replicas: 1 } }, // scaling 2 → 1
        pods: [...s.kube.pods.values()],
        pvcs: [...s.kube.pvcs.values()].map((c) => ({
          ...c,
          metadata: { ...c.metadata, labels: { 'apps.kruise.io/cloneset-instance-id': 'bbbbb' } },
        })),
      },
      intent,
    );
    expect(writes).toEqual({ writes: 2 });
    expect(s.journal).toEqual([
      'expectations.put deletes[cs-x-bbbbb,data-cs-x-bbbbb]',
      'delete pod cs-x-bbbbb',
      'delete persistentvolumeclaim data-cs-x-bbbbb',
      'event SuccessfulDelete: succeed to delete pod cs-x-bbbbb',
      'ledger.clear',
    ]);
    expect([...s.kube.pods.keys()]).toEqual(['cs-x-aaaaa']);
    expect(await s.stores.ledger.get(KEY)).toBeUndefined();
  });
});
