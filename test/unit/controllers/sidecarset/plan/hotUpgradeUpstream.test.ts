/**
 * OpenKruise's `TestUpdateHotUpgradeSidecar` (`pkg/controller/sidecarset/sidecarset_hotupgrade_test.go`) as data:
 * its SidecarSet and pod fixtures, and per round the pod images after the round and the status it computed
 * (matched, updated, ready, updatedReady), with the kubelet's status changes between rounds. Each round is one
 * plan (lib/controllers/sidecarset/plan/plan.ts) whose pod write is applied before the next.
 */
import type { Pod } from '../../../../../lib/api/types.js';
import type { SidecarSet } from '../../../../../lib/controllers/sidecarset/api/types.js';
import { planSidecarSet } from '../../../../../lib/controllers/sidecarset/plan/index.js';

const EMPTY = 'hotupgrade:empty';
const EMPTY_ID =
  'docker-pullable://hotupgrade@sha256:91873971hhf0981293480lhhhgsfgs09809085024lddd092jjj44k4h4vv44';
const V1_ID =
  'docker-pullable://test-image@sha256:a9286defaba7b3a519d585ba0e37d0b2cbee74ebfe590960b0b1d6a5e97d1e1d';
const V2_ID =
  'docker-pullable://test-image@sha256:f7988fb6c02e0ce69257d9bd9cf37ae20a60f1df7563c3a2a6abe24160306b8d';
const NOW = new Date('2026-12-02T10:20:30Z');

const sidecarSet: SidecarSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  metadata: {
    name: 'test-sidecarset',
    generation: 123,
    resourceVersion: '22',
    annotations: {
      'kruise.io/sidecarset-hash': 'bbb',
      'kruise.io/sidecarset-hash-without-image': '111111111',
    },
  },
  spec: {
    selector: { matchLabels: { app: 'nginx' } },
    containers: [
      {
        name: 'test-sidecar',
        image: 'test-image:v2',
        upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: EMPTY },
      },
    ],
    updateStrategy: {},
    revisionHistoryLimit: 10,
  },
};

const versionEnv = (c: string) => [
  {
    name: 'SIDECARSET_VERSION',
    valueFrom: { fieldRef: { fieldPath: `metadata.annotations['version.sidecarset.kruise.io/${c}']` } },
  },
];

const podHotUpgrade: Pod = {
  metadata: {
    name: 'liheng-test',
    namespace: 'default',
    labels: { app: 'nginx' },
    annotations: {
      'kruise.io/sidecarset-injected-list': 'test-sidecarset',
      'kruise.io/sidecarset-hash': '{"test-sidecarset":{"hash":"aaa","sidecarList":["test-sidecar"]}}',
      'kruise.io/sidecarset-hash-without-image': '{"test-sidecarset":{"hash":"111111111"}}',
      'version.sidecarset.kruise.io/test-sidecar-1': '1',
      'version.sidecarset.kruise.io/test-sidecar-2': '1',
      'kruise.io/sidecarset-working-hotupgrade-container': '{"test-sidecar":"test-sidecar-1"}',
    },
  },
  spec: {
    containers: [
      { name: 'nginx', image: 'nginx:1.15.1' },
      { name: 'test-sidecar-1', image: 'test-image:v1', env: versionEnv('test-sidecar-1') },
      { name: 'test-sidecar-2', image: EMPTY, env: versionEnv('test-sidecar-2') },
    ],
  },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True' }],
    containerStatuses: [
      {
        name: 'nginx',
        image: 'nginx:1.15.1',
        imageID:
          'docker-pullable://nginx@sha256:a9286defaba7b3a519d585ba0e37d0b2cbee74ebfe590960b0b1d6a5e97d1e1d',
        ready: true,
        restartCount: 0,
      },
      { name: 'test-sidecar-1', image: 'test-image:v1', imageID: V1_ID, ready: true, restartCount: 0 },
      { name: 'test-sidecar-2', image: EMPTY, imageID: EMPTY_ID, ready: true, restartCount: 0 },
    ],
  },
};

/** The kubelet reports container `index` on `image` / `imageID`. */
const runs =
  (index: number, image: string, imageID: string) =>
  (pod: Pod): Pod => {
    const next = structuredClone(pod);
    next.status!.containerStatuses![index] = { ...next.status!.containerStatuses![index], image, imageID };
    return next;
  };

const rounds: {
  name: string;
  images: Record<string, string>;
  status: [number, number, number, number];
  after?: (pod: Pod) => Pod;
}[] = [
  {
    name: 'sidecarset hot update test-sidecar container test-image:v2',
    images: { 'test-sidecar-1': 'test-image:v1', 'test-sidecar-2': 'test-image:v2' },
    status: [1, 0, 1, 0],
  },
  {
    name: 'test-sidecar-2 container is upgrading',
    images: { 'test-sidecar-1': 'test-image:v1', 'test-sidecar-2': 'test-image:v2' },
    status: [1, 1, 0, 0],
    after: runs(2, 'test-image:v2', V2_ID),
  },
  {
    name: 'test-sidecar-2 container upgrade complete, and reset test-sidecar-1 empty image',
    images: { 'test-sidecar-1': EMPTY, 'test-sidecar-2': 'test-image:v2' },
    status: [1, 1, 0, 0],
    after: runs(1, EMPTY, EMPTY_ID),
  },
  {
    name: 'sidecarset hot update test-sidecar container test-image:v2 complete',
    images: { 'test-sidecar-1': EMPTY, 'test-sidecar-2': 'test-image:v2' },
    status: [1, 1, 1, 1],
  },
];

describe('TestUpdateHotUpgradeSidecar, round by round', () => {
  let pod = podHotUpgrade;
  let set = sidecarSet;
  it.each(rounds)('$name', ({ images, status, after }) => {
    const plan = planSidecarSet(set, [pod], NOW, { name: 'test-sidecarset-rev', collisionCount: 0 });
    const write = plan.writes.find((w) => w.type !== 'SetCondition');
    if (write && 'next' in write) pod = write.next;
    set = { ...set, status: plan.status };
    const byName = Object.fromEntries(pod.spec.containers.map((c) => [c.name, c.image]));
    for (const [name, image] of Object.entries(images)) expect([name, byName[name]]).toEqual([name, image]);
    const s = plan.status;
    expect([s.matchedPods, s.updatedPods, s.readyPods, s.updatedReadyPods ?? 0]).toEqual(status);
    if (after) pod = after(pod);
  });
});
