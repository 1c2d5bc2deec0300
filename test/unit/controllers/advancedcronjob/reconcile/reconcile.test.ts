/**
 * The AdvancedCronJob reconcile invocation against the recording API server: the ordered writes of OpenKruise's
 * `reconcileJob` (status → history deletes → create), background propagation on deletes, and the object's one
 * wake-up at the next scheduled time (set, moved, removed when paused, invalid or deleted; a backoff stays an
 * ordinary requeue).
 */
import { silentLogger } from '../../../../../lib/core/logger.js';
import {
  reconcileAdvancedCronJob,
  type AdvancedCronJobReconcileDeps,
} from '../../../../../lib/controllers/advancedcronjob/index.js';
import { KubeApiError } from '../../../../../lib/kube/errors.js';
import { ACJ_RESOURCE, JOB_RESOURCE } from '../../../../../lib/controllers/advancedcronjob/api/resource.js';
import type { AdvancedCronJob, CronChild } from '../../../../../lib/controllers/advancedcronjob/api/types.js';
import {
  requeueDueMs,
  type ReconcileRequest,
  type RequeueScheduler,
} from '../../../../../lib/requests/index.js';
import { createMemoryStores } from '../../../../../lib/state/index.js';
import {
  RecordingKube,
  recordingStores,
  type Journal,
} from '../../cloneset/reconcile/support/recordingKube.js';

const T1 = 1796256060; // 2026-12-03T00:01:00Z
const REQUEST: ReconcileRequest = {
  version: 2,
  cluster: 'test',
  kind: 'apps.kruise.io/AdvancedCronJob',
  namespace: 'default',
  name: 'hello',
  reason: 'Requeue',
};

function setup(now: string, spec: Partial<AdvancedCronJob['spec']> = {}) {
  const journal: Journal = [];
  const clock = { now: Date.parse(now) };
  const kube = new RecordingKube(journal, () => new Date(clock.now));
  const recorded = recordingStores(createMemoryStores(), journal, {});
  const requeue: RequeueScheduler = {
    // the instant the requeue is due, as the schedulers count it (from `fromMs`, else from their clock)
    async requeueAfter(_r, seconds, fromMs) {
      journal.push(`requeue at ${new Date(requeueDueMs(clock.now, seconds, fromMs)).toISOString()}`);
    },
    async wakeUpAfter(_r, seconds, fromMs) {
      journal.push(`wake-up at ${new Date(requeueDueMs(clock.now, seconds, fromMs)).toISOString()}`);
    },
    async cancelWakeUp() {
      journal.push('wake-up cancelled');
    },
  };
  kube.objects(ACJ_RESOURCE).set('hello', {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'AdvancedCronJob',
    metadata: {
      name: 'hello',
      namespace: 'default',
      uid: 'acj-uid',
      resourceVersion: '1',
      creationTimestamp: '2026-12-03T00:00:30Z',
    },
    spec: {
      schedule: '*/1 * * * *',
      template: {
        jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } } },
      },
      ...spec,
    },
    status: { type: 'Job' },
  });
  const jobs = kube.objects(JOB_RESOURCE);
  const deps = (): AdvancedCronJobReconcileDeps => ({
    kube,
    ...recorded,
    requeue,
    log: silentLogger,
    holder: 'inv-1',
    clock: () => clock.now,
    sleep: async (ms) => {
      clock.now += ms;
    },
    deadlineMs: clock.now + 600_000,
    leaseDurationMs: 120_000,
    maxInlineWaitSeconds: 10,
    maxPasses: 20,
  });
  return { journal, kube, jobs, deps, clock };
}

function completedJob(unix: number): CronChild {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: `hello-${unix}`,
      namespace: 'default',
      uid: `uid-${unix}`,
      resourceVersion: '3',
      annotations: {
        'apps.kruise.io/scheduled-at': new Date(unix * 1000).toISOString().replace('.000Z', 'Z'),
      },
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'AdvancedCronJob',
          name: 'hello',
          uid: 'acj-uid',
          controller: true,
        },
      ],
    },
    status: { startTime: '2026-12-03T00:01:01Z', conditions: [{ type: 'Complete', status: 'True' }] },
  };
}

describe('reconcileAdvancedCronJob', () => {
  test('at the scheduled minute: the Job created, no status write (unchanged), its wake-up at the next minute', async () => {
    const h = setup('2026-12-03T00:01:00.400Z');
    await reconcileAdvancedCronJob(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      `create job hello-${T1}`,
      'wake-up at 2026-12-03T00:02:00.000Z',
      'lease.release',
    ]);
    expect(h.jobs.get(`hello-${T1}`)?.metadata.annotations).toEqual({
      'apps.kruise.io/scheduled-at': '2026-12-03T00:01:00Z',
    });
  });

  test('the next minute with limit 0: status, then the completed Job deleted (background), then the next Job', async () => {
    const h = setup('2026-12-03T00:02:00.100Z', { successfulJobsHistoryLimit: 0 });
    h.jobs.set(`hello-${T1}`, completedJob(T1));
    await reconcileAdvancedCronJob(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'replace advancedcronjob status hello',
      `delete job hello-${T1} (Background)`,
      `create job hello-${T1 + 60}`,
      'wake-up at 2026-12-03T00:03:00.000Z',
      'lease.release',
    ]);
    expect(h.kube.objects(ACJ_RESOURCE).get('hello')?.status).toEqual({
      type: 'Job',
      lastScheduleTime: '2026-12-03T00:01:00Z',
    });
    expect([...h.jobs.keys()]).toEqual([`hello-${T1 + 60}`]);
  });

  test('writes that take time do not make the wake-up late: it is due at the next minute to the millisecond', async () => {
    const h = setup('2026-12-03T00:01:00.400Z');
    const create = h.kube.create.bind(h.kube);
    h.kube.create = (resource, object) => {
      h.clock.now += 750; // a slow create: the requeue is scheduled at 00:01:01.150
      return create(resource, object);
    };
    await reconcileAdvancedCronJob(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      `create job hello-${T1}`,
      'wake-up at 2026-12-03T00:02:00.000Z',
      'lease.release',
    ]);
  });

  test('woken 3 ms early: nothing created, the 3 ms slept inline, then the Job of the minute, once', async () => {
    const h = setup('2026-12-03T00:00:59.997Z');
    await reconcileAdvancedCronJob(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      `create job hello-${T1}`,
      'wake-up at 2026-12-03T00:02:00.000Z',
      'lease.release',
    ]);
    expect(h.clock.now).toBe(Date.parse('2026-12-03T00:01:00.000Z'));
  });

  test('paused: status and history only, and its wake-up removed', async () => {
    const h = setup('2026-12-03T00:02:00.100Z', { paused: true, successfulJobsHistoryLimit: 0 });
    h.jobs.set(`hello-${T1}`, completedJob(T1));
    const outcome = await reconcileAdvancedCronJob(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'replace advancedcronjob status hello',
      `delete job hello-${T1} (Background)`,
      'wake-up cancelled',
      'lease.release',
    ]);
    expect(outcome.wakeUp).toBe('cancelled');
  });

  test('deleted: its wake-up removed, nothing else', async () => {
    const h = setup('2026-12-03T00:02:00.100Z');
    h.kube.objects(ACJ_RESOURCE).delete('hello');
    const outcome = await reconcileAdvancedCronJob(h.deps(), REQUEST);
    expect(h.journal).toEqual(['lease.acquire', 'wake-up cancelled', 'lease.release']);
    expect(outcome).toMatchObject({ result: 'gone', wakeUp: 'cancelled' });
  });

  test('a failed create backs off with an ordinary requeue and leaves the wake-up as it was', async () => {
    const h = setup('2026-12-03T00:01:00.400Z');
    h.kube.create = async () => {
      throw new KubeApiError('create jobs', 500, 'InternalError', 'etcd timeout');
    };
    const outcome = await reconcileAdvancedCronJob(h.deps(), REQUEST);
    expect(h.journal.filter((l) => /requeue|wake-up/.test(l))).toEqual([
      'requeue at 2026-12-03T00:01:01.400Z',
    ]);
    expect(outcome.wakeUp).toBeUndefined();
  });

  test('a moved schedule moves the wake-up, later as well as sooner', async () => {
    const h = setup('2026-12-03T00:01:30.000Z', { schedule: '0 * * * *' });
    await reconcileAdvancedCronJob(h.deps(), REQUEST);
    const acj = h.kube.objects(ACJ_RESOURCE).get('hello');
    if (acj) (acj.spec as { schedule: string }).schedule = '*/5 * * * *';
    await reconcileAdvancedCronJob(h.deps(), REQUEST);
    expect(h.journal.filter((l) => l.startsWith('wake-up'))).toEqual([
      'wake-up at 2026-12-03T01:00:00.000Z',
      'wake-up at 2026-12-03T00:05:00.000Z',
    ]);
  });

  test("a schedule OpenKruise's webhook refuses: a FailedValidation Warning, nothing written, its wake-up removed", async () => {
    const h = setup('2026-12-03T00:02:00.100Z', { schedule: '*/1 * * *', timeZone: 'Mars/Olympus' });
    await reconcileAdvancedCronJob(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'event FailedValidation: AdvancedCronJob is invalid: spec.schedule: Invalid value: "*/1 * * *": expected exactly 5 fields, found 4: [*/1 * * *]; spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
      'wake-up cancelled',
      'lease.release',
    ]);
    expect([...h.jobs.keys()]).toEqual([]);
  });
});
