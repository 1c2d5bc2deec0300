/**
 * AdvancedCronJob through the whole pipeline on the local control plane (issue 20), over two ticks of a
 * `*\/1 * * * *` schedule: the first pass writes `status.type`; at the next minute the Job `<name>-<Unix seconds>`
 * is created with the template's labels and annotations, `apps.kruise.io/scheduled-at` and the AdvancedCronJob as
 * controller (kube-controller-manager's Job controller runs it, kwok completes its pod); at the minute after, with
 * `successfulJobsHistoryLimit: 0`, the completed Job is deleted (its pod with it: background propagation), the
 * next Job is created, and the status names the last scheduled time; an object OpenKruise's webhook would refuse gets
 * a FailedValidation Warning and no Job. Asserted from API objects only.
 */
import { BatchV1Api, type V1Job } from '@kubernetes/client-node';
import type { Embedded } from '../../../lib/local/embedded.js';
import type { AdvancedCronJob } from '../../../lib/controllers/advancedcronjob/api/types.js';
import { ACJ_API, nextMinute } from '../support/advancedcronjob.js';
import { useTestNamespace } from '../support/cluster.js';
import { startPipeline } from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('acj');
const BCJ_API = { group: 'apps.kruise.io', version: 'v1beta1', plural: 'broadcastjobs' };
let embedded: Embedded;
let batch: BatchV1Api;

beforeAll(async () => {
  batch = ctx.kc.makeApiClient(BatchV1Api);
  embedded = await startPipeline(ctx.namespace);
}, 30_000);

afterAll(async () => {
  await embedded?.stop();
});

async function getAcj(name: string): Promise<AdvancedCronJob> {
  return (await ctx.custom.getNamespacedCustomObject({
    ...ACJ_API,
    namespace: ctx.namespace,
    name,
  })) as AdvancedCronJob;
}

async function jobs(): Promise<V1Job[]> {
  return (await batch.listNamespacedJob({ namespace: ctx.namespace })).items.sort((a, b) =>
    (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
  );
}

describe('AdvancedCronJob on the local control plane', () => {
  test('a Job at each minute, named by its scheduled time; the completed one deleted by the history limit', async () => {
    const acj: AdvancedCronJob = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'AdvancedCronJob',
      metadata: { name: 'hello', namespace: ctx.namespace },
      spec: {
        schedule: '*/1 * * * *',
        successfulJobsHistoryLimit: 0,
        template: {
          jobTemplate: {
            metadata: { labels: { app: 'hello' }, annotations: { team: 'a' } },
            spec: {
              template: {
                spec: { containers: [{ name: 'hello', image: 'busybox' }], restartPolicy: 'Never' },
              },
            },
          },
        },
      },
    };
    const created = (await ctx.custom.createNamespacedCustomObject({
      ...ACJ_API,
      namespace: ctx.namespace,
      body: acj,
    })) as AdvancedCronJob;
    const uid = created.metadata.uid ?? '';
    const first = nextMinute(created.metadata.creationTimestamp ?? '');

    await waitFor('status.type Job', 20_000, async () =>
      (await getAcj('hello')).status?.type === 'Job' ? true : undefined,
    );

    const job1 = await waitFor('the first Job', 90_000, async () => (await jobs())[0]);
    expect(job1.metadata?.name).toBe(`hello-${first}`);
    expect(job1.metadata?.labels).toMatchObject({ app: 'hello' });
    expect(job1.metadata?.annotations).toEqual({
      team: 'a',
      'apps.kruise.io/scheduled-at': new Date(first * 1000).toISOString().replace('.000Z', 'Z'),
    });
    expect(job1.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'AdvancedCronJob',
        name: 'hello',
        uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    await waitFor('the first Job complete', 50_000, async () => {
      const j = (await jobs()).find((x) => x.metadata?.name === `hello-${first}`);
      return j?.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True')
        ? true
        : undefined;
    });

    // the next minute: the completed Job is over the limit of 0, and the next one is created
    const second = first + 60;
    const after = await waitFor('only the second Job', 90_000, async () => {
      const js = await jobs();
      return js.length === 1 && js[0]?.metadata?.name === `hello-${second}` ? js : undefined;
    });
    expect(after.map((j) => j.metadata?.name)).toEqual([`hello-${second}`]);
    // the status write of that pass (lastScheduleTime of the first) wakes the object again: the new Job is listed
    const status = await waitFor('status naming the second Job', 20_000, async () => {
      const st = (await getAcj('hello')).status;
      return st?.active?.length ? st : undefined;
    });
    expect(status).toEqual({
      type: 'Job',
      active: [
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          namespace: ctx.namespace,
          name: `hello-${second}`,
          uid: after[0]?.metadata?.uid,
          resourceVersion: expect.any(String),
        },
      ],
      lastScheduleTime: new Date(second * 1000).toISOString().replace('.000Z', 'Z'),
    });
    await waitFor('the first Job pods gone', 30_000, async () => {
      const pods = await ctx.core.listNamespacedPod({
        namespace: ctx.namespace,
        labelSelector: `job-name=hello-${first}`,
      });
      return pods.items.length === 0 ? true : undefined;
    });
  }, 240_000);

  test('a broadcastJobTemplate: a BroadcastJob at the next minute, run to completed by the BroadcastJob controller', async () => {
    const created = (await ctx.custom.createNamespacedCustomObject({
      ...ACJ_API,
      namespace: ctx.namespace,
      body: {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'AdvancedCronJob',
        metadata: { name: 'bc', namespace: ctx.namespace },
        spec: {
          schedule: '*/1 * * * *',
          template: {
            broadcastJobTemplate: {
              metadata: { labels: { app: 'bc' } },
              spec: {
                template: {
                  spec: { containers: [{ name: 'bc', image: 'busybox' }], restartPolicy: 'Never' },
                },
              },
            },
          },
        },
      },
    })) as AdvancedCronJob;
    const first = nextMinute(created.metadata.creationTimestamp ?? '');
    const name = `bc-${first}`;
    type Bcj = {
      metadata: { labels?: Record<string, string>; ownerReferences?: unknown[] };
      status?: { phase?: string };
    };
    const bcj = await waitFor('the BroadcastJob completed', 120_000, async () => {
      try {
        const j = (await ctx.custom.getNamespacedCustomObject({
          ...BCJ_API,
          namespace: ctx.namespace,
          name,
        })) as Bcj;
        return j.status?.phase === 'completed' ? j : undefined;
      } catch {
        return undefined;
      }
    });
    // OpenKruise's CRD types broadcastJobTemplate.metadata as a bare object, so the API server prunes its labels when
    // the AdvancedCronJob is stored: the BroadcastJob gets none, with OpenKruise as with Kruiseless
    expect(bcj.metadata.labels).toBeUndefined();
    expect(bcj.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'AdvancedCronJob',
        name: 'bc',
        uid: created.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    // the BroadcastJob's status changes wake its AdvancedCronJob (an Owns watch, as upstream's): no active child left
    const status = await waitFor('status without the completed BroadcastJob', 20_000, async () => {
      const st = (await getAcj('bc')).status;
      return st?.lastScheduleTime && !st.active ? st : undefined;
    });
    expect(status).toEqual({
      type: 'BroadcastJob',
      lastScheduleTime: new Date(first * 1000).toISOString().replace('.000Z', 'Z'),
    });
  }, 150_000);

  test("a schedule and time zone OpenKruise's webhook refuses: a FailedValidation Warning, no Job", async () => {
    await ctx.custom.createNamespacedCustomObject({
      ...ACJ_API,
      namespace: ctx.namespace,
      body: {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'AdvancedCronJob',
        metadata: { name: 'broken' },
        spec: {
          schedule: '*/1 * * *',
          timeZone: 'Mars/Olympus',
          template: {
            jobTemplate: {
              spec: {
                template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } },
              },
            },
          },
        },
      },
    });
    const event = await waitFor('the FailedValidation Event', 60_000, async () =>
      (await ctx.core.listNamespacedEvent({ namespace: ctx.namespace })).items.find(
        (e) => e.involvedObject.name === 'broken' && e.reason === 'FailedValidation',
      ),
    );
    expect(`${event.type} ${event.message}`).toBe(
      'Warning AdvancedCronJob is invalid: spec.schedule: Invalid value: "*/1 * * *": expected exactly 5 fields, found 4: [*/1 * * *]; spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
    );
    expect((await jobs()).filter((j) => j.metadata?.name?.startsWith('broken-'))).toEqual([]);
    expect((await getAcj('broken')).status).toBeUndefined();
  }, 90_000);
});
