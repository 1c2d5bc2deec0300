/**
 * The embedded default's requeue scheduler ({@link LocalRequeueScheduler}) on timers the test fires by hand, and
 * once on real timers.
 */
import { describe, expect, it } from '@jest/globals';
import type { EventPublisher, ReconcileRequest } from '../../../lib/requests/index.js';
import { LocalRequeueScheduler, type Timers } from '../../../lib/emulator/index.js';
import { errorMessage } from '../../../lib/core/errors.js';

const web: ReconcileRequest = {
  version: 2,
  cluster: 'prod-eu',
  kind: 'apps.kruise.io/CloneSet',
  namespace: 'default',
  name: 'web',
  reason: 'OwnedObjectChanged',
  resourceVersion: '77',
};

/** Timers the test fires by hand. */
function manualTimers() {
  let next = 1;
  const live = new Map<number, { callback: () => void; ms: number }>();
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      live.set(next, { callback, ms });
      return next++;
    },
    clearTimeout: (handle) => void live.delete(handle as number),
  };
  const fire = (handle: number) => {
    const timer = live.get(handle);
    live.delete(handle);
    timer?.callback();
  };
  return { timers, live, fire };
}

function recordingPublisher(fail = false): EventPublisher & { published: ReconcileRequest[][] } {
  const published: ReconcileRequest[][] = [];
  return {
    published,
    async publish(requests) {
      published.push(requests);
      if (fail) throw new Error('bus down');
      return { published: requests.length, calls: 1, retried: 0 };
    },
  };
}

describe('LocalRequeueScheduler', () => {
  it('publishes a Requeue request when the timer fires', async () => {
    const { timers, live, fire } = manualTimers();
    const publisher = recordingPublisher();
    const local = new LocalRequeueScheduler({ publisher, timers, clock: () => 0 });
    await local.requeueAfter(web, 5);
    expect([...live.values()].map((t) => t.ms)).toEqual([5000]);
    fire(1);
    expect(publisher.published).toEqual([[{ ...web, reason: 'Requeue' }]]);
    expect(local.size).toBe(0);
  });

  it('counts a delay from the clock reading it was measured at, to the millisecond', async () => {
    const { timers, live } = manualTimers();
    const local = new LocalRequeueScheduler({ publisher: recordingPublisher(), timers, clock: () => 1_000 });
    // measured 250 ms ago: due 4.75 s from now
    await local.requeueAfter(web, 5, 750);
    expect([...live.values()].map((t) => t.ms)).toEqual([4750]);
    // one already due fires at once
    await local.requeueAfter({ ...web, name: 'db' }, 0.1, 0);
    expect([...live.values()].map((t) => t.ms)).toEqual([4750, 0]);
  });

  it('a requeue further away than a Node timer keeps fires after the longest one (not at once)', async () => {
    const { timers, live } = manualTimers();
    const local = new LocalRequeueScheduler({ publisher: recordingPublisher(), timers, clock: () => 0 });
    await local.requeueAfter(web, 29 * 24 * 3600); // an AdvancedCronJob's next run on 1 January, from 3 December
    expect([...live.values()].map((t) => t.ms)).toEqual([2_147_483_647]);
  });

  it('keeps only the earliest pending requeue per key', async () => {
    const { timers, live } = manualTimers();
    const local = new LocalRequeueScheduler({ publisher: recordingPublisher(), timers, clock: () => 0 });
    await local.requeueAfter(web, 30);
    await local.requeueAfter(web, 60); // later: dropped
    await local.requeueAfter(web, 10); // earlier: replaces
    await local.requeueAfter({ ...web, name: 'api' }, 60);
    expect([...live.entries()].map(([h, t]) => [h, t.ms])).toEqual([
      [2, 10000],
      [3, 60000],
    ]);
    expect(local.size).toBe(2);
  });

  it('counts the requeues due within a time from now, by its clock', async () => {
    const { timers } = manualTimers();
    let now = 1_000;
    const local = new LocalRequeueScheduler({ publisher: recordingPublisher(), timers, clock: () => now });
    await local.requeueAfter(web, 2);
    await local.requeueAfter({ ...web, name: 'api' }, 181); // a deferred resync's net for after a lease
    expect([local.pendingWithin(0), local.pendingWithin(2_000), local.pendingWithin(181_000)]).toEqual([
      0, 1, 2,
    ]);
    now += 120_000;
    expect(local.pendingWithin(60_000)).toBe(1); // web is overdue (its timer not fired here), api 61 s away
    expect(local.pendingWithin(61_000)).toBe(2);
  });

  it('close clears every pending timer', async () => {
    const { timers, live } = manualTimers();
    const local = new LocalRequeueScheduler({ publisher: recordingPublisher(), timers });
    await local.requeueAfter(web, 5);
    await local.requeueAfter({ ...web, name: 'api' }, 5);
    local.close();
    expect([live.size, local.size]).toEqual([0, 0]);
  });

  it('reports a failed publish to onError instead of crashing', async () => {
    const { timers, fire } = manualTimers();
    const errors: string[] = [];
    const local = new LocalRequeueScheduler({
      publisher: recordingPublisher(true),
      timers,
      onError: (error, request) => errors.push(`${request.name}: ${errorMessage(error)}`),
    });
    await local.requeueAfter(web, 1);
    fire(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual(['web: bus down']);
  });

  it('works with real timers', async () => {
    const publisher = recordingPublisher();
    const local = new LocalRequeueScheduler({ publisher });
    await local.requeueAfter(web, 0.01);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(publisher.published).toHaveLength(1);
    local.close();
  });
});

describe('LocalRequeueScheduler: the wake-up, one per key', () => {
  const acj: ReconcileRequest = {
    ...web,
    kind: 'apps.kruise.io/AdvancedCronJob',
    name: 'hello',
    reason: 'Requeue',
  };

  it('the latest wake-up replaces the earlier one, later or sooner; a requeue of the key stays beside it', async () => {
    const { timers, live, fire } = manualTimers();
    const publisher = recordingPublisher();
    const local = new LocalRequeueScheduler({ publisher, timers, clock: () => 1_000 });
    await local.wakeUpAfter(acj, 60, 0); // due at 60 000: 59 s from now
    await local.requeueAfter(acj, 2); // a backoff of the same key
    await local.wakeUpAfter(acj, 120); // moved later: an ordinary requeue would have kept the sooner one
    expect([...live.entries()].map(([h, t]) => [h, t.ms])).toEqual([
      [2, 2_000],
      [3, 120_000],
    ]);
    await local.wakeUpAfter(acj, 30); // moved sooner
    expect([...live.entries()].map(([h, t]) => [h, t.ms])).toEqual([
      [2, 2_000],
      [4, 30_000],
    ]);
    expect([local.wakeUpCount, local.size, local.pendingWithin(29_999), local.pendingWithin(30_000)]).toEqual(
      [1, 2, 1, 2],
    );
    fire(4);
    expect(publisher.published).toEqual([[acj]]);
    expect([local.wakeUpCount, local.size]).toEqual([0, 1]);
  });

  it('cancelWakeUp removes the wake-up only (and is a no-op without one)', async () => {
    const { timers, live } = manualTimers();
    const local = new LocalRequeueScheduler({ publisher: recordingPublisher(), timers, clock: () => 0 });
    await local.cancelWakeUp(acj);
    await local.wakeUpAfter(acj, 60);
    await local.requeueAfter(acj, 5);
    await local.cancelWakeUp(acj);
    expect([...live.values()].map((t) => t.ms)).toEqual([5_000]);
    expect([local.wakeUpCount, local.size]).toEqual([0, 1]);
  });

  it('close clears the wake-ups too', async () => {
    const { timers, live } = manualTimers();
    const local = new LocalRequeueScheduler({ publisher: recordingPublisher(), timers, clock: () => 0 });
    await local.wakeUpAfter(acj, 60);
    local.close();
    expect([live.size, local.size]).toEqual([0, 0]);
  });

  it('rejects a negative delay', async () => {
    const local = new LocalRequeueScheduler({
      publisher: recordingPublisher(),
      timers: manualTimers().timers,
    });
    await expect(local.wakeUpAfter(acj, -1)).rejects.toThrow('requeue delay must be ≥ 0 seconds, got -1');
  });
});
