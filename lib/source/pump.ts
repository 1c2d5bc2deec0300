/**
 * The watch pump (docs/architecture.md#watch-pump): for one cluster, bounded watches of the streams the registered
 * controllers' watch specs make (./watchSpec.ts: each controller's resource, what it owns, what it maps), resumed
 * from the stored resourceVersion, each change mapped to the object keys it concerns and published (coalesced) to
 * the bus. Runs inside a scheduled Lambda until its time budget ends, or continuously in the embedded default.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { JsonObject } from '../api/types.js';
import { withCorrelationIds, type EventPublisher, type ReconcileRequest } from '../requests/index.js';
import { isNotFound } from '../kube/errors.js';
import type { KubeClient } from '../kube/types.js';
import { watchOnce } from '../kube/watch.js';
import type { WatchCheckpoints } from '../state/index.js';
import type { Clock } from '../core/clock.js';
import { newerResourceVersion } from '../core/resourceVersion.js';
import type { Logger } from '../core/logger.js';
import { noteIdle } from './idle.js';
import { requestsForChange, type MapReads, type WatchStream } from './watchSpec.js';

export type { WatchStream } from './watchSpec.js';

/** What the pump needs. */
export interface PumpDeps {
  cluster: string;
  kc: KubeConfig;
  /** The cluster's client, for the reads of mapped watches; absent: a mapped watch's change is dropped (logged). */
  kube?: Pick<KubeClient, 'get' | 'list'>;
  watches: WatchCheckpoints;
  publisher: EventPublisher;
  /** Unique id of this pump run (checkpoint lease holder). */
  holder: string;
  clock: Clock;
  /** Epoch ms by which every watch must have ended and its checkpoint been saved. */
  deadlineMs: number;
  /** Checkpoint lease duration, ms (longer than the run). */
  leaseDurationMs: number;
  /** Longest single watch, seconds. */
  watchTimeoutSeconds: number;
  /** How often buffered changes are published while a watch is open, ms. */
  flushIntervalMs: number;
  /** Least time between two checkpoint writes of one stream while a watch is open, ms. */
  checkpointIntervalMs: number;
  log: Logger;
  signal?: AbortSignal;
}

/** What one stream did. */
export interface StreamResult {
  resource: string;
  /** False when another pump run holds this stream's checkpoint lease. */
  acquired: boolean;
  watches: number;
  /** Changes seen that concern a reconciled object. */
  changes: number;
  published: number;
  /** Times the stored resourceVersion had expired and the stream restarted from a fresh list. */
  relists: number;
  resourceVersion?: string;
  /** Why the stream failed (it was logged); absent when it ran until the deadline. */
  error?: string;
  /** True when the cluster does not serve the resource (404, no CRD): the stream was skipped (./idle.ts). */
  idle?: boolean;
}

/**
 * Follow one stream until the deadline. Changes are published before the checkpoint that covers them is saved,
 * so a crash re-delivers instead of losing (at-least-once; the reconciler is idempotent). With no stored
 * resourceVersion, or after `410 Gone`, the watch starts without one: the API server then replays every existing
 * object as ADDED, which is the relist — for a controller's own resource it amounts to a resync of every key. A
 * resource the cluster does not serve (404) leaves the stream idle: logged once, `idle: true`, no error.
 * @throws PublishError / KubeApiError / FencedOutError (the checkpoint lease is released first where possible)
 */
export async function pumpStream(deps: PumpDeps, stream: WatchStream): Promise<StreamResult> {
  const result: StreamResult = {
    resource: stream.resource,
    acquired: false,
    watches: 0,
    changes: 0,
    published: 0,
    relists: 0,
  };
  const acq = await deps.watches.acquire(
    deps.cluster,
    stream.resource,
    deps.holder,
    deps.leaseDurationMs,
    deps.clock(),
  );
  if (!acq.acquired) return result;
  result.acquired = true;
  /** Resume point: every change up to it has been published. */
  let rv = acq.resourceVersion;
  /** Last resume point written to the checkpoint item. */
  let savedRv = rv;
  let savedAt = deps.clock();
  /** Requests of the changes seen since the last flush; a mapped watch's are still being read. */
  let buffer: Promise<ReconcileRequest[]>[] = [];
  let bufferRv: string | undefined;
  let chain: Promise<void> = Promise.resolve();

  /**
   * Publish what is buffered, then advance the resume point. The checkpoint is written when the resume point moved,
   * at most every `checkpointIntervalMs` (bookmarks move it whenever anything in the cluster changes), and always
   * when `force` (end of a watch): a crash replays at most that interval, which the idempotent reconciler absorbs.
   */
  const flush = (force = false): Promise<void> => {
    const batch = buffer;
    const upTo = bufferRv;
    buffer = [];
    chain = chain.then(async () => {
      const requests = (await Promise.all(batch)).flat();
      result.changes += requests.length;
      if (requests.length > 0)
        result.published += (await deps.publisher.publish(withCorrelationIds(requests))).published;
      if (upTo) rv = upTo;
      if (rv && rv !== savedRv && (force || deps.clock() - savedAt >= deps.checkpointIntervalMs)) {
        await deps.watches.save(deps.cluster, stream.resource, deps.holder, acq.token, rv);
        savedRv = rv;
        savedAt = deps.clock();
      }
    });
    return chain;
  };

  const reads: MapReads = { cluster: deps.cluster, kube: deps.kube ?? noReads };
  try {
    while (deps.clock() + 2000 < deps.deadlineMs && !deps.signal?.aborted) {
      const seconds = Math.max(
        1,
        Math.min(deps.watchTimeoutSeconds, Math.floor((deps.deadlineMs - deps.clock()) / 1000) - 1),
      );
      const timer = setInterval(() => void flush().catch(() => undefined), deps.flushIntervalMs);
      result.watches++;
      let watched;
      try {
        watched = await watchOnce(
          deps.kc,
          stream.path,
          {
            ...(rv ? { resourceVersion: rv } : {}),
            ...(stream.labelSelector ? { labelSelector: stream.labelSelector } : {}),
            timeoutSeconds: seconds,
            allowBookmarks: true,
            ...(deps.signal ? { signal: deps.signal } : {}),
          },
          (type, obj: JsonObject) => {
            const objRv = (obj.metadata as JsonObject | undefined)?.resourceVersion;
            if (typeof objRv === 'string')
              // a relist replays existing objects as ADDED in key order, not version order: the resume point never
              // moves backwards
              bufferRv = newerResourceVersion(bufferRv ?? rv, objRv);
            if (type === 'BOOKMARK') return;
            buffer.push(requestsForChange(stream, obj, reads, deps.log));
          },
        );
      } catch (e) {
        if (!isNotFound(e)) throw e;
        const kinds = stream.consumers.map((c) => c.controller.kind).join(', ');
        noteIdle(deps.log, deps.cluster, stream.resource, `watch of ${kinds}`);
        result.idle = true;
        break;
      } finally {
        clearInterval(timer);
      }
      await flush(true);
      if (watched.gone) {
        result.relists++;
        deps.log.warn('watch resourceVersion expired; restarting from a full list', {
          cluster: deps.cluster,
          resource: stream.resource,
        });
        rv = undefined;
        savedRv = undefined;
        bufferRv = undefined;
      } else if (watched.resourceVersion) {
        bufferRv = watched.resourceVersion;
        await flush(true);
      }
    }
    result.resourceVersion = rv;
    return result;
  } finally {
    await chain.catch(() => undefined);
    await deps.watches.release(deps.cluster, stream.resource, deps.holder, acq.token).catch(() => undefined);
  }
}

/** The reads of a pump without a client: every mapped watch's change is dropped (and logged). */
const noReads: MapReads['kube'] = {
  get: () => Promise.reject(new Error('the watch pump was given no client for mapped watches')),
  list: () => Promise.reject(new Error('the watch pump was given no client for mapped watches')),
};

/**
 * Run every stream for one cluster in parallel until the deadline.
 * @param streams lib/source/watchSpec.ts `watchStreams` of the registered controllers
 * @returns each stream's result; a failing stream is logged and reported with `acquired: true`, its `error` and what it did
 */
export async function pumpCluster(deps: PumpDeps, streams: readonly WatchStream[]): Promise<StreamResult[]> {
  const results = await Promise.allSettled(streams.map((s) => pumpStream(deps, s)));
  return results.map((r, i) => {
    if (r.status === 'fulfilled') return r.value;
    const error = r.reason instanceof Error ? r.reason.message : String(r.reason);
    deps.log.error('watch stream failed', {
      cluster: deps.cluster,
      resource: streams[i].resource,
      error,
    });
    return {
      resource: streams[i].resource,
      acquired: true,
      watches: 0,
      changes: 0,
      published: 0,
      relists: 0,
      error,
    };
  });
}
