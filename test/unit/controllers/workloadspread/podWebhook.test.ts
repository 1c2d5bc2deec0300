/**
 * The WorkloadSpread step of `/mutate-pod` against OpenKruise v1.9.0's `HandlePodCreation` / `acquireSuitableSubset`:
 * the WorkloadSpread found through the pod's owner chain (a ReplicaSet's Deployment), the ledger written before the
 * answer with a re-read after a conflict, dry runs and foreign pods left alone, a failed write refused with 500; and
 * the frame running it before SidecarSet injection into one JSON Patch.
 */
import { answerPodMutationReview, type PodMutationStep } from '../../../../lib/api/admission/podMutation.js';
import type { OwnerReference } from '../../../../lib/api/types.js';
import type {
  WorkloadSpread,
  WorkloadSpreadStatus,
} from '../../../../lib/controllers/workloadspread/api/types.js';
import {
  kubeWorkloadSpreadWebhookDeps,
  WorkloadSpreadReplicasError,
  workloadSpreadPodStep,
  type WorkloadSpreadWebhookDeps,
} from '../../../../lib/controllers/workloadspread/podWebhook.js';
import type { Resource } from '../../../../lib/kube/resource.js';
import type { KubeClient } from '../../../../lib/kube/types.js';
import { KubeApiError } from '../../../../lib/kube/errors.js';
import { pod, workloadSpread } from './fixtures.js';
import { reviewBody } from '../../support/admissionReview.js';

const NOW = new Date('2026-12-04T07:30:00.400Z');
const context = { namespace: 'ns', requestNamespace: 'ns', dryRun: false };

function deps(
  stored: WorkloadSpread[],
  writes: WorkloadSpreadStatus[],
  conflicts = 0,
): WorkloadSpreadWebhookDeps {
  let left = conflicts;
  return {
    listWorkloadSpreads: () => Promise.resolve(stored),
    getWorkloadSpread: (_ns, name) => Promise.resolve(stored.find((w) => w.metadata.name === name)),
    getOwner: (_ns, ref: OwnerReference) =>
      Promise.resolve(
        ref.kind === 'ReplicaSet'
          ? {
              metadata: {
                ownerReferences: [
                  { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd', controller: true },
                ],
              },
            }
          : { metadata: {} },
      ),
    targetReplicas: () => Promise.resolve(3),
    updateStatus(ws, status) {
      if (left-- > 0)
        return Promise.reject(new KubeApiError('update', 409, 'Conflict', 'the object has been modified'));
      writes.push(status);
      return Promise.resolve({ ...ws, status });
    },
    now: () => NOW,
    newUid: () => 'gen-1',
    sleep: () => Promise.resolve(),
  };
}

const placed = (result: Awaited<ReturnType<PodMutationStep>>) =>
  'pod' in result ? result.pod.metadata.annotations?.['apps.kruise.io/matched-workloadspread'] : result;

describe('workloadSpreadPodStep', () => {
  it('places a CloneSet pod in zone-a and writes the record once, after one conflict', async () => {
    const writes: WorkloadSpreadStatus[] = [];
    const result = await workloadSpreadPodStep(deps([workloadSpread()], writes, 1))(
      pod('web-abcde'),
      context,
    );
    expect(placed(result)).toBe('{"name":"ws-a","subset":"zone-a"}');
    expect(writes).toEqual([
      {
        versionedSubsetStatuses: {
          versionIgnored: [
            {
              name: 'zone-a',
              replicas: 0,
              missingReplicas: 1,
              creatingPods: { 'web-abcde': '2026-12-04T07:30:00Z' },
            },
            { name: 'zone-b', replicas: 0, missingReplicas: -1 },
          ],
        },
      },
    ]);
  });

  it('finds a Deployment’s WorkloadSpread through the pod’s ReplicaSet and records the nameless pod by a generated uid', async () => {
    const ws = workloadSpread();
    ws.spec.targetRef = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
    const p = pod('', undefined, {
      generateName: 'web-5d9f7c-',
      labels: { app: 'web', 'pod-template-hash': '5d9f7c' },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d9f7c', uid: 'rs', controller: true },
      ],
    });
    const writes: WorkloadSpreadStatus[] = [];
    const result = await workloadSpreadPodStep(deps([ws], writes))(p, context);
    expect(placed(result)).toBe('{"name":"ws-a","subset":"zone-a","uid":"gen-1"}');
    expect(writes[0]?.versionedSubsetStatuses?.['5d9f7c']?.[0]?.creatingPods).toEqual({
      'gen-1': '2026-12-04T07:30:00Z',
    });
  });

  it('leaves a dry run, a pod of another workload and a bare pod unchanged, with nothing written', async () => {
    const writes: WorkloadSpreadStatus[] = [];
    const step = workloadSpreadPodStep(deps([workloadSpread()], writes));
    const other = pod('x', undefined, {
      ownerReferences: [
        { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'api', uid: 'c2', controller: true },
      ],
    });
    const bare = pod('y', undefined, { ownerReferences: [] });
    for (const [p, ctx] of [
      [pod('web-abcde'), { ...context, dryRun: true }],
      [other, context],
      [bare, context],
    ] as const)
      expect(await step(p, ctx)).toEqual({ pod: p });
    expect(writes).toEqual([]);
  });

  it('a write that keeps failing refuses the pod with 500 and the API server’s message', async () => {
    const d = deps([workloadSpread()], [], 9);
    expect(await workloadSpreadPodStep(d)(pod('web-abcde'), context)).toEqual({
      refuse: { code: 500, message: 'the object has been modified' },
    });
  });
});

describe('the target replicas of a percent subset with targetFilter.replicasPathList (upstream getWorkloadReplicas)', () => {
  const kube = {
    get: (r: Resource, ref: { name: string }) =>
      Promise.resolve(
        `${r.plural}/${ref.name}` === 'clonesets/web'
          ? {
              metadata: { name: 'web', namespace: 'ns', uid: 'cs-uid' },
              spec: { replicas: 2, revisionHistoryLimit: 10 },
            }
          : undefined,
      ),
  } as unknown as KubeClient;
  const percent = (paths: string[]) => {
    const ws = workloadSpread();
    ws.spec.subsets[0].maxReplicas = '50%';
    ws.spec.targetFilter = { selector: { matchLabels: { app: 'web' } }, replicasPathList: paths };
    return ws;
  };

  it('the sum at the paths; spec.replicas without them', async () => {
    const read = kubeWorkloadSpreadWebhookDeps(kube);
    await expect(read.targetReplicas(percent(['spec.revisionHistoryLimit', 'spec.replicas']))).resolves.toBe(
      12,
    );
    await expect(read.targetReplicas(percent([]))).resolves.toBe(2);
  });

  it('a path the target lacks refuses the pod with 500 in upstream’s words, and writes no record', async () => {
    const ws = percent(['spec.nope']);
    await expect(kubeWorkloadSpreadWebhookDeps(kube).targetReplicas(ws)).rejects.toEqual(
      new WorkloadSpreadReplicasError('path "nope" not exists'),
    );
    const writes: WorkloadSpreadStatus[] = [];
    const d = { ...deps([ws], writes), targetReplicas: kubeWorkloadSpreadWebhookDeps(kube).targetReplicas };
    expect(await workloadSpreadPodStep(d)(pod('web-abcde'), context)).toEqual({
      refuse: { code: 500, message: 'path "nope" not exists' },
    });
    expect(writes).toEqual([]);
  });
});

describe('targetFilter (upstream IsPodSelected)', () => {
  it('a filter with a selector takes the pods it matches; one without a selector takes none (labels.Nothing)', async () => {
    const step = (targetFilter: WorkloadSpread['spec']['targetFilter']) => {
      const ws = workloadSpread();
      ws.spec.targetFilter = targetFilter;
      return workloadSpreadPodStep(deps([ws], []))(pod('web-abcde'), context);
    };
    expect(placed(await step({ selector: { matchLabels: { app: 'web' } } }))).toBe(
      '{"name":"ws-a","subset":"zone-a"}',
    );
    expect(placed(await step({ selector: { matchLabels: { app: 'other' } } }))).toBeUndefined();
    // before: a filter of replicas paths only took every pod
    expect(placed(await step({ replicasPathList: ['spec.replicas'] }))).toBeUndefined();
    expect(placed(await step(undefined))).toBe('{"name":"ws-a","subset":"zone-a"}');
  });
});

describe('workloadSpreadPodStep for StatefulSet targets', () => {
  const stsWs = (group: string) =>
    workloadSpread({
      spec: {
        targetRef: { apiVersion: `${group}/v1beta1`, kind: 'StatefulSet', name: 'web' },
        subsets: [
          { name: 'zone-a', maxReplicas: 2 },
          { name: 'zone-b', maxReplicas: 1 },
        ],
      },
    });
  const stsPod = (name: string, group: string) => {
    const p = pod(name);
    p.metadata.ownerReferences = [
      { apiVersion: `${group}/v1`, kind: 'StatefulSet', name: 'web', uid: 's', controller: true },
    ];
    return p;
  };

  it.each(['apps', 'apps.kruise.io'])(
    'a %s StatefulSet’s pods go by ordinal (0-1 zone-a, 2 zone-b, 3 none) and nothing is written',
    async (group) => {
      const writes: WorkloadSpreadStatus[] = [];
      const step = workloadSpreadPodStep(deps([stsWs(group)], writes));
      const results = [];
      for (const name of ['web-0', 'web-1', 'web-2', 'web-3'])
        results.push(placed(await step(stsPod(name, group), context)));
      expect(results).toEqual([
        '{"name":"ws-a","subset":"zone-a"}',
        '{"name":"ws-a","subset":"zone-a"}',
        '{"name":"ws-a","subset":"zone-b"}',
        undefined,
      ]);
      expect(writes).toEqual([]);
    },
  );

  it('an Advanced StatefulSet’s pod is not taken by a WorkloadSpread naming the apps/v1 StatefulSet of that name', async () => {
    const writes: WorkloadSpreadStatus[] = [];
    const result = await workloadSpreadPodStep(deps([stsWs('apps')], writes))(
      stsPod('web-0', 'apps.kruise.io'),
      context,
    );
    expect(placed(result)).toBeUndefined();
  });
});

describe('answerPodMutationReview', () => {
  it('runs the steps in order on one pod and answers one JSON Patch from the pod sent', async () => {
    const seen: string[] = [];
    const sidecar: PodMutationStep = (p) => {
      seen.push(p.metadata.annotations?.['apps.kruise.io/matched-workloadspread'] ?? 'none');
      return Promise.resolve({
        pod: { ...p, spec: { ...p.spec, containers: [...p.spec.containers, { name: 'sc', image: 's' }] } },
      });
    };
    const body = reviewBody({
      uid: 'u1',
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      namespace: 'ns',
      operation: 'CREATE',
      object: pod('web-abcde'),
    });
    const answer = await answerPodMutationReview(body, [
      workloadSpreadPodStep(deps([workloadSpread()], [])),
      sidecar,
    ]);
    expect(seen).toEqual(['{"name":"ws-a","subset":"zone-a"}']);
    const ops = JSON.parse(Buffer.from(answer.review.response.patch ?? '', 'base64').toString()) as {
      op: string;
      path: string;
    }[];
    expect(ops.map((o) => `${o.op} ${o.path}`).sort()).toEqual([
      'add /metadata/annotations',
      'add /spec/affinity',
      'add /spec/containers/1',
    ]);
  });
});
