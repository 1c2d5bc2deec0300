/**
 * The PUB status planner against OpenKruise v1.9.0's controller tests (pkg/controller/podunavailablebudget/
 * pub_controller_test.go `TestPubReconcile`): exact status for each case of expected replicas, maxUnavailable /
 * minAvailable, and the webhook's records with their expiry.
 */
import type { Pod } from '../../../../../lib/api/types.js';
import type {
  PodUnavailableBudget,
  PodUnavailableBudgetSpec,
  PodUnavailableBudgetStatus,
} from '../../../../../lib/controllers/podunavailablebudget/api/types.js';
import {
  desiredAvailable,
  isPodStateConsistent,
  planPubStatus,
  scaledValueRoundUp,
  type PubStatusPlan,
} from '../../../../../lib/controllers/podunavailablebudget/plan/index.js';

const NOW = new Date('2026-12-04T03:00:00Z');
const at = (secondsAgo: number) =>
  new Date(NOW.getTime() - secondsAgo * 1000).toISOString().replace('.000', '');

function pub(spec: PodUnavailableBudgetSpec, status?: PodUnavailableBudgetStatus): PodUnavailableBudget {
  return {
    apiVersion: 'policy.kruise.io/v1beta1',
    kind: 'PodUnavailableBudget',
    metadata: { name: 'pub-test', namespace: 'default', generation: 1, resourceVersion: '7' },
    spec: { selector: { matchLabels: { app: 'pub-controller' } }, ...spec },
    ...(status ? { status } : {}),
  };
}

function pod(i: number, opts: { ready?: boolean; deleting?: boolean; marked?: boolean } = {}): Pod {
  return {
    metadata: {
      name: `test-pod-${i}`,
      namespace: 'default',
      labels: { app: 'pub-controller' },
      annotations: opts.marked === false ? {} : { 'pub.kruise.io/related-pub': 'pub-test' },
      ...(opts.deleting ? { deletionTimestamp: at(1) } : {}),
    },
    spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
    },
  };
}

const pods = (n: number, opts?: Parameters<typeof pod>[1]) =>
  Array.from({ length: n }, (_, i) => pod(i, opts));

function statusOf(plan: ReturnType<typeof planPubStatus>): PubStatusPlan {
  if (plan.type !== 'Status') throw new Error(`expected a status plan, got ${plan.type}`);
  return plan;
}

describe('planPubStatus: counts as OpenKruise v1.9.0', () => {
  it.each<[string, PodUnavailableBudgetSpec, number, number, PodUnavailableBudgetStatus]>([
    [
      'selector, workloads at 0 replicas, maxUnavailable 30%: every ready pod may go',
      { maxUnavailable: '30%' },
      10,
      0,
      {
        observedGeneration: 1,
        unavailableAllowed: 10,
        currentAvailable: 10,
        desiredAvailable: 0,
        totalReplicas: 0,
      },
    ],
    [
      'protectTotalReplicas 15 (expected 15), maxUnavailable 30%: desired 10',
      { maxUnavailable: '30%', protectTotalReplicas: 15 },
      10,
      15,
      {
        observedGeneration: 1,
        unavailableAllowed: 0,
        currentAvailable: 10,
        desiredAvailable: 10,
        totalReplicas: 15,
      },
    ],
    [
      'surge pods: 12 ready of 10 expected, maxUnavailable 30% rounds up to 3',
      { maxUnavailable: '30%' },
      12,
      10,
      {
        observedGeneration: 1,
        unavailableAllowed: 5,
        currentAvailable: 12,
        desiredAvailable: 7,
        totalReplicas: 10,
      },
    ],
    [
      'targetRef with 1 replica and 10 pods, maxUnavailable 30%: desired 0',
      { maxUnavailable: '30%', targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' } },
      10,
      1,
      {
        observedGeneration: 1,
        unavailableAllowed: 10,
        currentAvailable: 10,
        desiredAvailable: 0,
        totalReplicas: 1,
      },
    ],
    [
      'maxUnavailable 0%: nothing may go',
      { maxUnavailable: '0%' },
      10,
      10,
      {
        observedGeneration: 1,
        unavailableAllowed: 0,
        currentAvailable: 10,
        desiredAvailable: 10,
        totalReplicas: 10,
      },
    ],
    [
      'maxUnavailable 100%: everything may go',
      { maxUnavailable: '100%' },
      10,
      10,
      {
        observedGeneration: 1,
        unavailableAllowed: 10,
        currentAvailable: 10,
        desiredAvailable: 0,
        totalReplicas: 10,
      },
    ],
    [
      'maxUnavailable 100 (int) of 10: desired clamps at 0',
      { maxUnavailable: 100 },
      10,
      10,
      {
        observedGeneration: 1,
        unavailableAllowed: 10,
        currentAvailable: 10,
        desiredAvailable: 0,
        totalReplicas: 10,
      },
    ],
    [
      'minAvailable 100 (int) stays 100 above 10 expected',
      { minAvailable: 100 },
      5,
      10,
      {
        observedGeneration: 1,
        unavailableAllowed: 0,
        currentAvailable: 5,
        desiredAvailable: 100,
        totalReplicas: 10,
      },
    ],
    [
      'minAvailable 50% with 5 ready',
      { minAvailable: '50%' },
      5,
      10,
      {
        observedGeneration: 1,
        unavailableAllowed: 0,
        currentAvailable: 5,
        desiredAvailable: 5,
        totalReplicas: 10,
      },
    ],
    [
      'minAvailable 80% with 10 ready',
      { minAvailable: '80%' },
      10,
      10,
      {
        observedGeneration: 1,
        unavailableAllowed: 2,
        currentAvailable: 10,
        desiredAvailable: 8,
        totalReplicas: 10,
      },
    ],
    [
      'neither maxUnavailable nor minAvailable: desired 0',
      {},
      3,
      3,
      {
        observedGeneration: 1,
        unavailableAllowed: 3,
        currentAvailable: 3,
        desiredAvailable: 0,
        totalReplicas: 3,
      },
    ],
  ])('%s', (_name, spec, podCount, expected, want) => {
    const plan = statusOf(
      planPubStatus({ pub: pub(spec), pods: pods(podCount), expectedCount: expected, now: NOW }),
    );
    expect(plan.status).toEqual(want);
    expect(plan.changed).toBe(true);
    expect(plan.recheckAfterMs).toBeUndefined();
  });

  it('no pods and 0 expected: a zero status, and NoPods', () => {
    const plan = statusOf(
      planPubStatus({ pub: pub({ maxUnavailable: '30%' }), pods: [], expectedCount: 0, now: NOW }),
    );
    expect(plan.status).toEqual({
      observedGeneration: 1,
      unavailableAllowed: 0,
      currentAvailable: 0,
      desiredAvailable: 0,
      totalReplicas: 0,
    });
    expect(plan.noPods).toBe(true);
  });

  it('not-ready, terminating and unavailable-labelled pods are not available', () => {
    const list = [
      ...pods(5),
      pod(5, { ready: false }),
      pod(6, { deleting: true }),
      { ...pod(7), metadata: { ...pod(7).metadata, labels: { 'unavailable-pod.kruise.io/drain': 'true' } } },
    ];
    const plan = statusOf(
      planPubStatus({ pub: pub({ maxUnavailable: 2 }), pods: list, expectedCount: 8, now: NOW }),
    );
    expect(plan.status).toEqual({
      observedGeneration: 1,
      unavailableAllowed: 0,
      currentAvailable: 5,
      desiredAvailable: 6,
      totalReplicas: 8,
    });
  });

  it('an unchanged status is not written', () => {
    const status = {
      observedGeneration: 1,
      unavailableAllowed: 3,
      currentAvailable: 10,
      desiredAvailable: 7,
      totalReplicas: 10,
    };
    const plan = statusOf(
      planPubStatus({
        pub: pub({ maxUnavailable: '30%' }, status),
        pods: pods(10),
        expectedCount: 10,
        now: NOW,
      }),
    );
    expect(plan.status).toEqual(status);
    expect(plan.changed).toBe(false);
  });

  it('a new generation alone is written', () => {
    const status = {
      observedGeneration: 1,
      unavailableAllowed: 3,
      currentAvailable: 10,
      desiredAvailable: 7,
      totalReplicas: 10,
    };
    const p = pub({ maxUnavailable: '30%' }, status);
    p.metadata.generation = 2;
    const plan = statusOf(planPubStatus({ pub: p, pods: pods(10), expectedCount: 10, now: NOW }));
    expect(plan.status.observedGeneration).toBe(2);
    expect(plan.changed).toBe(true);
  });

  it('a percentage that is not an integer fails the pass as Go does', () => {
    const plan = planPubStatus({
      pub: pub({ maxUnavailable: '10.5%' }),
      pods: pods(2),
      expectedCount: 2,
      now: NOW,
    });
    expect(plan).toEqual({
      type: 'Invalid',
      message:
        'Failed to calculate the number of expected pods: invalid value for IntOrString: invalid value "10.5%": strconv.Atoi: parsing "10.5": invalid syntax',
      noPods: false,
      unmarked: [],
    });
  });

  it('pods without a related-pub annotation are listed to be marked', () => {
    const list = [pod(0), pod(1, { marked: false }), pod(2, { marked: false })];
    const plan = statusOf(planPubStatus({ pub: pub({}), pods: list, expectedCount: 3, now: NOW }));
    expect(plan.unmarked).toEqual(['test-pod-1', 'test-pod-2']);
  });
});

describe('planPubStatus: the webhook records and their expiry', () => {
  function records(n: number, secondsAgo: (i: number) => number): Record<string, string> {
    return Object.fromEntries(Array.from({ length: n }, (_, i) => [`test-pod-${i}`, at(secondsAgo(i))]));
  }

  it('10 unavailable and 10 disrupted pods (fresh) are not available and stay recorded', () => {
    const unavailablePods = records(10, () => 0);
    const disruptedPods = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`test-pod-${i + 10}`, at(0)]),
    );
    const p = pub(
      { maxUnavailable: '30%' },
      {
        unavailablePods,
        disruptedPods,
        unavailableAllowed: 0,
        currentAvailable: 0,
        desiredAvailable: 0,
        totalReplicas: 0,
      },
    );
    const plan = statusOf(planPubStatus({ pub: p, pods: pods(100), expectedCount: 100, now: NOW }));
    expect(plan.status).toEqual({
      observedGeneration: 1,
      disruptedPods,
      unavailablePods,
      unavailableAllowed: 10,
      currentAvailable: 80,
      desiredAvailable: 70,
      totalReplicas: 100,
    });
    expect(plan.recheckAfterMs).toBe(10_000);
  });

  it('an unavailable record older than 10 s and a disrupted one older than 20 s are dropped; NotDeleted for the latter', () => {
    const p = pub(
      { maxUnavailable: '30%' },
      {
        unavailablePods: { 'test-pod-0': at(11), 'test-pod-1': at(10), 'test-pod-2': at(3) },
        disruptedPods: { 'test-pod-3': at(21), 'test-pod-4': at(20), 'test-pod-5': at(5) },
        unavailableAllowed: 0,
        currentAvailable: 0,
        desiredAvailable: 0,
        totalReplicas: 0,
      },
    );
    const plan = statusOf(planPubStatus({ pub: p, pods: pods(10), expectedCount: 10, now: NOW }));
    expect(plan.status).toEqual({
      observedGeneration: 1,
      disruptedPods: { 'test-pod-4': at(20), 'test-pod-5': at(5) },
      unavailablePods: { 'test-pod-1': at(10), 'test-pod-2': at(3) },
      unavailableAllowed: 0,
      currentAvailable: 6,
      desiredAvailable: 7,
      totalReplicas: 10,
    });
    expect(plan.notDeleted).toEqual(['test-pod-3']);
    // test-pod-4's record runs out now, test-pod-1's too: look again at once
    expect(plan.recheckAfterMs).toBe(0);
  });

  it('records of pods that are gone or terminating are dropped without an Event', () => {
    const p = pub(
      { maxUnavailable: 1 },
      {
        disruptedPods: { 'test-pod-1': at(2), 'gone-pod': at(2) },
        unavailablePods: { 'test-pod-2': at(2) },
        unavailableAllowed: 0,
        currentAvailable: 1,
        desiredAvailable: 2,
        totalReplicas: 3,
      },
    );
    const list = [pod(0), pod(1, { deleting: true }), pod(2, { deleting: true })];
    const plan = statusOf(planPubStatus({ pub: p, pods: list, expectedCount: 3, now: NOW }));
    expect(plan.status).toEqual({
      observedGeneration: 1,
      unavailableAllowed: 0,
      currentAvailable: 1,
      desiredAvailable: 2,
      totalReplicas: 3,
    });
    expect(plan.notDeleted).toEqual([]);
    expect(plan.recheckAfterMs).toBeUndefined();
  });

  it('protectTotalReplicas 50 with the same records', () => {
    const p = pub(
      { maxUnavailable: '30%', protectTotalReplicas: 50 },
      {
        unavailablePods: records(5, () => 1),
        unavailableAllowed: 0,
        currentAvailable: 0,
        desiredAvailable: 0,
        totalReplicas: 0,
      },
    );
    const plan = statusOf(planPubStatus({ pub: p, pods: pods(50), expectedCount: 50, now: NOW }));
    expect(plan.status.currentAvailable).toBe(45);
    expect(plan.status.desiredAvailable).toBe(35);
    expect(plan.status.unavailableAllowed).toBe(10);
    expect(plan.recheckAfterMs).toBe(9_000);
  });
});

describe('the pieces', () => {
  it('scaledValueRoundUp: ints, integer percentages rounded up, Go errors otherwise', () => {
    expect(scaledValueRoundUp(3, 10)).toBe(3);
    expect(scaledValueRoundUp('25%', 10)).toBe(3);
    expect(scaledValueRoundUp('0%', 10)).toBe(0);
    expect(() => scaledValueRoundUp('5', 10)).toThrow(
      'invalid value for IntOrString: invalid type: string is not a percentage',
    );
  });

  it('desiredAvailable: maxUnavailable wins over minAvailable', () => {
    expect(desiredAvailable({ maxUnavailable: 2, minAvailable: 9 }, 10)).toBe(8);
    expect(desiredAvailable({ minAvailable: '33%' }, 10)).toBe(4);
  });

  it('isPodStateConsistent: digest images compare with the status imageID; tags defer to the in-place state', () => {
    const digest = 'sha256:aaaa';
    const p: Pod = {
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'main', image: `nginx@${digest}` }] },
      status: {
        containerStatuses: [
          {
            name: 'main',
            image: 'nginx',
            imageID: `docker.io/library/nginx@${digest}`,
            ready: true,
            restartCount: 0,
          },
        ],
      },
    };
    expect(isPodStateConsistent(p)).toBe(true);
    const stale: Pod = {
      ...p,
      status: {
        containerStatuses: [
          {
            name: 'main',
            image: 'nginx',
            imageID: 'docker.io/library/nginx@sha256:bbbb',
            ready: true,
            restartCount: 0,
          },
        ],
      },
    };
    expect(isPodStateConsistent(stale)).toBe(false);
    const graced: Pod = {
      metadata: { name: 'p', annotations: { 'apps.kruise.io/inplace-update-grace': '{}' } },
      spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
    };
    expect(isPodStateConsistent(graced)).toBe(false);
  });
});
