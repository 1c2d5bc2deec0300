/**
 * The BroadcastJob planner against OpenKruise v1.9.0's `Reconcile` (pkg/controller/broadcastjob): exact pods,
 * Events, status and requeue for each branch.
 */
import type { Node } from '../../../../../lib/api/node.js';
import type { Pod } from '../../../../../lib/api/types.js';
import type { BroadcastJob } from '../../../../../lib/controllers/broadcastjob/api/types.js';
import {
  planBroadcastJob,
  statusAfter,
  type BroadcastJobPlanInput,
  type SyncPlan,
} from '../../../../../lib/controllers/broadcastjob/plan/index.js';

const NOW = new Date('2026-01-01T00:10:00Z');
const START = '2026-01-01T00:00:00Z';

function job(spec: Partial<BroadcastJob['spec']> = {}, status?: BroadcastJob['status']): BroadcastJob {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'BroadcastJob',
    metadata: { name: 'bcj', namespace: 'ns', uid: 'job-uid', resourceVersion: '5' },
    spec: {
      template: {
        metadata: { labels: { app: 'x' } },
        spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' },
      },
      ...spec,
    },
    ...(status ? { status } : {}),
  };
}

const node = (name: string, extra: Partial<Node> = {}): Node => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
  ...extra,
});

function pod(nodeName: string, phase: string, extra: Partial<Pod['metadata']> = {}): Pod {
  return {
    metadata: {
      name: `bcj-${nodeName}`,
      namespace: 'ns',
      uid: `uid-${nodeName}`,
      resourceVersion: '7',
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'BroadcastJob',
          name: 'bcj',
          uid: 'job-uid',
          controller: true,
        },
      ],
      ...extra,
    },
    spec: {
      containers: [{ name: 'c', image: 'busybox' }],
      restartPolicy: 'Never',
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] },
            ],
          },
        },
      },
    },
    status: { phase },
  };
}

function input(j: BroadcastJob, pods: Pod[], nodes: Node[]): BroadcastJobPlanInput {
  let n = 0;
  return { job: j, pods, nodes, now: NOW, newSuffix: () => `sfx0${n++}` };
}

const sync = (p: ReturnType<typeof planBroadcastJob>): SyncPlan => {
  if (p.type !== 'Sync') throw new Error(`expected Sync, got ${p.type}`);
  return p;
};

describe('planBroadcastJob', () => {
  it('a new job creates one pinned pod per node, in node order, and starts running', () => {
    const p = sync(planBroadcastJob(input(job(), [], [node('n0'), node('n1')])));
    expect(p.creates.map((c) => c.batch)).toEqual([0, 1]);
    expect(p.creates[0].pod).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'bcj-sfx00',
        generateName: 'bcj-',
        namespace: 'ns',
        labels: { app: 'x', 'broadcastjob-name': 'bcj', 'broadcastjob-controller-uid': 'job-uid' },
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1beta1',
            kind: 'BroadcastJob',
            name: 'bcj',
            uid: 'job-uid',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        // the template's SetDefaultPodSpec defaults, as OpenKruise's webhook stores them
        containers: [
          {
            name: 'c',
            image: 'busybox',
            imagePullPolicy: 'Always',
            resources: {},
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
          },
        ],
        restartPolicy: 'Never',
        dnsPolicy: 'ClusterFirst',
        securityContext: {},
        terminationGracePeriodSeconds: 30,
        schedulerName: 'default-scheduler',
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n0'] }] },
              ],
            },
          },
        },
        readinessGates: [{ conditionType: 'KruisePodReady' }],
      },
    });
    expect(p.creates[1].pod.metadata.name).toBe('bcj-sfx01');
    expect(p.deletes).toEqual([]);
    expect(p.events).toEqual([]);
    expect(p.status).toEqual({
      startTime: '2026-01-01T00:10:00Z',
      active: 2,
      succeeded: 0,
      failed: 0,
      desired: 2,
      phase: 'running',
    });
    expect(p.finalEvents).toEqual([]);
    expect(p.requeueAfterSeconds).toBeUndefined();
  });

  it("a tagged image's pod pulls Always, as OpenKruise's stored template says; TemplateNoDefaults keeps it as written", () => {
    const tagged = job();
    tagged.spec.template.spec.containers = [{ name: 'c', image: 'nginx:1.18-alpine' }];
    const defaulted = sync(planBroadcastJob(input(tagged, [], [node('n0')])));
    expect(defaulted.creates[0]?.pod.spec.containers[0]?.imagePullPolicy).toBe('Always');
    const asWritten = sync(
      planBroadcastJob({ ...input(tagged, [], [node('n0')]), templateNoDefaults: true }),
    );
    expect(asWritten.creates[0]?.pod.spec.containers).toEqual([{ name: 'c', image: 'nginx:1.18-alpine' }]);
    expect(asWritten.creates[0]?.pod.spec.dnsPolicy).toBeUndefined();
  });

  it('parallelism caps the creates (a legacy percentage of desired, rounded up)', () => {
    const nodes = [node('n0'), node('n1'), node('n2')];
    expect(sync(planBroadcastJob(input(job({ parallelism: 1 }), [], nodes))).creates).toHaveLength(1);
    expect(sync(planBroadcastJob(input(job({ parallelism: '50%' }), [], nodes))).creates).toHaveLength(2);
    const running = [pod('n0', 'Running')];
    expect(sync(planBroadcastJob(input(job({ parallelism: 2 }), running, nodes))).creates).toHaveLength(1);
  });

  it('active above parallelism: Warning TooManyActivePods, no create', () => {
    const p = sync(
      planBroadcastJob(
        input(
          job({ parallelism: 1 }),
          [pod('n0', 'Running'), pod('n1', 'Running')],
          [node('n0'), node('n1'), node('n2')],
        ),
      ),
    );
    expect(p.creates).toEqual([]);
    expect(p.events).toEqual([
      {
        type: 'Warning',
        reason: 'TooManyActivePods',
        message: 'Number of active pods exceed parallelism limit',
      },
    ]);
  });

  it('an unreadable parallelism creates nothing and says why', () => {
    const p = sync(planBroadcastJob(input(job({ parallelism: '1.5%' }), [], [node('n0')])));
    expect(p.creates).toEqual([]);
    expect(p.error).toMatch(/invalid value/);
  });

  it('skips nodes the template does not fit: taint, selector', () => {
    const nodes = [
      node('n0', { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } }),
      node('n1'),
      { ...node('n2'), metadata: { name: 'n2', labels: { zone: 'b' } } },
    ];
    const j = job();
    j.spec.template.spec.nodeSelector = { 'kubernetes.io/hostname': 'n1' };
    const p = sync(planBroadcastJob(input(j, [], nodes)));
    expect(p.creates.map((c) => c.pod.spec.affinity)).toEqual([
      {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }],
          },
        },
      },
    ]);
    expect(p.status.desired).toBe(1);
  });

  it('every desired pod finished: completed, condition, JobComplete, TTL+1 requeue', () => {
    const j = job(
      { completionPolicy: { ttlSecondsAfterFinished: 30 } },
      { startTime: START, phase: 'running', active: 1, succeeded: 1, failed: 0, desired: 2 },
    );
    const p = sync(
      planBroadcastJob(input(j, [pod('n0', 'Succeeded'), pod('n1', 'Succeeded')], [node('n0'), node('n1')])),
    );
    expect(p.creates).toEqual([]);
    expect(p.status).toEqual({
      startTime: START,
      active: 0,
      succeeded: 2,
      failed: 0,
      desired: 2,
      phase: 'completed',
      completionTime: '2026-01-01T00:10:00Z',
      conditions: [
        {
          type: 'Complete',
          status: 'True',
          lastProbeTime: '2026-01-01T00:10:00Z',
          lastTransitionTime: '2026-01-01T00:10:00Z',
          reason: 'Complete',
          message: 'Job completed, 2 pods succeeded, 0 pods failed',
        },
      ],
    });
    expect(p.finalEvents).toEqual([
      {
        type: 'Normal',
        reason: 'JobComplete',
        message: 'Job ns/bcj is completed, 2 pods succeeded, 0 pods failed',
      },
    ]);
    expect(p.requeueAfterSeconds).toBe(31);
  });

  it('Never never completes; no desired node never completes', () => {
    const j = job({ completionPolicy: { type: 'Never' } });
    expect(sync(planBroadcastJob(input(j, [pod('n0', 'Succeeded')], [node('n0')]))).status.phase).toBe(
      'running',
    );
    expect(sync(planBroadcastJob(input(job(), [], []))).status.phase).toBe('running');
  });

  it('a finished job is deleted once its TTL has passed, else looked at when it will', () => {
    const finished = (completionTime: string) =>
      job(
        { completionPolicy: { ttlSecondsAfterFinished: 60 } },
        {
          phase: 'completed',
          completionTime,
          conditions: [{ type: 'Complete', status: 'True' }],
        },
      );
    expect(planBroadcastJob(input(finished('2026-01-01T00:09:00Z'), [], []))).toEqual({ type: 'DeleteJob' });
    expect(planBroadcastJob(input(finished('2026-01-01T00:09:30Z'), [], []))).toEqual({
      type: 'Finished',
      requeueAfterSeconds: 30,
    });
    const noTtl = job({}, { phase: 'completed', conditions: [{ type: 'Complete', status: 'True' }] });
    expect(planBroadcastJob(input(noTtl, [], []))).toEqual({ type: 'Finished' });
  });

  it('FailFast (the default): the failed pod fails the job, its active pods are deleted', () => {
    const j = job(
      { completionPolicy: { ttlSecondsAfterFinished: 10 } },
      { startTime: START, phase: 'running' },
    );
    const p = sync(
      planBroadcastJob(
        input(
          j,
          [pod('n0', 'Failed'), pod('n1', 'Running'), pod('n2', 'Succeeded')],
          [node('n0'), node('n1'), node('n2')],
        ),
      ),
    );
    expect(p.events).toEqual([
      {
        type: 'Warning',
        reason: 'failed pod is found',
        message:
          'failure policy is FailurePolicyTypeFailFast and failed pod is found: 1 pods succeeded, 1 pods failed',
      },
    ]);
    expect(p.deletes).toEqual([{ name: 'bcj-n1', uid: 'uid-n1', resourceVersion: '7' }]);
    expect(p.creates).toEqual([]);
    expect(p.status).toMatchObject({ phase: 'failed', active: 0, failed: 2, succeeded: 1, desired: 3 });
    expect(p.status.conditions).toEqual([
      {
        type: 'Failed',
        status: 'True',
        lastProbeTime: '2026-01-01T00:10:00Z',
        lastTransitionTime: '2026-01-01T00:10:00Z',
        reason: 'Failed',
        message: 'failure policy is FailurePolicyTypeFailFast and failed pod is found',
      },
    ]);
    expect(p.finalEvents).toEqual([
      {
        type: 'Warning',
        reason: 'failed pod is found',
        message:
          'failure policy is FailurePolicyTypeFailFast and failed pod is found: 1 pods succeeded, 2 pods failed',
      },
    ]);
    expect(p.requeueAfterSeconds).toBe(11);
  });

  it('the counts after writes follow what was made (a delete not made stays active)', () => {
    const j = job({}, { startTime: START, phase: 'running' });
    const p = sync(
      planBroadcastJob(input(j, [pod('n0', 'Failed'), pod('n1', 'Running')], [node('n0'), node('n1')])),
    );
    const after = statusAfter(p, { createsAttempted: 0, deleted: 0 }, NOW, 'ns/bcj');
    expect(after.status).toMatchObject({ active: 1, failed: 1 });
    expect(after.events[0].message).toBe(
      'failure policy is FailurePolicyTypeFailFast and failed pod is found: 0 pods succeeded, 1 pods failed',
    );
  });

  it('Continue ignores failed pods; OnFailure pods over restartLimit count as failed', () => {
    const j = job(
      { failurePolicy: { type: 'Continue', restartLimit: 1 } },
      { startTime: START, phase: 'running' },
    );
    const restarted = pod('n1', 'Running');
    restarted.spec.restartPolicy = 'OnFailure';
    restarted.status!.containerStatuses = [
      { name: 'c', image: 'i', imageID: '', ready: true, restartCount: 2 },
    ];
    const p = sync(
      planBroadcastJob(input(j, [pod('n0', 'Failed'), restarted], [node('n0'), node('n1'), node('n2')])),
    );
    expect(p.events).toEqual([]);
    expect(p.deletes).toEqual([]);
    expect(p.creates.map((c) => c.pod.spec.affinity)).toHaveLength(1);
    expect(p.status).toMatchObject({ phase: 'running', active: 1, failed: 2, desired: 3 });
  });

  it('Pause: Warning Paused, phase paused, nothing created', () => {
    const j = job({ failurePolicy: { type: 'Pause' } }, { startTime: START, phase: 'running' });
    const p = sync(planBroadcastJob(input(j, [pod('n0', 'Failed')], [node('n0'), node('n1')])));
    expect(p.events).toEqual([
      { type: 'Warning', reason: 'Paused', message: 'job is paused, due to failed pod' },
    ]);
    expect(p.creates).toEqual([]);
    expect(p.status).toMatchObject({ phase: 'paused', failed: 1, desired: 2 });
  });

  it('spec.paused pauses; unpausing records Continue and goes on', () => {
    const paused = sync(planBroadcastJob(input(job({ paused: true }), [], [node('n0')])));
    expect(paused.creates).toEqual([]);
    expect(paused.status.phase).toBe('paused');
    const resumed = sync(
      planBroadcastJob(input(job({}, { startTime: START, phase: 'paused' }), [], [node('n0')])),
    );
    expect(resumed.events).toEqual([
      { type: 'Normal', reason: 'Continue', message: 'continue to process job' },
    ]);
    expect(resumed.creates).toHaveLength(1);
    expect(resumed.status.phase).toBe('running');
  });

  it('activeDeadlineSeconds: requeue for what is left, then DeadlineExceeded deletes the active pods', () => {
    const running = job(
      { completionPolicy: { activeDeadlineSeconds: 900 } },
      { startTime: START, phase: 'running' },
    );
    expect(
      sync(planBroadcastJob(input(running, [pod('n0', 'Running')], [node('n0')]))).requeueAfterSeconds,
    ).toBe(300);
    const fresh = sync(
      planBroadcastJob(input(job({ completionPolicy: { activeDeadlineSeconds: 60 } }), [], [node('n0')])),
    );
    expect(fresh.requeueAfterSeconds).toBe(60);
    const late = job(
      { completionPolicy: { activeDeadlineSeconds: 600 } },
      { startTime: START, phase: 'running' },
    );
    const p = sync(planBroadcastJob(input(late, [pod('n0', 'Running')], [node('n0'), node('n1')])));
    expect(p.events).toEqual([]);
    expect(p.deletes.map((d) => d.name)).toEqual(['bcj-n0']);
    expect(p.creates).toEqual([]);
    expect(p.status).toMatchObject({ phase: 'failed', active: 0, failed: 1 });
    expect(p.status.conditions?.[0]).toMatchObject({
      type: 'Failed',
      reason: 'Failed',
      message: 'Job ns/bcj was active longer than specified deadline',
    });
    expect(p.finalEvents).toEqual([
      {
        type: 'Warning',
        reason: 'DeadlineExceeded',
        message: 'Job ns/bcj was active longer than specified deadline: 0 pods succeeded, 1 pods failed',
      },
    ]);
    expect(p.requeueAfterSeconds).toBeUndefined();
  });

  it('a pod that no longer fits its node is deleted (and counted failed, as upstream)', () => {
    const j = job({}, { startTime: START, phase: 'running' });
    const cordoned = node('n0', { spec: { taints: [{ key: 'k', effect: 'NoExecute' }] } });
    const p = sync(planBroadcastJob(input(j, [pod('n0', 'Running')], [cordoned])));
    expect(p.deletes.map((d) => d.name)).toEqual(['bcj-n0']);
    expect(p.status).toMatchObject({ active: 0, failed: 1, desired: 0, phase: 'running' });
  });

  it('two pods on one node: Warning DuplicatePodCreatedOnSameNode', () => {
    const a = pod('n0', 'Running');
    const b = {
      ...pod('n0', 'Running'),
      metadata: { ...pod('n0', 'Running').metadata, name: 'bcj-other', uid: 'u2' },
    };
    const p = sync(
      planBroadcastJob(input(job({}, { startTime: START, phase: 'running' }), [a, b], [node('n0')])),
    );
    expect(p.events).toEqual([
      {
        type: 'Warning',
        reason: 'DuplicatePodCreatedOnSameNode',
        message: 'Duplicated pod bcj-other found on same node n0',
      },
    ]);
  });

  it('gives KruisePodReady to listed pods with the gate and without the condition', () => {
    const gated = pod('n0', 'Running');
    gated.spec.readinessGates = [{ conditionType: 'KruisePodReady' }];
    const p = sync(
      planBroadcastJob(input(job({}, { startTime: START, phase: 'running' }), [gated], [node('n0')])),
    );
    expect(p.readyPatches).toEqual([
      {
        type: 'PatchPodStatus',
        pod: { name: 'bcj-n0', uid: 'uid-n0', resourceVersion: '7' },
        reason: 'InitKruisePodReady',
        patch: {
          status: {
            conditions: [
              { type: 'KruisePodReady', status: 'True', lastTransitionTime: '2026-01-01T00:10:00Z' },
            ],
          },
        },
      },
    ]);
  });

  it("refuses what OpenKruise's validating webhook refuses, in its order and words", () => {
    const j = job({
      completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 5, activeDeadlineSeconds: 9 },
    });
    j.metadata.name = 'bad.name';
    j.spec.template.spec.restartPolicy = undefined;
    j.spec.template.metadata = { labels: { 'broadcastjob-name': 'x', app: 'y' } };
    expect(planBroadcastJob(input(j, [], [node('n0')]))).toEqual({
      type: 'Invalid',
      errors: [
        {
          path: 'metadata.name',
          message:
            'Invalid value: "bad.name": BroadcastJob name must consist of alphanumeric characters or \'-\' ' +
            "(e.g. 'example-com', regex used for validation is '^[a-zA-Z0-9\\-]+$')",
        },
        {
          path: 'spec.completionPolicy.ttlSecondsAfterFinished',
          message: 'Invalid value: 5: ttlSecondsAfterFinished can just work with Always CompletionPolicyType',
        },
        {
          path: 'spec.completionPolicy.activeDeadlineSeconds',
          message: 'Invalid value: 9: activeDeadlineSeconds can just work with Always CompletionPolicyType',
        },
        {
          path: 'spec.template.spec.restartPolicy',
          message: 'Invalid value: "Always": pod restartPolicy can only be Never or OnFailure',
        },
        {
          path: 'spec.template.metadata.labels',
          message:
            'Invalid value: map[string]string{"app":"y", "broadcastjob-name":"x"}: "broadcastjob-name" and ' +
            '"broadcastjob-controller-uid" are not allowed to preset in pod labels',
        },
      ],
    });
  });

  it('a valid job drops a FailedValidation condition left from before', () => {
    const j = job(
      {},
      { conditions: [{ type: 'FailedValidation', status: 'True', message: 'm' }], phase: '' },
    );
    const p = sync(planBroadcastJob(input(j, [], [node('n0')])));
    expect(p.status.conditions).toBeUndefined();
    expect(p.status.phase).toBe('running');
  });
});
