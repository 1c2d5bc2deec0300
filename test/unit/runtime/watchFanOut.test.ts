/**
 * The AWS runtime's watch-slice sender (lib/runtime/watchFanOut.ts): one PutEvents entry per slice, ten to a call,
 * and every slice the bus did not take returned with why — never thrown.
 */
import { describe, expect, it } from '@jest/globals';
import type { PutEventsRequestEntry, PutEventsResponse } from '@aws-sdk/client-eventbridge';
import { eventBridgeWatchFanOut } from '../../../lib/runtime/watchFanOut.js';
import { watchTrigger } from '../../../lib/source/watchSlices.js';

const slices = (n: number) => Array.from({ length: n }, (_, i) => [`c${i}a`, `c${i}b`]);

describe('eventBridgeWatchFanOut', () => {
  it('puts one entry per slice, at most ten to a call, that a watch run reads back as its slice', async () => {
    const calls: PutEventsRequestEntry[][] = [];
    const fanOut = eventBridgeWatchFanOut({
      eventBusName: 'bus',
      concurrency: 6,
      putEvents: (entries) => {
        calls.push(entries);
        return Promise.resolve({
          FailedEntryCount: 0,
          Entries: entries.map((_, i) => ({ EventId: `id-${i}` })),
        });
      },
    });
    expect(await fanOut.send(slices(12), 'req-1')).toEqual([]);
    expect(fanOut.concurrency).toBe(6);
    expect(calls.map((c) => c.length)).toEqual([10, 2]);
    expect(calls[0]?.[0]).toEqual({
      EventBusName: 'bus',
      Source: 'kruiseless',
      DetailType: 'Watch Slice Requested',
      Detail: '{"clusters":["c0a","c0b"],"sentBy":"req-1"}',
    });
    // as EventBridge hands it to the function
    const delivered = calls[1]?.[1];
    expect(
      watchTrigger({
        source: delivered?.Source,
        'detail-type': delivered?.DetailType,
        detail: JSON.parse(delivered?.Detail ?? 'null') as unknown,
      }),
    ).toEqual({ kind: 'slice', detail: { clusters: ['c11a', 'c11b'], sentBy: 'req-1' } });
  });

  it('returns the slices of a failed entry and of a failed call, each with why', async () => {
    let call = 0;
    const fanOut = eventBridgeWatchFanOut({
      eventBusName: 'bus',
      putEvents: (entries): Promise<PutEventsResponse> => {
        call++;
        if (call === 2) return Promise.reject(new Error('socket hang up'));
        return Promise.resolve({
          FailedEntryCount: 2,
          Entries: entries.map((_, i) =>
            i === 1
              ? { ErrorCode: 'ThrottlingException', ErrorMessage: 'Rate exceeded' }
              : i === 2
                ? {}
                : { EventId: `id-${i}` },
          ),
        });
      },
    });
    expect(fanOut.concurrency).toBeUndefined();
    expect(await fanOut.send(slices(11), 'req-2')).toEqual([
      { clusters: ['c1a', 'c1b'], error: 'ThrottlingException: Rate exceeded' },
      { clusters: ['c2a', 'c2b'], error: 'no result for this entry in the PutEvents response' },
      { clusters: ['c10a', 'c10b'], error: 'socket hang up' },
    ]);
  });
});
