import {
  ANNOTATION_INPLACE_UPDATE_GRACE,
  ANNOTATION_INPLACE_UPDATE_STATE,
  ANNOTATION_RUNTIME_CONTAINERS_META,
} from '../../../lib/api/keys.js';
import type { Container, Pod } from '../../../lib/api/types.js';
import { startInPlaceUpdate, refreshInPlace, podNeedsUnready } from '../../../lib/podset/inplace/update.js';
import {
  applyUpdateSpec,
  containerPriority,
  isInPlaceUpdateCompleted,
} from '../../../lib/podset/inplace/apply.js';
import {
  parseInPlaceUpdateState,
  parseUpdateSpec,
  serializeInPlaceUpdateState,
  serializeUpdateSpec,
  type InPlaceUpdateState,
  type UpdateSpec,
} from '../../../lib/podset/inplace/state.js';
import { shortHash } from '../../../lib/podset/pods.js';
import { NEW_REV, NOW } from '../support/fixtures.js';
import { IN_PLACE_OPTIONS, ipPod } from '../support/inPlacePods.js';

const gates = IN_PLACE_OPTIONS;
const T = '2024-05-01T08:00:00Z';
const spec = (o: Partial<UpdateSpec> = {}): UpdateSpec => ({
  revision: NEW_REV,
  containerImages: { c1: 'foo2' },
  containerRefMetadata: {},
  containerResources: {},
  updateEnvFromMetadata: false,
  graceSeconds: 0,
  ...o,
});

describe('startInPlaceUpdate (docs/behaviour/cloneset.md#in-place-update)', () => {
  it('scenario 36: status patch then one pod patch with labels, lifecycle, state and image', () => {
    const pod = ipPod('p0', 'old_rev');
    expect(startInPlaceUpdate(pod, spec(), NOW, gates)).toEqual([
      {
        type: 'PatchPodStatus',
        pod: { name: 'p0', uid: 'uid-p0' },
        reason: 'StartInPlaceUpdate',
        patch: {
          status: {
            conditions: [
              {
                type: 'InPlaceUpdateReady',
                status: 'False',
                reason: 'StartInPlaceUpdate',
                lastTransitionTime: T,
              },
            ],
          },
        },
      },
      {
        type: 'PatchPod',
        pod: { name: 'p0', uid: 'uid-p0' },
        reason: 'InPlaceUpdate',
        revision: 'new_rev',
        patch: {
          metadata: {
            labels: {
              'controller-revision-hash': 'new_rev',
              'pod-template-hash': 'new_rev',
              'lifecycle.apps.kruise.io/state': 'Updating',
            },
            annotations: {
              [ANNOTATION_INPLACE_UPDATE_STATE]:
                '{"revision":"new_rev","updateTimestamp":"2024-05-01T08:00:00Z","lastContainerStatuses":{"c1":{"imageID":"image-id-xyz"}},"updateImages":true,"containerBatchesRecord":[{"timestamp":"2024-05-01T08:00:00Z","containers":["c1"]}]}',
              'inplace-update-state': null,
              'lifecycle.apps.kruise.io/timestamp': T,
            },
          },
          spec: { containers: [{ name: 'c1', image: 'foo2' }] },
        },
      },
    ]);
  });

  it('scenario 37: with a grace period the spec goes to the grace annotation and the image stays', () => {
    const pod = ipPod('p0', 'old_rev');
    const actions = startInPlaceUpdate(pod, spec({ graceSeconds: 3630 }), NOW, gates);
    const patch = actions[1].type === 'PatchPod' ? actions[1].patch : {};
    expect(patch).toEqual({
      metadata: {
        labels: {
          'controller-revision-hash': 'new_rev',
          'pod-template-hash': 'new_rev',
          'lifecycle.apps.kruise.io/state': 'Updating',
        },
        annotations: {
          [ANNOTATION_INPLACE_UPDATE_STATE]:
            '{"revision":"new_rev","updateTimestamp":"2024-05-01T08:00:00Z","lastContainerStatuses":null,"updateImages":true}',
          'inplace-update-state': null,
          'lifecycle.apps.kruise.io/timestamp': T,
          [ANNOTATION_INPLACE_UPDATE_GRACE]:
            '{"revision":"rev_new","containerImages":{"c1":"foo2"},"graceSeconds":3630}'.replace(
              'rev_new',
              'new_rev',
            ),
        },
      },
    });
  });

  it('recomputes Ready to False when Ready and ContainersReady are True', () => {
    const pod = ipPod('p0', 'old_rev');
    pod.status?.conditions?.push({ type: 'ContainersReady', status: 'True' });
    pod.status!.conditions![0].lastTransitionTime = '2024-01-01T00:00:00Z';
    const [status] = startInPlaceUpdate(pod, spec(), NOW, gates);
    expect(status.type === 'PatchPodStatus' && status.patch).toEqual({
      status: {
        conditions: [
          {
            type: 'InPlaceUpdateReady',
            status: 'False',
            reason: 'StartInPlaceUpdate',
            lastTransitionTime: T,
          },
          {
            type: 'Ready',
            status: 'False',
            reason: 'ReadinessGatesNotReady',
            message: 'the status of pod readiness gate "InPlaceUpdateReady" is not "True", but False',
            lastTransitionTime: null,
          },
        ],
      },
    });
  });

  it('no status write without the readiness gate; revision labels come from the options; grace keys dropped', () => {
    const pod = ipPod('p0', 'old_rev', { annotations: { 'inplace-update-grace': '{}' } });
    pod.spec.readinessGates = [];
    const actions = startInPlaceUpdate(pod, spec({ revision: 'foo-abc' }), NOW, {
      ...gates,
      revisionLabels: (revision) => ({ 'controller-revision-hash': shortHash(revision) }),
    });
    expect(actions).toHaveLength(1);
    const md = (actions[0].type === 'PatchPod' && actions[0].patch.metadata) as Record<
      string,
      Record<string, unknown>
    >;
    expect(md.labels['controller-revision-hash']).toBe('abc');
    expect(md.annotations['inplace-update-grace']).toBeNull();
  });

  it('a vertical-only update keeps the pod ready unless a resize policy restarts the container', () => {
    const vspec = spec({ containerImages: {}, containerResources: { c1: { requests: { cpu: '1' } } } });
    const pod = ipPod('p0', 'old_rev');
    const on = { ...gates, inPlaceWorkloadVerticalScaling: true };
    expect(podNeedsUnready(pod, vspec, on)).toBe(false);
    pod.spec.containers[0].resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }];
    expect(podNeedsUnready(pod, vspec, on)).toBe(true);
    expect(podNeedsUnready(pod, vspec, gates)).toBe(true);
    const [action] = startInPlaceUpdate(ipPod('p1', 'old_rev'), vspec, NOW, on);
    // the resources go through pods/resize, not the pod patch (Kubernetes >= 1.32 refuses them there)
    expect(action.type === 'PatchPod' && action.patch.spec).toBeUndefined();
    expect(action.type === 'PatchPod' && action.resize).toEqual({
      spec: { containers: [{ name: 'c1', resources: { requests: { cpu: '1' } } }] },
    });
  });
});

describe('cpu/memory through the pods/resize subresource (OpenKruise updatePodInPlace, GenerateResourcePatch)', () => {
  const on = { ...gates, inPlaceWorkloadVerticalScaling: true };
  const sized = (name: string): Pod => {
    const pod = ipPod(name, 'old_rev');
    pod.spec.containers[0].resources = {
      requests: { cpu: '100m', memory: '64Mi' },
      limits: { cpu: '200m', memory: '128Mi' },
    };
    return pod;
  };

  it('a resources-only update: one PatchPod whose pod patch has no spec and whose resize carries the change', () => {
    const vspec = spec({
      containerImages: {},
      containerResources: { c1: { requests: { cpu: '150m', memory: '64Mi' }, limits: { cpu: '200m' } } },
    });
    const actions = startInPlaceUpdate(sized('p0'), vspec, NOW, on);
    expect(actions).toHaveLength(1); // no restart policy: the pod is not taken out of service
    const [a] = actions;
    if (a.type !== 'PatchPod') throw new Error('PatchPod expected');
    expect(a.reason).toBe('InPlaceUpdate');
    // only the quantities that differ from the pod's spec (memory 64Mi and limits.cpu 200m are unchanged)
    expect(a.resize).toEqual({
      spec: { containers: [{ name: 'c1', resources: { requests: { cpu: '150m' } } }] },
    });
    expect(a.patch.spec).toBeUndefined();
    const annotations = (a.patch.metadata as Record<string, Record<string, string>>).annotations;
    expect(JSON.parse(annotations[ANNOTATION_INPLACE_UPDATE_STATE])).toMatchObject({
      revision: NEW_REV,
      updateResources: true,
    });
  });

  it('equal quantities in another spelling, and resources other than cpu/memory, give no resize', () => {
    const vspec = spec({
      containerImages: {},
      containerResources: {
        c1: { requests: { cpu: '0.1', 'ephemeral-storage': '1Gi' }, limits: { memory: '0.125Gi' } },
      },
    });
    const [a] = startInPlaceUpdate(sized('p0'), vspec, NOW, on);
    expect(a.type === 'PatchPod' && 'resize' in a).toBe(false);
  });

  it('an image and a resource change: the image in the pod patch, the resources in the resize', () => {
    const both = spec({ containerResources: { c1: { limits: { memory: '256Mi' } } } });
    const actions = startInPlaceUpdate(sized('p0'), both, NOW, on);
    const a = actions[actions.length - 1];
    if (a.type !== 'PatchPod') throw new Error('PatchPod expected');
    expect(a.patch.spec).toEqual({ containers: [{ name: 'c1', image: 'foo2' }] });
    expect(a.resize).toEqual({
      spec: { containers: [{ name: 'c1', resources: { limits: { memory: '256Mi' } } }] },
    });
  });

  it('without the gate the resources are neither patched nor resized', () => {
    const both = spec({ containerResources: { c1: { limits: { memory: '256Mi' } } } });
    const a = startInPlaceUpdate(sized('p0'), both, NOW, gates).at(-1)!;
    expect(a.type === 'PatchPod' && 'resize' in a).toBe(false);
    expect(a.type === 'PatchPod' && a.patch.spec).toEqual({ containers: [{ name: 'c1', image: 'foo2' }] });
  });

  it('a grace period: nothing resized at the start, the resize sent when the grace period ends', () => {
    const graced = spec({
      containerImages: {},
      containerResources: { c1: { requests: { cpu: '150m' } } },
      graceSeconds: 10,
    });
    const [start] = startInPlaceUpdate(sized('p0'), graced, NOW, on);
    expect(start.type === 'PatchPod' && 'resize' in start).toBe(false);
    const pod = sized('p0');
    pod.metadata.labels!['controller-revision-hash'] = NEW_REV;
    const state: InPlaceUpdateState = {
      revision: NEW_REV,
      updateTimestamp: '2024-05-01T07:59:00Z',
      updateResources: true,
    };
    pod.metadata.annotations = {
      [ANNOTATION_INPLACE_UPDATE_STATE]: serializeInPlaceUpdateState(state),
      [ANNOTATION_INPLACE_UPDATE_GRACE]: serializeUpdateSpec(graced),
    };
    const { actions } = refreshInPlace(pod, NOW, on);
    expect(actions).toHaveLength(1);
    const [a] = actions;
    if (a.type !== 'PatchPod') throw new Error('PatchPod expected');
    expect(a.reason).toBe('InPlaceUpdateGraceExpired');
    expect(a.resize).toEqual({
      spec: { containers: [{ name: 'c1', resources: { requests: { cpu: '150m' } } }] },
    });
    expect(a.patch.spec).toBeUndefined();
  });

  it('completion: not until the container status reports the resized spec', () => {
    const pod = sized('p0');
    pod.metadata.annotations = {
      [ANNOTATION_INPLACE_UPDATE_STATE]: serializeInPlaceUpdateState({
        revision: NEW_REV,
        updateTimestamp: T,
        updateResources: true,
      }),
    };
    pod.status!.containerStatuses![0].resources = {
      requests: { cpu: '100m', memory: '64Mi' },
      limits: { cpu: '200m', memory: '128Mi' },
    };
    pod.spec.containers[0].resources!.requests!.cpu = '150m'; // the API server took the resize
    expect(isInPlaceUpdateCompleted(pod, on)).toBe(false);
    pod.status!.containerStatuses![0].resources.requests!.cpu = '150m'; // the kubelet applied it
    expect(isInPlaceUpdateCompleted(pod, on)).toBe(true);
  });
});

describe('container batches (scenario 57)', () => {
  const barrier = (p: number) => ({
    name: 'KRUISE_CONTAINER_BARRIER',
    valueFrom: { configMapKeyRef: { name: 'pod-barrier', key: `p_${p}` } },
  });
  const ref = (path: string) => ({ name: 'E', valueFrom: { fieldRef: { fieldPath: path } } });
  const containers: Container[] = [
    { name: 'c1', image: 'c1-img', env: [barrier(20), ref("metadata.labels['label-k1']")] },
    { name: 'c2', image: 'c2-img', env: [barrier(10), ref("metadata.labels['label-k2']")] },
    { name: 'c3', image: 'c3-img', env: [barrier(0), ref("metadata.labels['label-k2']")] },
    { name: 'c4', image: 'c4-img', env: [barrier(0), ref("metadata.annotations['annotation-k1']")] },
  ];
  const pod = (): Pod => ({
    metadata: { name: 'p', uid: 'u', labels: {}, annotations: {} },
    spec: { containers },
    status: {
      containerStatuses: containers.map((c) => ({
        name: c.name,
        image: c.image ?? '',
        imageID: `${c.name}-id`,
        ready: true,
        restartCount: 0,
      })),
    },
  });

  /** Runs batches to the end; returns each batch's selected containers and patches. */
  function run(first: UpdateSpec) {
    let state: InPlaceUpdateState = { revision: NEW_REV, updateTimestamp: T };
    let s: UpdateSpec | undefined = first;
    const batches: string[][] = [];
    const patches = [];
    while (s) {
      const res = applyUpdateSpec(pod(), s, state, NOW, gates);
      state = res.state;
      patches.push(res.patch);
      batches.push(state.containerBatchesRecord?.at(-1)?.containers ?? []);
      const more =
        Object.keys(state.nextContainerImages ?? {}).length +
        Object.keys(state.nextContainerRefMetadata ?? {}).length;
      s = more
        ? spec({
            containerImages: state.nextContainerImages ?? {},
            containerRefMetadata: state.nextContainerRefMetadata ?? {},
          })
        : undefined;
    }
    return { batches, patches, state };
  }

  it('images c1,c2 → [c1] then [c2]', () => {
    const { batches, patches, state } = run(spec({ containerImages: { c1: 'a', c2: 'b' } }));
    expect(batches).toEqual([['c1'], ['c2']]);
    expect(
      (patches[0].metadata as Record<string, Record<string, string>>).annotations[
        ANNOTATION_INPLACE_UPDATE_STATE
      ],
    ).toBe(
      '{"revision":"new_rev","updateTimestamp":"2024-05-01T08:00:00Z","lastContainerStatuses":{"c1":{"imageID":"c1-id"}},"nextContainerImages":{"c2":"b"},"preCheckBeforeNext":{"containersRequiredReady":["c1"]},"containerBatchesRecord":[{"timestamp":"2024-05-01T08:00:00Z","containers":["c1"]}]}',
    );
    expect(state.lastContainerStatuses).toEqual({ c1: { imageID: 'c1-id' }, c2: { imageID: 'c2-id' } });
    expect(state.preCheckBeforeNext).toBeUndefined();
  });

  it('images c1,c2,c4 → [c1], [c2], [c4]', () => {
    expect(run(spec({ containerImages: { c1: 'a', c2: 'b', c4: 'd' } })).batches).toEqual([
      ['c1'],
      ['c2'],
      ['c4'],
    ]);
  });

  it('shared label pulls c3 into c2 batch; label patched then; precheck [c2,c3]', () => {
    const { batches, patches } = run(
      spec({
        containerImages: { c1: 'a', c2: 'b', c4: 'd' },
        containerRefMetadata: { c2: { labels: { 'label-k2': 'x' } }, c3: { labels: { 'label-k2': 'x' } } },
        updateEnvFromMetadata: true,
      }),
    );
    expect(batches).toEqual([['c1'], ['c2', 'c3'], ['c4']]);
    const md1 = patches[0].metadata as Record<string, Record<string, string>>;
    expect(md1.labels).toBeUndefined();
    expect(md1.annotations[ANNOTATION_INPLACE_UPDATE_STATE]).toContain(
      '"nextContainerRefMetadata":{"c2":{"creationTimestamp":null,"labels":{"label-k2":"x"}},"c3":{"creationTimestamp":null,"labels":{"label-k2":"x"}}}',
    );
    const md2 = patches[1].metadata as Record<string, Record<string, string>>;
    expect(md2.labels).toEqual({ 'label-k2': 'x' });
    expect(md2.annotations[ANNOTATION_INPLACE_UPDATE_STATE]).toContain(
      '"containersRequiredReady":["c2","c3"]',
    );
  });

  it('containerPriority parses p_<n>, 0 when unparsable, undefined without the env', () => {
    expect(containerPriority(containers[0])).toBe(20);
    expect(containerPriority({ name: 'x' })).toBeUndefined();
    expect(
      containerPriority({
        name: 'x',
        env: [{ name: 'KRUISE_CONTAINER_BARRIER', valueFrom: { configMapKeyRef: { key: 'p_x' } } }],
      }),
    ).toBe(0);
  });

  it('metadata patch is merged before container metadata', () => {
    const { patches } = run(
      spec({ containerImages: {}, metaDataPatch: '{"metadata":{"labels":{"a":"b","c":null}}}' }),
    );
    expect((patches[0].metadata as Record<string, unknown>).labels).toEqual({ a: 'b', c: null });
  });
});

const stateJson = (o: Partial<InPlaceUpdateState>) =>
  serializeInPlaceUpdateState({ revision: NEW_REV, updateTimestamp: T, ...o });

describe('isInPlaceUpdateCompleted (scenario 56)', () => {
  const withState = (state: string, imageID: string, _image = 'foo1', extra: Record<string, string> = {}) =>
    ipPod('p', NEW_REV, {
      imageID,
      image: 'foo2',
      annotations: { [ANNOTATION_INPLACE_UPDATE_STATE]: state, ...extra },
    });
  const recorded = stateJson({ lastContainerStatuses: { c1: { imageID: 'img01' } } });

  it('complete without a state annotation', () => {
    expect(isInPlaceUpdateCompleted(ipPod('p', NEW_REV), gates)).toBe(true);
  });
  it('complete when the imageID changed', () => {
    expect(isInPlaceUpdateCompleted(withState(recorded, 'img02'), gates)).toBe(true);
  });
  it('not complete while the imageID is unchanged and the status image differs', () => {
    expect(isInPlaceUpdateCompleted(withState(recorded, 'img01'), gates)).toBe(false);
  });
  it('complete with the same imageID when the status image equals the spec image (scenario 70)', () => {
    const pod = withState(recorded, 'img01');
    pod.status!.containerStatuses![0].image = 'foo2:latest';
    expect(isInPlaceUpdateCompleted(pod, gates)).toBe(true);
  });
  it('not complete when the container status is missing', () => {
    const pod = withState(recorded, 'img02');
    pod.status!.containerStatuses = [];
    expect(isInPlaceUpdateCompleted(pod, gates)).toBe(false);
  });
  it('not complete during grace, with next batches, with unparsable state', () => {
    expect(
      isInPlaceUpdateCompleted(
        withState(recorded, 'img02', 'x', { [ANNOTATION_INPLACE_UPDATE_GRACE]: '{}' }),
        gates,
      ),
    ).toBe(false);
    expect(
      isInPlaceUpdateCompleted(withState(stateJson({ nextContainerImages: { c2: 'x' } }), 'img02'), gates),
    ).toBe(false);
    expect(isInPlaceUpdateCompleted(withState('{bad', 'img02'), gates)).toBe(false);
  });
  it('env-from-metadata updates never complete (no kruise-daemon hashes, docs/behaviour/cloneset.md#edge-env-from-metadata)', () => {
    expect(
      isInPlaceUpdateCompleted(withState(stateJson({ updateEnvFromMetadata: true }), 'img02'), gates),
    ).toBe(false);
    const meta = { [ANNOTATION_RUNTIME_CONTAINERS_META]: '{"containers":[]}' };
    expect(
      isInPlaceUpdateCompleted(
        withState(stateJson({ updateEnvFromMetadata: true }), 'img02', 'x', meta),
        gates,
      ),
    ).toBe(false);
    expect(
      isInPlaceUpdateCompleted(
        withState(stateJson({}), 'img02', 'x', { [ANNOTATION_RUNTIME_CONTAINERS_META]: '{' }),
        gates,
      ),
    ).toBe(false);
  });
  it('resources updates complete when the status reports the spec resources (vertical gate)', () => {
    const on = { ...gates, inPlaceWorkloadVerticalScaling: true };
    const pod = withState(stateJson({ updateResources: true }), 'img02');
    pod.spec.containers[0].resources = { requests: { cpu: '1' } };
    expect(isInPlaceUpdateCompleted(pod, on)).toBe(false);
    pod.status!.containerStatuses![0].resources = { requests: { cpu: '1000m' } };
    expect(isInPlaceUpdateCompleted(pod, on)).toBe(true);
    pod.status!.containerStatuses![0].resources = { requests: { cpu: '2' } };
    expect(isInPlaceUpdateCompleted(pod, on)).toBe(false);
  });
});

describe('refreshInPlace (scenario 58, 33, 38, 39)', () => {
  it('no readiness gate → nothing', () => {
    const pod = ipPod('p', NEW_REV, { ipur: false });
    pod.spec.readinessGates = [];
    expect(refreshInPlace(pod, NOW, gates)).toEqual({ actions: [] });
  });
  it('state says not yet updated → nothing', () => {
    const pod = ipPod('p', NEW_REV, {
      ipur: false,
      annotations: {
        [ANNOTATION_INPLACE_UPDATE_STATE]: stateJson({
          lastContainerStatuses: { c1: { imageID: 'image-id-xyz' } },
        }),
      },
    });
    expect(refreshInPlace(pod, NOW, gates)).toEqual({ actions: [] });
  });
  it('gate without condition → InPlaceUpdateReady True (scenario 33)', () => {
    expect(refreshInPlace(ipPod('p', NEW_REV, { ipur: false }), NOW, gates)).toEqual({
      actions: [
        {
          type: 'PatchPodStatus',
          pod: { name: 'p', uid: 'uid-p' },
          reason: 'InPlaceUpdateReady',
          patch: {
            status: { conditions: [{ type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: T }] },
          },
        },
      ],
    });
  });
  it('condition False and update complete → True, clearing reason', () => {
    const pod = ipPod('p', NEW_REV, { ipur: false });
    pod.status!.conditions!.push({
      type: 'InPlaceUpdateReady',
      status: 'False',
      reason: 'StartInPlaceUpdate',
    });
    const [a] = refreshInPlace(pod, NOW, gates).actions;
    expect(a.type === 'PatchPodStatus' && a.patch).toEqual({
      status: {
        conditions: [{ type: 'InPlaceUpdateReady', status: 'True', reason: null, lastTransitionTime: T }],
      },
    });
  });
  it('already True → no write (scenario 32)', () => {
    expect(refreshInPlace(ipPod('p', NEW_REV), NOW, gates)).toEqual({ actions: [] });
  });

  const grace = (seconds: number, startedAgo: number, rev = NEW_REV) =>
    ipPod('p', rev, {
      ipur: false,
      annotations: {
        [ANNOTATION_INPLACE_UPDATE_GRACE]: serializeUpdateSpec(spec({ graceSeconds: seconds })),
        [ANNOTATION_INPLACE_UPDATE_STATE]: stateJson({
          updateTimestamp: new Date(NOW.getTime() - startedAgo).toISOString().replace('.000Z', 'Z'),
          updateImages: true,
        }),
      },
    });

  it('grace 30 s started 10 s ago → requeue after 20 s, nothing else', () => {
    expect(refreshInPlace(grace(30, 10_000), NOW, gates)).toEqual({ actions: [], requeueAfterSeconds: 20 });
  });
  it('scenario 38: remaining time is rounded up to whole seconds', () => {
    expect(refreshInPlace(grace(3630, 3_609_500), NOW, gates).requeueAfterSeconds).toBe(21);
  });
  it('grace 5 s started 10 s ago → image applied, grace removed, batch recorded (scenario 39)', () => {
    expect(refreshInPlace(grace(5, 10_000), NOW, gates)).toEqual({
      actions: [
        {
          type: 'PatchPod',
          pod: { name: 'p', uid: 'uid-p' },
          reason: 'InPlaceUpdateGraceExpired',
          patch: {
            metadata: {
              annotations: {
                [ANNOTATION_INPLACE_UPDATE_STATE]:
                  '{"revision":"new_rev","updateTimestamp":"2024-05-01T07:59:50Z","lastContainerStatuses":{"c1":{"imageID":"image-id-xyz"}},"updateImages":true,"containerBatchesRecord":[{"timestamp":"2024-05-01T08:00:00Z","containers":["c1"]}]}',
                [ANNOTATION_INPLACE_UPDATE_GRACE]: null,
              },
            },
            spec: { containers: [{ name: 'c1', image: 'foo2' }] },
          },
        },
      ],
    });
  });
  it('grace spec for another revision is dropped', () => {
    const [a] = refreshInPlace(grace(30, 0, 'other_rev'), NOW, gates).actions;
    expect(a.type === 'PatchPod' && a.patch).toEqual({
      metadata: { annotations: { [ANNOTATION_INPLACE_UPDATE_GRACE]: null } },
    });
  });
  it('grace errors: bad spec JSON, missing state; bad state JSON is ignored', () => {
    const bad = ipPod('p', NEW_REV, { annotations: { [ANNOTATION_INPLACE_UPDATE_GRACE]: '[1]' } });
    expect(refreshInPlace(bad, NOW, gates).error).toMatch(/in-place update spec is not an object/);
    const noState = ipPod('p', NEW_REV, { annotations: { [ANNOTATION_INPLACE_UPDATE_GRACE]: '{}' } });
    expect(refreshInPlace(noState, NOW, gates).error).toBe(
      'pod has apps.kruise.io/inplace-update-grace but apps.kruise.io/inplace-update-state not found',
    );
    const badState = ipPod('p', NEW_REV, {
      annotations: { [ANNOTATION_INPLACE_UPDATE_GRACE]: '{}', [ANNOTATION_INPLACE_UPDATE_STATE]: 'x' },
    });
    expect(refreshInPlace(badState, NOW, gates)).toEqual({ actions: [] });
    const badOnlyState = ipPod('p', NEW_REV, { annotations: { [ANNOTATION_INPLACE_UPDATE_STATE]: 'x' } });
    expect(refreshInPlace(badOnlyState, NOW, gates).error).toMatch(/invalid in-place update state JSON/);
  });

  const nextBatchPod = (c1ImageID: string, c1Ready = true) => {
    const pod = ipPod('p', NEW_REV, {
      ipur: false,
      annotations: {
        [ANNOTATION_INPLACE_UPDATE_STATE]: stateJson({
          lastContainerStatuses: { c1: { imageID: 'c1-old' } },
          updateImages: true,
          nextContainerImages: { c2: 'c2-new' },
          preCheckBeforeNext: { containersRequiredReady: ['c1'] },
          containerBatchesRecord: [{ timestamp: T, containers: ['c1'] }],
        }),
      },
    });
    pod.spec.containers.push({ name: 'c2', image: 'c2-old' });
    pod.status!.containerStatuses = [
      { name: 'c1', image: 'foo2', imageID: c1ImageID, ready: c1Ready, restartCount: 1 },
      { name: 'c2', image: 'c2-old', imageID: 'c2-old-id', ready: true, restartCount: 0 },
    ];
    return pod;
  };
  it('next batch pending but c1 imageID unchanged → nothing', () => {
    expect(refreshInPlace(nextBatchPod('c1-old'), NOW, gates)).toEqual({ actions: [] });
  });
  it('next batch pending, c1 updated but not ready → nothing', () => {
    expect(refreshInPlace(nextBatchPod('c1-new', false), NOW, gates)).toEqual({ actions: [] });
  });
  it('c1 imageID changed → c2 image applied, lastContainerStatuses gains c2, next/precheck cleared', () => {
    const later = new Date(NOW.getTime() + 60_000);
    const [a] = refreshInPlace(nextBatchPod('c1-new'), later, gates).actions;
    expect(a).toEqual({
      type: 'PatchPod',
      pod: { name: 'p', uid: 'uid-p' },
      reason: 'InPlaceUpdateNextBatch',
      patch: {
        metadata: {
          annotations: {
            [ANNOTATION_INPLACE_UPDATE_STATE]:
              '{"revision":"new_rev","updateTimestamp":"2024-05-01T08:00:00Z","lastContainerStatuses":{"c1":{"imageID":"c1-old"},"c2":{"imageID":"c2-old-id"}},"updateImages":true,"containerBatchesRecord":[{"timestamp":"2024-05-01T08:00:00Z","containers":["c1"]},{"timestamp":"2024-05-01T08:01:00Z","containers":["c2"]}]}',
          },
        },
        spec: { containers: [{ name: 'c2', image: 'c2-new' }] },
      },
    });
  });
});

describe('state documents round-trip', () => {
  it('parse(serialize(x)) keeps every field; legacy empty precheck and spec base64 patch', () => {
    const s: InPlaceUpdateState = {
      revision: 'r',
      updateTimestamp: T,
      lastContainerStatuses: { b: { imageID: 'i' }, a: {} },
      updateEnvFromMetadata: true,
      updateResources: true,
      updateImages: true,
      nextContainerImages: { a: 'x' },
      nextContainerRefMetadata: { a: { labels: { k: 'v' }, annotations: { q: 'w' } } },
      nextContainerResources: { a: { limits: { cpu: '1' }, requests: { memory: '1Gi' } } },
      preCheckBeforeNext: { containersRequiredReady: ['b'] },
      containerBatchesRecord: [{ timestamp: T, containers: ['b'] }],
    };
    const text = serializeInPlaceUpdateState(s);
    expect(text).toContain('"lastContainerStatuses":{"a":{},"b":{"imageID":"i"}}');
    expect(parseInPlaceUpdateState(text)).toEqual(s);
    expect(serializeInPlaceUpdateState({ revision: 'r', updateTimestamp: T, preCheckBeforeNext: {} })).toBe(
      '{"revision":"r","updateTimestamp":"2024-05-01T08:00:00Z","lastContainerStatuses":null,"preCheckBeforeNext":{}}',
    );
    const u = spec({
      metaDataPatch: '{"metadata":{"labels":{"a":"b"}}}',
      containerRefMetadata: { c1: { labels: { k: 'v' } } },
      containerResources: { c1: { requests: { cpu: '1' } } },
      updateEnvFromMetadata: true,
      graceSeconds: 3,
    });
    const ut = serializeUpdateSpec(u);
    expect(ut).toBe(
      '{"revision":"new_rev","containerImages":{"c1":"foo2"},"containerRefMetadata":{"c1":{"creationTimestamp":null,"labels":{"k":"v"}}},"containerResources":{"c1":{"requests":{"cpu":"1"}}},"metaDataPatch":"eyJtZXRhZGF0YSI6eyJsYWJlbHMiOnsiYSI6ImIifX19","updateEnvFromMetadata":true,"graceSeconds":3}',
    );
    expect(parseUpdateSpec(ut)).toEqual(u);
    expect(() => parseInPlaceUpdateState('null')).toThrow(/not an object/);
  });
});
