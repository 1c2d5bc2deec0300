/**
 * The PUB pod validating webhook against OpenKruise v1.9.0's (pkg/webhook/pod/validating/pod_unavailable_budget_test.go
 * and pkg/control/pubcontrol/pub_control_utils_test.go): which operations are checked, the exemptions, the budget
 * consumed in the PUB's status (disruptedPods / unavailablePods at the admission time, unavailableAllowed - 1), the
 * refusal with OpenKruise's message, dry runs, and the conflict retry.
 */
import type { Pod } from '../../../../lib/api/types.js';
import type {
  PodUnavailableBudget,
  PodUnavailableBudgetStatus,
} from '../../../../lib/controllers/podunavailablebudget/api/types.js';
import {
  answerPodValidation,
  type PubWebhookDeps,
} from '../../../../lib/controllers/podunavailablebudget/podWebhook.js';
import { KubeApiError } from '../../../../lib/kube/errors.js';
import type { KubeEvent } from '../../../../lib/kube/types.js';
import { reviewBody } from '../../support/admissionReview.js';

const NOW = new Date('2026-12-04T03:00:00.700Z');

function pod(opts: { ready?: boolean; marked?: boolean; noProtect?: boolean; image?: string } = {}): Pod {
  const annotations: Record<string, string> = {};
  if (opts.marked !== false) annotations['pub.kruise.io/related-pub'] = 'web-pub';
  if (opts.noProtect) annotations['pub.kruise.io/no-protect'] = 'true';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-0', namespace: 'default', labels: { app: 'web' }, annotations },
    spec: { containers: [{ name: 'main', image: opts.image ?? 'nginx:1.25' }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
    },
  };
}

function pub(
  status: Partial<PodUnavailableBudgetStatus> = {},
  extra: Partial<PodUnavailableBudget> = {},
): PodUnavailableBudget {
  return {
    apiVersion: 'policy.kruise.io/v1beta1',
    kind: 'PodUnavailableBudget',
    metadata: { name: 'web-pub', namespace: 'default', resourceVersion: '5' },
    spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 },
    status: { unavailableAllowed: 1, currentAvailable: 5, desiredAvailable: 4, totalReplicas: 5, ...status },
    ...extra,
  };
}

function review(request: Record<string, unknown>): string {
  return reviewBody({
    uid: 'req-1',
    resource: { group: '', version: 'v1', resource: 'pods' },
    namespace: 'default',
    name: 'web-0',
    ...request,
  });
}

const deleteOf = (p: Pod, options: Record<string, unknown> = {}) =>
  review({
    operation: 'DELETE',
    oldObject: p,
    options: { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', ...options },
  });

function harness(
  stored: PodUnavailableBudget | undefined,
  podForEviction: Pod = pod(),
  settings?: PubWebhookDeps['settings'],
) {
  const writes: PodUnavailableBudgetStatus[] = [];
  const events: KubeEvent[] = [];
  const sleeps: number[] = [];
  const state = { pub: stored, conflicts: 0 };
  const deps: PubWebhookDeps = {
    getPub: async () => structuredClone(state.pub),
    getPod: async (_ns, name) => (name === 'web-0' ? podForEviction : undefined),
    updatePubStatus: async (p, status) => {
      if (state.conflicts > 0) {
        state.conflicts--;
        throw new KubeApiError(
          'replace podunavailablebudgets/status web-pub',
          409,
          'Conflict',
          'Operation cannot be fulfilled on podunavailablebudgets.policy.kruise.io "web-pub": the object has been modified; please apply your changes to the latest version and try again',
        );
      }
      writes.push(status);
      state.pub = { ...p, status };
      return state.pub;
    },
    recordPodEvent: async (_p, e) => {
      events.push(e);
    },
    now: () => NOW,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...(settings ? { settings } : {}),
  };
  return { deps, writes, events, sleeps, state };
}

const allowed = {
  statusCode: 200,
  review: {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    response: { uid: 'req-1', allowed: true },
  },
};
const refused = (code: number, message: string) => ({
  statusCode: 200,
  review: {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    response: { uid: 'req-1', allowed: false, status: { code, message } },
  },
});

describe('answerPodValidation: deletion and eviction', () => {
  it('a deletion within the budget is allowed and recorded in disruptedPods at the admission second', async () => {
    const h = harness(pub());
    expect(await answerPodValidation(deleteOf(pod()), h.deps)).toEqual(allowed);
    expect(h.writes).toEqual([
      {
        unavailableAllowed: 0,
        currentAvailable: 5,
        desiredAvailable: 4,
        totalReplicas: 5,
        disruptedPods: { 'web-0': '2026-12-04T03:00:00Z' },
      },
    ]);
    expect(h.events).toEqual([]);
  });

  it('a deletion past the budget is refused with OpenKruise’s message and a PubPreventPodDeletion Event', async () => {
    const h = harness(pub({ unavailableAllowed: 0 }));
    expect(await answerPodValidation(deleteOf(pod()), h.deps)).toEqual(
      refused(
        403,
        'podunavailablebudget.policy.kruise.io "web-pub" is forbidden: pub unavailable allowed is negative',
      ),
    );
    expect(h.writes).toEqual([]);
    expect(h.events).toEqual([
      { type: 'Warning', reason: 'PubPreventPodDeletion', message: 'openkruise pub prevents pod deletion' },
    ]);
  });

  it('an eviction reads the pod by name and is refused the same way', async () => {
    const h = harness(pub({ unavailableAllowed: 0 }));
    const body = review({
      operation: 'CREATE',
      subResource: 'eviction',
      resource: { group: '', version: 'v1', resource: 'pods' },
      object: {
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name: 'web-0', namespace: 'default' },
      },
    });
    expect(await answerPodValidation(body, h.deps)).toEqual(
      refused(
        403,
        'podunavailablebudget.policy.kruise.io "web-pub" is forbidden: pub unavailable allowed is negative',
      ),
    );
  });

  it('an eviction of a pod that does not exist is an error (400), as upstream’s failed read', async () => {
    const h = harness(pub());
    const body = review({
      operation: 'CREATE',
      subResource: 'eviction',
      name: 'gone',
      object: { kind: 'Eviction' },
    });
    expect(await answerPodValidation(body, h.deps)).toEqual(refused(400, 'pods "gone" not found'));
  });

  it('a dry-run deletion or eviction is decided but writes nothing', async () => {
    const h = harness(pub());
    expect(await answerPodValidation(deleteOf(pod(), { dryRun: ['All'] }), h.deps)).toEqual(allowed);
    const eviction = review({
      operation: 'CREATE',
      subResource: 'eviction',
      object: { kind: 'Eviction', deleteOptions: { dryRun: ['All'] } },
    });
    expect(await answerPodValidation(eviction, h.deps)).toEqual(allowed);
    expect(h.writes).toEqual([]);
  });

  it.each<[string, Pod, PodUnavailableBudget | undefined]>([
    ['a pod without the related-pub annotation', pod({ marked: false }), pub({ unavailableAllowed: 0 })],
    ['a pod marked no-protect', pod({ noProtect: true }), pub({ unavailableAllowed: 0 })],
    ['a pod that is not ready', pod({ ready: false }), pub({ unavailableAllowed: 0 })],
    ['a PUB that does not exist', pod(), undefined],
    ['a PUB that desires nothing', pod(), pub({ unavailableAllowed: 0, desiredAvailable: 0 })],
    [
      'a pod already recorded',
      pod(),
      pub({ unavailableAllowed: 0, disruptedPods: { 'web-0': '2026-12-04T02:59:59Z' } }),
    ],
    [
      'a PUB that protects only EVICT (annotation)',
      pod(),
      pub(
        { unavailableAllowed: 0 },
        {
          metadata: {
            name: 'web-pub',
            namespace: 'default',
            annotations: { 'kruise.io/pub-protect-operations': 'EVICT' },
          },
        },
      ),
    ],
    [
      'a pod the ignoredPodSelector picks',
      pod(),
      pub(
        { unavailableAllowed: 0 },
        {
          spec: {
            selector: { matchLabels: { app: 'web' } },
            ignoredPodSelector: { matchLabels: { app: 'web' } },
          },
        },
      ),
    ],
  ])('%s is allowed without a write', async (_name, p, stored) => {
    const h = harness(stored);
    expect(await answerPodValidation(deleteOf(p), h.deps)).toEqual(allowed);
    expect(h.writes).toEqual([]);
  });

  it('a deletion of a subresource, another resource, or with the delete gate off is not checked', async () => {
    const h = harness(pub({ unavailableAllowed: 0 }));
    expect(
      await answerPodValidation(
        review({ operation: 'DELETE', subResource: 'status', oldObject: pod() }),
        h.deps,
      ),
    ).toEqual(allowed);
    expect(
      await answerPodValidation(
        review({
          operation: 'DELETE',
          resource: { group: 'apps', version: 'v1', resource: 'deployments' },
          oldObject: pod(),
        }),
        h.deps,
      ),
    ).toEqual(allowed);
    const off = harness(pub({ unavailableAllowed: 0 }), pod(), { deleteGate: false });
    expect(await answerPodValidation(deleteOf(pod()), off.deps)).toEqual(allowed);
  });

  it('a conflict re-reads the PUB after 500 ms and consumes the fresh budget', async () => {
    const h = harness(pub({ unavailableAllowed: 2 }));
    h.state.conflicts = 1;
    expect(await answerPodValidation(deleteOf(pod()), h.deps)).toEqual(allowed);
    expect(h.sleeps).toEqual([500]);
    expect(h.writes.map((s) => s.unavailableAllowed)).toEqual([1]);
  });

  it('four conflicts refuse with the API server’s conflict message', async () => {
    const h = harness(pub({ unavailableAllowed: 2 }));
    h.state.conflicts = 4;
    expect(await answerPodValidation(deleteOf(pod()), h.deps)).toEqual(
      refused(
        403,
        'Operation cannot be fulfilled on podunavailablebudgets.policy.kruise.io "web-pub": the object has been modified; please apply your changes to the latest version and try again',
      ),
    );
    expect(h.sleeps).toEqual([500, 500, 500]);
  });

  it('a body that is not an AdmissionReview is a 400', async () => {
    const h = harness(pub());
    expect((await answerPodValidation('{', h.deps)).statusCode).toBe(400);
  });
});

describe('answerPodValidation: in-place update (gate PodUnavailableBudgetUpdateGate)', () => {
  const update = (oldPod: Pod, newPod: Pod) =>
    review({ operation: 'UPDATE', oldObject: oldPod, object: newPod, options: { kind: 'UpdateOptions' } });

  it('is not checked with the gate off (the default)', async () => {
    const h = harness(pub({ unavailableAllowed: 0 }));
    expect(await answerPodValidation(update(pod(), pod({ image: 'nginx:1.26' })), h.deps)).toEqual(allowed);
  });

  it('an image change consumes the budget into unavailablePods', async () => {
    const h = harness(pub(), pod(), { updateGate: true });
    expect(await answerPodValidation(update(pod(), pod({ image: 'nginx:1.26' })), h.deps)).toEqual(allowed);
    expect(h.writes).toEqual([
      {
        unavailableAllowed: 0,
        currentAvailable: 5,
        desiredAvailable: 4,
        totalReplicas: 5,
        unavailablePods: { 'web-0': '2026-12-04T03:00:00Z' },
      },
    ]);
  });

  it('a label-only change is allowed without a write; an unavailable label is refused past the budget', async () => {
    const h = harness(pub({ unavailableAllowed: 0 }), pod(), { updateGate: true });
    const relabelled = pod();
    relabelled.metadata.labels = { app: 'web', tier: 'x' };
    expect(await answerPodValidation(update(pod(), relabelled), h.deps)).toEqual(allowed);
    const drained = pod();
    drained.metadata.labels = { app: 'web', 'unavailable-pod.kruise.io/drain': 'true' };
    expect(await answerPodValidation(update(pod(), drained), h.deps)).toEqual(
      refused(
        403,
        'podunavailablebudget.policy.kruise.io "web-pub" is forbidden: pub unavailable allowed is negative',
      ),
    );
  });

  it('a cpu-only resize is RESIZE, recorded in disruptedPods as upstream does', async () => {
    const h = harness(pub(), pod(), { updateGate: true });
    const before = pod();
    before.spec.containers[0].resources = { requests: { cpu: '100m' } };
    const after = pod();
    after.spec.containers[0].resources = { requests: { cpu: '200m' } };
    expect(await answerPodValidation(update(before, after), h.deps)).toEqual(allowed);
    expect(h.writes[0].disruptedPods).toEqual({ 'web-0': '2026-12-04T03:00:00Z' });
  });
});
