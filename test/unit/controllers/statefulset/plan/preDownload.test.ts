/**
 * The Advanced StatefulSet's image pre-download decisions (lib/controllers/statefulset/plan/preDownload.ts), as
 * OpenKruise's `doPreDownload` and `createImagePullJobsForInPlaceUpdate` make them: when, which label, which jobs,
 * and the annotation readings that differ from CloneSet's.
 */
import type { ImagePullJob } from '../../../../../lib/api/imagePullJob.js';
import type { StatefulSet } from '../../../../../lib/controllers/statefulset/api/types.js';
import {
  ignoreReason,
  minUpdatedReadyPods,
  planStatefulSetPreDownload,
} from '../../../../../lib/controllers/statefulset/plan/preDownload.js';
import { createJobForWorkloadSettings } from '../../../../../lib/podset/predownload/settings.js';
import { newRevision } from '../../../../../lib/controllers/statefulset/plan/revision.js';
import { DEFAULT_PLANNER_OPTIONS } from '../../../../../lib/controllers/statefulset/plan/types.js';

const ON = { ...DEFAULT_PLANNER_OPTIONS, preDownloadImageForInPlaceUpdate: true };

function set(change: (s: StatefulSet) => void = () => undefined, image = 'nginx:1'): StatefulSet {
  const s: StatefulSet = {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'ns', uid: 'db-uid' },
    spec: {
      replicas: 5,
      selector: { matchLabels: { app: 'db' } },
      template: {
        metadata: { labels: { app: 'db' } },
        spec: {
          containers: [
            { name: 'main', image },
            { name: 'side', image: 'busybox:1' },
          ],
        },
      },
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', partition: 0, maxUnavailable: 1 },
      },
    },
  };
  change(s);
  return s;
}

const current = newRevision(set(), 1, 0);
const update = newRevision(set(undefined, 'nginx:2'), 2, 0);
const job = (uid: string): ImagePullJob =>
  ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'ImagePullJob',
    metadata: {
      name: `j-${uid}`,
      uid: `job-${uid}`,
      ownerReferences: [
        { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'x', uid, controller: true },
      ],
    },
    spec: { image: 'x' },
  }) as ImagePullJob;

describe('planStatefulSetPreDownload', () => {
  test('a new in-place revision: a job for the changed container only, the revision labelled created', () => {
    const plan = planStatefulSetPreDownload(set(undefined, 'nginx:2'), current, update, [], ON);
    expect(plan?.revisionLabel).toEqual({
      revision: update.metadata.name,
      key: 'apps.kruise.io/pre-predownload-created',
    });
    expect(plan?.createJobs.map((j) => [j.metadata.name, j.spec.image])).toEqual([
      [`${update.metadata.name}-main`, 'nginx:2'],
    ]);
  });

  test('off unless both gates are on and the resource is served', () => {
    const s = set(undefined, 'nginx:2');
    expect(planStatefulSetPreDownload(s, current, update, [], DEFAULT_PLANNER_OPTIONS)).toBeUndefined();
    expect(
      planStatefulSetPreDownload(s, current, update, [], { ...ON, kruiseDaemon: false }),
    ).toBeUndefined();
    expect(planStatefulSetPreDownload(s, current, update, undefined, ON)).toBeUndefined();
  });

  test('a revision already labelled created or ignored gets nothing more', () => {
    for (const key of [
      'apps.kruise.io/pre-predownload-created',
      'apps.kruise.io/image-predownload-ignored',
    ]) {
      const labelled = {
        ...update,
        metadata: { ...update.metadata, labels: { ...update.metadata.labels, [key]: 'true' } },
      };
      expect(
        planStatefulSetPreDownload(set(undefined, 'nginx:2'), current, labelled, [], ON),
      ).toBeUndefined();
    }
  });

  test('waits for min-updated-ready-pods, counting status.updatedReadyReplicas only for the same update revision', () => {
    const waiting = set((s) => {
      s.metadata.annotations = { 'apps.kruise.io/image-predownload-min-updated-ready-pods': '40%' };
      s.status = {
        replicas: 5,
        readyReplicas: 5,
        availableReplicas: 5,
        currentReplicas: 3,
        updatedReplicas: 2,
        updatedReadyReplicas: 2,
        updateRevision: 'another',
      };
    }, 'nginx:2');
    expect(planStatefulSetPreDownload(waiting, current, update, [], ON)).toBeUndefined();
    waiting.status!.updateRevision = update.metadata.name;
    expect(planStatefulSetPreDownload(waiting, current, update, [], ON)?.createJobs).toHaveLength(1);
  });

  test('every pod at one revision: the jobs this set controls are deleted, no other', () => {
    const plan = planStatefulSetPreDownload(set(), current, current, [job('db-uid'), job('other')], ON);
    expect(plan).toEqual({ createJobs: [], deleteJobs: [{ name: 'j-db-uid', uid: 'job-db-uid' }] });
    expect(planStatefulSetPreDownload(set(), current, current, [job('other')], ON)).toBeUndefined();
  });
});

describe('ignoreReason (the revision is labelled ignored)', () => {
  const opts = DEFAULT_PLANNER_OPTIONS;
  test.each<[string, (s: StatefulSet) => void, string | undefined]>([
    ['OnDelete', (s) => (s.spec.updateStrategy = { type: 'OnDelete' }), 'recreate update'],
    [
      'no rolling-update block',
      (s) => (s.spec.updateStrategy = { type: 'RollingUpdate' }),
      'recreate update',
    ],
    [
      'ReCreate',
      (s) => (s.spec.updateStrategy!.rollingUpdate!.podUpdatePolicy = 'ReCreate'),
      'recreate update',
    ],
    ['3 replicas', (s) => (s.spec.replicas = 3), 'replicas 3 <= 3'],
    [
      'maxUnavailable 100%, partition 0',
      (s) => (s.spec.updateStrategy!.rollingUpdate!.maxUnavailable = '100%'),
      'all pods update in one batch',
    ],
    [
      'maxUnavailable 100%, partition 1',
      (s) => {
        s.spec.updateStrategy!.rollingUpdate!.maxUnavailable = '100%';
        s.spec.updateStrategy!.rollingUpdate!.partition = 1;
      },
      undefined,
    ],
    [
      'maxUnavailable 90% of 5 rounds down to 4',
      (s) => (s.spec.updateStrategy!.rollingUpdate!.maxUnavailable = '90%'),
      undefined,
    ],
    ['InPlaceIfPossible, image change', () => undefined, undefined],
  ])('%s', (_name, change, reason) => {
    expect(ignoreReason(set(change, 'nginx:2'), current, update, opts)).toBe(reason);
  });

  test('a change that cannot be made in place', () => {
    const envChanged = newRevision(
      set((s) => (s.spec.template.spec.containers[0].env = [{ name: 'A', value: '1' }])),
      2,
      0,
    );
    expect(ignoreReason(set(), current, envChanged, opts)).toBe('cannot update in place');
  });
});

describe('annotation readings (CreateJobForWorkload, doPreDownload)', () => {
  const annotated = (a: Record<string, string>) => set((s) => (s.metadata.annotations = a));
  test('parallelism counts only as an integer; the timeout as an int32', () => {
    expect(createJobForWorkloadSettings(annotated({}))).toEqual({ parallelism: 1, timeoutSeconds: 300 });
    expect(
      createJobForWorkloadSettings(
        annotated({
          'apps.kruise.io/image-predownload-parallelism': '50%',
          'apps.kruise.io/image-predownload-timeout-seconds': '99999999999',
        }),
      ),
    ).toEqual({ parallelism: 1, timeoutSeconds: 300 });
    expect(
      createJobForWorkloadSettings(
        annotated({
          'apps.kruise.io/image-predownload-parallelism': '+3',
          'apps.kruise.io/image-predownload-timeout-seconds': '60',
        }),
      ),
    ).toEqual({ parallelism: 3, timeoutSeconds: 60 });
  });

  test.each([
    [undefined, 0],
    ['2', 2],
    ['30%', 2], // 1.5 rounded up
    ['abc', 0],
    ['', 0],
  ])('min-updated-ready-pods %p of 5 replicas → %p', (text, want) => {
    const s = annotated(
      text === undefined ? {} : { 'apps.kruise.io/image-predownload-min-updated-ready-pods': text },
    );
    expect(minUpdatedReadyPods(s, 5)).toBe(want);
  });
});
