/**
 * The AdvancedCronJob planner against OpenKruise v1.9.0's `reconcileJob` / `reconcileBroadcastJob`
 * (pkg/controller/advancedcronjob) with a fixed clock: exact child names and objects, exact deletes, status and
 * next wake-up for each branch.
 */
import type { AdvancedCronJob, CronChild } from '../../../../../lib/controllers/advancedcronjob/api/types.js';
import {
  planAdvancedCronJob,
  type AdvancedCronJobPlan,
} from '../../../../../lib/controllers/advancedcronjob/plan/index.js';

const CREATED = '2026-12-03T00:00:30Z';
/** 00:01:00Z and 00:02:00Z in Unix seconds. */
const T1 = 1796256060;
const T2 = 1796256120;

function acj(
  spec: Partial<AdvancedCronJob['spec']> = {},
  status?: AdvancedCronJob['status'],
): AdvancedCronJob {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'AdvancedCronJob',
    metadata: { name: 'hello', namespace: 'ns', uid: 'acj-uid', creationTimestamp: CREATED },
    spec: {
      schedule: '*/1 * * * *',
      template: {
        jobTemplate: {
          metadata: { labels: { app: 'x' }, annotations: { note: 'n' } },
          spec: {
            template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } },
          },
        },
      },
      ...spec,
    },
    ...(status ? { status } : {}),
  };
}

function child(
  unix: number,
  finished?: 'Complete' | 'Failed',
  startTime?: string,
  kind = 'Job',
  owner = 'hello',
): CronChild {
  return {
    apiVersion: kind === 'Job' ? 'batch/v1' : 'apps.kruise.io/v1beta1',
    kind,
    metadata: {
      name: `hello-${unix}`,
      namespace: 'ns',
      uid: `uid-${unix}`,
      resourceVersion: '7',
      annotations: { 'apps.kruise.io/scheduled-at': new Date(unix * 1000).toISOString().replace('.000', '') },
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'AdvancedCronJob',
          name: owner,
          uid: 'acj-uid',
          controller: true,
        },
      ],
    },
    status: {
      ...(startTime ? { startTime } : {}),
      ...(finished ? { conditions: [{ type: finished, status: 'True' }] } : {}),
    },
  };
}

const plan = (a: AdvancedCronJob, children: CronChild[], now: string) =>
  planAdvancedCronJob({ acj: a, children, now: new Date(now) }) as AdvancedCronJobPlan;
const names = (cs: CronChild[]) => cs.map((c) => c.metadata.name);

describe('planAdvancedCronJob', () => {
  it('before the first scheduled time: writes status.type and wakes at the next minute', () => {
    const p = plan(acj(), [], '2026-12-03T00:00:31.200Z');
    expect(p.status).toEqual({ type: 'Job' });
    expect(p.create).toBeUndefined();
    expect(p.skip).toBe('NotDue');
    expect(p.requeueAfterSeconds).toBe(28.8);
  });

  it('woken 1 ms before the scheduled minute: creates nothing and asks for the 1 ms left (OpenKruise: nextRun - now)', () => {
    const p = plan(acj({}, { type: 'Job' }), [], '2026-12-03T00:00:59.999Z');
    expect(p.create).toBeUndefined();
    expect(p.skip).toBe('NotDue');
    expect(p.requeueAfterSeconds).toBe(0.001);
  });

  it('at the scheduled minute: creates hello-<unix seconds> as upstream builds it, wakes at the next', () => {
    const p = plan(acj({}, { type: 'Job' }), [], '2026-12-03T00:01:00.400Z');
    expect(p.status).toBeUndefined();
    expect(p.create).toEqual({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: `hello-${T1}`,
        namespace: 'ns',
        labels: { app: 'x' },
        annotations: { note: 'n', 'apps.kruise.io/scheduled-at': '2026-12-03T00:01:00Z' },
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1beta1',
            kind: 'AdvancedCronJob',
            name: 'hello',
            uid: 'acj-uid',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      // the pod template with SetDefaultPodSpec's defaults, as OpenKruise's webhook stores the jobTemplate
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'c',
                image: 'busybox',
                imagePullPolicy: 'Always',
                resources: {},
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
              },
            ],
            restartPolicy: 'Never',
            dnsPolicy: 'ClusterFirst',
            securityContext: {},
            terminationGracePeriodSeconds: 30,
            schedulerName: 'default-scheduler',
          },
        },
      },
    });
    expect(p.requeueAfterSeconds).toBe(59.6);
  });

  it("a child's tagged image pulls Always, as OpenKruise's stored template says; TemplateNoDefaults copies it as written", () => {
    const a = acj({}, { type: 'Job' });
    const tagged = (x: AdvancedCronJob): AdvancedCronJob => {
      const t = structuredClone(x);
      const child = t.spec.template.jobTemplate ?? t.spec.template.broadcastJobTemplate;
      if (child?.spec?.template)
        child.spec.template.spec.containers = [{ name: 'c', image: 'nginx:1.18-alpine' }];
      return t;
    };
    const now = new Date('2026-12-03T00:01:00.400Z');
    const defaulted = planAdvancedCronJob({ acj: tagged(a), children: [], now }) as AdvancedCronJobPlan;
    const containers = (p: AdvancedCronJobPlan) =>
      (p.create?.spec as { template: { spec: { containers: unknown[] } } }).template.spec.containers;
    expect(containers(defaulted)).toEqual([expect.objectContaining({ imagePullPolicy: 'Always' })]);
    const asWritten = planAdvancedCronJob({
      acj: tagged(a),
      children: [],
      now,
      templateNoDefaults: true,
    }) as AdvancedCronJobPlan;
    expect(containers(asWritten)).toEqual([{ name: 'c', image: 'nginx:1.18-alpine' }]);
  });

  it('lists the active children and the latest scheduled time; nothing more is due', () => {
    const p = plan(acj({}, { type: 'Job' }), [child(T1)], '2026-12-03T00:01:20Z');
    expect(p.status).toEqual({
      type: 'Job',
      active: [
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          namespace: 'ns',
          name: `hello-${T1}`,
          uid: `uid-${T1}`,
          resourceVersion: '7',
        },
      ],
      lastScheduleTime: '2026-12-03T00:01:00Z',
    });
    expect(p.create).toBeUndefined();
    expect(p.requeueAfterSeconds).toBe(40);
  });

  it('ignores children of another controller or another AdvancedCronJob name', () => {
    const p = plan(
      acj({}, { type: 'Job' }),
      [child(T1, undefined, undefined, 'Job', 'other')],
      '2026-12-03T00:01:20Z',
    );
    expect(p.status).toBeUndefined();
    expect(p.create?.metadata.name).toBe(`hello-${T1}`);
  });

  it('deletes the oldest finished children beyond the limits: failed first, by start time', () => {
    const children = [
      child(T1 - 240, 'Complete', '2026-12-02T23:57:01Z'),
      child(T1 - 180, 'Complete', '2026-12-02T23:58:01Z'),
      child(T1 - 120, 'Failed', '2026-12-02T23:59:01Z'),
      child(T1 - 60, 'Failed'),
      child(T1, 'Complete', '2026-12-03T00:01:01Z'),
    ];
    const p = plan(acj({ successfulJobsHistoryLimit: 1 }), children, '2026-12-03T00:01:30Z');
    // failed limit 1 (default): the one without a start time goes first; successful limit 1: the two oldest
    expect(names(p.historyDeletes)).toEqual([`hello-${T1 - 60}`, `hello-${T1 - 240}`, `hello-${T1 - 180}`]);
    expect(p.status).toEqual({ type: 'Job', lastScheduleTime: '2026-12-03T00:01:00Z' });
  });

  it('keeps three successful and one failed child by default', () => {
    const children = [T1 - 180, T1 - 120, T1 - 60, T1].map((t, i) =>
      child(t, 'Complete', `2026-12-03T00:0${i}:05Z`),
    );
    expect(names(plan(acj(), children, '2026-12-03T00:01:30Z').historyDeletes)).toEqual([
      `hello-${T1 - 180}`,
    ]);
  });

  it('a second tick with limit 0: deletes the finished child and creates the next', () => {
    const p = plan(
      acj({ successfulJobsHistoryLimit: 0 }, { type: 'Job' }),
      [child(T1, 'Complete', '2026-12-03T00:01:01Z')],
      '2026-12-03T00:02:00.300Z',
    );
    expect(names(p.historyDeletes)).toEqual([`hello-${T1}`]);
    expect(p.create?.metadata.name).toBe(`hello-${T2}`);
    expect(p.status).toEqual({ type: 'Job', lastScheduleTime: '2026-12-03T00:01:00Z' });
  });

  it('runs only the latest of several missed times', () => {
    const p = plan(acj({}, { type: 'Job' }), [], '2026-12-03T00:05:10Z');
    expect(p.create?.metadata.name).toBe('hello-1796256300');
    expect(p.requeueAfterSeconds).toBe(50);
  });

  it('gives up past 100 missed times, without a wake-up', () => {
    const p = plan(acj({}, { type: 'Job' }), [], '2026-12-03T02:00:00Z');
    expect(p.skip).toBe('TooManyMissed');
    expect(p.create).toBeUndefined();
    expect(p.requeueAfterSeconds).toBeUndefined();
  });

  it('startingDeadlineSeconds bounds the look-back and refuses a late start', () => {
    const late = plan(acj({ startingDeadlineSeconds: 200 }, { type: 'Job' }), [], '2026-12-03T02:00:10Z');
    expect(late.create?.metadata.name).toBe('hello-1796263200');
    const tooLate = plan(
      acj({ schedule: '0 * * * *', startingDeadlineSeconds: 5 }, { type: 'Job' }),
      [],
      '2026-12-03T01:00:06Z',
    );
    expect(tooLate.skip).toBe('NotDue');
    const p = plan(
      acj({ schedule: '0 * * * *', startingDeadlineSeconds: 100 }, { type: 'Job' }),
      [],
      '2026-12-03T01:00:06Z',
    );
    expect(p.create?.metadata.name).toBe('hello-1796259600');
  });

  it('Forbid waits for the active child; Replace deletes it first', () => {
    const now = '2026-12-03T00:02:00.100Z';
    const forbid = plan(acj({ concurrencyPolicy: 'Forbid' }, { type: 'Job' }), [child(T1)], now);
    expect(forbid.skip).toBe('ForbidConcurrent');
    expect(forbid.create).toBeUndefined();
    expect(forbid.requeueAfterSeconds).toBe(59.9);
    const replace = plan(acj({ concurrencyPolicy: 'Replace' }, { type: 'Job' }), [child(T1)], now);
    expect(names(replace.replaceDeletes)).toEqual([`hello-${T1}`]);
    expect(replace.create?.metadata.name).toBe(`hello-${T2}`);
    const allow = plan(acj({}, { type: 'Job' }), [child(T1)], now);
    expect(allow.replaceDeletes).toEqual([]);
    expect(allow.create?.metadata.name).toBe(`hello-${T2}`);
  });

  it('paused: status and history only, no wake-up', () => {
    const p = plan(
      acj({ paused: true }),
      [child(T1, 'Failed'), child(T1 - 60, 'Failed')],
      '2026-12-03T00:02:10Z',
    );
    expect(p.skip).toBe('Paused');
    expect(names(p.historyDeletes)).toEqual([`hello-${T1 - 60}`]);
    expect(p.requeueAfterSeconds).toBeUndefined();
  });

  it("an unparsable schedule is what OpenKruise's webhook refuses: Invalid, nothing else planned", () => {
    const p = planAdvancedCronJob({
      acj: acj({ schedule: '* * *' }),
      children: [],
      now: new Date('2026-12-03T00:02:10Z'),
    });
    expect(p).toEqual({
      type: 'Invalid',
      errors: [
        {
          path: 'spec.schedule',
          message: 'Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]',
        },
      ],
    });
  });

  it('timeZone prefixes the schedule; an unknown zone is refused as the webhook refuses it', () => {
    const a = acj({ schedule: '0 9 * * *', timeZone: 'Asia/Shanghai' }, { type: 'Job' });
    expect(plan(a, [], '2026-12-03T00:30:00Z').requeueAfterSeconds).toBe(1800);
    const unknown = acj({ schedule: '0 9 * * *', timeZone: 'Nowhere/City' }, { type: 'Job' });
    expect(
      planAdvancedCronJob({ acj: unknown, children: [], now: new Date('2026-12-03T00:30:00Z') }).type,
    ).toBe('Invalid');
  });

  it('a broadcastJobTemplate makes BroadcastJobs owned by apps.kruise.io/v1beta1 only', () => {
    const a = acj({
      template: { broadcastJobTemplate: { spec: { template: { spec: { containers: [] } } } } },
    });
    const p = plan(a, [child(T1, undefined, undefined, 'BroadcastJob')], '2026-12-03T00:01:30Z');
    expect(p.childKind).toBe('BroadcastJob');
    expect(p.status?.type).toBe('BroadcastJob');
    expect(p.status?.active?.[0]).toMatchObject({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'BroadcastJob',
    });
    const fresh = plan(a, [], '2026-12-03T00:01:30Z');
    expect(fresh.create).toMatchObject({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'BroadcastJob',
      metadata: {
        name: `hello-${T1}`,
        annotations: { 'apps.kruise.io/scheduled-at': '2026-12-03T00:01:00Z' },
      },
    });
  });

  it('an ImageListPullJob template is not run', () => {
    const a = acj({ template: { imageListPullJobTemplate: { spec: {} } } });
    expect(planAdvancedCronJob({ acj: a, children: [], now: new Date('2026-12-03T00:01:30Z') })).toEqual({
      type: 'Unsupported',
      templateKind: 'ImageListPullJob',
    });
  });
});
