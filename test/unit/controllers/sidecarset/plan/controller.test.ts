/**
 * The SidecarSet controller's planner (lib/controllers/sidecarset/plan/plan.ts): status numbers and the pods each
 * round updates in place under maxUnavailable / partition / paused / NotUpdate, the pod it writes, and the
 * SidecarSetUpgradable condition — as OpenKruise's `sidecarset_processor.go` and `sidecarset_strategy.go`.
 */
import type { Pod } from '../../../../../lib/api/types.js';
import { mutateSidecarSet } from '../../../../../lib/controllers/sidecarset/api/mutation.js';
import type { SidecarSet, SidecarSetSpec } from '../../../../../lib/controllers/sidecarset/api/types.js';
import { injectSidecars } from '../../../../../lib/controllers/sidecarset/plan/inject.js';
import { planSidecarSet } from '../../../../../lib/controllers/sidecarset/plan/index.js';

const T0 = new Date('2026-12-02T10:00:00Z');
const NOW = new Date('2026-12-02T10:20:30.456Z');
const TS = '2026-12-02T10:20:30Z';

function stored(spec: SidecarSetSpec, generation = 1): SidecarSet {
  const s = mutateSidecarSet({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'log' },
    spec,
  });
  return { ...s, metadata: { ...s.metadata, generation } };
}

const SPEC = (image: string, strategy: SidecarSetSpec['updateStrategy'] = {}): SidecarSetSpec => ({
  selector: { matchLabels: { app: 'web' } },
  containers: [{ name: 'logger', image }],
  updateStrategy: strategy,
});

const imageId = (image: string) => `sim.local/${image}@sha256:${image.length}`;

/** A pod injected by SidecarSet `at`, as kwok runs it: Running, each container's status, Ready unless told. */
function runningPod(name: string, at: SidecarSet, ready = true): Pod {
  const created = injectSidecars({
    pod: {
      metadata: { name, namespace: 'ns1', labels: { app: 'web' }, creationTimestamp: '2026-12-02T09:00:00Z' },
      spec: { containers: [{ name: 'main', image: 'nginx:1.25' }], nodeName: 'n1' },
    },
    namespaceLabels: {},
    sidecarSets: [at],
    now: T0,
  }).pod;
  return withStatus(created, ready);
}

function withStatus(pod: Pod, ready: boolean, images?: Record<string, string>): Pod {
  return {
    ...pod,
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2026-12-02T09:01:00Z' },
      ],
      containerStatuses: pod.spec.containers.map((c) => {
        const image = images?.[c.name] ?? c.image ?? '';
        return { name: c.name, image, imageID: imageId(image), ready, restartCount: 0 };
      }),
    },
  };
}

const V1 = stored(SPEC('fluentd:1'));
const hash = (s: SidecarSet) => s.metadata.annotations!['kruise.io/sidecarset-hash'];
const names = (pods: Pod[]) => pods.map((p) => p.metadata.name);

describe('SidecarSet status (calculateStatus)', () => {
  it('counts matched, updated, ready and updated-ready pods; leaves out pods not injected or inactive', () => {
    const pods = [
      runningPod('a', V1),
      runningPod('b', V1, false),
      { ...runningPod('c', V1), status: { ...runningPod('c', V1).status, phase: 'Succeeded' as const } },
      withStatus(
        {
          metadata: { name: 'plain', namespace: 'ns1', labels: { app: 'web' } },
          spec: { containers: [{ name: 'main', image: 'nginx' }] },
        },
        true,
      ),
    ];
    const plan = planSidecarSet(V1, pods, NOW);
    expect(names(plan.matched)).toEqual(['a', 'b']);
    expect(plan.status).toEqual({
      observedGeneration: 1,
      matchedPods: 2,
      updatedPods: 2,
      readyPods: 1,
      updatedReadyPods: 1,
    });
    expect(plan.writeStatus).toBe(true);
    expect(plan.idle).toBe('AllUpdated');
    expect(plan.writes).toEqual([]);
    expect(planSidecarSet({ ...V1, status: plan.status }, pods, NOW).writeStatus).toBe(false);
  });
});

describe('SidecarSet in-place sidecar upgrade (GetNextUpgradePods, calculateUpgradeCount)', () => {
  const pods = [runningPod('a', V1), runningPod('b', V1), runningPod('c', V1, false), runningPod('d', V1)];

  it('maxUnavailable 1: the not-ready pod first (it costs no availability), then one ready pod', () => {
    const v2 = stored(SPEC('fluentd:2'), 2);
    const plan = planSidecarSet(v2, pods, NOW);
    expect(plan.status).toEqual({
      observedGeneration: 2,
      matchedPods: 4,
      updatedPods: 0,
      readyPods: 3,
    });
    expect(plan.writes.map((w) => `${w.type} ${w.pod.metadata.name}`)).toEqual([
      'UpdatePod c',
      'SetCondition c',
      'UpdatePod a',
      'SetCondition a',
    ]);
    const update = plan.writes[2];
    if (update.type !== 'UpdatePod') throw new Error('expected an update');
    expect(update.next.spec.containers.map((c) => `${c.name}=${c.image}`)).toEqual([
      'logger=fluentd:2',
      'main=nginx:1.25',
    ]);
    const annotations = update.next.metadata.annotations!;
    expect(JSON.parse(annotations['kruise.io/sidecarset-hash'])).toEqual({
      log: { updateTimestamp: TS, hash: hash(v2), sidecarSetName: 'log', sidecarList: ['logger'] },
    });
    expect(annotations['kruise.io/sidecarset-inplace-update-state']).toBe(
      `{"log":{"revision":"${hash(v2)}","updateTimestamp":"${TS}","lastContainerStatuses":{"logger":{"imageID":"${imageId('fluentd:1')}"}}}}`,
    );
    // the hash without image is the injection's: only the image changed
    expect(annotations['kruise.io/sidecarset-hash-without-image']).toBe(
      pods[0].metadata.annotations!['kruise.io/sidecarset-hash-without-image'],
    );
    const condition = plan.writes[3];
    expect(condition).toEqual({
      type: 'SetCondition',
      pod: pods[0],
      condition: {
        type: 'SidecarSetUpgradable',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: TS,
        reason: 'AllSidecarsetUpgradable',
        message: '{"log":true}',
      },
    });
  });

  it('an updated pod whose sidecar has not restarted yet is unavailable: no further pod this round', () => {
    const v2 = stored(SPEC('fluentd:2'), 2);
    const first = planSidecarSet(v2, pods, NOW);
    const updated = new Map(
      first.writes.flatMap((w) => (w.type === 'UpdatePod' ? [[w.pod.metadata.name, w.next] as const] : [])),
    );
    // the kubelet has not applied the new image yet: status still shows fluentd:1 and its imageID
    const next = pods.map((p) => {
      const u = updated.get(p.metadata.name);
      return u ? withStatus(u, p.metadata.name !== 'c', { logger: 'fluentd:1' }) : p;
    });
    const plan = planSidecarSet({ ...v2, status: first.status }, next, NOW);
    expect(plan.status).toEqual({
      observedGeneration: 2,
      matchedPods: 4,
      updatedPods: 2,
      readyPods: 2,
    });
    expect(plan.writes).toEqual([]);
    expect(plan.idle).toBe('NothingToUpdate');
    // c, updated and still not ready, counts against maxUnavailable even with a restarted sidecar
    const restarted = next.map((p) =>
      updated.has(p.metadata.name) ? withStatus(p, p.metadata.name !== 'c') : p,
    );
    const stillC = planSidecarSet(v2, restarted, NOW);
    expect(stillC.status).toMatchObject({ updatedPods: 2, readyPods: 3, updatedReadyPods: 1 });
    expect(stillC.writes).toEqual([]);
    // once c is ready too, the next ready pod goes
    const allReady = next.map((p) => (updated.has(p.metadata.name) ? withStatus(p, true) : p));
    const after = planSidecarSet(v2, allReady, NOW);
    expect(after.status).toMatchObject({ updatedPods: 2, readyPods: 4, updatedReadyPods: 2 });
    expect(after.writes.filter((w) => w.type === 'UpdatePod').map((w) => w.pod.metadata.name)).toEqual(['b']);
  });

  it('maxUnavailable 2 takes two ready pods; partition 3 holds back the last three candidates', () => {
    expect(
      planSidecarSet(stored(SPEC('fluentd:2', { maxUnavailable: 2 })), pods, NOW)
        .writes.filter((w) => w.type === 'UpdatePod')
        .map((w) => w.pod.metadata.name),
    ).toEqual(['c', 'a', 'b']);
    expect(
      planSidecarSet(stored(SPEC('fluentd:2', { partition: 3, maxUnavailable: 4 })), pods, NOW)
        .writes.filter((w) => w.type === 'UpdatePod')
        .map((w) => w.pod.metadata.name),
    ).toEqual(['c']);
    expect(
      planSidecarSet(stored(SPEC('fluentd:2', { partition: '50%', maxUnavailable: '100%' })), pods, NOW)
        .writes.filter((w) => w.type === 'UpdatePod')
        .map((w) => w.pod.metadata.name),
    ).toEqual(['c', 'a']);
  });

  it('a strategy selector limits the candidates to the pods it matches', () => {
    const labelled = pods.map((p) =>
      p.metadata.name === 'd'
        ? { ...p, metadata: { ...p.metadata, labels: { app: 'web', canary: 'y' } } }
        : p,
    );
    const plan = planSidecarSet(
      stored(SPEC('fluentd:2', { selector: { matchLabels: { canary: 'y' } } })),
      labelled,
      NOW,
    );
    expect(plan.writes.filter((w) => w.type === 'UpdatePod').map((w) => w.pod.metadata.name)).toEqual(['d']);
  });

  it('priorityStrategy puts the heavier pods first; scatterStrategy spreads a label over the round', () => {
    const labelled = pods.map((p, i) => ({
      ...p,
      metadata: {
        ...p.metadata,
        labels: { app: 'web', zone: i % 2 === 0 ? 'z1' : 'z2', ...(i === 3 ? { hot: 'y' } : {}) },
      },
    }));
    const weighted = planSidecarSet(
      stored(
        SPEC('fluentd:2', {
          maxUnavailable: 4,
          priorityStrategy: {
            weightPriority: [{ weight: 50, matchSelector: { matchLabels: { hot: 'y' } } }],
          },
        }),
      ),
      labelled,
      NOW,
    );
    expect(weighted.writes.filter((w) => w.type === 'UpdatePod').map((w) => w.pod.metadata.name)).toEqual([
      'd',
      'c',
      'a',
      'b',
    ]);
    const scattered = planSidecarSet(
      stored(SPEC('fluentd:2', { maxUnavailable: 4, scatterStrategy: [{ key: 'zone', value: '*' }] })),
      labelled,
      NOW,
    );
    const order = scattered.writes.filter((w) => w.type === 'UpdatePod').map((w) => w.pod.metadata.name);
    // `*` becomes zone=z1 and zone=z2 (in pod order), each spread by lib/podset's scatter sorter (CloneSet's)
    expect(order).toEqual(['b', 'c', 'a', 'd']);
  });

  it('paused and NotUpdate write the status only', () => {
    const paused = planSidecarSet(stored(SPEC('fluentd:2', { paused: true })), pods, NOW);
    expect(paused).toMatchObject({ idle: 'Paused', writes: [], writeStatus: true });
    const notUpdate = planSidecarSet(stored(SPEC('fluentd:2', { type: 'NotUpdate' })), pods, NOW);
    expect(notUpdate).toMatchObject({ idle: 'NotUpdate', writes: [], writeStatus: true });
    expect(notUpdate.status.matchedPods).toBe(4);
  });

  it('a change beyond images is not upgradable: a False condition on each pod, no update', () => {
    const env = stored({
      ...SPEC('fluentd:1'),
      containers: [{ name: 'logger', image: 'fluentd:1', env: [{ name: 'X', value: '1' }] }],
    });
    const plan = planSidecarSet(env, pods, NOW);
    expect(plan.notUpgradable).toBe(4);
    expect(plan.idle).toBe('NothingToUpdate');
    expect(plan.writes.map((w) => `${w.type} ${w.pod.metadata.name}`)).toEqual([
      'SetCondition a',
      'SetCondition b',
      'SetCondition c',
      'SetCondition d',
    ]);
    expect(plan.writes[0]).toMatchObject({
      condition: { status: 'False', reason: 'UpdateImmutableField', message: '{"log":false}' },
    });
  });
});
