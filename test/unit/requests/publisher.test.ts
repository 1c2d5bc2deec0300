/**
 * The EventBridge publisher against a fake PutEvents endpoint (support/fakeAws.ts). Faked fault: per-entry
 * failures inside a 200 response (`FailedEntryCount` > 0, `ErrorCode` on some entries), which EventBridge
 * produces under throttling or internal errors and which cannot be caused on demand here (moto never fails
 * an entry partially).
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import {
  PUBLISH_CONCURRENCY,
  PublishError,
  backoffDelayMs,
  createEventBridgePublisher,
  createPutEventsPublisher,
  type ReconcileRequest,
} from '../../../lib/requests/index.js';
import {
  DUMMY_CREDENTIALS,
  startFakeAws,
  type FakeAws,
  type FakeResponse,
  type RecordedRequest,
} from './support/fakeAws.js';

interface WireEntry {
  Source: string;
  DetailType: string;
  Detail: string;
  EventBusName: string;
}

const entriesOf = (r: RecordedRequest): WireEntry[] => r.body.Entries as WireEntry[];
const namesOf = (r: RecordedRequest): string[] =>
  entriesOf(r).map((e) => (JSON.parse(e.Detail) as { name: string }).name);

function req(name: string, reason: ReconcileRequest['reason'] = 'OwnedObjectChanged'): ReconcileRequest {
  return { version: 2, cluster: 'prod', kind: 'apps.kruise.io/CloneSet', namespace: 'default', name, reason };
}

/** Accepts every entry except those whose CloneSet name is in `failing` (each fails as often as listed). */
function partialFailures(failing: Record<string, number>): (r: RecordedRequest) => FakeResponse {
  const left = { ...failing };
  return (r) => {
    const results = namesOf(r).map((name, i) => {
      if ((left[name] ?? 0) > 0) {
        left[name]--;
        return { ErrorCode: 'InternalFailure', ErrorMessage: 'Internal error' };
      }
      return { EventId: `id-${name}-${i}` };
    });
    return { body: { FailedEntryCount: results.filter((x) => 'ErrorCode' in x).length, Entries: results } };
  };
}

let fake: FakeAws | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(respond: (r: RecordedRequest) => FakeResponse, maxAttempts?: number) {
  fake = await startFakeAws(respond);
  const client = new EventBridgeClient({
    endpoint: fake.endpoint,
    region: 'eu-west-1',
    credentials: DUMMY_CREDENTIALS,
    maxAttempts: 1,
  });
  const sleeps: number[] = [];
  const publisher = createEventBridgePublisher({
    client,
    eventBusName: 'kruiseless',
    ...(maxAttempts !== undefined ? { maxAttempts } : {}),
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
  });
  return { publisher, sleeps, requests: fake.requests };
}

describe('createEventBridgePublisher', () => {
  it('sends one PutEvents entry per coalesced request with the reconcile-request envelope', async () => {
    const { publisher, requests, sleeps } = await setup(partialFailures({}));
    const result = await publisher.publish([
      { ...req('web'), resourceVersion: '41' },
      { ...req('web', 'ObjectChanged'), resourceVersion: '42' },
    ]);
    expect(result).toEqual({ published: 1, calls: 1, retried: 0 });
    expect(requests).toHaveLength(1);
    expect(requests[0].headers['x-amz-target']).toBe('AWSEvents.PutEvents');
    expect(entriesOf(requests[0])).toEqual([
      {
        EventBusName: 'kruiseless',
        Source: 'kruiseless',
        DetailType: 'Reconcile Requested',
        Detail:
          '{"version":2,"cluster":"prod","kind":"apps.kruise.io/CloneSet","namespace":"default","name":"web","reason":"ObjectChanged","resourceVersion":"42"}',
      },
    ]);
    expect(sleeps).toEqual([]);
  });

  it('splits 23 requests into PutEvents calls of 10, 10 and 3 entries', async () => {
    const { publisher, requests } = await setup(partialFailures({}));
    const names = Array.from({ length: 23 }, (_, i) => `cs-${i}`);
    expect(await publisher.publish(names.map((n) => req(n)))).toEqual({
      published: 23,
      calls: 3,
      retried: 0,
    });
    expect(requests.map((r) => entriesOf(r).length)).toEqual([10, 10, 3]);
    expect(requests.flatMap(namesOf)).toEqual(names);
  });

  it('resends only the entries that failed, after a jittered exponential backoff', async () => {
    const { publisher, requests, sleeps } = await setup(partialFailures({ b: 2, d: 1 }));
    const result = await publisher.publish(['a', 'b', 'c', 'd'].map((n) => req(n)));
    expect(result).toEqual({ published: 4, calls: 3, retried: 3 });
    expect(requests.map(namesOf)).toEqual([['a', 'b', 'c', 'd'], ['b', 'd'], ['b']]);
    // random() = 0.5 of the caps 100 ms and 200 ms.
    expect(sleeps).toEqual([50, 100]);
  });

  it('throws PublishError listing the entries still failing after maxAttempts, having published the rest', async () => {
    const { publisher, requests, sleeps } = await setup(partialFailures({ b: 99 }), 3);
    const error = await publisher.publish(['a', 'b', 'c'].map((n) => req(n))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PublishError);
    expect((error as PublishError).message).toBe(
      'PutEvents failed for 1 of 3 entries after 3 attempts: prod/apps.kruise.io/CloneSet/default/b (InternalFailure: Internal error)',
    );
    expect((error as PublishError).failed).toEqual([
      {
        key: 'prod/apps.kruise.io/CloneSet/default/b',
        errorCode: 'InternalFailure',
        errorMessage: 'Internal error',
      },
    ]);
    expect((error as PublishError).published).toBe(2);
    expect(requests.map(namesOf)).toEqual([['a', 'b', 'c'], ['b'], ['b']]);
    expect(sleeps).toEqual([50, 100]);
  });

  it('treats a call the SDK gave up on as failing all its entries', async () => {
    // Faked fault: a service error for the whole call (500 InternalException), once.
    const ok = partialFailures({});
    const { publisher, requests } = await setup((r) =>
      fake!.requests.length === 1
        ? { status: 500, headers: { 'x-amzn-errortype': 'InternalException' }, body: { message: 'boom' } }
        : ok(r),
    );
    expect(await publisher.publish([req('a'), req('b')])).toEqual({ published: 2, calls: 2, retried: 2 });
    expect(requests.map(namesOf)).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
  });

  it('with maxAttempts 1 never retries', async () => {
    const { publisher, sleeps } = await setup(partialFailures({ a: 1 }), 1);
    await expect(publisher.publish([req('a')])).rejects.toThrow(
      'PutEvents failed for 1 of 1 entries after 1 attempts: prod/apps.kruise.io/CloneSet/default/a (InternalFailure: Internal error)',
    );
    expect(sleeps).toEqual([]);
  });

  it('publishes nothing and calls nothing for an empty batch', async () => {
    const { publisher, requests } = await setup(partialFailures({}));
    expect(await publisher.publish([])).toEqual({ published: 0, calls: 0, retried: 0 });
    expect(requests).toHaveLength(0);
  });
});

describe('backoffDelayMs', () => {
  it('doubles the cap per resend up to maxDelayMs and scales it by the random draw', () => {
    expect([1, 2, 3, 4, 10].map((a) => backoffDelayMs(a, 100, 1000, 0.999))).toEqual([
      99, 199, 399, 799, 999,
    ]);
    expect(backoffDelayMs(3, 100, 1000, 0)).toBe(0);
  });
});

describe('createPutEventsPublisher with concurrency', () => {
  it('keeps 4 PutEvents calls of 1 s in flight: 100 requests (10 calls) in 3 s, started in request order', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const calls: { start: number; end?: number; names: string[] }[] = [];
      let inFlight = 0;
      let mostInFlight = 0;
      const publisher = createPutEventsPublisher(
        (entries) => {
          const call: (typeof calls)[number] = {
            start: Date.now(),
            names: entries.map((e) => (JSON.parse(e.Detail ?? '{}') as { name: string }).name),
          };
          calls.push(call);
          mostInFlight = Math.max(mostInFlight, ++inFlight);
          return new Promise((resolve) =>
            setTimeout(() => {
              inFlight--;
              call.end = Date.now();
              resolve({ FailedEntryCount: 0, Entries: entries.map((_, i) => ({ EventId: `e${i}` })) });
            }, 1_000),
          );
        },
        'kruiseless',
        { concurrency: PUBLISH_CONCURRENCY },
      );
      const names = Array.from({ length: 100 }, (_, i) => `cs-${String(i).padStart(3, '0')}`);
      const done = publisher.publish(names.map((n) => req(n)));
      await jest.advanceTimersByTimeAsync(3_000);
      expect(await done).toEqual({ published: 100, calls: 10, retried: 0 });
      expect(PUBLISH_CONCURRENCY).toBe(4);
      expect(mostInFlight).toBe(4);
      expect(calls.map((c) => [c.start, c.end])).toEqual([
        [0, 1_000],
        [0, 1_000],
        [0, 1_000],
        [0, 1_000],
        [1_000, 2_000],
        [1_000, 2_000],
        [1_000, 2_000],
        [1_000, 2_000],
        [2_000, 3_000],
        [2_000, 3_000],
      ]);
      expect(calls.flatMap((c) => c.names)).toEqual(names);
    } finally {
      jest.useRealTimers();
    }
  });

  it('rejects a concurrency below 1 at construction', () => {
    expect(() => createPutEventsPublisher(() => Promise.resolve({}), 'b', { concurrency: 0 })).toThrow(
      new RangeError('concurrency must be ≥ 1, got 0'),
    );
  });
});
