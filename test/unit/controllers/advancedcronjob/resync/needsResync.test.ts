/**
 * Which AdvancedCronJobs a resync asks a pass of (lib/controllers/advancedcronjob/resync.ts): none whose own wake-up
 * is still to come, so that between two runs nothing invokes them; those a lost wake-up or a lost change left
 * behind, once their run is more than two minutes overdue; never one a pass would do nothing for. And the resync
 * of a cluster publishes only those, counting the rest as left to their wake-up.
 */
import type { JsonObject } from '../../../../../lib/api/types.js';
import { silentLogger } from '../../../../../lib/core/logger.js';
import { advancedCronJobKind } from '../../../../../lib/controllers/advancedcronjob/kind.js';
import {
  advancedCronJobNeedsResync,
  WAKE_UP_GRACE_MS,
} from '../../../../../lib/controllers/advancedcronjob/resync.js';
import type { AdvancedCronJob } from '../../../../../lib/controllers/advancedcronjob/api/types.js';
import type { KubeObject } from '../../../../../lib/kube/resource.js';
import type { KubeClient, Listed } from '../../../../../lib/kube/types.js';
import { resyncCluster } from '../../../../../lib/source/resync.js';
import { recordingPublisher } from '../../../support/recordingPublisher.js';

const at = (iso: string) => Date.parse(iso);

function acj(
  spec: Partial<AdvancedCronJob['spec']> = {},
  status: AdvancedCronJob['status'] | null = { type: 'Job', lastScheduleTime: '2026-12-06T10:00:00Z' },
  name = 'hello',
): JsonObject {
  const object: AdvancedCronJob = {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'AdvancedCronJob',
    metadata: { name, namespace: 'batch', creationTimestamp: '2026-12-06T09:30:10Z' },
    spec: {
      schedule: '*/1 * * * *',
      template: {
        jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } } },
      },
      ...spec,
    },
    ...(status ? { status } : {}),
  };
  return object as unknown as JsonObject;
}

describe('advancedCronJobNeedsResync', () => {
  test('every minute, status at 10:00: the 10:01 run may not show yet; 10:02 counts missed only after 10:04', () => {
    const o = acj();
    expect(WAKE_UP_GRACE_MS).toBe(120_000);
    expect(advancedCronJobNeedsResync(o, at('2026-12-06T10:01:30Z'))).toBe(false);
    expect(advancedCronJobNeedsResync(o, at('2026-12-06T10:03:59.999Z'))).toBe(false);
    expect(advancedCronJobNeedsResync(o, at('2026-12-06T10:04:00Z'))).toBe(true);
  });

  test('hourly: quiet for the whole hour after the run it may not show, overdue two minutes after the next', () => {
    const o = acj({ schedule: '0 * * * *' }, { type: 'Job', lastScheduleTime: '2026-12-06T09:00:00Z' });
    expect(advancedCronJobNeedsResync(o, at('2026-12-06T10:30:00Z'))).toBe(false);
    expect(advancedCronJobNeedsResync(o, at('2026-12-06T11:01:59Z'))).toBe(false);
    expect(advancedCronJobNeedsResync(o, at('2026-12-06T11:02:00Z'))).toBe(true);
  });

  test('a missed run past startingDeadlineSeconds: not resynced, the pass would skip it', () => {
    const late = acj(
      { schedule: '0 * * * *', startingDeadlineSeconds: 60 },
      { type: 'Job', lastScheduleTime: '2026-12-06T09:00:00Z' },
    );
    expect(advancedCronJobNeedsResync(late, at('2026-12-06T11:02:30Z'))).toBe(false);
    const inTime = acj(
      { schedule: '0 * * * *', startingDeadlineSeconds: 600 },
      { type: 'Job', lastScheduleTime: '2026-12-06T09:00:00Z' },
    );
    expect(advancedCronJobNeedsResync(inTime, at('2026-12-06T11:02:30Z'))).toBe(true);
  });

  test('paused, unparsable, or more than 100 missed: never', () => {
    const now = at('2026-12-06T12:00:00Z');
    expect(advancedCronJobNeedsResync(acj({ paused: true }), now)).toBe(false);
    expect(advancedCronJobNeedsResync(acj({ schedule: '*/1 * * *' }), now)).toBe(false);
    expect(
      advancedCronJobNeedsResync(acj({}, { type: 'Job', lastScheduleTime: '2026-12-06T08:00:00Z' }), now),
    ).toBe(false);
  });

  test('never reconciled (no status.type): resynced when valid and of a kind Kruiseless runs', () => {
    const now = at('2026-12-06T09:30:20Z');
    expect(advancedCronJobNeedsResync(acj({}, null), now)).toBe(true);
    expect(advancedCronJobNeedsResync(acj({ schedule: 'every minute' }, null), now)).toBe(false);
    expect(
      advancedCronJobNeedsResync(acj({ template: { imageListPullJobTemplate: { spec: {} } } }, null), now),
    ).toBe(false);
  });

  test('no lastScheduleTime (its children gone): counted from the creation', () => {
    const o = acj({ schedule: '0 * * * *' }, { type: 'Job' }); // created 09:30:10: 10:00 may be made, 11:00 not
    expect(advancedCronJobNeedsResync(o, at('2026-12-06T10:45:00Z'))).toBe(false);
    expect(advancedCronJobNeedsResync(o, at('2026-12-06T11:02:00Z'))).toBe(true);
  });

  test('a malformed object: no spec or schedule, never; one the rules cannot read, resynced as before', () => {
    const now = at('2026-12-06T12:00:00Z');
    expect(advancedCronJobNeedsResync({ metadata: { name: 'x' } }, now)).toBe(false);
    expect(advancedCronJobNeedsResync({ metadata: { name: 'x' }, spec: { schedule: 5 } }, now)).toBe(false);
    // a number where the CRD says string (its schema would refuse it): the validation throws on it
    const unreadable = {
      metadata: { name: 'x' },
      spec: { schedule: '* * * * *', timeZone: 5, template: { jobTemplate: {} } },
    };
    expect(() => advancedCronJobNeedsResync(unreadable, now)).not.toThrow();
    expect(advancedCronJobNeedsResync(unreadable, now)).toBe(true);
  });
});

test('the resync of a cluster publishes only the AdvancedCronJobs that need it, and counts the others', async () => {
  const items = [
    acj({}, null, 'new'),
    acj({}, { type: 'Job', lastScheduleTime: '2026-12-06T10:00:00Z' }, 'on-time'),
    acj({}, { type: 'Job', lastScheduleTime: '2026-12-06T09:50:00Z' }, 'missed'),
    acj({ paused: true }, { type: 'Job', lastScheduleTime: '2026-12-06T09:50:00Z' }, 'paused'),
  ];
  const kube: Pick<KubeClient, 'list'> = {
    list: <T extends KubeObject>(): Promise<Listed<T>> =>
      Promise.resolve({ items: items as unknown as T[], resourceVersion: '1' }),
  };
  const publisher = recordingPublisher();
  const { published } = publisher;
  const result = await resyncCluster('c1', kube, publisher, [advancedCronJobKind], silentLogger, {
    nowMs: at('2026-12-06T10:01:30Z'),
  });
  expect(published.map((r) => r.name)).toEqual(['new', 'missed']);
  expect(result.objects).toEqual({ 'apps.kruise.io/AdvancedCronJob': 2 });
  expect(result.leftToWakeUp).toEqual({ 'apps.kruise.io/AdvancedCronJob': 2 });
});
