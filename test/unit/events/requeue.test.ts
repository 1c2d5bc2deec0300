/**
 * Requeue-after. The Scheduler implementation runs against a fake CreateSchedule endpoint
 * (support/fakeAws.ts); faked fault: `ConflictException` (409) for a schedule name that already exists, which
 * is how a repeated requeue for the same key and minute looks to the caller. The local implementation runs on
 * injected timers.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import {
  LocalRequeueScheduler,
  createSchedulerRequeue,
  requeueMinute,
  requeueScheduleName,
  type EventPublisher,
  type ReconcileRequest,
  type Timers,
} from '../../../lib/events/index.js';
import { DUMMY_CREDENTIALS, startFakeAws, type FakeAws, type FakeResponse } from './support/fakeAws.js';

const web: ReconcileRequest = {
  version: 1,
  cluster: 'prod-eu',
  namespace: 'default',
  name: 'web',
  reason: 'PodChanged',
  resourceVersion: '77',
};
const NOW = new Date('2026-11-30T12:00:10.000Z');
const BUS_ARN = 'arn:aws:events:eu-west-1:111122223333:event-bus/kruiseless';
const ROLE_ARN = 'arn:aws:iam::111122223333:role/kruiseless-scheduler';

let fake: FakeAws | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function schedulerWith(respond: () => FakeResponse, extra: { groupName?: string } = {}) {
  fake = await startFakeAws(respond);
  const client = new SchedulerClient({
    endpoint: fake.endpoint,
    region: 'eu-west-1',
    credentials: DUMMY_CREDENTIALS,
    maxAttempts: 1,
  });
  const requeue = createSchedulerRequeue({
    client,
    eventBusArn: BUS_ARN,
    roleArn: ROLE_ARN,
    now: () => NOW,
    ...extra,
  });
  return { requeue, requests: fake.requests };
}

const created = (): FakeResponse => ({
  body: { ScheduleArn: 'arn:aws:scheduler:eu-west-1:1:schedule/default/x' },
});

describe('createSchedulerRequeue', () => {
  it('creates a one-time schedule that puts a Requeue event on the bus', async () => {
    const { requeue, requests } = await schedulerWith(created);
    await requeue.requeueAfter(web, 300);
    expect(requests).toHaveLength(1);
    expect(requests[0].method).toBe('POST');
    expect(requests[0].path).toBe('/schedules/requeue_prod-eu_default_web_202611301206');
    const { ClientToken, ...body } = requests[0].body;
    expect(typeof ClientToken).toBe('string');
    expect(body).toEqual({
      ScheduleExpression: 'at(2026-11-30T12:06:00)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Description: 'Requeue CloneSet prod-eu/default/web',
      Target: {
        Arn: BUS_ARN,
        RoleArn: ROLE_ARN,
        EventBridgeParameters: { Source: 'kruiseless', DetailType: 'CloneSet Reconcile Requested' },
        Input:
          '{"version":1,"cluster":"prod-eu","namespace":"default","name":"web","reason":"Requeue","resourceVersion":"77"}',
      },
    });
  });

  it('passes the schedule group when configured', async () => {
    const { requeue, requests } = await schedulerWith(created, { groupName: 'kruiseless' });
    await requeue.requeueAfter(web, 60);
    expect(requests[0].body.GroupName).toBe('kruiseless');
  });

  it('treats ConflictException (same key and minute already scheduled) as success', async () => {
    const { requeue } = await schedulerWith(() => ({
      status: 409,
      headers: { 'x-amzn-errortype': 'ConflictException' },
      body: { Message: 'Schedule requeue_prod-eu_default_web_202611301206 already exists.' },
    }));
    await expect(requeue.requeueAfter(web, 300)).resolves.toBeUndefined();
  });

  it('propagates other CreateSchedule errors', async () => {
    const { requeue } = await schedulerWith(() => ({
      status: 400,
      headers: { 'x-amzn-errortype': 'ValidationException' },
      body: { Message: 'bad role' },
    }));
    await expect(requeue.requeueAfter(web, 300)).rejects.toMatchObject({ name: 'ValidationException' });
  });

  it('rejects a negative delay before calling the service', async () => {
    const { requeue, requests } = await schedulerWith(created);
    await expect(requeue.requeueAfter(web, -1)).rejects.toThrow('requeue delay must be ≥ 0 seconds, got -1');
    expect(requests).toHaveLength(0);
  });
});

describe('requeueMinute', () => {
  it('rounds up to the next whole minute so the schedule never fires early', () => {
    expect(requeueMinute(NOW, 300).toISOString()).toBe('2026-11-30T12:06:00.000Z');
    expect(requeueMinute(NOW, 50).toISOString()).toBe('2026-11-30T12:01:00.000Z');
  });

  it('is always after now, even for a zero delay on a minute boundary', () => {
    expect(requeueMinute(new Date('2026-11-30T12:00:00.000Z'), 0).toISOString()).toBe(
      '2026-11-30T12:01:00.000Z',
    );
  });
});

describe('requeueScheduleName', () => {
  const at = new Date('2026-11-30T12:06:00Z');

  it('is readable for short keys and the same for the same key and minute', () => {
    expect(requeueScheduleName(web, at)).toBe('requeue_prod-eu_default_web_202611301206');
    expect(requeueScheduleName({ ...web, reason: 'Resync' }, at)).toBe(requeueScheduleName(web, at));
    expect(requeueScheduleName(web, new Date('2026-11-30T12:07:00Z'))).toBe(
      'requeue_prod-eu_default_web_202611301207',
    );
  });

  it('hashes keys that are too long or carry characters a schedule name cannot', () => {
    const long = { ...web, name: 'a'.repeat(100) };
    const odd = { ...web, cluster: 'team/prod eu' };
    for (const request of [long, odd]) {
      const name = requeueScheduleName(request, at);
      expect(name).toMatch(/^requeue_[0-9a-f]{40}_202611301206$/);
      expect(name.length).toBeLessThanOrEqual(64);
    }
    expect(requeueScheduleName(long, at)).not.toBe(requeueScheduleName(odd, at));
  });

  it('keeps keys that would read the same apart', () => {
    // Without hashing, cluster "a_b" + namespace "c" would read like cluster "a" + namespace "b_c".
    const a = requeueScheduleName({ ...web, cluster: 'a_b', namespace: 'c' }, at);
    const b = requeueScheduleName({ ...web, cluster: 'a', namespace: 'b-c' }, at);
    expect(a).toMatch(/^requeue_[0-9a-f]{40}_/);
    expect(a).not.toBe(b);
  });
});

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
    const local = new LocalRequeueScheduler({ publisher, timers, now: () => 0 });
    await local.requeueAfter(web, 5);
    expect([...live.values()].map((t) => t.ms)).toEqual([5000]);
    fire(1);
    expect(publisher.published).toEqual([[{ ...web, reason: 'Requeue' }]]);
    expect(local.size).toBe(0);
  });

  it('keeps only the earliest pending requeue per key', async () => {
    const { timers, live } = manualTimers();
    const local = new LocalRequeueScheduler({ publisher: recordingPublisher(), timers, now: () => 0 });
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
      onError: (error, request) => errors.push(`${request.name}: ${(error as Error).message}`),
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
