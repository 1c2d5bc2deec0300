/**
 * executePlan on hand-made plans against the recording API server: the whole ordered write list for every kind of
 * write, and how each kind of API error is handled.
 */
import type { CloneSet, Pod } from '../../../lib/api/types.js';
import type { Plan } from '../../../lib/cloneset/types.js';
import { silentLogger } from '../../../lib/core/logger.js';
import { diffRecord } from '../support/fixtures.js';
import { KubeApiError } from '../../../lib/kube/errors.js';
import { executePlan, type ExecuteContext } from '../../../lib/reconcile/execute.js';
import { finishScaleDown } from '../../../lib/reconcile/finishScaleDown.js';
import { createMemoryStores, FencedOutError, type Lease } from '../../../lib/state/index.js';
import {
  conflict,
  internalError,
  RecordingKube,
  recordingStores,
  type Journal,
} from './support/recordingKube.js';
import { seedCloneSet, T0 } from './support/harness.js';

const KEY = { cluster: 'test', namespace: 'default', name: 'cs-no-pvc-sample' };

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
    const p = await kube.createPod(pod(name));
    kube.pods.set(name, p);
  }
  await kube.createPVC({ metadata: { name: 'data-cs-x-bbbbb', namespace: 'default' }, spec: {} });
  await kube.createControllerRevision({
    metadata: { name: 'r0', namespace: 'default' },
    revision: 0,
  } as never);
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
        create: { metadata: { name: 'r2', namespace: 'default' }, revision: 2 } as never,
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
      'create revision r2',
      'ledger.record [cs-x-aaaaa,cs-x-bbbbb]',
      'expectations.put deletes[cs-x-aaaaa]',
      'delete pod cs-x-aaaaa',
      'expectations.put deletes[cs-x-aaaaa,cs-x-bbbbb,data-cs-x-bbbbb]',
      'delete pod cs-x-bbbbb',
      'delete pvc data-cs-x-bbbbb',
      'expectations.put creates[cs-x-ccccc] deletes[cs-x-aaaaa,cs-x-bbbbb,data-cs-x-bbbbb]',
      'create pod cs-x-ccccc',
      'ledger.clear',
      'update status cs-no-pvc-sample',
      'patch podsToDelete cs-no-pvc-sample []',
      'delete revision r0',
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
      'patch pvc owner data-cs-x-bbbbb',
      'expectations.put deletes[data-cs-x-bbbbb] updates[cs-x-aaaaa]',
      'delete pvc data-cs-x-bbbbb',
      'expectations.put deletes[data-cs-x-bbbbb] updates[cs-x-aaaaa]',
      'event SuccessfulUpdatePodInPlace: successfully update pod cs-x-aaaaa in-place(revision r2)',
    ]);
    expect(s.kube.pods.get('cs-x-aaaaa')?.metadata.labels?.step).toBe('2');
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
      'update status cs-no-pvc-sample',
      'event FailedCreate: create pod cs-x-aaaaa: 409 AlreadyExists: pods "cs-x-aaaaa" already exists',
    ]);
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
      'update status cs-no-pvc-sample',
      'event FailedDelete: failed to delete pod cs-x-aaaaa: delete pod cs-x-aaaaa: 500 InternalError: etcd is unavailable',
    ]);
    expect((await s.stores.ledger.get(KEY))?.pods.map((p) => p.name)).toEqual(['cs-x-aaaaa']);
    expect([...s.kube.cloneSets.values()][0].status?.conditions?.[0]?.type).toBe('FailedScale');
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
      'FailedUpdatePodInPlace: failed to update pod cs-x-aaaaa in-place(revision r2): patch pod cs-x-aaaaa: 500 InternalError: etcd is unavailable',
    ]);
    expect([...s.kube.cloneSets.values()][0].status?.conditions?.[0]?.type).toBe('FailedUpdate');
  });

  test('a failed revision create stops everything after it; no action Event', async () => {
    const s = await setup();
    s.kube.failOn((call) => (call.startsWith('create revision') ? internalError(call) : undefined));
    const plan = emptyPlan({
      revisions: {
        updateRevision: 'r2',
        currentRevision: 'r1',
        collisionCount: 0,
        create: { metadata: { name: 'r2', namespace: 'default' }, revision: 2 } as never,
        deleteNames: [],
      },
      actions: [{ type: 'CreatePod', pod: pod('cs-x-ccccc'), pvcs: [], revision: 'r2', batch: 0 }],
    });
    const out = await executePlan(s.ctx(), plan);
    expect(out.error).toBeDefined();
    expect(s.journal).toEqual(['create revision r2', 'update status cs-no-pvc-sample']);
  });

  test('a 409 on the status write is a conflict: no podsToDelete truncation, history still truncated', async () => {
    const s = await setup();
    s.kube.failOn((call) => (call.startsWith('update status') ? conflict(call) : undefined));
    const plan = emptyPlan({
      podsToDelete: [],
      revisions: { ...emptyPlan().revisions, deleteNames: ['r0'] },
    });
    const out = await executePlan(s.ctx(), plan);
    expect(out).toEqual({ writes: 1, conflict: true });
    expect(s.journal).toEqual(['update status cs-no-pvc-sample', 'delete revision r0']);
  });

  test('a failed status write is the error; failed truncations are only logged', async () => {
    const s = await setup();
    s.kube.failOn((call) =>
      call.startsWith('update status') || call.startsWith('delete revision')
        ? internalError(call)
        : undefined,
    );
    const plan = emptyPlan({ revisions: { ...emptyPlan().revisions, deleteNames: ['r0'] } });
    const out = await executePlan(s.ctx(), plan);
    expect(out.error?.message).toMatch(/update status/);
    expect(out.writes).toBe(0);
    expect(s.journal).toEqual(['update status cs-no-pvc-sample', 'delete revision r0']);
  });

  test('a failed podsToDelete patch is logged, not reported', async () => {
    const s = await setup();
    s.kube.failOn((call) => (call.startsWith('patch podsToDelete') ? internalError(call) : undefined));
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
    s.kube.patchPod = () => Promise.reject(bug);
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
    expect(writes).toBe(2);
    expect(s.journal).toEqual([
      'expectations.put deletes[cs-x-bbbbb,data-cs-x-bbbbb]',
      'delete pod cs-x-bbbbb',
      'delete pvc data-cs-x-bbbbb',
      'event SuccessfulDelete: succeed to delete pod cs-x-bbbbb',
      'ledger.clear',
    ]);
    expect([...s.kube.pods.keys()]).toEqual(['cs-x-aaaaa']);
    expect(await s.stores.ledger.get(KEY)).toBeUndefined();
  });
});
