/**
 * The BroadcastJob reconcile invocation against the recording API server and the in-memory stores: the ordered
 * writes of OpenKruise's `Reconcile` (expectations → pod creates → status → Events), completion, the TTL deletion,
 * and the Node watch's mapping.
 */
import { silentLogger } from '../../../../../lib/core/logger.js';
import {
  reconcileBroadcastJob,
  type BroadcastJobReconcileDeps,
} from '../../../../../lib/controllers/broadcastjob/index.js';
import { jobsForNode } from '../../../../../lib/controllers/broadcastjob/nodeWatch.js';
import { BROADCASTJOB_RESOURCE } from '../../../../../lib/controllers/broadcastjob/api/resource.js';
import type { BroadcastJob } from '../../../../../lib/controllers/broadcastjob/api/types.js';
import { RESOURCES } from '../../../../../lib/kube/resources.js';
import type { ReconcileRequest, RequeueScheduler } from '../../../../../lib/requests/index.js';
import { createMemoryStores } from '../../../../../lib/state/index.js';
import {
  internalError,
  RecordingKube,
  recordingStores,
  type Journal,
} from '../../cloneset/reconcile/support/recordingKube.js';

const T0 = Date.parse('2024-05-01T08:00:00Z');
const REQUEST: ReconcileRequest = {
  version: 2,
  cluster: 'test',
  kind: 'apps.kruise.io/BroadcastJob',
  namespace: 'default',
  name: 'bcj',
  reason: 'ObjectChanged',
};

function setup(spec: Partial<BroadcastJob['spec']> = {}, nodeNames = ['n0', 'n1']) {
  const journal: Journal = [];
  const clock = { now: T0 };
  const kube = new RecordingKube(journal, () => new Date(clock.now));
  const recorded = recordingStores(createMemoryStores(), journal, { expectations: true });
  const requeue: RequeueScheduler = {
    async requeueAfter(_r, seconds) {
      journal.push(`requeue ${seconds}s`);
    },
  };
  const jobs = kube.objects(BROADCASTJOB_RESOURCE);
  jobs.set('bcj', {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'BroadcastJob',
    metadata: { name: 'bcj', namespace: 'default', uid: 'job-uid', resourceVersion: '1' },
    spec: {
      template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } },
      ...spec,
    },
  });
  const nodes = kube.objects(RESOURCES.nodes);
  for (const name of nodeNames)
    nodes.set(name, {
      metadata: { name },
      status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
    });
  let n = 0;
  const deps = (): BroadcastJobReconcileDeps => ({
    kube,
    ...recorded,
    requeue,
    log: silentLogger,
    holder: 'inv-1',
    clock: () => clock.now,
    sleep: async (ms) => {
      clock.now += ms;
    },
    deadlineMs: T0 + 600_000,
    leaseDurationMs: 120_000,
    maxInlineWaitSeconds: 10,
    maxPasses: 20,
    newSuffix: () => `abc0${n++}`,
  });
  return { journal, kube, clock, jobs, deps };
}

describe('reconcileBroadcastJob', () => {
  test('a new job: create expectations, one pod per node in slow-start batches, status, Events', async () => {
    const h = setup({ completionPolicy: { ttlSecondsAfterFinished: 5 } });
    await reconcileBroadcastJob(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'expectations.put creates[bcj-abc00]',
      'create pod bcj-abc00',
      'event SuccessfulCreate: Created pod: bcj-abc00',
      'expectations.put creates[bcj-abc00,bcj-abc01]',
      'create pod bcj-abc01',
      'event SuccessfulCreate: Created pod: bcj-abc01',
      // their KruisePodReady condition in the creating pass (issue 20), as OpenKruise's pod-readiness controller
      // writes it when the new pod appears
      'patch pod status bcj-abc00',
      'patch pod status bcj-abc01',
      'replace broadcastjob status bcj',
      // the next pass sees both pods: expectations observed, nothing left to write
      'expectations.get',
      'expectations.put (none)',
      'lease.release',
    ]);
    expect([...h.kube.pods.values()].map((p) => [p.metadata.name, p.status?.conditions])).toEqual(
      ['bcj-abc00', 'bcj-abc01'].map((name) => [
        name,
        [{ type: 'KruisePodReady', status: 'True', lastTransitionTime: '2024-05-01T08:00:00Z' }],
      ]),
    );
    expect(h.jobs.get('bcj')?.status).toEqual({
      startTime: '2024-05-01T08:00:00Z',
      active: 2,
      succeeded: 0,
      failed: 0,
      desired: 2,
      phase: 'running',
    });
    expect(h.kube.events.map((e) => `${e.reason}: ${e.message}`)).toEqual([
      'SuccessfulCreate: Created pod: bcj-abc00',
      'SuccessfulCreate: Created pod: bcj-abc01',
    ]);
  });

  test('pods succeed: completed with a Complete condition and JobComplete, then the TTL deletes the job', async () => {
    const h = setup({ completionPolicy: { ttlSecondsAfterFinished: 5 } });
    await reconcileBroadcastJob(h.deps(), REQUEST);
    for (const p of h.kube.pods.values()) p.status = { phase: 'Succeeded' };
    h.clock.now += 10_000;
    h.journal.length = 0;
    await reconcileBroadcastJob(h.deps(), REQUEST);
    // completes, then waits the TTL+1 s inline (under the loop's inline-wait limit) and deletes the job
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'patch pod status bcj-abc00',
      'patch pod status bcj-abc01',
      'event JobComplete: Job default/bcj is completed, 2 pods succeeded, 0 pods failed',
      'replace broadcastjob status bcj',
      'expectations.get',
      'delete broadcastjob bcj',
      'lease.release',
    ]);
    expect(h.jobs.has('bcj')).toBe(false);
  });

  test('the completed status: counts, a Complete condition', async () => {
    const h = setup({ completionPolicy: { ttlSecondsAfterFinished: 60 } });
    await reconcileBroadcastJob(h.deps(), REQUEST);
    for (const p of h.kube.pods.values()) p.status = { phase: 'Succeeded' };
    h.clock.now += 10_000;
    h.journal.length = 0;
    await reconcileBroadcastJob(h.deps(), REQUEST);
    const job = h.jobs.get('bcj');
    expect(job?.status).toEqual({
      startTime: '2024-05-01T08:00:00Z',
      completionTime: '2024-05-01T08:00:10Z',
      active: 0,
      succeeded: 2,
      failed: 0,
      desired: 2,
      phase: 'completed',
      conditions: [
        {
          type: 'Complete',
          status: 'True',
          lastProbeTime: '2024-05-01T08:00:10Z',
          lastTransitionTime: '2024-05-01T08:00:10Z',
          reason: 'Complete',
          message: 'Job completed, 2 pods succeeded, 0 pods failed',
        },
      ],
    });
    expect(h.journal.slice(-2)).toEqual(['requeue 61s', 'lease.release']);
  });

  test('the Node watch names an unfinished job only where its pass would act on the node; every one for a node gone', async () => {
    const h = setup({ completionPolicy: { type: 'Never' } });
    h.jobs.set('done', {
      ...structuredClone(h.jobs.get('bcj')!),
      metadata: { name: 'done', namespace: 'other', uid: 'u2' },
      spec: { ...structuredClone(h.jobs.get('bcj')!.spec), completionPolicy: { type: 'Always' } },
      status: { conditions: [{ type: 'Complete', status: 'True' }] },
    });
    await reconcileBroadcastJob(h.deps(), REQUEST);
    const reads = { cluster: 'test', kube: h.kube };
    const mapped = (name: string) => jobsForNode({ metadata: { name } }, reads);
    const BCJ = [{ namespace: 'default', name: 'bcj' }];
    const nodes = h.kube.objects(RESOURCES.nodes);
    // bind the pods as kube-scheduler would, one per node (the recording server leaves them unbound)
    for (const [name, p] of h.kube.pods)
      h.kube.pods.set(name, { ...p, spec: { ...p.spec, nodeName: `n${name.slice(-1)}` } });

    // a heartbeat: the node has the job's pod and it fits
    expect(await mapped('n0')).toEqual([]);
    // a new node the template fits; the same node with too little room for it
    nodes.set('n2', {
      metadata: { name: 'n2' },
      status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
    });
    expect(await mapped('n2')).toEqual(BCJ);
    nodes.set('n2', {
      metadata: { name: 'n2' },
      status: { allocatable: { cpu: '4', memory: '8Gi', pods: '0' } },
    });
    expect(await mapped('n2')).toEqual([]);
    // a node its pod no longer fits (a NoExecute taint it does not tolerate)
    nodes.set('n1', {
      metadata: { name: 'n1' },
      spec: { taints: [{ key: 'drain', effect: 'NoExecute' }] },
      status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
    });
    expect(await mapped('n1')).toEqual(BCJ);
    // a node gone: every unfinished job (the finished one never)
    expect(await mapped('n9')).toEqual(BCJ);
  });

  test('an invalid job: a FailedValidation condition and Warning Event once, no pod', async () => {
    const h = setup();
    h.jobs.get('bcj')!.spec.template.spec.restartPolicy = 'Always';
    await reconcileBroadcastJob(h.deps(), REQUEST);
    const message =
      'BroadcastJob is invalid: spec.template.spec.restartPolicy: Invalid value: "Always": pod restartPolicy can ' +
      'only be Never or OnFailure';
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'replace broadcastjob status bcj',
      `event FailedValidation: ${message}`,
      'lease.release',
    ]);
    expect(h.kube.pods.size).toBe(0);
    expect(h.jobs.get('bcj')?.status?.conditions).toEqual([
      {
        type: 'FailedValidation',
        status: 'True',
        lastTransitionTime: '2024-05-01T08:00:00Z',
        reason: 'InvalidSpec',
        message,
      },
    ]);
  });

  test('a failed create: its FailedCreate Event, its expectation rolled back, no later batch, counted active as upstream', async () => {
    const h = setup({}, ['n0', 'n1', 'n2', 'n3']);
    h.kube.failOn((call) => (call === 'create pod bcj-abc01' ? internalError(call) : undefined));
    const out = await reconcileBroadcastJob(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'expectations.put creates[bcj-abc00]',
      'create pod bcj-abc00',
      'event SuccessfulCreate: Created pod: bcj-abc00',
      'expectations.put creates[bcj-abc00,bcj-abc01,bcj-abc02]',
      'create pod bcj-abc01',
      'create pod bcj-abc02',
      'event FailedCreate: Error creating: etcd is unavailable',
      'event SuccessfulCreate: Created pod: bcj-abc02',
      'expectations.put creates[bcj-abc00,bcj-abc02]',
      // the KruisePodReady condition of the pods made, none for the failed create
      'patch pod status bcj-abc00',
      'patch pod status bcj-abc02',
      'replace broadcastjob status bcj',
      'requeue 1s',
      'lease.release (failures 1)',
    ]);
    expect(out.result).toBe('reconciled');
    expect([...h.kube.pods.keys()]).toEqual(['bcj-abc00', 'bcj-abc02']);
    // the third batch (n3) was not attempted; the failed create counts in active until the next pass recounts
    expect(h.jobs.get('bcj')?.status).toMatchObject({ active: 3, desired: 4 });
  });

  test('FailFast: a failed pod deletes the active ones (delete expectations first), then the job is failed', async () => {
    const h = setup();
    await reconcileBroadcastJob(h.deps(), REQUEST);
    h.kube.pods.get('bcj-abc00')!.status = { phase: 'Failed' };
    h.kube.pods.get('bcj-abc01')!.status = { phase: 'Running' };
    h.journal.length = 0;
    await reconcileBroadcastJob(h.deps(), REQUEST);
    const fail = 'failure policy is FailurePolicyTypeFailFast and failed pod is found';
    expect(h.journal.slice(0, 7)).toEqual([
      'lease.acquire',
      'expectations.get',
      `event failed pod is found: ${fail}: 0 pods succeeded, 1 pods failed`,
      'expectations.put deletes[bcj-abc01]',
      'delete pod bcj-abc01',
      'event SuccessfulDelete: Delete pod: bcj-abc01',
      `event failed pod is found: ${fail}: 0 pods succeeded, 2 pods failed`,
    ]);
    expect(h.jobs.get('bcj')?.status).toMatchObject({ phase: 'failed', active: 0, failed: 2, succeeded: 0 });
  });
});
