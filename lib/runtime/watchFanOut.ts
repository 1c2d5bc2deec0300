/**
 * The AWS runtime's {@link WatchFanOut}: one EventBridge entry per slice (lib/source/watchSlices.ts), at most
 * {@link MAX_ENTRIES_PER_CALL} to a PutEvents call. A slice not accepted is not resent: the next minute's scheduled run
 * splits the fleet again, and its clusters' changes wait in the API server's history until then.
 */
import type { PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { MAX_ENTRIES_PER_CALL, type PutEventsFn } from '../requests/publisher.js';
import { SOURCE } from '../requests/schema.js';
import { chunks } from '../core/chunks.js';
import { errorMessage } from '../core/errors.js';
import {
  WATCH_SLICE_DETAIL_TYPE,
  type UnsentSlice,
  type WatchFanOut,
  type WatchSliceDetail,
} from '../source/watchSlices.js';

/** Options of {@link eventBridgeWatchFanOut}. */
export interface WatchFanOutOptions {
  /** The PutEvents call (the SDK client's, which retries throttles and transport errors itself). */
  putEvents: PutEventsFn;
  /** Bus name or ARN, the one the watch function's slice rule is on. */
  eventBusName: string;
  /** See {@link WatchFanOut.concurrency}. */
  concurrency?: number;
}

/** The PutEvents entry of one slice. */
export function sliceEntry(
  clusters: readonly string[],
  sentBy: string,
  eventBusName: string,
): PutEventsRequestEntry {
  const detail: WatchSliceDetail = { clusters: [...clusters], sentBy };
  return {
    EventBusName: eventBusName,
    Source: SOURCE,
    DetailType: WATCH_SLICE_DETAIL_TYPE,
    Detail: JSON.stringify(detail),
  };
}

/**
 * A {@link WatchFanOut} over EventBridge.
 * @returns its `send` never throws: a failed call fails each of its slices, a failed entry its own
 */
export function eventBridgeWatchFanOut(opts: WatchFanOutOptions): WatchFanOut {
  return {
    ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
    async send(slices, sentBy) {
      const failed: UnsentSlice[] = [];
      for (const chunk of chunks(slices, MAX_ENTRIES_PER_CALL)) {
        try {
          const response = await opts.putEvents(chunk.map((s) => sliceEntry(s, sentBy, opts.eventBusName)));
          chunk.forEach((s, j) => {
            const r = response.Entries?.[j];
            if (r?.EventId !== undefined && r.ErrorCode === undefined) return;
            const error = r?.ErrorCode
              ? `${r.ErrorCode}: ${r.ErrorMessage ?? ''}`.trimEnd()
              : 'no result for this entry in the PutEvents response';
            failed.push({ clusters: [...s], error });
          });
        } catch (e) {
          failed.push(...chunk.map((s) => ({ clusters: [...s], error: errorMessage(e) })));
        }
      }
      return failed;
    },
  };
}
