/**
 * Golden whole-Plan tests: for each shape of Plan the executor handles, one input and the complete Plan it
 * must produce, compared with `toEqual` (no field left out, so any added, dropped or changed field fails).
 * Shapes: create, specified delete with podsToDelete trimming, in-place update, recreate update, lifecycle
 * hook patch, first KruisePodReady condition, status-only, revision creation with history truncation, invalid CloneSet, settled no-op.
 * "Expectations unsatisfied" is decided before the planner runs (lib/reconcile), so it has no Plan shape here.
 * Revision names are literal: they pin the Go-compatible revision hash (docs/behaviour/cloneset.md#controller-revisions).
 */
import type { CloneSetStatus, Pod } from '../../../../../lib/api/types.js';
import { planCloneSet, type Plan } from '../../../../../lib/controllers/cloneset/plan/index.js';
import { diffRecord } from '../../../support/fixtures.js';
import { input, READY_SINCE, web, webPod, webRevision } from './goldenInputs.js';

/** Revision names of templates `app:v1`, `app:v2`, `app:v3`. */
const V1 = 'web-6958f6fc76';
const V2 = 'web-84b5c98dc5';
const V3 = 'web-54656b74b';
const DRAIN = 'example.com/drain';

/** The status of a CloneSet whose `replicas` pods are all Ready and Available on `revision`. */
function settledOn(revision: string, replicas: number, extra: Partial<CloneSetStatus> = {}): CloneSetStatus {
  return {
    observedGeneration: 1,
    replicas,
    readyReplicas: replicas,
    availableReplicas: replicas,
    updatedReplicas: replicas,
    updatedReadyReplicas: replicas,
    updatedAvailableReplicas: replicas,
    updateRevision: revision,
    currentRevision: revision,
    collisionCount: 0,
    ...extra,
  };
}

describe('planCloneSet golden plans', () => {
  test('creates the missing pods in slow-start batches at the update revision (docs/behaviour/cloneset.md#pod-creation)', () => {
    const plan = planCloneSet(input(web('v1'), [], [webRevision('v1', 1)]));
    const want: Plan = {
      validationErrors: [],
      revisions: {
        updateRevision: V1,
        currentRevision: V1,
        collisionCount: 0,
        deleteNames: [],
      },
      phase: 'scale',
      diff: diffRecord({ scaleUpNum: 2, scaleUpLimit: 2 }),
      actions: [
        {
          type: 'CreatePod',
          pod: {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: {
              name: 'web-new1',
              generateName: 'web-',
              namespace: 'default',
              labels: {
                app: 'web',
                'controller-revision-hash': V1,
                'pod-template-hash': '6958f6fc76',
                'apps.kruise.io/cloneset-instance-id': 'new1',
                'lifecycle.apps.kruise.io/state': 'PreparingNormal',
              },
              annotations: {
                'lifecycle.apps.kruise.io/timestamp': '2024-05-01T08:00:00Z',
              },
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
            },
            spec: {
              containers: [
                {
                  name: 'app',
                  image: 'app:v1',
                  resources: {},
                },
              ],
              readinessGates: [
                {
                  conditionType: 'InPlaceUpdateReady',
                },
                {
                  conditionType: 'KruisePodReady',
                },
              ],
            },
          },
          pvcs: [],
          revision: V1,
          batch: 0,
        },
        {
          type: 'CreatePod',
          pod: {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: {
              name: 'web-new2',
              generateName: 'web-',
              namespace: 'default',
              labels: {
                app: 'web',
                'controller-revision-hash': V1,
                'pod-template-hash': '6958f6fc76',
                'apps.kruise.io/cloneset-instance-id': 'new2',
                'lifecycle.apps.kruise.io/state': 'PreparingNormal',
              },
              annotations: {
                'lifecycle.apps.kruise.io/timestamp': '2024-05-01T08:00:00Z',
              },
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
            },
            spec: {
              containers: [
                {
                  name: 'app',
                  image: 'app:v1',
                  resources: {},
                },
              ],
              readinessGates: [
                {
                  conditionType: 'InPlaceUpdateReady',
                },
                {
                  conditionType: 'KruisePodReady',
                },
              ],
            },
          },
          pvcs: [],
          revision: V1,
          batch: 1,
        },
      ],
      status: {
        observedGeneration: 1,
        replicas: 0,
        readyReplicas: 0,
        availableReplicas: 0,
        updatedReplicas: 0,
        updatedReadyReplicas: 0,
        expectedUpdatedReplicas: 2,
        updateRevision: V1,
        currentRevision: V1,
        collisionCount: 0,
        labelSelector: 'app=web',
      },
      statusChanged: true,
      events: [],
    };
    expect(plan).toEqual(want);
  });

  test('deletes a pod named in podsToDelete and drops the stale name (docs/behaviour/cloneset.md#scale-phase, docs/behaviour/cloneset.md#after-status)', () => {
    const plan = planCloneSet(
      input(
        web('v1', { scaleStrategy: { podsToDelete: ['web-b', 'web-gone'] } }),
        ['a', 'b', 'c'].map((id) => webPod(id, 'v1')),
        [webRevision('v1', 1)],
      ),
    );
    const want: Plan = {
      validationErrors: [],
      revisions: {
        updateRevision: V1,
        currentRevision: V1,
        collisionCount: 0,
        deleteNames: [],
      },
      phase: 'scale',
      diff: diffRecord({ deleteReadyLimit: 2 }),
      actions: [
        {
          type: 'DeletePod',
          pod: {
            name: 'web-b',
            uid: 'uid-web-b',
            resourceVersion: '100',
          },
          reason: 'SpecifiedDelete',
          pvcNames: [],
        },
      ],
      status: {
        observedGeneration: 1,
        replicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
        updatedReplicas: 3,
        updatedReadyReplicas: 3,
        updatedAvailableReplicas: 3,
        expectedUpdatedReplicas: 2,
        updateRevision: V1,
        currentRevision: V1,
        collisionCount: 0,
        labelSelector: 'app=web',
      },
      statusChanged: true,
      podsToDelete: ['web-b'],
      events: [],
    };
    expect(plan).toEqual(want);
  });

  test('updates a pod in place: InPlaceUpdateReady=False first, then the spec patch (docs/behaviour/cloneset.md#in-place-update)', () => {
    const plan = planCloneSet(
      input(
        web('v2', { replicas: 1, updateStrategy: { type: 'InPlaceIfPossible' } }, settledOn(V1, 1)),
        [webPod('a', 'v1')],
        [webRevision('v1', 1), webRevision('v2', 2)],
      ),
    );
    const want: Plan = {
      validationErrors: [],
      revisions: {
        updateRevision: V2,
        currentRevision: V1,
        collisionCount: 0,
        deleteNames: [],
      },
      phase: 'update',
      diff: diffRecord({ updateNum: 1, updateMaxUnavailable: 1 }),
      actions: [
        {
          type: 'PatchPodStatus',
          pod: {
            name: 'web-a',
            uid: 'uid-web-a',
            resourceVersion: '100',
          },
          reason: 'StartInPlaceUpdate',
          patch: {
            status: {
              conditions: [
                {
                  type: 'InPlaceUpdateReady',
                  status: 'False',
                  reason: 'StartInPlaceUpdate',
                  lastTransitionTime: '2024-05-01T08:00:00Z',
                },
              ],
            },
          },
        },
        {
          type: 'PatchPod',
          pod: {
            name: 'web-a',
            uid: 'uid-web-a',
            resourceVersion: '100',
          },
          reason: 'InPlaceUpdate',
          revision: V2,
          patch: {
            metadata: {
              labels: {
                'controller-revision-hash': V2,
                'pod-template-hash': '84b5c98dc5',
                'lifecycle.apps.kruise.io/state': 'Updating',
              },
              annotations: {
                'apps.kruise.io/inplace-update-state':
                  '{"revision":"web-84b5c98dc5","updateTimestamp":"2024-05-01T08:00:00Z","lastContainerStatuses":{"app":{"imageID":"docker.io/library/app@sha256:v1"}},"updateImages":true,"containerBatchesRecord":[{"timestamp":"2024-05-01T08:00:00Z","containers":["app"]}]}',
                'inplace-update-state': null,
                'lifecycle.apps.kruise.io/timestamp': '2024-05-01T08:00:00Z',
              },
            },
            spec: {
              containers: [
                {
                  name: 'app',
                  image: 'app:v2',
                },
              ],
            },
          },
        },
      ],
      status: {
        observedGeneration: 1,
        replicas: 1,
        readyReplicas: 1,
        availableReplicas: 1,
        updatedReplicas: 0,
        updatedReadyReplicas: 0,
        expectedUpdatedReplicas: 1,
        updateRevision: V2,
        currentRevision: V1,
        collisionCount: 0,
        labelSelector: 'app=web',
      },
      statusChanged: true,
      events: [],
    };
    expect(plan).toEqual(want);
  });

  test('marks a pod specified-delete for a ReCreate update (docs/behaviour/cloneset.md#update-phase)', () => {
    const plan = planCloneSet(
      input(
        web('v2', { replicas: 1 }, settledOn(V1, 1)),
        [webPod('a', 'v1')],
        [webRevision('v1', 1), webRevision('v2', 2)],
      ),
    );
    const want: Plan = {
      validationErrors: [],
      revisions: {
        updateRevision: V2,
        currentRevision: V1,
        collisionCount: 0,
        deleteNames: [],
      },
      phase: 'update',
      diff: diffRecord({ updateNum: 1, updateMaxUnavailable: 1 }),
      actions: [
        {
          type: 'PatchPod',
          pod: {
            name: 'web-a',
            uid: 'uid-web-a',
            resourceVersion: '100',
          },
          reason: 'RecreateUpdate',
          revision: V2,
          patch: {
            metadata: {
              labels: {
                'apps.kruise.io/specified-delete': 'true',
              },
            },
          },
        },
      ],
      status: {
        observedGeneration: 1,
        replicas: 1,
        readyReplicas: 1,
        availableReplicas: 1,
        updatedReplicas: 0,
        updatedReadyReplicas: 0,
        expectedUpdatedReplicas: 1,
        updateRevision: V2,
        currentRevision: V1,
        collisionCount: 0,
        labelSelector: 'app=web',
      },
      statusChanged: true,
      events: [],
    };
    expect(plan).toEqual(want);
  });

  test('moves a scale-in victim with a preDelete hook to PreparingDelete instead of deleting it (docs/behaviour/cloneset.md#lifecycle)', () => {
    const plan = planCloneSet(
      input(
        web('v1', { replicas: 1, lifecycle: { preDelete: { finalizersHandler: [DRAIN] } } }),
        ['a', 'b'].map((id) => webPod(id, 'v1', { finalizers: [DRAIN] })),
        [webRevision('v1', 1)],
      ),
    );
    const want: Plan = {
      validationErrors: [],
      revisions: {
        updateRevision: V1,
        currentRevision: V1,
        collisionCount: 0,
        deleteNames: [],
      },
      phase: 'scale',
      diff: diffRecord({ scaleDownNum: 1, deleteReadyLimit: 2 }),
      actions: [
        {
          type: 'PatchPod',
          pod: {
            name: 'web-a',
            uid: 'uid-web-a',
            resourceVersion: '100',
          },
          reason: 'LifecycleTransition',
          patch: {
            metadata: {
              labels: {
                'lifecycle.apps.kruise.io/state': 'PreparingDelete',
              },
              annotations: {
                'lifecycle.apps.kruise.io/timestamp': '2024-05-01T08:00:00Z',
              },
            },
          },
        },
      ],
      status: {
        observedGeneration: 1,
        replicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        updatedReplicas: 2,
        updatedReadyReplicas: 2,
        updatedAvailableReplicas: 2,
        expectedUpdatedReplicas: 1,
        updateRevision: V1,
        currentRevision: V1,
        collisionCount: 0,
        labelSelector: 'app=web',
      },
      statusChanged: true,
      events: [],
    };
    expect(plan).toEqual(want);
  });

  test('sets the first KruisePodReady condition of a gated pod, after the phase, and not on a pod the phase marks not ready (docs/behaviour/cloneset.md#kruise-pod-ready)', () => {
    const gated = (id: string, condition: boolean): Pod => {
      const pod = webPod(id, 'v1');
      pod.spec.readinessGates = [
        { conditionType: 'InPlaceUpdateReady' },
        { conditionType: 'KruisePodReady' },
      ];
      pod.status!.conditions = [
        ...(pod.status!.conditions ?? []).map((c) =>
          c.type === 'Ready' && !condition ? { ...c, status: 'False', reason: 'ReadinessGatesNotReady' } : c,
        ),
        ...(condition ? [{ type: 'KruisePodReady', status: 'True', lastTransitionTime: READY_SINCE }] : []),
      ];
      return pod;
    };
    const plan = planCloneSet(
      input(
        web('v1', {
          replicas: 2,
          lifecycle: { preDelete: { labelsHandler: { hold: 'true' }, markPodNotReady: true } },
        }),
        [gated('a', false), gated('b', false), gated('c', true)].map((p) => {
          p.metadata.labels = { ...p.metadata.labels, hold: 'true' };
          return p;
        }),
        [webRevision('v1', 1)],
      ),
    );
    expect(plan.phase).toBe('scale');
    expect(plan.actions).toEqual([
      {
        type: 'PatchPodStatus',
        pod: { name: 'web-a', uid: 'uid-web-a', resourceVersion: '100' },
        reason: 'MarkPodNotReady',
        patch: {
          status: {
            conditions: [
              {
                type: 'KruisePodReady',
                status: 'False',
                message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]',
                lastTransitionTime: '2024-05-01T08:00:00Z',
              },
            ],
          },
        },
      },
      {
        type: 'PatchPod',
        pod: { name: 'web-a', uid: 'uid-web-a', resourceVersion: '100' },
        reason: 'LifecycleTransition',
        patch: {
          metadata: {
            labels: { 'lifecycle.apps.kruise.io/state': 'PreparingDelete' },
            annotations: { 'lifecycle.apps.kruise.io/timestamp': '2024-05-01T08:00:00Z' },
          },
        },
      },
      {
        type: 'PatchPodStatus',
        pod: { name: 'web-b', uid: 'uid-web-b', resourceVersion: '100' },
        reason: 'InitKruisePodReady',
        patch: {
          status: {
            conditions: [
              { type: 'KruisePodReady', status: 'True', lastTransitionTime: '2024-05-01T08:00:00Z' },
            ],
          },
        },
      },
    ]);
  });

  test('writes only the status when the pods already match the spec (docs/behaviour/cloneset.md#status)', () => {
    const plan = planCloneSet(
      input(
        web('v1'),
        ['a', 'b'].map((id) => webPod(id, 'v1')),
        [webRevision('v1', 1)],
      ),
    );
    const want: Plan = {
      validationErrors: [],
      revisions: {
        updateRevision: V1,
        currentRevision: V1,
        collisionCount: 0,
        deleteNames: [],
      },
      phase: 'none',
      diff: diffRecord({}),
      actions: [],
      status: {
        observedGeneration: 1,
        replicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        updatedReplicas: 2,
        updatedReadyReplicas: 2,
        updatedAvailableReplicas: 2,
        expectedUpdatedReplicas: 2,
        updateRevision: V1,
        currentRevision: V1,
        collisionCount: 0,
        labelSelector: 'app=web',
      },
      statusChanged: true,
      events: [],
    };
    expect(plan).toEqual(want);
  });

  test('creates the revision of a new template and truncates history; paused, so no pod is touched (docs/behaviour/cloneset.md#revisions)', () => {
    const plan = planCloneSet(
      input(
        web('v3', { revisionHistoryLimit: 0, updateStrategy: { paused: true } }, settledOn(V2, 2)),
        ['a', 'b'].map((id) => webPod(id, 'v2')),
        [webRevision('v1', 1), webRevision('v2', 2)],
      ),
    );
    const want: Plan = {
      validationErrors: [],
      revisions: {
        updateRevision: V3,
        currentRevision: V2,
        collisionCount: 0,
        create: {
          apiVersion: 'apps/v1',
          kind: 'ControllerRevision',
          metadata: {
            name: V3,
            namespace: 'default',
            labels: {
              app: 'web',
              'controller.kubernetes.io/hash': '54656b74b',
            },
            annotations: {
              'kruise.io/cloneset-volumeclaimtemplate-hash': '',
            },
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
          },
          data: {
            spec: {
              template: {
                metadata: {
                  labels: {
                    app: 'web',
                  },
                  creationTimestamp: null,
                },
                spec: {
                  containers: [
                    {
                      name: 'app',
                      image: 'app:v3',
                      resources: {},
                    },
                  ],
                },
                $patch: 'replace',
              },
            },
          },
          revision: 3,
        },
        deleteNames: [V1],
      },
      phase: 'none',
      diff: diffRecord({ updateNum: 2, updateMaxUnavailable: 1 }),
      actions: [],
      status: {
        observedGeneration: 1,
        replicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        updatedReplicas: 0,
        updatedReadyReplicas: 0,
        expectedUpdatedReplicas: 2,
        updateRevision: V3,
        currentRevision: V2,
        collisionCount: 0,
        labelSelector: 'app=web',
      },
      statusChanged: true,
      events: [],
    };
    expect(plan).toEqual(want);
  });

  test('plans no write for an invalid CloneSet: FailedValidation condition and Warning event (docs/behaviour/cloneset.md#validation)', () => {
    const plan = planCloneSet(input(web('v1', { replicas: -1 }), [], [webRevision('v1', 1)]));
    const want: Plan = {
      validationErrors: [
        {
          path: 'spec.replicas',
          message: 'Invalid value: -1: must be greater than or equal to 0',
        },
      ],
      revisions: {
        updateRevision: '',
        currentRevision: '',
        collisionCount: 0,
        deleteNames: [],
      },
      phase: 'none',
      diff: diffRecord({}),
      actions: [],
      status: {
        replicas: 0,
        readyReplicas: 0,
        availableReplicas: 0,
        updatedReplicas: 0,
        updatedReadyReplicas: 0,
        conditions: [
          {
            type: 'FailedValidation',
            status: 'True',
            reason: 'InvalidSpec',
            message: 'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
            lastUpdateTime: '2024-05-01T08:00:00Z',
            lastTransitionTime: '2024-05-01T08:00:00Z',
          },
        ],
      },
      statusChanged: true,
      events: [
        {
          type: 'Warning',
          reason: 'FailedValidation',
          message: 'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
        },
      ],
    };
    expect(plan).toEqual(want);
  });

  test('plans a CloneSet whose progressDeadlineSeconds is not above minReadySeconds: OpenKruise’s v1beta1 webhook stores it and its controller runs it', () => {
    const cs = web('v1', { replicas: 2, minReadySeconds: 10, progressDeadlineSeconds: 5 });
    const plan = planCloneSet(input(cs, [], [webRevision('v1', 1)]));
    expect(plan.validationErrors).toEqual([]);
    expect(plan.actions.map((a) => a.type)).toEqual(['CreatePod', 'CreatePod']);
  });

  test('plans nothing and no status write once the CloneSet is settled (docs/behaviour/cloneset.md#status)', () => {
    const plan = planCloneSet(
      input(
        web('v1', {}, settledOn(V1, 2, { expectedUpdatedReplicas: 2, labelSelector: 'app=web' })),
        ['a', 'b'].map((id) => webPod(id, 'v1')),
        [webRevision('v1', 1)],
      ),
    );
    const want: Plan = {
      validationErrors: [],
      revisions: {
        updateRevision: V1,
        currentRevision: V1,
        collisionCount: 0,
        deleteNames: [],
      },
      phase: 'none',
      diff: diffRecord({}),
      actions: [],
      status: {
        observedGeneration: 1,
        replicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        updatedReplicas: 2,
        updatedReadyReplicas: 2,
        updatedAvailableReplicas: 2,
        expectedUpdatedReplicas: 2,
        updateRevision: V1,
        currentRevision: V1,
        collisionCount: 0,
        labelSelector: 'app=web',
      },
      statusChanged: false,
      events: [],
    };
    expect(plan).toEqual(want);
  });
});
