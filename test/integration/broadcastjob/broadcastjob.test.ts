/**
 * BroadcastJob through the whole pipeline on the local control plane (issue 20): a job over the kwok nodes creates
 * one pod per node (pinned by node-name affinity, bound there by kube-scheduler), kwok's `pod-complete` stage takes
 * the `restartPolicy: Never` pods to Succeeded, the status reaches `phase: completed` with exact counts, a Normal
 * `JobComplete` Event is recorded, and `ttlSecondsAfterFinished` deletes the job. Asserted from API objects only.
 */
import type { Embedded } from '../../../lib/local/embedded.js';
import type { Pod } from '../../../lib/api/types.js';
import type { BroadcastJob } from '../../../lib/controllers/broadcastjob/api/types.js';
import { startEmbedded } from '../../../lib/local/embedded.js';
import { useTestNamespace } from '../support/cluster.js';
import {
  namespaceScopedServerlessYml,
  RecordingLogger,
  testKubeconfig,
  E2E_CLUSTER,
} from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('bcj');
const BCJ_API = { group: 'apps.kruise.io', version: 'v1beta1', plural: 'broadcastjobs' };
let embedded: Embedded;

beforeAll(async () => {
  embedded = await startEmbedded({
    kubeconfig: testKubeconfig(),
    clusterName: E2E_CLUSTER,
    logger: new RecordingLogger(),
    serverlessYml: namespaceScopedServerlessYml(ctx.namespace),
  });
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
});
