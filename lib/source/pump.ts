/**
 * The watch pump (docs/architecture.md#watch-pump): for one cluster, bounded watches of the streams the registered
 * controllers' watch specs make (./watchSpec.ts: each controller's resource, what it owns, what it maps), resumed
 * from the stored resourceVersion, each change mapped to the object keys it concerns and published (coalesced) to
 * the bus. Runs inside a scheduled Lambda until its time budget ends, or continuously in the embedded default.
 */
import { setMaxListeners } from 'node:events';
import type { KubeConfig } from '@kubernetes/client-node';
import type { JsonObject } from '../api/types.js';
import { withCorrelationIds, type EventPublisher, type ReconcileRequest } from '../requests/index.js';
import { isNotFound } from '../kube/errors.js';
import type { KubeClient } from '../kube/types.js';
import { watchOnce } from '../kube/watch.js';
import { FencedOutError, type WatchCheckpoints } from '../state/index.js';
import type { ResumePoints } from '../state/ports.js';
import { errorMessage } from '../core/errors.js';
import { ClusterCheckpoint, type StreamCheckpoints } from './clusterCheckpoint.js';
import type { Clock } from '../core/clock.js';
import { newerResourceVersion } from '../core/resourceVersion.js';
import type { Logger } from '../core/logger.js';
import { deadlineSignal, realTimer, sleepUnlessAborted, type Timer } from '../core/deadline.js';
import { noteIdle } from './idle.js';
import { listMemo, type ListMemo } from './listMemo.js';
import { ownerResyncAfterRelist, relist } from './relist.js';
import { requestsForChange, type ChangeType, type MapReads, type WatchStream } from './watchSpec.js';

export type { WatchStream } from './watchSpec.js';

/**
 * How often a run whose stream's checkpoint lease is held asks for it again, ms (review finding 8): the scheduled
 * runs overlap by design (each runs until 8 s before its 70 s timeout, the next starts 60 s after it), so the next
 * run waits for its predecessor's release instead of giving up, and takes the stream over within this much of it.
 */
export const HANDOVER_POLL_MS = 500;

/** What the pump needs. */
export interface PumpDeps {
  cluster: string;
  kc: KubeConfig;
  /** The cluster's client: the LIST of a relist (./relist.ts) and the reads of mapped watches. */
  kube: Pick<KubeClient, 'get' | 'list'>;
  /** The stream's checkpoint: in a run, the cluster's ({@link pumpCluster}); a test may give each stream its own. */
  watches: StreamCheckpoints;
  publisher: EventPublisher;
  /** Unique id of this pump run (checkpoint lease holder). */
  holder: string;
  clock: Clock;
  /**
   * Epoch ms at which every watch is aborted (an AbortSignal the watch is given) and the run stops; the checkpoint
   * is then saved and the lease released, inside the caller's margin before its own end.
   */
  deadlineMs: number;
  /**
   * Checkpoint lease duration, ms, counted from the run's first acquire attempt (a run that waited for its
   * predecessor asks for what is left): at least until the run's process is gone (a Lambda's timeout), so that a
   * run killed before its release blocks its successor only until then.
   */
  leaseDurationMs: number;
  /** Longest single watch, seconds. */
  watchTimeoutSeconds: number;
  /**
   * Least time between two flushes of a stream while a watch is open, ms: a change after a quiet spell this long is
   * published at once, the rest of a burst when the interval is up.
   */
  flushIntervalMs: number;
  /** Least time between two checkpoint writes of one stream while a watch is open, ms. */
  checkpointIntervalMs: number;
  /** See {@link HANDOVER_POLL_MS} (the default). */
  handoverPollMs?: number;
  /**
   * What waits on `clock`'s time: the handover poll, a flush that is due, the reopen backoff ({@link pumpCluster})
   * and the cluster checkpoint's interval writes — every wait but the deadline's own timer, which `signal` can end
   * instead. Default lib/core/deadline.ts `realTimer` (the global setTimeout); a simulation that moves `clock`
   * itself gives its own.
   */
  timer?: Timer;
  /** Objects per page of a relist's LIST; default ./relist.ts `RELIST_PAGE_SIZE`. */
  relistPageSize?: number;
  log: Logger;
  /** Ends the run early (the embedded default's stop), like the deadline. */
  signal?: AbortSignal;
  /**
   * The LIST answers the run's mapped watches share (./listMemo.ts); {@link pumpCluster} makes one for its streams.
   * Absent: every mapped read goes to the cluster.
   */
  listMemo?: ListMemo;
}

/** A pause of one stream of a {@link pumpCluster} run, as {@link ClusterPumpDeps.onStream} is told of it. */
export type StreamPause =
  /** The stream failed and waits `inMs` (on the deps' clock, through their `timer`) before it opens again. */
  | { state: 'reopening'; inMs: number }
  /** The stream's result, or its failure, is final: it does nothing more in this run. */
  | { state: 'ended' };

/** What {@link pumpCluster} needs: {@link PumpDeps} with the cluster's checkpoint store in place of a stream's. */
export type ClusterPumpDeps = Omit<PumpDeps, 'watches'> & {
  watches: WatchCheckpoints;
  /**
   * Told when a stream pauses within the run ({@link StreamPause}), before the wait starts or the run's other
   * streams end; must not throw. For a simulation that steps the run on its own clock and timer
   * (test/unit/controllers/cloneset/reconcile/chaos/eventPath.ts), which must tell a waiting or ended stream from a
   * busy one. Absent: nobody is told.
   */
  onStream?: (resource: string, pause: StreamPause) => void;
};

/** What one stream did. */
export interface StreamResult {
  resource: string;
  /** False when another pump run held the checkpoint lease (the cluster's, in a run) until this run's deadline. */
  acquired: boolean;
  /**
   * Time spent waiting for the previous run to release the checkpoint lease, ms: from the first acquire attempt to
   * the start of the one that took it (0 when it was free), or to the deadline when `acquired` is false.
   */
  waitedMs: number;
  watches: number;
  /** Changes seen that concern a reconciled object. */
  changes: number;
  published: number;
  /**
   * Times the stream (re)started from a LIST (./relist.ts): it had no stored resourceVersion, or the stored one
   * had expired (410 Gone).
   */
  relists: number;
  resourceVersion?: string;
  /** Why the stream failed (it was logged); absent when it ran until the deadline. */
  error?: string;
  /** True when the cluster does not serve the resource (404, no CRD): the stream was skipped (./idle.ts). */
  idle?: boolean;
  /** Times the stream failed and was opened again within the run; absent when it never failed. */
  reopened?: number;
}

/**
 * Take a checkpoint lease (a stream's, or in a run the cluster's), waiting for a live holder (the previous scheduled
 * run) to release it: `attempt` asks every `handoverPollMs` until the lease is ours or `stop` aborts. The duration
 * asked for is what is left of `leaseDurationMs` since the first attempt.
 * @param attempt one acquire, given the duration (ms) and the clock reading (epoch ms) to ask with
 * @returns the acquire result, or undefined when `stop` aborted first; and how long the wait took, ms
 */
async function acquireWhenReleased<A extends { acquired: boolean }>(
  deps: Pick<PumpDeps, 'clock' | 'leaseDurationMs' | 'handoverPollMs' | 'timer'>,
  stop: AbortSignal,
  attempt: (durationMs: number, nowMs: number) => Promise<A>,
): Promise<{ acquired?: A; waitedMs: number }> {
  const firstAttempt = deps.clock();
  for (;;) {
    const now = deps.clock();
    const acq = await attempt(Math.max(1, deps.leaseDurationMs - (now - firstAttempt)), now);
    if (acq.acquired) return { acquired: acq, waitedMs: now - firstAttempt };
    if (!(await sleepUnlessAborted(deps.handoverPollMs ?? HANDOVER_POLL_MS, stop, deps.timer)))
      return { waitedMs: deps.clock() - firstAttempt };
  }
}

/**
 * Follow one stream until the deadline. Changes are published before the checkpoint that covers them is saved,
 * so a crash re-delivers instead of losing (at-least-once; the reconciler is idempotent). With no stored
 * resourceVersion, or after `410 Gone`, the stream relists (./relist.ts: a paginated LIST, each object handled like
 * an ADDED event — for a controller's own resource, a resync of every key; for an owned or mapped resource, a resync
 * of every object of its controllers too, since an object deleted in the gap is on no page: ./relist.ts
 * `ownerResyncAfterRelist`) and watches on from the list's
 * resourceVersion; no checkpoint is written until the list's last page is published, and the resume point never
 * moves backwards (lib/core/resourceVersion.ts `newerResourceVersion`). A resource the cluster does not serve (404)
 * leaves the stream idle: logged once, `idle: true`, no error. When another run holds the checkpoint lease, this one
 * waits for its release (see {@link HANDOVER_POLL_MS}). Every watch is aborted at the deadline.
 * @throws PublishError / KubeApiError / FencedOutError (the checkpoint lease is released first where possible)
 */
export async function pumpStream(deps: PumpDeps, stream: WatchStream): Promise<StreamResult> {
  const result: StreamResult = {
    resource: stream.resource,
    acquired: false,
    waitedMs: 0,
    watches: 0,
    changes: 0,
    published: 0,
    relists: 0,
  };
  const deadline = deadlineSignal(deps.clock, deps.deadlineMs, deps.signal);
  const stop = deadline.signal;
  try {
    const { acquired: acq, waitedMs } = await acquireWhenReleased(deps, stop, (duration, now) =>
      deps.watches.acquire(deps.cluster, stream.resource, deps.holder, duration, now),
    );
    result.waitedMs = waitedMs;
    if (!acq) return result;
    result.acquired = true;
    return await follow(deps, stream, acq, stop, result);
  } finally {
    deadline.dispose();
  }
}

/** {@link pumpStream} once the checkpoint lease is held: watch (and relist) until `stop`, then release. */
async function follow(
  deps: PumpDeps,
  stream: WatchStream,
  acq: { token: number; resourceVersion?: string },
  stop: AbortSignal,
  result: StreamResult,
): Promise<StreamResult> {
  /** Resume point: every change up to it has been published. */
  let rv = acq.resourceVersion;
  /** Last resume point written to the checkpoint item. */
  let savedRv = rv;
  let savedAt = deps.clock();
  /** Requests of the changes seen since the last flush; a mapped watch's are still being read. */
  let buffer: Promise<ReconcileRequest[]>[] = [];
  /** Newest resourceVersion seen since the resume point; undefined while a relist is under way. */
  let bufferRv: string | undefined;
  let chain: Promise<void> = Promise.resolve();
  /** When the last flush started (deps.clock); the flush that is due (its cancel), if one is; whether a watch is open. */
  let flushedAt = deps.clock();
  let due: { cancel: () => void; at: number } | undefined;
  const timer = deps.timer ?? realTimer;
  let watching = false;

  /**
   * Publish what is buffered, then advance the resume point. The checkpoint is written when the resume point moved,
   * at most every `checkpointIntervalMs` (bookmarks move it whenever anything in the cluster changes), and always
   * when `force` (end of a watch or of a relist): a crash replays at most that interval, which the idempotent
   * reconciler absorbs.
   */
  const flush = (force = false): Promise<void> => {
    flushedAt = deps.clock();
    const batch = buffer;
    const upTo = bufferRv;
    buffer = [];
    chain = chain.then(async () => {
      const requests = (await Promise.all(batch)).flat();
      result.changes += requests.length;
      if (requests.length > 0)
        result.published += (await deps.publisher.publish(withCorrelationIds(requests))).published;
      rv = newerResourceVersion(rv, upTo);
      if (rv && rv !== savedRv && (force || deps.clock() - savedAt >= deps.checkpointIntervalMs)) {
        await deps.watches.save(deps.cluster, stream.resource, deps.holder, acq.token, rv);
        savedRv = rv;
        savedAt = deps.clock();
      }
      // a resume point not yet saved is saved by a flush once the interval allows, changes or not
      if (rv && rv !== savedRv) scheduleFlush(savedAt + deps.checkpointIntervalMs);
    });
    return chain;
  };

  /**
   * Ask for a flush while a watch is open (docs/architecture.md#watch-pump): at once (on the next turn of the event
   * loop, after the rest of the delivered chunk) when the last flush is `flushIntervalMs` old, else when it will be —
   * so a change after a quiet spell is published without waiting out the interval, a burst once an interval, and no
   * more than one flush starts per interval. A flush already due by then covers the request; one due later (the
   * checkpoint's) is brought forward.
   * @param notBefore epoch ms (deps.clock) before which the flush is not wanted (the checkpoint's interval)
   */
  function scheduleFlush(notBefore = 0): void {
    if (!watching) return;
    const at = Math.max(flushedAt + deps.flushIntervalMs, notBefore);
    if (due !== undefined) {
      if (due.at <= at) return;
      due.cancel();
    }
    const cancel = timer(
      () => {
        due = undefined;
        void flush().catch(() => undefined);
      },
      Math.max(0, at - deps.clock()),
    );
    due = { cancel, at };
  }
  /** The watch ended: nothing more is scheduled until the next one opens (its end flushes itself). */
  const closeWatch = (): void => {
    watching = false;
    due?.cancel();
    due = undefined;
  };

  const reads: MapReads = {
    cluster: deps.cluster,
    kube: deps.listMemo ? deps.listMemo.reads(deps.kube) : deps.kube,
  };
  const handle = (obj: JsonObject, change: ChangeType): void => {
    // before any later change is mapped: a kept LIST of this resource may no longer hold (./listMemo.ts)
    const namespace = (obj.metadata as JsonObject | undefined)?.namespace;
    deps.listMemo?.changed(stream.watched, typeof namespace === 'string' ? namespace : undefined);
    buffer.push(requestsForChange(stream, obj, reads, deps.log, change));
  };
  try {
    while (!stop.aborted) {
      if (!rv) {
        result.relists++;
        const listed = await relist(
          deps.kube,
          stream,
          stop,
          async (objects) => {
            for (const obj of objects) handle(obj, 'LISTED');
            await flush(); // bufferRv is undefined: published, the resume point stays put
          },
          deps.relistPageSize,
        );
        if (listed.resourceVersion === undefined) break; // cut short: the next run relists again
        // the owners of what was deleted in the gap are on no page: resync them before the checkpoint moves
        const owners = await ownerResyncAfterRelist(
          deps.kube,
          deps.cluster,
          stream,
          stop,
          deps.relistPageSize,
        );
        if (!owners.complete) break;
        buffer.push(Promise.resolve(owners.requests));
        bufferRv = listed.resourceVersion;
        await flush(true);
        continue;
      }
      const left = Math.ceil((deps.deadlineMs - deps.clock()) / 1000);
      const seconds = Math.max(1, Math.min(deps.watchTimeoutSeconds, left));
      result.watches++;
      let watched;
      watching = true;
      try {
        watched = await watchOnce(
          deps.kc,
          stream.path,
          {
            resourceVersion: rv,
            ...(stream.labelSelector ? { labelSelector: stream.labelSelector } : {}),
            timeoutSeconds: seconds,
            allowBookmarks: true,
            signal: stop,
          },
          (type, obj: JsonObject) => {
            const objRv = (obj.metadata as JsonObject | undefined)?.resourceVersion;
            if (typeof objRv === 'string') bufferRv = newerResourceVersion(bufferRv ?? rv, objRv);
            if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') handle(obj, type);
            scheduleFlush(); // a bookmark too: it moves the resume point
          },
        );
      } finally {
        closeWatch();
      }
      await flush(true);
      if (watched.gone) {
        deps.log.warn('watch resourceVersion expired; restarting from a full list', {
          cluster: deps.cluster,
          resource: stream.resource,
        });
        rv = undefined;
        bufferRv = undefined;
      }
    }
    result.resourceVersion = rv;
    return result;
  } catch (e) {
    if (!isNotFound(e)) throw e;
    const kinds = stream.consumers.map((c) => c.controller.kind).join(', ');
    noteIdle(deps.log, deps.cluster, stream.resource, `watch of ${kinds}`);
    result.idle = true;
    result.resourceVersion = rv;
    return result;
  } finally {
    await chain.catch(() => undefined);
    await deps.watches.release(deps.cluster, stream.resource, deps.holder, acq.token).catch(() => undefined);
  }
}

/** First wait before a failed stream is reopened within its run, ms; doubled per failure up to {@link REOPEN_MAX_MS}. */
export const REOPEN_BASE_MS = 1000;
/** Longest wait before a failed stream is reopened, ms. */
export const REOPEN_MAX_MS = 16_000;

/**
 * {@link pumpStream}, reopened after a failure (a reset watch, a 5xx LIST, a failed publish) with a backoff of 1 s,
 * 2 s, 4 s … up to {@link REOPEN_MAX_MS} while the run has time left: a stream that failed at its start otherwise
 * stayed closed until the next scheduled run, up to a minute without its changes (the fault front's predelete-hook
 * baseline missed a pod's label change so, docs/reliability.md#fault-front). The reopened attempt takes the stream's
 * checkpoint again (in a run, the cluster's, still held) and resumes from its last resume point. `FencedOutError`
 * (another run took the lease) is not retried.
 * @param onStream told of each wait before a reopen ({@link ClusterPumpDeps.onStream})
 * @throws the last failure when no time is left for another attempt, or `stop` aborted the wait
 */
async function pumpStreamReopening(
  deps: PumpDeps,
  stop: AbortSignal,
  stream: WatchStream,
  onStream?: ClusterPumpDeps['onStream'],
): Promise<StreamResult> {
  let delay = REOPEN_BASE_MS;
  let reopened = 0;
  for (;;) {
    try {
      const result = await pumpStream(deps, stream);
      return reopened > 0 ? { ...result, reopened } : result;
    } catch (e) {
      if (e instanceof FencedOutError || deps.clock() + delay >= deps.deadlineMs) throw e;
      deps.log.warn('watch stream failed; reopening it', {
        cluster: deps.cluster,
        resource: stream.resource,
        error: e instanceof Error ? e.message : String(e),
        inMs: delay,
      });
      onStream?.(stream.resource, { state: 'reopening', inMs: delay });
      if (!(await sleepUnlessAborted(delay, stop, deps.timer))) throw e;
      reopened++;
      delay = Math.min(delay * 2, REOPEN_MAX_MS);
    }
  }
}

/**
 * The resume points to start from: the stored ones, or — for a cluster whose item never stored any (written before
 * one item held the whole cluster's) — each stream's own older item, read once.
 */
async function startingPoints(
  deps: ClusterPumpDeps,
  streams: readonly WatchStream[],
  stored: ResumePoints | undefined,
): Promise<ResumePoints> {
  if (stored !== undefined) return stored;
  const points: Record<string, string> = {};
  await Promise.all(
    streams.map(async (s) => {
      const rv = await deps.watches.legacyResumePoint(deps.cluster, s.resource);
      if (rv !== undefined) points[s.resource] = rv;
    }),
  );
  return points;
}

/** A stream's result when the run never held the cluster's lease. */
function notAcquired(stream: WatchStream, waitedMs: number): StreamResult {
  return {
    resource: stream.resource,
    acquired: false,
    waitedMs,
    watches: 0,
    changes: 0,
    published: 0,
    relists: 0,
  };
}

/**
 * Run every stream for one cluster in parallel until the deadline, under the cluster's one pump lease
 * (./clusterCheckpoint.ts: taken once, waiting for the previous run's release; every stream's resume point kept in
 * the cluster's item, written at most every `checkpointIntervalMs` and with the release); a failed stream is
 * reopened with backoff ({@link pumpStreamReopening}). A write that finds the lease taken by another run stops
 * every stream. The streams' mapped watches share one ./listMemo.ts memo for the run (the caller's `listMemo`, else
 * one over the streams without a label selector).
 * @param streams lib/source/watchSpec.ts `watchStreams` of the registered controllers
 * @returns each stream's result; a failing stream is logged and reported with `acquired: true`, its `error` and what
 *   it did; every stream `acquired: false` when another run held the lease until the deadline
 * @throws StateStoreError when the lease cannot be taken or its older checkpoints read (the caller logs it)
 */
export async function pumpCluster(
  deps: ClusterPumpDeps,
  streams: readonly WatchStream[],
): Promise<StreamResult[]> {
  // one listener on the caller's signal (the embedded default's stop lives for many runs) and one per stream on this
  // run's own: each stream ends with either, and Node warns of a leak past 10 listeners on one signal
  const run = deadlineSignal(deps.clock, deps.deadlineMs, deps.signal);
  setMaxListeners(Math.max(10, streams.length + 2), run.signal);
  try {
    const { acquired, waitedMs } = await acquireWhenReleased(deps, run.signal, (duration, now) =>
      deps.watches.acquire(deps.cluster, deps.holder, duration, now),
    );
    if (!acquired) return streams.map((s) => notAcquired(s, waitedMs));
    let points: ResumePoints;
    try {
      points = await startingPoints(deps, streams, acquired.resumePoints);
    } catch (e) {
      // not held until it expires: the next run may take the cluster at once
      await deps.watches.release(deps.cluster, deps.holder, acquired.token).catch(() => undefined);
      throw e;
    }
    const lost = new AbortController();
    const checkpoint = new ClusterCheckpoint(
      {
        watches: deps.watches,
        cluster: deps.cluster,
        holder: deps.holder,
        clock: deps.clock,
        intervalMs: deps.checkpointIntervalMs,
        log: deps.log,
        ...(deps.timer ? { timer: deps.timer } : {}),
      },
      acquired.token,
      points,
      (e) => {
        deps.log.warn("watch lease taken by another run; stopping this cluster's streams", {
          cluster: deps.cluster,
          error: e.message,
        });
        lost.abort(e);
      },
    );
    const stop = AbortSignal.any([run.signal, lost.signal]);
    setMaxListeners(Math.max(10, streams.length + 2), stop);
    const memo =
      deps.listMemo ??
      listMemo(
        streams.filter((s) => !s.labelSelector).map((s) => s.watched),
        deps.clock,
      );
    const { onStream, ...rest } = deps;
    const streamDeps: PumpDeps = { ...rest, watches: checkpoint, signal: stop, listMemo: memo };
    const results = await Promise.allSettled(
      streams.map((s) =>
        pumpStreamReopening(streamDeps, stop, s, onStream).finally(() =>
          onStream?.(s.resource, { state: 'ended' }),
        ),
      ),
    );
    try {
      await checkpoint.close();
    } catch (e) {
      deps.log.error('watch checkpoint release failed', { cluster: deps.cluster, error: errorMessage(e) });
    }
    // a run that lost the lease stopped its streams early: each says so
    const lostTo = lost.signal.aborted ? errorMessage(lost.signal.reason) : undefined;
    return results.map((r, i) => {
      if (r.status === 'fulfilled')
        return { ...r.value, waitedMs, ...(lostTo === undefined || r.value.error ? {} : { error: lostTo }) };
      const error = errorMessage(r.reason);
      deps.log.error('watch stream failed', {
        cluster: deps.cluster,
        resource: streams[i].resource,
        error,
      });
      return {
        resource: streams[i].resource,
        acquired: true,
        waitedMs,
        watches: 0,
        changes: 0,
        published: 0,
        relists: 0,
        error,
      };
    });
  } finally {
    run.dispose();
  }
}
