/**
 * Image pre-download decisions (docs/behaviour/cloneset.md#image-pre-download), as OpenKruise's
 * `createImagePullJobsForInPlaceUpdate` and the pre-download block of `doReconcile` make them: table-driven over
 * gates, strategies, replicas, partition, min-updated-ready-pods and revision labels, with the exact ImagePullJob
 * objects.
 */
import type { ImagePullJob } from '../../../lib/api/imagePullJob.js';
import type { CloneSet, ControllerRevision, PodTemplateSpec } from '../../../lib/api/types.js';
import { newRevision, planCloneSet } from '../../../lib/cloneset/index.js';
import { changedImages, planImagePullJobs } from '../../../lib/cloneset/predownload/jobs.js';
import { preDownloadSettings } from '../../../lib/cloneset/predownload/settings.js';
import { resolveStrategy } from '../../../lib/cloneset/strategy.js';
import { DEFAULT_PLANNER_OPTIONS, type PlannerOptions } from '../../../lib/cloneset/types.js';

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
          apiVersion: 'apps.kruise.io/v1alpha1',
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
          { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'x', uid, controller },
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

describe('annotations and image diff', () => {
  const settings: [Record<string, string>, ReturnType<typeof preDownloadSettings>][] = [
    [{}, { parallelism: 1, timeoutSeconds: 300, minUpdatedReadyPods: 0 }],
    [
      {
        'apps.kruise.io/image-predownload-parallelism': '50%',
        'apps.kruise.io/image-predownload-timeout-seconds': 'ten',
        'apps.kruise.io/image-predownload-min-updated-ready-pods': '3',
      },
      { parallelism: '50%', timeoutSeconds: 300, minUpdatedReadyPods: 3 },
    ],
    [
      { 'apps.kruise.io/image-predownload-parallelism': '' },
      { parallelism: 1, timeoutSeconds: 300, minUpdatedReadyPods: 0 },
    ],
  ];
  test.each(settings)('%j → %j', (annotations, expected) => {
    expect(preDownloadSettings(cloneSet('x', { annotations }))).toEqual(expected);
  });

  test('a changed image and a new container are listed in the update template order; an unchanged one is not', () => {
    const current = newRevision(cloneSet('nginx:1.18'), 1, 0);
    const cs = cloneSet('nginx:1.19');
    cs.spec.template.spec.containers.unshift({ name: 'init-like', image: 'alpine:3' });
    expect(changedImages(current, newRevision(cs, 2, 0))).toEqual([
      ['init-like', 'alpine:3'],
      ['main', 'nginx:1.19'],
    ]);
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
