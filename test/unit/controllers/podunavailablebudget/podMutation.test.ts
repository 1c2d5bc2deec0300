/**
 * The PodUnavailableBudget step of `/mutate-pod` against OpenKruise v1.9.0's `TestPubMutatingPod`
 * (pkg/webhook/pod/mutating/pod_unavailable_budget_test.go) as data, over the API server's reads (a recording
 * client): the selector and targetRef cases, the gates, a failed LIST (the pod created as it came), and the order
 * after launch priority through the webhook's frame.
 */
import type { Pod } from '../../../../lib/api/types.js';
import { answerPodMutationReview, type PodMutationStep } from '../../../../lib/api/admission/podMutation.js';
import {
  kubePubMutationReads,
  pubPodSteps,
  type PubMutationReads,
} from '../../../../lib/controllers/podunavailablebudget/podMutation.js';
import type { PubSettings } from '../../../../lib/controllers/podunavailablebudget/settings.js';
import {
  PUB_RESOURCE,
  PUB_WORKLOAD_RESOURCES,
} from '../../../../lib/controllers/podunavailablebudget/api/resource.js';
import type { PodUnavailableBudget } from '../../../../lib/controllers/podunavailablebudget/api/types.js';
import { KubeApiError } from '../../../../lib/kube/errors.js';
import { RecordingKube, type Journal } from '../cloneset/reconcile/support/recordingKube.js';
import { reviewBody } from '../../support/admissionReview.js';

const CONTEXT = { namespace: 'test', dryRun: false };

/** The two steps in a row, as `/mutate-pod` runs them with nothing between. */
const pubPodStep =
  (reads: PubMutationReads, settings?: PubSettings): PodMutationStep =>
  async (pod, context) => {
    const steps = pubPodSteps(reads, settings);
    await steps.prefetch(pod, context);
    return steps.annotate(pod, context);
  };

function pod(owned = false): Pod {
  return {
    metadata: {
      name: 'pod-1',
      namespace: 'test',
      annotations: { version: 'test' },
      labels: { app: 'web' },
      ...(owned
        ? {
            ownerReferences: [
              {
                apiVersion: 'apps.kruise.io/v1alpha1',
                kind: 'CloneSet',
                name: 'cs02',
                uid: '002',
                controller: true,
              },
            ],
          }
        : {}),
    },
    spec: { containers: [{ name: 'main', image: 'nginx' }] },
  };
}

function setup(pubSpec: PodUnavailableBudget['spec'], workload = false) {
  const journal: Journal = [];
  const kube = new RecordingKube(journal, () => new Date('2026-12-05T22:00:00Z')).serve(PUB_RESOURCE);
  kube.objects(PUB_RESOURCE).set('pub-1', {
    apiVersion: 'policy.kruise.io/v1beta1',
    kind: 'PodUnavailableBudget',
    metadata: { name: 'pub-1', namespace: 'test' },
    spec: pubSpec,
  });
  // as upstream's test: the CloneSet has no UID of its own (the pod's reference says 002)
  if (workload)
    kube.objects(PUB_WORKLOAD_RESOURCES.CloneSet).set('cs02', {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'cs02', namespace: 'test' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } } },
    });
  return { kube, reads: kubePubMutationReads(kube) };
}

const annotated = { version: 'test', 'pub.kruise.io/related-pub': 'pub-1', 'kruise.io/related-pub': 'pub-1' };

describe('the PUB step of /mutate-pod (upstream TestPubMutatingPod)', () => {
  test.each([
    ['pub, selector matched', { selector: { matchLabels: { app: 'web' } } }, false, annotated],
    ['pub, selector no matched', { selector: { matchLabels: { app: 'nginx' } } }, false, { version: 'test' }],
    [
      'pub, workload matched',
      { targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs02' } },
      true,
      annotated,
    ],
    [
      'pub, workload no matched',
      { targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs01' } },
      true,
      { version: 'test' },
    ],
  ])('%s', async (_name, spec, owned, expected) => {
    const { reads } = setup(spec, owned);
    const result = await pubPodStep(reads)(pod(owned), CONTEXT);
    expect('pod' in result && result.pod.metadata.annotations).toEqual(expected);
  });

  test('both PUB gates off: nothing read, the pod as it came', async () => {
    const { kube, reads } = setup({ selector: { matchLabels: { app: 'web' } } });
    const input = pod();
    const result = await pubPodStep(reads, { deleteGate: false, updateGate: false })(input, CONTEXT);
    expect(result).toEqual({ pod: input });
    expect(kube.journal).toEqual([]);
    const updateOnly = await pubPodStep(reads, { deleteGate: false, updateGate: true })(pod(), CONTEXT);
    expect('pod' in updateOnly && updateOnly.pod.metadata.annotations).toEqual(annotated);
  });

  test('a failed LIST of the PUBs leaves the pod as it came (never a refusal)', async () => {
    const { kube, reads } = setup({ selector: { matchLabels: { app: 'web' } } });
    kube.failOn((call) =>
      call.startsWith('list podunavailablebudgets')
        ? new KubeApiError('list', 500, 'InternalError', 'etcd timeout')
        : undefined,
    );
    const input = pod();
    expect(await pubPodStep(reads)(input, CONTEXT)).toEqual({ pod: input });
  });

  test('a namespace without PUBs reads no workload', async () => {
    const { kube } = setup({ selector: { matchLabels: { app: 'web' } } }, true);
    kube.objects(PUB_RESOURCE).clear();
    const gets: string[] = [];
    const reads = kubePubMutationReads({
      list: (r, o) => kube.list(r, o),
      get: (r, ref) => {
        gets.push(ref.name);
        return kube.get(r, ref);
      },
    });
    const input = pod(true);
    expect(await pubPodStep(reads)(input, CONTEXT)).toEqual({ pod: input });
    expect(gets).toEqual([]);
  });

  test('the LIST starts with the request (prefetch) and is read once, where the annotation runs', async () => {
    const { kube } = setup({ selector: { matchLabels: { app: 'web' } } });
    const events: string[] = [];
    const reads = kubePubMutationReads({
      list: (r, o) => {
        events.push('list');
        return kube.list(r, o);
      },
      get: (r, ref) => kube.get(r, ref),
    });
    const steps = pubPodSteps(reads);
    const between = (p: Pod) => {
      events.push('other step');
      return Promise.resolve({ pod: p });
    };
    const body = (name: string) =>
      reviewBody({
        uid: name,
        resource: { group: '', version: 'v1', resource: 'pods' },
        operation: 'CREATE',
        namespace: 'test',
        object: pod(),
      });
    // built once, as kruiseless local builds the steps: each request reads afresh
    for (const uid of ['a', 'b']) {
      const answer = await answerPodMutationReview(body(uid), [steps.prefetch, between, steps.annotate]);
      expect(answer.review.response.patch).toBeDefined();
    }
    expect(events).toEqual(['list', 'other step', 'list', 'other step']);
  });

  test('through the frame: the annotations in the answer’s patch', async () => {
    const { reads } = setup({ selector: { matchLabels: { app: 'web' } } });
    const body = reviewBody({
      uid: 'u1',
      resource: { group: '', version: 'v1', resource: 'pods' },
      operation: 'CREATE',
      namespace: 'test',
      object: pod(),
    });
    const answer = await answerPodMutationReview(body, [pubPodStep(reads)]);
    const ops = JSON.parse(Buffer.from(answer.review.response.patch ?? '', 'base64').toString()) as unknown[];
    expect(ops).toEqual([
      { op: 'add', path: '/metadata/annotations/pub.kruise.io~1related-pub', value: 'pub-1' },
      { op: 'add', path: '/metadata/annotations/kruise.io~1related-pub', value: 'pub-1' },
    ]);
  });
});
