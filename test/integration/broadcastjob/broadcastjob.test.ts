/**
 * BroadcastJob through the whole pipeline on the local control plane (issue 20): a job over the kwok nodes creates
 * one pod per node (pinned by node-name affinity, bound there by kube-scheduler), kwok's `pod-complete` stage takes
 * the `restartPolicy: Never` pods to Succeeded, the status reaches `phase: completed` with exact counts, a Normal
 * `JobComplete` Event is recorded, and `ttlSecondsAfterFinished` deletes the job; FailFast fails a job at its first
 * failed pod (kwok's `pod-fail` stage, by label); a `Never` job gets a pod on a node added later (a tainted fake node
 * its pods tolerate: the Node watch); and OpenKruise's own e2e spec `succeeds for parallelism < number of node`
 * (test/e2e/apps/v1beta1/broadcastjob.go: a tainted fake node no kubelet serves, whose pod the test marks Succeeded).
 * Asserted from API objects only.
 */
import type { Embedded } from '../../../lib/local/embedded.js';
import type { Pod } from '../../../lib/api/types.js';
import type { BroadcastJob } from '../../../lib/controllers/broadcastjob/api/types.js';
import { useTestNamespace } from '../support/cluster.js';
import { startPipeline } from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('bcj');
const BCJ_API = { group: 'apps.kruise.io', version: 'v1beta1', plural: 'broadcastjobs' };
let embedded: Embedded;

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace);
}, 30_000);

afterAll(async () => {
  await embedded?.stop();
});

async function getJob(name: string): Promise<BroadcastJob | undefined> {
  try {
    return (await ctx.custom.getNamespacedCustomObject({
      ...BCJ_API,
      namespace: ctx.namespace,
      name,
    })) as BroadcastJob;
  } catch {
    return undefined;
  }
}

describe('BroadcastJob on the local control plane', () => {
  test('one pod per node, all Succeeded, phase completed with exact counts, then deleted by its TTL', async () => {
    const nodes = (await ctx.core.listNode()).items
      .filter(
        (n) => !(n.spec?.taints ?? []).some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute'),
      )
      .map((n) => n.metadata?.name ?? '')
      .sort();
    expect(nodes.length).toBeGreaterThan(0);
    const job: BroadcastJob = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'BroadcastJob',
      metadata: { name: 'hello', namespace: ctx.namespace },
      spec: {
        template: {
          metadata: { labels: { app: 'hello' } },
          spec: { containers: [{ name: 'hello', image: 'busybox' }], restartPolicy: 'Never' },
        },
        completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 5 },
      },
    };
    await ctx.custom.createNamespacedCustomObject({ ...BCJ_API, namespace: ctx.namespace, body: job });
    const created = await getJob('hello');
    const uid = created?.metadata.uid ?? '';

    const done = await waitFor('phase completed', 120_000, async () => {
      const j = await getJob('hello');
      return j?.status?.phase === 'completed' ? j : undefined;
    });
    expect(done.status).toMatchObject({
      active: 0,
      succeeded: nodes.length,
      failed: 0,
      desired: nodes.length,
      phase: 'completed',
    });
    expect(done.status?.conditions).toEqual([
      expect.objectContaining({
        type: 'Complete',
        status: 'True',
        reason: 'Complete',
        message: `Job completed, ${nodes.length} pods succeeded, 0 pods failed`,
      }),
    ]);
    expect(done.status?.startTime).toBeDefined();
    expect(done.status?.completionTime).toBeDefined();

    const pods = (
      await ctx.core.listNamespacedPod({
        namespace: ctx.namespace,
        labelSelector: `broadcastjob-name=hello,broadcastjob-controller-uid=${uid}`,
      })
    ).items as unknown as Pod[];
    expect(pods.map((p) => p.spec.nodeName).sort()).toEqual(nodes);
    for (const p of pods) {
      expect(p.status?.phase).toBe('Succeeded');
      expect(p.metadata.generateName).toBe('hello-');
      expect(p.metadata.labels).toEqual({
        app: 'hello',
        'broadcastjob-name': 'hello',
        'broadcastjob-controller-uid': uid,
      });
      expect(p.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'BroadcastJob',
          name: 'hello',
          uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
      expect(p.spec.affinity).toEqual({
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchFields: [{ key: 'metadata.name', operator: 'In', values: [p.spec.nodeName] }] },
            ],
          },
        },
      });
    }

    const events = (
      await ctx.core.listNamespacedEvent({
        namespace: ctx.namespace,
        fieldSelector: `involvedObject.kind=BroadcastJob,involvedObject.name=hello`,
      })
    ).items;
    expect(events.filter((e) => e.reason === 'SuccessfulCreate')).toHaveLength(nodes.length);
    expect(events.find((e) => e.reason === 'JobComplete')?.message).toBe(
      `Job ${ctx.namespace}/hello is completed, ${nodes.length} pods succeeded, 0 pods failed`,
    );

    await waitFor('deleted after ttlSecondsAfterFinished', 60_000, async () =>
      (await getJob('hello')) === undefined ? true : undefined,
    );
  }, 240_000);

  test('FailFast (the default): the first failed pod fails the job; parallelism 1 created no other pod', async () => {
    const job: BroadcastJob = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'BroadcastJob',
      metadata: { name: 'failing', namespace: ctx.namespace },
      spec: {
        parallelism: 1,
        template: {
          metadata: { labels: { 'kwok.kruiseless.io/complete': 'Failed' } },
          spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' },
        },
      },
    };
    await ctx.custom.createNamespacedCustomObject({ ...BCJ_API, namespace: ctx.namespace, body: job });
    const failed = await waitFor('phase failed', 120_000, async () => {
      const j = await getJob('failing');
      return j?.status?.phase === 'failed' ? j : undefined;
    });
    expect(failed.status).toMatchObject({ active: 0, succeeded: 0, failed: 1, phase: 'failed' });
    expect(failed.status?.conditions).toEqual([
      expect.objectContaining({
        type: 'Failed',
        status: 'True',
        reason: 'Failed',
        message: 'failure policy is FailurePolicyTypeFailFast and failed pod is found',
      }),
    ]);
    const pods = (
      await ctx.core.listNamespacedPod({
        namespace: ctx.namespace,
        labelSelector: 'broadcastjob-name=failing',
      })
    ).items;
    expect(pods.map((p) => p.status?.phase)).toEqual(['Failed']);
    const events = (
      await ctx.core.listNamespacedEvent({
        namespace: ctx.namespace,
        fieldSelector: 'involvedObject.kind=BroadcastJob,involvedObject.name=failing',
      })
    ).items;
    expect(events.find((e) => e.reason === 'failed pod is found')?.message).toBe(
      'failure policy is FailurePolicyTypeFailFast and failed pod is found: 0 pods succeeded, 1 pods failed',
    );
  }, 240_000);

  test('completionPolicy Never: a node added later gets its pod (Node watch), the job keeps running', async () => {
    const taint = { key: `bcj-test-${ctx.namespace}`, value: 'x', effect: 'NoSchedule' };
    const job: BroadcastJob = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'BroadcastJob',
      metadata: { name: 'forever', namespace: ctx.namespace },
      spec: {
        template: {
          spec: {
            containers: [{ name: 'c', image: 'busybox' }],
            restartPolicy: 'Never',
            tolerations: [{ key: taint.key, operator: 'Exists' }],
          },
        },
        completionPolicy: { type: 'Never' },
      },
    };
    const before = (await ctx.core.listNode()).items.filter(
      (n) => !(n.spec?.taints ?? []).some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute'),
    ).length;
    await ctx.custom.createNamespacedCustomObject({ ...BCJ_API, namespace: ctx.namespace, body: job });
    await waitFor(`${before} pods succeeded`, 120_000, async () => {
      const j = await getJob('forever');
      return j?.status?.succeeded === before ? j : undefined;
    });
    const nodeName = `kwok-bcj-${ctx.namespace}`;
    await ctx.core.createNode({
      body: {
        metadata: {
          name: nodeName,
          labels: { type: 'kwok', 'kubernetes.io/hostname': nodeName },
          annotations: { 'kwok.x-k8s.io/node': 'fake' },
        },
        spec: { taints: [taint] },
      },
    });
    try {
      const grown = await waitFor('a pod on the new node, succeeded', 120_000, async () => {
        const j = await getJob('forever');
        return j?.status?.succeeded === before + 1 ? j : undefined;
      });
      expect(grown.status).toMatchObject({
        active: 0,
        failed: 0,
        succeeded: before + 1,
        desired: before + 1,
        phase: 'running',
      });
      expect(grown.status?.conditions).toBeUndefined();
      const pods = (
        await ctx.core.listNamespacedPod({
          namespace: ctx.namespace,
          labelSelector: 'broadcastjob-name=forever',
        })
      ).items;
      expect(pods.filter((p) => p.spec?.nodeName === nodeName)).toHaveLength(1);
    } finally {
      await ctx.core.deleteNode({ name: nodeName });
    }
  }, 240_000);

  test("OpenKruise's e2e spec: succeeds for parallelism < number of node (a fake node the test completes)", async () => {
    const key = 'kruise.io/e2e-fake-key';
    const rand = Math.random().toString(36).slice(2, 8);
    const nodeName = `fake-node-${rand}`;
    const resources = { cpu: '4', memory: '8Gi', 'ephemeral-storage': '20Gi', pods: '16' };
    await ctx.core.createNode({
      body: {
        metadata: { name: nodeName, labels: { 'kubernetes.io/hostname': nodeName, [key]: 'true' } },
        spec: { taints: [{ key, value: rand, effect: 'NoSchedule' }] },
      },
    });
    try {
      const node = await ctx.core.readNode({ name: nodeName });
      await ctx.core.replaceNodeStatus({
        name: nodeName,
        body: {
          ...node,
          status: {
            phase: 'Running',
            capacity: resources,
            allocatable: resources,
            conditions: [{ type: 'Ready', status: 'True', reason: 'FakeReady' }],
          },
        },
      });
      const tolerations = [{ key, operator: 'Equal', value: rand, effect: 'NoSchedule' }];
      const nodes = (await ctx.core.listNode()).items.filter((n) =>
        (n.spec?.taints ?? []).every((t) =>
          tolerations.some((tol) => tol.key === t.key && tol.value === t.value),
        ),
      );
      const job: BroadcastJob = {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'BroadcastJob',
        metadata: { name: `job-${rand}`, namespace: ctx.namespace },
        spec: {
          parallelism: Math.max(nodes.length - 1, Math.min(nodes.length, 1)),
          template: {
            spec: {
              tolerations,
              containers: [{ name: 'box', image: 'busybox', command: ['/bin/sh', '-c', 'sleep 5'] }],
              restartPolicy: 'Never',
            },
          },
          completionPolicy: { type: 'Always' },
        },
      };
      await ctx.custom.createNamespacedCustomObject({ ...BCJ_API, namespace: ctx.namespace, body: job });
      await waitFor(`desired ${nodes.length}`, 10_000, async () =>
        (await getJob(`job-${rand}`))?.status?.desired === nodes.length ? true : undefined,
      );
      await waitFor(`${nodes.length} pods, the fake node's marked Succeeded`, 180_000, async () => {
        const pods = (
          await ctx.core.listNamespacedPod({
            namespace: ctx.namespace,
            labelSelector: `broadcastjob-name=job-${rand}`,
          })
        ).items;
        const fake = pods.find((p) => p.spec?.nodeName === nodeName);
        if (fake && fake.status?.phase !== 'Succeeded')
          await ctx.core.replaceNamespacedPodStatus({
            name: fake.metadata?.name ?? '',
            namespace: ctx.namespace,
            body: { ...fake, status: { ...fake.status, phase: 'Succeeded' } },
          });
        return pods.length === nodes.length ? true : undefined;
      });
      const done = await waitFor(`succeeded ${nodes.length}`, 60_000, async () => {
        const j = await getJob(`job-${rand}`);
        return j?.status?.succeeded === nodes.length ? j : undefined;
      });
      expect(done.status).toMatchObject({ desired: nodes.length, active: 0, failed: 0 });
    } finally {
      await ctx.core.deleteNode({ name: nodeName });
    }
  }, 300_000);
});
