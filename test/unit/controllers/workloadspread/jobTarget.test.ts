/**
 * Job targets as OpenKruise v1.9.0 reads them: the controller's `getPodJob` (the Job's pods by its selector and an
 * owner reference to it, its `spec.parallelism` as the replicas, no deletion or zero-replica rule), the pod webhook's
 * `getWorkloadReplicas` (parallelism for a percent subset) and `isReferenceEqual` (a Job owner is read, and a missing
 * one refuses the pod), and the validating webhook's subset patch check over the Job's template.
 */
import type { Pod } from '../../../../lib/api/types.js';
import {
  kubeWorkloadSpreadValidationReads,
  workloadSpreadValidator,
} from '../../../../lib/controllers/workloadspread/api/validating.js';
import type { WorkloadSpreadStatus } from '../../../../lib/controllers/workloadspread/api/types.js';
import {
  kubeWorkloadSpreadWebhookDeps,
  workloadSpreadPodStep,
} from '../../../../lib/controllers/workloadspread/podWebhook.js';
import { readTargets } from '../../../../lib/controllers/workloadspread/targets.js';
import type { Resource } from '../../../../lib/kube/resource.js';
import type { KubeClient } from '../../../../lib/kube/types.js';
import { pod, workloadSpread } from './fixtures.js';

const JOB_REF = { apiVersion: 'batch/v1', kind: 'Job', name: 'batch' };

const job = (extra: { parallelism?: number; deletionTimestamp?: string } = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: {
    name: 'batch',
    namespace: 'ns',
    uid: 'job-uid',
    ...(extra.deletionTimestamp ? { deletionTimestamp: extra.deletionTimestamp } : {}),
  },
  spec: {
    parallelism: extra.parallelism ?? 4,
    completions: 4,
    selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'job-uid' } },
    template: { spec: { containers: [{ name: 'main', image: 'busybox' }], restartPolicy: 'Never' } },
  },
});

/** A pod of Job `batch` (controller reference), or with that Job as a plain owner, or of Job `other`. */
const jobPod = (name: string, owner: 'controller' | 'owner' | 'other', subset?: string): Pod => {
  const p = pod(name, subset, {
    labels: { 'batch.kubernetes.io/controller-uid': 'job-uid', role: name.startsWith('w') ? 'worker' : 'ps' },
    ownerReferences: [
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        name: owner === 'other' ? 'other' : 'batch',
        uid: owner === 'other' ? 'other-uid' : 'job-uid',
        ...(owner === 'owner' ? {} : { controller: true }),
      },
    ],
  });
  return p;
};

/** A fake cluster of `objects` by `group/plural/name` and `pods`; records the GETs and LISTs in `calls`. */
function fakeKube(objects: Record<string, unknown>, pods: Pod[], calls: string[]) {
  return {
    get: (r: Resource, ref: { name: string }) => {
      calls.push(`get ${r.group}/${r.version}/${r.plural}/${ref.name}`);
      return Promise.resolve(objects[`${r.group}/${r.plural}/${ref.name}`]);
    },
    list: (r: Resource, opts: { labelSelector?: string }) => {
      calls.push(`list ${r.plural} ${opts.labelSelector ?? ''}`);
      return Promise.resolve({ items: r.plural === 'pods' ? pods : [], resourceVersion: '1' });
    },
  } as unknown as KubeClient;
}

const jobSpread = () => {
  const ws = workloadSpread();
  ws.spec.targetRef = { ...JOB_REF };
  return ws;
};

describe('readTargets for a Job (upstream getPodJob)', () => {
  it('its pods by selector with any owner reference to it, parallelism as the replicas, versionIgnored', async () => {
    const calls: string[] = [];
    const pods = [
      jobPod('batch-a', 'controller', 'zone-a'),
      jobPod('batch-b', 'owner', 'zone-b'),
      jobPod('stray-c', 'other', 'zone-a'),
    ];
    const read = await readTargets(fakeKube({ 'batch/jobs/batch': job() }, pods, calls), jobSpread());
    expect(read).toEqual({
      pods: [pods[0], pods[1]],
      replicas: 4,
      latestVersion: 'versionIgnored',
      kind: 'Job',
      nodes: new Map(),
    });
    expect(calls).toEqual([
      'get batch/v1/jobs/batch',
      'get /v1/configmaps/kruise-configuration',
      'list pods batch.kubernetes.io/controller-uid=job-uid',
    ]);
  });

  it('a Job being deleted or at parallelism 0 keeps its pods and its parallelism (no controller-finder rule)', async () => {
    const pods = [jobPod('batch-a', 'controller', 'zone-a')];
    const deleting = job({ deletionTimestamp: '2026-12-07T08:00:00Z' });
    const a = await readTargets(fakeKube({ 'batch/jobs/batch': deleting }, pods, []), jobSpread());
    expect([a.pods.length, a.replicas]).toEqual([1, 4]);
    const zero = await readTargets(
      fakeKube({ 'batch/jobs/batch': job({ parallelism: 0 }) }, pods, []),
      jobSpread(),
    );
    expect([zero.pods.length, zero.replicas]).toEqual([1, 0]);
  });

  it('a Job not found: no pods and 0 replicas; targetFilter keeps the pods it selects', async () => {
    expect(await readTargets(fakeKube({}, [], []), jobSpread())).toEqual({
      pods: [],
      replicas: 0,
      latestVersion: 'versionIgnored',
    });
    const ws = jobSpread();
    ws.spec.targetFilter = { selector: { matchLabels: { role: 'worker' } } };
    const pods = [jobPod('w-1', 'controller', 'zone-a'), jobPod('p-1', 'controller', 'zone-a')];
    const read = await readTargets(fakeKube({ 'batch/jobs/batch': job() }, pods, []), ws);
    expect(read.pods.map((p) => p.metadata.name)).toEqual(['w-1']);
  });
});

describe('the pod webhook for a Job target', () => {
  it('a percent subset counts the Job’s parallelism', async () => {
    const ws = jobSpread();
    ws.spec.subsets[0].maxReplicas = '50%';
    const deps = kubeWorkloadSpreadWebhookDeps(fakeKube({ 'batch/jobs/batch': job() }, [], []));
    await expect(deps.targetReplicas(ws)).resolves.toBe(4);
  });

  it('places the Job’s pod; a pod whose Job is gone is refused with 500, as upstream’s failed GET', async () => {
    const ws = jobSpread();
    const writes: WorkloadSpreadStatus[] = [];
    const calls: string[] = [];
    const kube = fakeKube({ 'batch/jobs/batch': job() }, [], calls);
    const deps = {
      ...kubeWorkloadSpreadWebhookDeps(kube),
      listWorkloadSpreads: () => Promise.resolve([ws]),
      updateStatus: (_w: unknown, status: WorkloadSpreadStatus) => {
        writes.push(status);
        return Promise.resolve({ ...ws, status });
      },
      now: () => new Date('2026-12-07T08:00:00Z'),
    };
    const step = workloadSpreadPodStep(deps);
    const context = { namespace: 'ns', requestNamespace: 'ns', dryRun: false };
    const placed = await step(jobPod('batch-a', 'controller'), context);
    expect(
      'pod' in placed && placed.pod.metadata.annotations?.['apps.kruise.io/matched-workloadspread'],
    ).toBe('{"name":"ws-a","subset":"zone-a"}');
    expect(writes).toHaveLength(1);
    // a WorkloadSpread over a CloneSet: the pod's Job is read for its owner chain; gone, the pod is refused
    const other = workloadSpread();
    const orphan = jobPod('x-1', 'other');
    const refused = await workloadSpreadPodStep({
      ...deps,
      listWorkloadSpreads: () => Promise.resolve([other]),
    })(orphan, context);
    expect(refused).toEqual({ refuse: { code: 500, message: 'Job "other" not found' } });
    expect(calls).toEqual(['get batch/v1/jobs/other']);
  });
});

describe('the validating webhook for a Job target', () => {
  it('checks the subset patch against the Job’s pod template', async () => {
    const ws = jobSpread();
    ws.spec.subsets[0].patch = { spec: { containers: [{ name: 'bare' }] } };
    const calls: string[] = [];
    const v = workloadSpreadValidator({
      reads: kubeWorkloadSpreadValidationReads(fakeKube({ 'batch/jobs/batch': job() }, [], calls)),
    });
    expect(
      await v.validate({
        operation: 'CREATE',
        object: JSON.parse(JSON.stringify(ws)) as never,
        requestVersion: 'v1beta1',
      }),
    ).toEqual({
      allowed: false,
      code: 400,
      message: 'spec.subsets[0].patch.containers[0].image: Required value',
    });
    expect(calls).toContain('get batch/v1/jobs/batch');
  });
});
