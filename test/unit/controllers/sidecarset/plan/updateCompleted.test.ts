/**
 * OpenKruise's `TestIsSidecarContainerUpdateCompleted` (`pkg/control/sidecarcontrol/util_test.go`) as data: a pod
 * with a cold and a hot-upgrade sidecar, changed step by step as the controller and the kubelet change it, and
 * whether its sidecar containers count as running their spec images (podState.ts `isPodStateConsistent`, which
 * decides by the in-place state when the images are not digests; ./inPlaceState.ts records it).
 */
import type { Pod } from '../../../../../lib/api/types.js';
import type { SidecarSet } from '../../../../../lib/controllers/sidecarset/api/types.js';
import { recordInPlaceUpgrade } from '../../../../../lib/controllers/sidecarset/plan/inPlaceState.js';
import { isPodStateConsistent } from '../../../../../lib/controllers/sidecarset/plan/podState.js';

const NOW = new Date('2026-12-02T10:20:30Z');
const IDS: Record<string, string> = {
  'main:v1': '4120593193b4',
  'cold-sidecar:v1': 'docker-pullable://cold-sidecar@sha256:9ead06a1362e',
  'cold-sidecar:v2': 'docker-pullable://cold-sidecar@sha256:7223aa0f3a7a',
  'hot-sidecar:v1': 'docker-pullable://hot-sidecar@sha256:86618128c92e',
  'hot-sidecar:v2': 'docker-pullable://hot-sidecar@sha256:74abd85af1e9',
  'hotupgrade:empty': 'docker-pullable://hotupgrade@sha256:0e9daf5c02e7',
};

const sidecarSet: SidecarSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  metadata: { name: 'test-sidecarset', generation: 123, annotations: { 'kruise.io/sidecarset-hash': 'bbb' } },
  spec: {
    containers: [
      { name: 'cold-sidecar', image: 'cold-image:v1', upgradeStrategy: { upgradeType: 'ColdUpgrade' } },
      {
        name: 'hot-sidecar',
        image: 'hot-image:v1',
        upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'hotupgrade:empty' },
      },
    ],
  },
};

const images = ['main:v1', 'cold-sidecar:v1', 'hot-sidecar:v1', 'hotupgrade:empty'];
const names = ['main', 'cold-sidecar', 'hot-sidecar-1', 'hot-sidecar-2'];
const podDemo: Pod = {
  metadata: { name: 'test-pod-1', namespace: 'default', annotations: {} },
  spec: { containers: names.map((name, i) => ({ name, image: images[i] })) },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True' }],
    containerStatuses: names.map((name, i) => ({
      name,
      image: images[i],
      imageID: IDS[images[i]],
      ready: true,
      restartCount: 0,
    })),
  },
};

/** One step: `spec` sets container `i`'s image and records it as upstream's `UpdatePodAnnotationsInUpgrade`; `ran` sets its status imageID. */
type Step = { spec: [number, string] } | { ran: [number, string] };
const apply = (steps: Step[]): Pod =>
  steps.reduce((pod, step) => {
    const next = structuredClone(pod);
    if ('spec' in step) {
      const [i, image] = step.spec;
      next.spec.containers[i].image = image;
      next.metadata.annotations = recordInPlaceUpgrade(
        next.metadata.annotations ?? {},
        sidecarSet,
        next,
        [names[i]],
        NOW,
      );
    } else next.status!.containerStatuses![step.ran[0]].imageID = IDS[step.ran[1]];
    return next;
  }, podDemo);

const cold: Step[] = [{ spec: [1, 'cold-sidecar:v2'] }, { ran: [1, 'cold-sidecar:v2'] }];
const cases: { name: string; steps: Step[]; completed: boolean }[] = [
  { name: 'only inject sidecar, not upgrade', steps: [], completed: true },
  { name: 'upgrade cold sidecar, upgrade not completed', steps: cold.slice(0, 1), completed: false },
  { name: 'upgrade cold sidecar, upgrade completed', steps: cold, completed: true },
  {
    name: 'upgrade hot sidecar, upgrade hot-sidecar-2 not completed',
    steps: [...cold, { spec: [3, 'hot-sidecar:v2'] }],
    completed: false,
  },
  {
    name: 'upgrade hot sidecar, upgrade hot-sidecar-1 not completed',
    steps: [
      ...cold,
      { spec: [3, 'hot-sidecar:v2'] },
      { ran: [3, 'hot-sidecar:v2'] },
      { spec: [2, 'hotupgrade:empty'] },
    ],
    completed: false,
  },
  {
    name: 'upgrade hot sidecar, upgrade hot-sidecar completed',
    steps: [
      ...cold,
      { spec: [3, 'hot-sidecar:v2'] },
      { ran: [3, 'hot-sidecar:v2'] },
      { spec: [2, 'hotupgrade:empty'] },
      { ran: [2, 'hotupgrade:empty'] },
    ],
    completed: true,
  },
];

describe('IsSidecarContainerUpdateCompleted', () => {
  it.each(cases)('$name', ({ steps, completed }) => {
    const sidecars = new Set(['cold-sidecar', 'hot-sidecar-1', 'hot-sidecar-2']);
    expect(isPodStateConsistent(sidecarSet, apply(steps), sidecars)).toBe(completed);
  });
});
