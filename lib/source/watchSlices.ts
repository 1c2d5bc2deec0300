/**
 * A fleet larger than one watch run holds, split over several runs at once (docs/architecture.md#watch-slices). One
 * Lambda invocation opens at most so many connections (lib/runtime/handlers/watch.ts `LAMBDA_CONNECTION_BUDGET`: its
 * 1,024 file descriptors; `connectionsPerCluster` a cluster); the scheduled run splits the registered clusters into slices that fit, watches the first
 * itself and puts one `Watch Slice Requested` event per other slice on the bus, whose rule starts one more run of the
 * watch function per slice. Every cluster is then watched every minute, where runs taking turns watched it once in
 * `ceil(clusters / fit)` minutes. Pure: the event shape and the split.
 */
import * as z from 'zod';
import { chunks } from '../core/chunks.js';
import { SOURCE } from '../requests/schema.js';

/** EventBridge `detail-type` of a slice's event (serverless.yml: the watch function's second rule). */
export const WATCH_SLICE_DETAIL_TYPE = 'Watch Slice Requested';

/**
 * Most clusters one slice event names: far above what a run holds (100 over HTTP/2, 47 over HTTP/1.1), and with names of at
 * most 253 characters the detail stays well under EventBridge's 256 KB per entry.
 */
export const MAX_SLICE_CLUSTERS = 500;

/** The detail of a slice's event: the clusters that run watches, and the scheduled run that sent it. */
export const WatchSliceDetailSchema = z
  .object({
    clusters: z.array(z.string().min(1).max(253)).min(1).max(MAX_SLICE_CLUSTERS),
    /** The sending run's request id, for the logs. */
    sentBy: z.string().max(200).optional(),
  })
  .strict();
export type WatchSliceDetail = z.infer<typeof WatchSliceDetailSchema>;

/** What starts a watch run. */
export type WatchTrigger =
  /** The schedule (or a direct call, or the embedded default's timer): the run watches the fleet's first slice. */
  | { kind: 'scheduled' }
  /** A slice's event: the run watches those clusters. */
  | { kind: 'slice'; detail: WatchSliceDetail }
  /** A slice's event whose detail is not one: nothing is watched; `error` says why. */
  | { kind: 'invalid'; error: string };

/**
 * What started a watch run, from the event Lambda passes: an EventBridge event of source `kruiseless` and
 * detail-type {@link WATCH_SLICE_DETAIL_TYPE} is a slice; any other event (the schedule rule's `Scheduled Event`,
 * none) is the schedule.
 * @returns `invalid` with the first bad field's path and message for a slice event whose detail does not parse
 */
export function watchTrigger(event: unknown): WatchTrigger {
  if (event === null || typeof event !== 'object') return { kind: 'scheduled' };
  const e = event as Record<string, unknown>;
  if (e.source !== SOURCE || e['detail-type'] !== WATCH_SLICE_DETAIL_TYPE) return { kind: 'scheduled' };
  const parsed = WatchSliceDetailSchema.safeParse(e.detail);
  if (parsed.success) return { kind: 'slice', detail: parsed.data };
  const issue = parsed.error.issues[0];
  const at = issue?.path.length ? `detail.${issue.path.join('.')}` : 'detail';
  return { kind: 'invalid', error: `${at}: ${issue?.message ?? 'invalid'}` };
}

/**
 * The registered clusters split into slices of runs: sorted by name (so that a cluster stays in the same slice from
 * minute to minute while the registry is unchanged), then cut every `fit = max(1, floor(budget / perCluster))`
 * clusters.
 * @param names the registered clusters (any order, each once)
 * @param perCluster connections a cluster takes (lib/runtime/handlers/watch.ts `connectionsPerCluster`)
 * @param budget connections one run opens at most
 * @returns the slices in order, none for no cluster; the first is the scheduled run's own
 */
export function watchSlices(names: readonly string[], perCluster: number, budget: number): string[][] {
  const fit = Math.max(1, Math.floor(budget / Math.max(1, perCluster)));
  return chunks([...names].sort(), fit);
}

/** A slice whose event the bus did not take. */
export interface UnsentSlice {
  clusters: string[];
  /** The entry's error code and message, or the failed call's error. */
  error: string;
}

/** Sends slices' events (the AWS runtime's, lib/runtime/watchFanOut.ts). */
export interface WatchFanOut {
  /**
   * Puts one {@link WATCH_SLICE_DETAIL_TYPE} event per slice on the bus.
   * @param sentBy the sending run's request id
   * @returns the slices whose event was not accepted, each with why (their clusters wait for the next minute's run);
   *   never throws for a failed call, whose slices are all returned
   */
  send(slices: readonly (readonly string[])[], sentBy: string): Promise<UnsentSlice[]>;
  /**
   * Runs of the watch function Lambda allows at once (serverless.yml parameter `watchConcurrency`), when known: a
   * fleet needs two per slice, since a minute's runs overlap the previous minute's until they hand over.
   */
  readonly concurrency?: number;
}
