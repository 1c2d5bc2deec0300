/**
 * The SidecarSet controller's hot upgrade (lib/controllers/sidecarset/plan: upgradePod.ts, hotUpgradeTarget.ts,
 * hotUpgradeFlip.ts, podState.ts `isSidecarPodReady`): which container of a `-1`/`-2` pair takes the new image, the
 * working-container and version annotations, the reset of the older container to the empty image once the new one
 * runs and is ready, and how a pod mid hot upgrade counts in status and against maxUnavailable — as OpenKruise's
 * `updatePodSidecarContainer`, `findContainerToHotUpgrade`, `flipPodSidecarContainerDo` and `IsPodReady`, step by
 * step as its e2e spec "sidecarSet upgrade hot sidecar container image" sees it.
 */
import type { Pod } from '../../../../../lib/api/types.js';
import { mutateSidecarSet } from '../../../../../lib/controllers/sidecarset/api/mutation.js';
import type { SidecarSet, SidecarSetSpec } from '../../../../../lib/controllers/sidecarset/api/types.js';
import { injectSidecars } from '../../../../../lib/controllers/sidecarset/plan/inject.js';
import { parseWorkingContainers } from '../../../../../lib/controllers/sidecarset/plan/hotUpgrade.js';
import { hotUpgradeTarget } from '../../../../../lib/controllers/sidecarset/plan/hotUpgradeTarget.js';
import { planSidecarSet, type SidecarSetPlan } from '../../../../../lib/controllers/sidecarset/plan/index.js';

const T0 = new Date('2026-12-02T10:00:00Z');
const NOW = new Date('2026-12-02T10:20:30.456Z');
const TS = '2026-12-02T10:20:30Z';
const EMPTY = 'busybox:empty';

function stored(
  image: string,
  resourceVersion: string,
  generation: number,
  strategy: SidecarSetSpec['updateStrategy'] = {},
): SidecarSet {
  const s = mutateSidecarSet({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'log' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      containers: [
        {
          name: 'proxy',
          image,
          upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: EMPTY },
        },
      ],
      updateStrategy: strategy,
    },
  });
  return { ...s, metadata: { ...s.metadata, generation, resourceVersion } };
}

const imageId = (image: string) => `sim.local/${image}@sha256:${image.length}`;

/** The pod as the kubelet reports it: Running, Ready unless told, each container on `images[name]` or its spec image. */
function withStatus(pod: Pod, ready = true, images: Record<string, string> = {}): Pod {
  return {
    ...pod,
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2026-12-02T09:01:00Z' },
      ],
      containerStatuses: pod.spec.containers.map((c) => {
        const image = images[c.name] ?? c.image ?? '';
        return { name: c.name, image, imageID: imageId(image), ready, restartCount: 0 };
      }),
    },
  };
}

function injected(name: string, at: SidecarSet): Pod {
  const pod = injectSidecars({
    pod: {
      metadata: { name, namespace: 'ns1', labels: { app: 'web' }, creationTimestamp: '2026-12-02T09:00:00Z' },
      spec: { containers: [{ name: 'main', image: 'nginx:1.25' }], nodeName: 'n1' },
    },
    namespaceLabels: {},
    sidecarSets: [at],
    now: T0,
  }).pod;
  return withStatus(pod);
}

const images = (pod: Pod) => pod.spec.containers.map((c) => `${c.name}=${c.image}`);
const hotAnnotations = (pod: Pod) =>
  Object.fromEntries(
    Object.entries(pod.metadata.annotations ?? {}).filter(
      ([k]) =>
        k.startsWith('version') ||
        k === 'kruise.io/sidecarset-working-hotupgrade-container' ||
        k === 'kruise.io/sidecarset-inplace-update-state',
    ),
  );
/** The one pod write of `type` in the plan, or a failure naming what was there. */
function only(plan: SidecarSetPlan, type: 'UpdatePod' | 'ResetHotUpgrade'): Pod {
  const found = plan.writes.filter((w) => w.type === type);
  if (found.length !== 1 || found[0].type === 'SetCondition')
    throw new Error(`expected one ${type}: ${plan.writes.map((w) => w.type).join(',')}`);
  return found[0].next;
}

const V1 = stored('envoy:1', '100', 1);
const V2 = stored('envoy:2', '200', 2);
const hash = (s: SidecarSet) => s.metadata.annotations!['kruise.io/sidecarset-hash'];

describe('SidecarSet hot upgrade, one pod through two image changes', () => {
  const pod0 = injected('a', V1);

  it('injection: -1 works on the image, -2 idles on the empty image; the pod counts as updated and ready', () => {
    expect(images(pod0)).toEqual(['proxy-1=envoy:1', 'proxy-2=busybox:empty', 'main=nginx:1.25']);
    expect(hotAnnotations(pod0)).toEqual({
      'kruise.io/sidecarset-working-hotupgrade-container': '{"proxy":"proxy-1"}',
      'version.sidecarset.kruise.io/proxy-1': '1',
      'versionalt.sidecarset.kruise.io/proxy-1': '0',
      'version.sidecarset.kruise.io/proxy-2': '0',
      'versionalt.sidecarset.kruise.io/proxy-2': '1',
    });
    const plan = planSidecarSet(V1, [pod0], NOW);
    expect(plan.status).toEqual({
      observedGeneration: 1,
      matchedPods: 1,
      updatedPods: 1,
      readyPods: 1,
      updatedReadyPods: 1,
    });
    expect(plan.writes).toEqual([]);
    expect(plan.idle).toBe('AllUpdated');
  });

  // step 1: the new image goes to the idle container -2, which becomes the working one
  const plan1 = planSidecarSet(V2, [pod0], NOW);
  const pod1 = only(plan1, 'UpdatePod');

  it('a new image: the empty container takes it and becomes the working one; versions record the resourceVersion', () => {
    expect(plan1.writes.map((w) => `${w.type} ${w.pod.metadata.name}`)).toEqual([
      'UpdatePod a',
      'SetCondition a',
    ]);
    expect(images(pod1)).toEqual(['proxy-1=envoy:1', 'proxy-2=envoy:2', 'main=nginx:1.25']);
    expect(hotAnnotations(pod1)).toEqual({
      'kruise.io/sidecarset-working-hotupgrade-container': '{"proxy":"proxy-2"}',
      'version.sidecarset.kruise.io/proxy-1': '1',
      'versionalt.sidecarset.kruise.io/proxy-1': '200',
      'version.sidecarset.kruise.io/proxy-2': '200',
      'versionalt.sidecarset.kruise.io/proxy-2': '1',
      'kruise.io/sidecarset-inplace-update-state': `{"log":{"revision":"${hash(V2)}","updateTimestamp":"${TS}","lastContainerStatuses":{"proxy-2":{"imageID":"${imageId(EMPTY)}"}}}}`,
    });
    expect(JSON.parse(pod1.metadata.annotations!['kruise.io/sidecarset-hash'])).toEqual({
      log: {
        updateTimestamp: TS,
        hash: hash(V2),
        sidecarSetName: 'log',
        sidecarList: ['proxy'],
      },
    });
    expect(pod1.spec.containers.find((c) => c.name === 'proxy-2')?.env).toEqual(
      pod0.spec.containers.find((c) => c.name === 'proxy-2')?.env,
    );
  });

  it('until the kubelet runs the new image: updated, not ready, nothing to reset, nothing more to update', () => {
    const waiting = withStatus(pod1, true, { 'proxy-2': EMPTY });
    const plan = planSidecarSet({ ...V2, status: plan1.status }, [waiting], NOW);
    expect(plan.status).toEqual({ observedGeneration: 2, matchedPods: 1, updatedPods: 1, readyPods: 0 });
    expect(plan.writes).toEqual([]);
    expect(plan.idle).toBe('AllUpdated');
  });

  // step 2: the kubelet restarted -2 on envoy:2; -1 (the older) goes back to the empty image
  const running2 = withStatus(pod1);
  const plan2 = planSidecarSet(V2, [running2], NOW);
  const pod2 = only(plan2, 'ResetHotUpgrade');

  it('the new container runs and the pod is ready: the older container is reset to the empty image, alone', () => {
    // not ready yet in status: the idle container -1 is not on the empty image
    expect(plan2.status).toEqual({ observedGeneration: 2, matchedPods: 1, updatedPods: 1, readyPods: 0 });
    expect(plan2.writes.map((w) => `${w.type} ${w.pod.metadata.name}`)).toEqual(['ResetHotUpgrade a']);
    expect(images(pod2)).toEqual(['proxy-1=busybox:empty', 'proxy-2=envoy:2', 'main=nginx:1.25']);
    expect(hotAnnotations(pod2)).toEqual({
      'kruise.io/sidecarset-working-hotupgrade-container': '{"proxy":"proxy-2"}',
      'version.sidecarset.kruise.io/proxy-1': '0',
      'versionalt.sidecarset.kruise.io/proxy-1': '200',
      'version.sidecarset.kruise.io/proxy-2': '200',
      'versionalt.sidecarset.kruise.io/proxy-2': '0',
      'kruise.io/sidecarset-inplace-update-state': `{"log":{"revision":"${hash(V2)}","updateTimestamp":"${TS}","lastContainerStatuses":{"proxy-1":{"imageID":"${imageId('envoy:1')}"},"proxy-2":{"imageID":"${imageId(EMPTY)}"}}}}`,
    });
    // the reset changes neither the hash annotations nor the rest of the pod
    expect(pod2.metadata.annotations!['kruise.io/sidecarset-hash']).toBe(
      pod1.metadata.annotations!['kruise.io/sidecarset-hash'],
    );
    expect(pod2.metadata.labels).toEqual(pod1.metadata.labels);
  });

  it('after the reset the kubelet runs the empty image: updated and ready', () => {
    const waiting = planSidecarSet(V2, [withStatus(pod2, true, { 'proxy-1': 'envoy:1' })], NOW);
    expect(waiting.status).toEqual({ observedGeneration: 2, matchedPods: 1, updatedPods: 1, readyPods: 0 });
    expect(waiting.writes).toEqual([]);
    const done = planSidecarSet(V2, [withStatus(pod2)], NOW);
    expect(done.status).toEqual({
      observedGeneration: 2,
      matchedPods: 1,
      updatedPods: 1,
      readyPods: 1,
      updatedReadyPods: 1,
    });
    expect(done.writes).toEqual([]);
    expect(done.idle).toBe('AllUpdated');
  });

  it('a second image change swaps back: -1 takes it, its alt version is the one -2 had', () => {
    const v3 = stored('envoy:1', '300', 3);
    const plan = planSidecarSet(v3, [withStatus(pod2)], NOW);
    const pod3 = only(plan, 'UpdatePod');
    expect(images(pod3)).toEqual(['proxy-1=envoy:1', 'proxy-2=envoy:2', 'main=nginx:1.25']);
    expect(hotAnnotations(pod3)).toMatchObject({
      'kruise.io/sidecarset-working-hotupgrade-container': '{"proxy":"proxy-1"}',
      'version.sidecarset.kruise.io/proxy-1': '300',
      'versionalt.sidecarset.kruise.io/proxy-1': '200',
      'version.sidecarset.kruise.io/proxy-2': '200',
      'versionalt.sidecarset.kruise.io/proxy-2': '300',
    });
    // the SidecarSet's in-place state entry is kept (revision and time of its first write), -1's imageID replaced
    expect(JSON.parse(pod3.metadata.annotations!['kruise.io/sidecarset-inplace-update-state'])).toEqual({
      log: {
        revision: hash(V2),
        updateTimestamp: TS,
        lastContainerStatuses: {
          'proxy-1': { imageID: imageId(EMPTY) },
          'proxy-2': { imageID: imageId(EMPTY) },
        },
      },
    });
    const reset = only(planSidecarSet(v3, [withStatus(pod3)], NOW), 'ResetHotUpgrade');
    expect(images(reset)).toEqual(['proxy-1=envoy:1', 'proxy-2=busybox:empty', 'main=nginx:1.25']);
    expect(hotAnnotations(reset)).toMatchObject({
      'version.sidecarset.kruise.io/proxy-1': '300',
      'versionalt.sidecarset.kruise.io/proxy-1': '0',
      'version.sidecarset.kruise.io/proxy-2': '0',
      'versionalt.sidecarset.kruise.io/proxy-2': '300',
    });
  });

  it('a change beyond the image is not upgradable: the pod keeps its pair, counted not updated but ready', () => {
    const envChanged = mutateSidecarSet({
      ...V1,
      metadata: { name: 'log' },
      spec: {
        ...V1.spec,
        containers: [{ ...V1.spec.containers![0], env: [{ name: 'PROXY', value: '127.0.0.1' }] }],
      },
    });
    const plan = planSidecarSet(
      { ...envChanged, metadata: { ...envChanged.metadata, generation: 4 } },
      [pod0],
      NOW,
    );
    expect(plan.status).toEqual({ observedGeneration: 4, matchedPods: 1, updatedPods: 0, readyPods: 1 });
    expect(plan.writes.map((w) => w.type)).toEqual(['SetCondition']);
    expect(plan.notUpgradable).toBe(1);
  });
});

describe('which container of the pair takes the image (findContainerToHotUpgrade)', () => {
  const sidecar = V2.spec.containers![0];
  const both = (pod: Pod): Pod => ({
    ...pod,
    spec: {
      ...pod.spec,
      containers: pod.spec.containers.map((c) => (c.name === 'proxy-2' ? { ...c, image: 'envoy:0' } : c)),
    },
  });
  const pod = both(injected('a', V1));

  it('neither on the empty image, both ready: the one the annotation does not name', () => {
    expect(hotUpgradeTarget(V2, sidecar, withStatus(pod))).toEqual({ upgrade: 'proxy-2', other: 'proxy-1' });
  });

  it('one not ready (or its image not yet run): that one, whatever the annotation says', () => {
    const notReady = withStatus(pod);
    notReady.status!.containerStatuses = notReady.status!.containerStatuses!.map((s) =>
      s.name === 'proxy-1' ? { ...s, ready: false } : s,
    );
    expect(hotUpgradeTarget(V2, sidecar, notReady)).toEqual({ upgrade: 'proxy-1', other: 'proxy-2' });
  });
});

describe('hot upgrade under the strategy', () => {
  const pods = ['a', 'b', 'c'].map((n) => injected(n, V1));

  it('a pod mid hot upgrade (older container not reset) counts against maxUnavailable; resets ignore it', () => {
    const v2 = stored('envoy:2', '200', 2, { maxUnavailable: 2 });
    const first = planSidecarSet(v2, pods, NOW);
    expect(first.writes.map((w) => `${w.type} ${w.pod.metadata.name}`)).toEqual([
      'UpdatePod a',
      'SetCondition a',
      'UpdatePod b',
      'SetCondition b',
    ]);
    const next = new Map(
      first.writes.flatMap((w) => (w.type === 'UpdatePod' ? [[w.pod.metadata.name, w.next]] : [])),
    );
    // both restarted: both reset in one round, nothing else that round
    const restarted = pods.map((p) => withStatus(next.get(p.metadata.name) ?? p));
    const second = planSidecarSet(v2, restarted, NOW);
    expect(second.writes.map((w) => `${w.type} ${w.pod.metadata.name}`)).toEqual([
      'ResetHotUpgrade a',
      'ResetHotUpgrade b',
    ]);
    expect(second.status).toEqual({ observedGeneration: 2, matchedPods: 3, updatedPods: 2, readyPods: 1 });
    // a reset on a, b still waiting for its new container: b is unavailable, so with maxUnavailable 1 c waits
    const v2one = stored('envoy:2', '200', 2, { maxUnavailable: 1 });
    const resetA = only(planSidecarSet(v2one, [restarted[0]], NOW), 'ResetHotUpgrade');
    const mixed = [withStatus(resetA), withStatus(next.get('b')!, true, { 'proxy-2': EMPTY }), pods[2]];
    const third = planSidecarSet(v2one, mixed, NOW);
    expect(third.writes).toEqual([]);
    expect(third.status).toEqual({
      observedGeneration: 2,
      matchedPods: 3,
      updatedPods: 2,
      readyPods: 2,
      updatedReadyPods: 1,
    });
  });

  it('partition 2 of 3: one pod takes the image; paused resets nothing', () => {
    const v2 = stored('envoy:2', '200', 2, { partition: 2, maxUnavailable: 3 });
    expect(planSidecarSet(v2, pods, NOW).writes.map((w) => `${w.type} ${w.pod.metadata.name}`)).toEqual([
      'UpdatePod a',
      'SetCondition a',
    ]);
    const a = withStatus(only(planSidecarSet(v2, pods, NOW), 'UpdatePod'));
    const paused = stored('envoy:2', '200', 2, { paused: true });
    expect(planSidecarSet(paused, [a, pods[1], pods[2]], NOW)).toMatchObject({ writes: [], idle: 'Paused' });
  });

  it('a pod not Ready as a whole but with every non-idle container ready is reset (isHotUpgradingReady)', () => {
    const updated = only(planSidecarSet(V2, [pods[0]], NOW), 'UpdatePod');
    const notReady = withStatus(updated);
    notReady.status!.conditions = [{ type: 'Ready', status: 'False' }];
    notReady.status!.containerStatuses = notReady.status!.containerStatuses!.map((s) =>
      s.name === 'proxy-1' ? { ...s, ready: false } : s,
    );
    expect(planSidecarSet(V2, [notReady], NOW).writes.map((w) => w.type)).toEqual(['ResetHotUpgrade']);
    notReady.status!.containerStatuses = notReady.status!.containerStatuses.map((s) =>
      s.name === 'main' ? { ...s, ready: false } : s,
    );
    expect(planSidecarSet(V2, [notReady], NOW).writes).toEqual([]);
  });
});

describe('two hot-upgrade sidecars in one SidecarSet', () => {
  const two = (proxy: string, agent: string, resourceVersion: string, generation: number): SidecarSet => {
    const hot = { upgradeType: 'HotUpgrade' as const, hotUpgradeEmptyImage: EMPTY };
    const s = mutateSidecarSet({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: 'log' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        containers: [
          { name: 'proxy', image: proxy, upgradeStrategy: hot },
          { name: 'agent', image: agent, upgradeStrategy: hot },
        ],
      },
    });
    return { ...s, metadata: { ...s.metadata, generation, resourceVersion } };
  };

  it('only the changed sidecar swaps; the working-container annotation keeps both, keys sorted', () => {
    const pod = injected('a', two('envoy:1', 'agent:1', '100', 1));
    expect(pod.metadata.annotations?.['kruise.io/sidecarset-working-hotupgrade-container']).toBe(
      '{"agent":"agent-1","proxy":"proxy-1"}',
    );
    const v2 = two('envoy:1', 'agent:2', '200', 2);
    const next = only(planSidecarSet(v2, [pod], NOW), 'UpdatePod');
    expect(images(next)).toEqual([
      'proxy-1=envoy:1',
      'proxy-2=busybox:empty',
      'agent-1=agent:1',
      'agent-2=agent:2',
      'main=nginx:1.25',
    ]);
    expect(hotAnnotations(next)).toMatchObject({
      'kruise.io/sidecarset-working-hotupgrade-container': '{"agent":"agent-2","proxy":"proxy-1"}',
      'version.sidecarset.kruise.io/agent-2': '200',
      'versionalt.sidecarset.kruise.io/agent-1': '200',
      'version.sidecarset.kruise.io/proxy-1': '1',
      'versionalt.sidecarset.kruise.io/proxy-1': '0',
    });
    const reset = only(planSidecarSet(v2, [withStatus(next)], NOW), 'ResetHotUpgrade');
    expect(images(reset)).toEqual([
      'proxy-1=envoy:1',
      'proxy-2=busybox:empty',
      'agent-1=busybox:empty',
      'agent-2=agent:2',
      'main=nginx:1.25',
    ]);
  });
});

describe('the working-container annotation read as Go reads a map[string]string', () => {
  it('a value that is not a string is kept as "" (the type error is recorded, decoding goes on)', () => {
    expect([...parseWorkingContainers('{"a":"a-1","b":5,"c":null,"d":{"x":1},"e":[1]}')]).toEqual([
      ['a', 'a-1'],
      ['b', ''],
      ['c', ''],
      ['d', ''],
      ['e', ''],
    ]);
    expect([...parseWorkingContainers('{"a":')]).toEqual([]);
  });

  it('such an entry still names the sidecar: the pod is matched, and "" is not proxy-1, so proxy-1 is reset', () => {
    const pod = injected('a', V1);
    const odd: Pod = {
      ...pod,
      metadata: {
        ...pod.metadata,
        annotations: {
          ...pod.metadata.annotations,
          'kruise.io/sidecarset-working-hotupgrade-container': '{"zz":7,"proxy":1}',
        },
      },
    };
    const plan = planSidecarSet(V2, [odd], NOW);
    expect(plan.status.matchedPods).toBe(1);
    // proxy-2 counts as working (GetPodHotUpgradeContainers), so proxy-1, not on the empty image, is the one reset
    const next = only(plan, 'ResetHotUpgrade');
    expect(images(next)).toEqual(['proxy-1=busybox:empty', 'proxy-2=busybox:empty', 'main=nginx:1.25']);
  });
});
