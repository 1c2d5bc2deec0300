/**
 * The resync handler and objects that keep their own wake-up (docs/architecture.md#wake-up): a scheduled round leaves
 * an AdvancedCronJob whose run is not overdue to its wake-up (logged as `leftToWakeUp`); a round whose event is
 * {@link EVERY_OBJECT_RESYNC} — the embedded runtime's first after a start, its timers having died with the last
 * process — publishes it all the same.
 */
import { describe, expect, it } from '@jest/globals';
import type { EventPublisher } from '../../../lib/requests/index.js';
import type { Runtime } from '../../../lib/runtime/types.js';
import { EVERY_OBJECT_RESYNC, resyncHandler } from '../../../lib/runtime/handlers/resync.js';
import { advancedCronJobKind } from '../../../lib/controllers/advancedcronjob/kind.js';
import { CapturingLogger } from '../support/capturingLogger.js';
import { recordingPublisher } from '../support/recordingPublisher.js';

const year = new Date().getUTCFullYear();
/** A yearly AdvancedCronJob whose last run was this year's: its next is next year's, nothing is overdue. */
const yearly = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'AdvancedCronJob',
  metadata: { name: 'yearly', namespace: 'batch', creationTimestamp: `${year - 1}-06-01T00:00:00Z` },
  spec: {
    schedule: '0 0 1 1 *',
    template: {
      jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } } },
    },
  },
  status: { type: 'Job', lastScheduleTime: `${year}-01-01T00:00:00Z` },
};

function runtime(publisher: EventPublisher): Runtime {
  return {
    clusterNames: () => Promise.resolve(['c1']),
    cluster: (name: string) =>
      Promise.resolve({
        name,
        kube: { list: () => Promise.resolve({ items: [yearly], resourceVersion: '3' }) },
      }),
    publisher,
  } as unknown as Runtime;
}

describe('the resync and wake-ups', () => {
  it('a scheduled round leaves an AdvancedCronJob to its wake-up; an every-object round publishes it', async () => {
    const publisher = recordingPublisher();
    const { published } = publisher;
    const logger = new CapturingLogger();
    const run = resyncHandler(() => runtime(publisher), logger, [advancedCronJobKind]);
    const context = { awsRequestId: 'r', getRemainingTimeInMillis: () => 60_000 };

    expect(await run({ 'detail-type': 'Scheduled Event', detail: {} }, context)).toMatchObject({
      resynced: { c1: 0 },
    });
    expect(published).toEqual([]);
    expect(await run(EVERY_OBJECT_RESYNC, context)).toMatchObject({ resynced: { c1: 1 } });
    expect(published.map((r) => [r.kind, r.namespace, r.name, r.reason])).toEqual([
      ['apps.kruise.io/AdvancedCronJob', 'batch', 'yearly', 'Resync'],
    ]);
    const finished = logger.lines.filter((l) => l.message === 'resync finished');
    expect(finished.map((l) => [l.leftToWakeUp, l.everyObject])).toEqual([
      [1, undefined],
      [0, true],
    ]);
  });
});
