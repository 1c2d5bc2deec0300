/**
 * Requeue-after. The Scheduler implementation runs against a fake CreateSchedule endpoint
 * (support/fakeAws.ts); faked fault: `ConflictException` (409) for a schedule name that already exists, which
 * is how a repeated requeue for the same key and minute looks to the caller. The embedded default's timer-based
 * scheduler is tested in test/unit/emulator/localRequeue.test.ts.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import {
  createSchedulerRequeue,
  requeueMinute,
  requeueScheduleName,
  type ReconcileRequest,
} from '../../../lib/requests/index.js';
import {
  DUMMY_CREDENTIALS,
  startFakeAws,
  type FakeAws,
  type FakeResponse,
  type RecordedRequest,
} from './support/fakeAws.js';

const web: ReconcileRequest = {
  version: 2,
  cluster: 'prod-eu',
  kind: 'apps.kruise.io/CloneSet',
  namespace: 'default',
  name: 'web',
  reason: 'OwnedObjectChanged',
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

async function schedulerWith(
  respond: (request: RecordedRequest, index: number) => FakeResponse,
  extra: { groupName?: string } = {},
) {
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
    clock: () => NOW.getTime(),
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
    expect(requests[0].path).toBe(
      '/schedules/requeue_prod-eu_apps.kruise.io_CloneSet_default_web_202611301206',
    );
    const { ClientToken, ...body } = requests[0].body;
    expect(typeof ClientToken).toBe('string');
    expect(body).toEqual({
      ScheduleExpression: 'at(2026-11-30T12:06:00)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Description: 'Requeue prod-eu/apps.kruise.io/CloneSet/default/web',
      Target: {
        Arn: BUS_ARN,
        RoleArn: ROLE_ARN,
        EventBridgeParameters: { Source: 'kruiseless', DetailType: 'Reconcile Requested' },
        Input:
          '{"version":2,"cluster":"prod-eu","kind":"apps.kruise.io/CloneSet","namespace":"default","name":"web","reason":"Requeue","resourceVersion":"77"}',
      },
    });
  });

  it('a wait counted from an earlier clock reading is at the minute it aims at, not the one after', async () => {
    const { requeue, requests } = await schedulerWith(created);
    // a pass read the clock 250 ms before this call and asked for the next minute, 12:01:00, 50.25 s from then
    await requeue.requeueAfter(web, 50.25, NOW.getTime() - 250);
    expect(requests[0].body.ScheduleExpression).toBe('at(2026-11-30T12:01:00)');
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

describe('createSchedulerRequeue: the wake-up, one schedule per key', () => {
  const acj: ReconcileRequest = {
    version: 2,
    cluster: 'prod',
    kind: 'apps.kruise.io/AdvancedCronJob',
    namespace: 'batch',
    name: 'hello',
    reason: 'Requeue',
  };
  const NAME = '/schedules/wake_prod_apps.kruise.io_AdvancedCronJob_batch_hello';
  const notFound = (): FakeResponse => ({
    status: 404,
    headers: { 'x-amzn-errortype': 'ResourceNotFoundException' },
    body: { Message: 'Schedule wake_prod_apps.kruise.io_AdvancedCronJob_batch_hello does not exist.' },
  });
  const conflict = (): FakeResponse => ({
    status: 409,
    headers: { 'x-amzn-errortype': 'ConflictException' },
    body: { Message: 'already exists' },
  });
  const bodyOf = (r: RecordedRequest) => {
    const { ClientToken: _, ...body } = r.body;
    return body;
  };

  it('moves the kept schedule with one UpdateSchedule: at() the minute, kept after it fires (NONE)', async () => {
    const { requeue, requests } = await schedulerWith(created, { groupName: 'kruiseless-dev-requeue' });
    await requeue.wakeUpAfter?.(acj, 49.5, NOW.getTime() - 500); // the next run, 12:01:00
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`PUT ${NAME}`]);
    expect(bodyOf(requests[0])).toEqual({
      GroupName: 'kruiseless-dev-requeue',
      ScheduleExpression: 'at(2026-11-30T12:01:00)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'NONE',
      Description: 'Wake-up prod/apps.kruise.io/AdvancedCronJob/batch/hello',
      Target: {
        Arn: BUS_ARN,
        RoleArn: ROLE_ARN,
        EventBridgeParameters: { Source: 'kruiseless', DetailType: 'Reconcile Requested' },
        Input:
          '{"version":2,"cluster":"prod","kind":"apps.kruise.io/AdvancedCronJob","namespace":"batch","name":"hello","reason":"Requeue"}',
      },
    });
  });

  it("creates the key's first one when there is none to update", async () => {
    const { requeue, requests } = await schedulerWith((_r, i) => (i === 0 ? notFound() : created()));
    await requeue.wakeUpAfter?.(acj, 3600);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`PUT ${NAME}`, `POST ${NAME}`]);
    expect(bodyOf(requests[1])).toEqual(bodyOf(requests[0]));
    expect(requests[1].body.ScheduleExpression).toBe('at(2026-11-30T13:01:00)');
  });

  it('updates after all when another invocation created it between the two calls', async () => {
    const answers = [notFound, conflict, created];
    const { requeue, requests } = await schedulerWith((_r, i) => answers[i]());
    await requeue.wakeUpAfter?.(acj, 120);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `PUT ${NAME}`,
      `POST ${NAME}`,
      `PUT ${NAME}`,
    ]);
  });

  it('knows the service errors by name too (another SDK copy: instanceof fails)', async () => {
    const sent: string[] = [];
    const answers = [
      Object.assign(new Error('no such schedule'), { name: 'ResourceNotFoundException' }),
      Object.assign(new Error('already there'), { name: 'ConflictException' }),
      undefined,
      Object.assign(new Error('gone'), { name: 'ResourceNotFoundException' }),
    ];
    const client = {
      send: (command: { constructor: { name: string } }) => {
        sent.push(command.constructor.name);
        const answer = answers.shift();
        return answer ? Promise.reject(answer) : Promise.resolve({});
      },
    } as unknown as SchedulerClient;
    const requeue = createSchedulerRequeue({ client, eventBusArn: BUS_ARN, roleArn: ROLE_ARN });
    await requeue.wakeUpAfter?.(acj, 60);
    await requeue.cancelWakeUp?.(acj);
    expect(sent).toEqual([
      'UpdateScheduleCommand',
      'CreateScheduleCommand',
      'UpdateScheduleCommand',
      'DeleteScheduleCommand',
    ]);
  });

  it('propagates any other error of the update', async () => {
    const { requeue } = await schedulerWith(() => ({
      status: 400,
      headers: { 'x-amzn-errortype': 'ValidationException' },
      body: { Message: 'bad role' },
    }));
    await expect(requeue.wakeUpAfter?.(acj, 60)).rejects.toMatchObject({ name: 'ValidationException' });
  });

  it('removes it with DeleteSchedule; one already gone is no error', async () => {
    const { requeue, requests } = await schedulerWith((_r, i) => (i === 0 ? created() : notFound()));
    await requeue.cancelWakeUp?.(acj);
    await expect(requeue.cancelWakeUp?.(acj)).resolves.toBeUndefined();
    // the query carries the SDK's idempotency token
    expect(requests.map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual([
      `DELETE ${NAME}`,
      `DELETE ${NAME}`,
    ]);
  });

  it('propagates any other error of the delete', async () => {
    const { requeue } = await schedulerWith(() => ({
      status: 403,
      headers: { 'x-amzn-errortype': 'AccessDeniedException' },
      body: { Message: 'not allowed' },
    }));
    await expect(requeue.cancelWakeUp?.(acj)).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });

  it('rejects a negative delay before calling the service', async () => {
    const { requeue, requests } = await schedulerWith(created);
    await expect(requeue.wakeUpAfter?.(acj, -1)).rejects.toThrow('requeue delay must be ≥ 0 seconds, got -1');
    expect(requests).toHaveLength(0);
  });
});

describe('requeueMinute', () => {
  it('rounds up to the next whole minute so the schedule never fires early', () => {
    expect(requeueMinute(NOW, 300).toISOString()).toBe('2026-11-30T12:06:00.000Z');
    expect(requeueMinute(NOW, 50).toISOString()).toBe('2026-11-30T12:01:00.000Z');
  });

  it('lands a delay measured to a whole minute on that minute despite the floating-point division', () => {
    const from = Date.parse('2026-11-30T12:00:09.733Z');
    const seconds = (Date.parse('2026-11-30T12:01:00.000Z') - from) / 1000;
    expect(requeueMinute(NOW, seconds, from).toISOString()).toBe('2026-11-30T12:01:00.000Z');
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
    expect(requeueScheduleName(web, at)).toBe(
      'requeue_prod-eu_apps.kruise.io_CloneSet_default_web_202611301206',
    );
    expect(requeueScheduleName(web, at)).toHaveLength(64);
    expect(requeueScheduleName({ ...web, reason: 'Resync' }, at)).toBe(requeueScheduleName(web, at));
    expect(requeueScheduleName(web, new Date('2026-11-30T12:07:00Z'))).toBe(
      'requeue_prod-eu_apps.kruise.io_CloneSet_default_web_202611301207',
    );
  });

  it('names a cluster-scoped key without a namespace part', () => {
    const { namespace: _, ...rest } = web;
    expect(requeueScheduleName({ ...rest, kind: 'example.io/Thing' }, at)).toBe(
      'requeue_prod-eu_example.io_Thing_web_202611301206',
    );
  });

  it('keeps keys of two kinds apart, also when hashed', () => {
    const job = { ...web, kind: 'apps.kruise.io/BroadcastJob' };
    expect(requeueScheduleName(job, at)).toMatch(/^requeue_[0-9a-f]{40}_202611301206$/);
    expect(requeueScheduleName(job, at)).not.toBe(requeueScheduleName(web, at));
    const short = { ...web, cluster: 'p' };
    expect(requeueScheduleName({ ...short, kind: 'a.io/Thing' }, at)).toBe(
      'requeue_p_a.io_Thing_default_web_202611301206',
    );
    expect(requeueScheduleName({ ...short, kind: 'b.io/Thing' }, at)).toBe(
      'requeue_p_b.io_Thing_default_web_202611301206',
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
