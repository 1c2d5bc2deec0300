/**
 * Image pre-download decisions (docs/behaviour/cloneset.md#image-pre-download), as OpenKruise's
 * `createImagePullJobsForInPlaceUpdate` and the pre-download block of `doReconcile` make them: table-driven over
 * gates, strategies, replicas, partition, min-updated-ready-pods and revision labels, with the exact ImagePullJob
 * objects.
 */
import type { ImagePullJob } from '../../../../../lib/api/imagePullJob.js';
import type { CloneSet, ControllerRevision, Pod, PodTemplateSpec } from '../../../../../lib/api/types.js';
import { newRevision, planCloneSet } from '../../../../../lib/controllers/cloneset/plan/index.js';
import { planImagePullJobs } from '../../../../../lib/controllers/cloneset/plan/predownload/jobs.js';
import { planPrePullPods } from '../../../../../lib/controllers/cloneset/plan/predownload/prePullPods.js';
import { resolveStrategy } from '../../../../../lib/controllers/cloneset/plan/strategy.js';
import {
  DEFAULT_PLANNER_OPTIONS,
  type PlannerOptions,
} from '../../../../../lib/controllers/cloneset/plan/types.js';

const GATES_ON: PlannerOptions = { ...DEFAULT_PLANNER_OPTIONS, preDownloadImageForInPlaceUpdate: true };

function template(image: string, sidecar = 'busybox:1'): PodTemplateSpec {
  return {
    metadata: { labels: { app: 'web' }, annotations: { note: 'x' } },
    spec: {
      containers: [
        { name: 'main', image },
        { name: 'side', image: sidecar },
      ],
      imagePullSecrets: [{ name: 'regcred' }],
    },
  };
}

interface Case {
  replicas?: number;
  type?: string;
  partition?: number | string;
  maxUnavailable?: number | string;
  annotations?: Record<string, string>;
  status?: CloneSet['status'];
}

function cloneSet(image: string, c: Case = {}): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'web', namespace: 'ns', uid: 'uid-web', annotations: c.annotations ?? {} },
    spec: {
      replicas: c.replicas ?? 5,
      selector: { matchLabels: { app: 'web' } },
      template: template(image),
      updateStrategy: {
        type: (c.type ?? 'InPlaceIfPossible') as 'InPlaceIfPossible',
        ...(c.partition !== undefined ? { partition: c.partition } : {}),
        ...(c.maxUnavailable !== undefined ? { maxUnavailable: c.maxUnavailable } : {}),
      },
    },
    ...(c.status ? { status: c.status } : {}),
  };
}

/** Revisions of the 1.18 and 1.19 templates of `cs`, and a context to plan with. */
function setup(c: Case = {}, options: PlannerOptions = GATES_ON, updateLabels: Record<string, string> = {}) {
  const current = newRevision(cloneSet('nginx:1.18', c), 1, 0);
  const cs = cloneSet('nginx:1.19', c);
  const update = newRevision(cs, 2, 0);
  update.metadata.labels = { ...update.metadata.labels, ...updateLabels };
  const ctx = {
    cloneSet: cs,
    strategy: resolveStrategy(cs, options),
    currentRevision: current,
    updateRevision: update,
    options,
  };
  return { ctx, current, update };
}

function expectedJob(
  update: ControllerRevision,
  parallelism: number | string,
  timeout: number,
): ImagePullJob {
  const hash = update.metadata.labels?.['controller.kubernetes.io/hash'] ?? '';
  const labels = { app: 'web', 'controller.kubernetes.io/hash': hash };
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'ImagePullJob',
    metadata: {
      namespace: 'ns',
      name: `${update.metadata.name}-main`,
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'CloneSet',
          name: 'web',
          uid: 'uid-web',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      labels,
    },
    spec: {
      image: 'nginx:1.19',
      pullSecrets: ['regcred'],
      podSelector: {
        matchLabels: { app: 'web' },
        matchExpressions: [
          { key: 'controller-revision-hash', operator: 'NotIn', values: [update.metadata.name ?? '', hash] },
        ],
      },
      parallelism,
      pullPolicy: { backoffLimit: 1, timeoutSeconds: timeout },
      completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 600 },
      sandboxConfig: { annotations: { note: 'x' }, labels },
      imagePullPolicy: 'IfNotPresent',
    },
  };
}

describe('planImagePullJobs: when jobs are created, and what they are', () => {
  test('gate on, in-place update of 5 replicas with partition 1: one job for the changed container, labelled created', () => {
    const { ctx, update } = setup({ partition: 1 });
    const plan = planImagePullJobs(ctx, []);
    expect(plan).toEqual({
      revisionLabel: { revision: update.metadata.name, key: 'apps.kruise.io/pre-predownload-created' },
      createJobs: [expectedJob(update, 1, 300)],
      deleteJobs: [],
    });
  });

  test('the annotations set parallelism and timeout (OpenKruise e2e "pre-download for new image": parallelism 2)', () => {
    const { ctx, update } = setup({
      partition: 1,
      annotations: {
        'apps.kruise.io/image-predownload-parallelism': '2',
        'apps.kruise.io/image-predownload-timeout-seconds': '60',
      },
    });
    expect(planImagePullJobs(ctx, []).createJobs).toEqual([expectedJob(update, 2, 60)]);
  });

  const ignored: [string, Case, string][] = [
    ['ReCreate', { type: 'ReCreate', partition: 1 }, 'recreate update'],
    ['OnDelete', { type: 'OnDelete' }, 'recreate update'],
    ['3 replicas', { replicas: 3, partition: 1 }, 'replicas 3 <= 3'],
    ['partition 0, maxUnavailable 100%', { maxUnavailable: '100%' }, 'all pods update in one batch'],
    ['partition 0, maxUnavailable 5 of 5', { maxUnavailable: 5 }, 'all pods update in one batch'],
  ];
  test.each(ignored)('%s: the update revision is labelled ignored, no job', (_name, c, reason) => {
    const { ctx, update } = setup(c);
    expect(planImagePullJobs(ctx, [])).toEqual({
      revisionLabel: { revision: update.metadata.name, key: 'apps.kruise.io/image-predownload-ignored' },
      ignoredBecause: reason,
      createJobs: [],
      deleteJobs: [],
    });
  });

  test('partition 0 with the default maxUnavailable (20 %, 1 of 5): jobs are created', () => {
    const { ctx } = setup({});
    expect(planImagePullJobs(ctx, []).createJobs.map((j) => j.spec.image)).toEqual(['nginx:1.19']);
  });

  test('a change that cannot be made in place (a new env var) is ignored', () => {
    const { ctx, update } = setup({ partition: 1 });
    const data = structuredClone(update.data) as unknown as { spec: { template: PodTemplateSpec } };
    data.spec.template.spec.containers[0].env = [{ name: 'X', value: '1' }];
    const plan = planImagePullJobs({ ...ctx, updateRevision: { ...update, data: data as never } }, []);
    expect(plan.ignoredBecause).toBe('cannot update in place');
    expect(plan.createJobs).toEqual([]);
  });

  const nothing: [
    string,
    Partial<PlannerOptions>,
    Case,
    Record<string, string>,
    ImagePullJob[] | undefined,
  ][] = [
    ['gate off', { preDownloadImageForInPlaceUpdate: false }, { partition: 1 }, {}, []],
    ['KruiseDaemon off', { kruiseDaemon: false }, { partition: 1 }, {}, []],
    ['ImagePullJob resource not served', {}, { partition: 1 }, {}, undefined],
    ['already created', {}, { partition: 1 }, { 'apps.kruise.io/pre-predownload-created': 'true' }, []],
    ['already ignored', {}, { partition: 1 }, { 'apps.kruise.io/image-predownload-ignored': 'true' }, []],
    ['invalid partition', {}, { partition: 'x' }, {}, []],
    [
      'min-updated-ready-pods 2, status of the same revision has 1',
      {},
      {
        partition: 1,
        annotations: { 'apps.kruise.io/image-predownload-min-updated-ready-pods': '2' },
        status: { updatedReadyReplicas: 1, updateRevision: 'SAME' } as CloneSet['status'],
      },
      {},
      [],
    ],
  ];
  test.each(nothing)('%s: nothing is written', (_name, options, c, labels, jobs) => {
    const { ctx } = setup(c, { ...GATES_ON, ...options }, labels);
    if (ctx.cloneSet.status?.updateRevision === 'SAME')
      ctx.cloneSet.status.updateRevision = ctx.updateRevision.metadata.name;
    expect(planImagePullJobs(ctx, jobs)).toEqual({ createJobs: [], deleteJobs: [] });
  });

  test('min-updated-ready-pods 2 with 2 updated ready pods of this revision: created', () => {
    const { ctx } = setup({
      partition: 1,
      annotations: { 'apps.kruise.io/image-predownload-min-updated-ready-pods': '2' },
    });
    ctx.cloneSet.status = {
      updatedReadyReplicas: 2,
      updateRevision: ctx.updateRevision.metadata.name,
    } as CloneSet['status'];
    expect(planImagePullJobs(ctx, []).createJobs).toHaveLength(1);
    // the same count reported for an older update revision counts as 0
    ctx.cloneSet.status = { updatedReadyReplicas: 2, updateRevision: 'web-older' } as CloneSet['status'];
    expect(planImagePullJobs(ctx, []).createJobs).toHaveLength(0);
  });
});

describe('planImagePullJobs: clean-up once every pod is at one revision', () => {
  test('current = update: the jobs the CloneSet controls are deleted, others kept', () => {
    const { ctx, update } = setup({ partition: 1 });
    const job = (name: string, uid: string, controller: boolean): ImagePullJob => ({
      metadata: {
        name,
        uid: `job-${name}`,
        ownerReferences: [
          { apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', name: 'x', uid, controller },
        ],
      },
      spec: { image: 'i', completionPolicy: {} },
    });
    const jobs = [job('a', 'uid-web', true), job('b', 'uid-other', true), job('c', 'uid-web', false)];
    expect(planImagePullJobs({ ...ctx, currentRevision: update }, jobs)).toEqual({
      createJobs: [],
      deleteJobs: [{ name: 'a', uid: 'job-a' }],
    });
  });
});

describe('planCloneSet carries the pre-download plan', () => {
  test('template changed with the gate on: plan.preDownload has the job; gate off: no preDownload', () => {
    const ids = () => 'abcde';
    const at = new Date('2024-05-01T08:00:00Z');
    // the revisions hold the defaulted template, as the planner builds them
    const first = { cloneSet: cloneSet('nginx:1.18', { partition: 1 }), pods: [], pvcs: [], revisions: [] };
    const current = planCloneSet({ ...first, now: at, newInstanceId: ids }).revisions
      .create as ControllerRevision;
    const cs = cloneSet('nginx:1.19', { partition: 1 });
    cs.status = {
      replicas: 0,
      readyReplicas: 0,
      availableReplicas: 0,
      updatedReplicas: 0,
      updatedReadyReplicas: 0,
      currentRevision: current.metadata.name,
      updateRevision: current.metadata.name,
      observedGeneration: 1,
    };
    const input = {
      cloneSet: cs,
      pods: [],
      pvcs: [],
      revisions: [current],
      now: new Date('2024-05-01T08:00:00Z'),
      newInstanceId: (() => {
        let i = 0;
        return () => `id${i++}`;
      })(),
      imagePullJobs: [],
    };
    const on = planCloneSet({ ...input, options: { preDownloadImageForInPlaceUpdate: true } });
    const update = on.revisions.create as ControllerRevision;
    expect(on.preDownload?.createJobs.map((j) => j.metadata.name)).toEqual([`${update.metadata.name}-main`]);
    expect(on.preDownload?.revisionLabel).toEqual({
      revision: update.metadata.name,
      key: 'apps.kruise.io/pre-predownload-created',
    });
    expect(planCloneSet(input).preDownload).toBeUndefined();
  });
});

describe('planPrePullPods: pods that pull the new images without a node agent', () => {
  const PODS_ON: PlannerOptions = { ...GATES_ON, preDownloadImageWithPods: true };
  const NOW = new Date('2024-05-01T08:00:00Z');

  /** 5 pods at the current revision on nodes n1, n1, n2, n3, n3 (names p0…p4), as claimed pods. */
  function ctxWithPods(c: Case = { partition: 1 }, options: PlannerOptions = PODS_ON) {
    const { ctx, current, update } = setup(c, options);
    const nodes = ['n1', 'n1', 'n2', 'n3', 'n3'];
    const pods: Pod[] = nodes.map((n, i) => ({
      metadata: {
        name: `p${i}`,
        uid: `uid-p${i}`,
        labels: { app: 'web', 'controller-revision-hash': current.metadata.name ?? '' },
      },
      spec: { nodeName: n, containers: [{ name: 'main', image: 'nginx:1.18' }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    }));
    return { ctx: { ...ctx, pods, now: NOW }, current, update };
  }

  function existing(update: ControllerRevision, node: string, status: Pod['status'], created = NOW): Pod {
    return {
      metadata: {
        name: `pull-${node}`,
        uid: `uid-pull-${node}`,
        creationTimestamp: created.toISOString(),
        labels: {
          'kruiseless.io/image-prepull-for': 'uid-web',
          'kruiseless.io/image-prepull-revision':
            update.metadata.labels?.['controller.kubernetes.io/hash'] ?? '',
        },
      },
      spec: { nodeName: node, containers: [{ name: 'main', image: 'nginx:1.19' }] },
      status,
    };
  }

  test('parallelism 2: pods for the first two nodes in update order, exactly as built; look again in 5 s', () => {
    const { ctx, update } = ctxWithPods({
      partition: 1,
      annotations: { 'apps.kruise.io/image-predownload-parallelism': '2' },
    });
    const plan = planPrePullPods(ctx, [], false);
    expect(plan.create.map((p) => p.spec.nodeName)).toEqual(['n1', 'n2']);
    expect(plan.delete).toEqual([]);
    expect(plan.requeueAfterSeconds).toBe(5);
    const pod = plan.create[0];
    expect(pod.metadata.name).toMatch(new RegExp(`^${update.metadata.name}-prepull-[0-9a-z]+$`));
    expect({ ...pod, metadata: { ...pod.metadata, name: 'x' } }).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        namespace: 'ns',
        name: 'x',
        labels: {
          'kruiseless.io/image-prepull-for': 'uid-web',
          'kruiseless.io/image-prepull-revision': update.metadata.labels?.['controller.kubernetes.io/hash'],
        },
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1beta1',
            kind: 'CloneSet',
            name: 'web',
            uid: 'uid-web',
            controller: false,
            blockOwnerDeletion: false,
          },
        ],
      },
      spec: {
        nodeName: 'n1',
        restartPolicy: 'Never',
        activeDeadlineSeconds: 300,
        terminationGracePeriodSeconds: 0,
        automountServiceAccountToken: false,
        enableServiceLinks: false,
        containers: [{ name: 'main', image: 'nginx:1.19', command: ['sh', '-c', 'exit 0'] }],
        imagePullSecrets: [{ name: 'regcred' }],
      },
    });
    expect(plan.create[0].metadata.name).not.toBe(plan.create[1].metadata.name);
  });

  const running: Pod['status'] = { phase: 'Pending' };
  const started: Pod['status'] = {
    phase: 'Running',
    containerStatuses: [
      {
        name: 'main',
        image: 'nginx:1.19',
        imageID: 'x',
        ready: true,
        restartCount: 0,
        state: { running: {} },
      },
    ],
  };
  const cases: [string, (u: ControllerRevision) => Pod[], string[], number | undefined][] = [
    ['n1 still pulling (parallelism 1): nothing new, look again', (u) => [existing(u, 'n1', running)], [], 5],
    ['n1 Succeeded: n2 next', (u) => [existing(u, 'n1', { phase: 'Succeeded' })], ['n2'], 5],
    [
      'n1 Failed (no shell in the image): n2 next',
      (u) => [existing(u, 'n1', { phase: 'Failed' })],
      ['n2'],
      5,
    ],
    ['n1 containers started: n2 next', (u) => [existing(u, 'n1', started)], ['n2'], 5],
    [
      'n1 older than the 300 s timeout: n2 next',
      (u) => [existing(u, 'n1', running, new Date(NOW.getTime() - 300_000))],
      ['n2'],
      5,
    ],
    [
      'every node done: nothing more, no recheck',
      (u) => ['n1', 'n2', 'n3'].map((n) => existing(u, n, { phase: 'Succeeded' })),
      [],
      undefined,
    ],
  ];
  test.each(cases)('%s', (_name, pulls, nodes, requeue) => {
    const { ctx, update } = ctxWithPods();
    const plan = planPrePullPods(ctx, pulls(update), false);
    expect(plan.create.map((p) => p.spec.nodeName)).toEqual(nodes);
    expect(plan.delete).toEqual([]);
    expect(plan.requeueAfterSeconds).toBe(requeue);
  });

  test('a pod of another revision is deleted and its node pulled again for this one', () => {
    const { ctx, update } = ctxWithPods();
    const stale = existing(update, 'n1', { phase: 'Succeeded' });
    stale.metadata.labels = { ...stale.metadata.labels, 'kruiseless.io/image-prepull-revision': 'older' };
    const plan = planPrePullPods(ctx, [stale], false);
    expect(plan.delete).toEqual([{ name: 'pull-n1', uid: 'uid-pull-n1' }]);
    expect(plan.create.map((p) => p.spec.nodeName)).toEqual(['n1']);
  });

  const none: [string, PlannerOptions, boolean, boolean][] = [
    ['a node agent runs: the pods are deleted, none created', PODS_ON, true, false],
    ['rollout done (current = update): the pods are deleted', PODS_ON, false, true],
    ['pods gate off (pods listed anyway): deleted', GATES_ON, false, false],
  ];
  test.each(none)('%s', (_name, options, agent, done) => {
    const { ctx, update } = ctxWithPods({ partition: 1 }, options);
    const pulls = [existing(update, 'n1', { phase: 'Succeeded' })];
    const plan = planPrePullPods(done ? { ...ctx, currentRevision: update } : ctx, pulls, agent);
    expect(plan).toEqual({ create: [], delete: [{ name: 'pull-n1', uid: 'uid-pull-n1' }] });
  });

  test('not listed (gate off), ReCreate, or 3 replicas: nothing', () => {
    const { ctx } = ctxWithPods();
    expect(planPrePullPods(ctx, undefined, false)).toEqual({ create: [], delete: [] });
    expect(planPrePullPods(ctxWithPods({ type: 'ReCreate' }).ctx, [], false)).toEqual({
      create: [],
      delete: [],
    });
    expect(planPrePullPods(ctxWithPods({ replicas: 3, partition: 1 }).ctx, [], false)).toEqual({
      create: [],
      delete: [],
    });
  });
});
