/**
 * The resync handler at fleet scale (review finding 9, fleet part; docs/reliability.md#resync-at-fleet-scale):
 * serverless.yml gives the function 60 s and no retry, so the clusters are resynced in parallel (a bound), none is
 * started in the last RESYNC_START_MARGIN_MS, the handler returns RESYNC_END_MARGIN_MS before the deadline at the
 * latest, and every cluster it did not reach or finish is logged on its own line and counted in a metric.
 * On jest's fake timers, with a publisher that takes a set time per cluster.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { ReconcileRequest } from '../../../lib/requests/index.js';
import type { Runtime } from '../../../lib/runtime/types.js';
import { MemoryMetrics } from '../../../lib/runtime/metrics.js';
import { METRIC } from '../../../lib/core/metrics.js';
import {
  RESYNC_CLUSTER_CONCURRENCY,
  RESYNC_END_MARGIN_MS,
  RESYNC_START_MARGIN_MS,
  resyncHandler,
  resyncOrder,
  type ResyncSummary,
} from '../../../lib/runtime/handlers/resync.js';
import { cloneSetKind } from '../../../lib/controllers/cloneset/kind.js';
import { CapturingLogger } from '../support/capturingLogger.js';

/** serverless.yml's resync function: `timeout: 60`. */
const LAMBDA_TIMEOUT_MS = 60_000;
const names = (n: number) => Array.from({ length: n }, (_, i) => `c${String(i).padStart(2, '0')}`);

let published: { at: number; cluster: string }[];
let inFlight: number;
let mostInFlight: number;

beforeEach(() => {
  jest.useFakeTimers({ now: 0 });
  published = [];
  inFlight = 0;
  mostInFlight = 0;
});
afterEach(() => {
  jest.useRealTimers();
});

/** A runtime of `clusters`, each with one CloneSet, whose publish takes `publishMs(cluster)` (Infinity: never ends). */
function runtimeOf(clusters: string[], publishMs: (cluster: string) => number, metrics: MemoryMetrics) {
  return {
    clusterNames: () => Promise.resolve(clusters),
    cluster: (name: string) =>
      Promise.resolve({
        name,
        kube: {
          list: () =>
            Promise.resolve({
              items: [{ metadata: { name: 'web', namespace: 'default', resourceVersion: '7' } }],
              resourceVersion: '7',
            }),
        },
      }),
    publisher: {
      publish(requests: ReconcileRequest[]) {
        const cluster = requests[0]?.cluster ?? '';
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        const ms = publishMs(cluster);
        return new Promise((resolve) => {
          if (ms === Infinity) return;
          setTimeout(() => {
            inFlight--;
            published.push({ at: Date.now(), cluster });
            resolve({ published: requests.length, calls: 1, retried: 0 });
          }, ms);
        });
      },
    },
    metrics,
  } as unknown as Runtime;
}

/** One scheduled invocation with Lambda's remaining-time clock; resolves with the summary and when it ended. */
async function invoke(runtime: Runtime, logger: CapturingLogger, advanceMs: number, random = 0) {
  const run = resyncHandler(
    () => runtime,
    logger,
    // one kind, so each cluster's resync is one list and one publish (the timing this file is about)
    [cloneSetKind],
    () => random,
  );
  let endedAt = -1;
  const summary = run(undefined, {
    awsRequestId: 'r1',
    getRemainingTimeInMillis: () => LAMBDA_TIMEOUT_MS - Date.now(),
  }).then((s: ResyncSummary) => {
    endedAt = Date.now();
    return s;
  });
  await jest.advanceTimersByTimeAsync(advanceMs);
  return { summary: await summary, endedAt };
}

const lines = (logger: CapturingLogger, message: string) =>
  logger.lines.filter((l) => l.message === message).map((l) => l.cluster);

describe('resync of a fleet inside the 60 s function', () => {
  it('60 clusters whose publish takes 1 s each are all resynced, 8 at a time, in 8 s', async () => {
    const metrics = new MemoryMetrics();
    const logger = new CapturingLogger();
    const all = names(60);
    const { summary, endedAt } = await invoke(
      runtimeOf(all, () => 1_000, metrics),
      logger,
      60_000,
    );

    expect(RESYNC_CLUSTER_CONCURRENCY).toBe(8);
    expect(mostInFlight).toBe(8);
    expect(endedAt).toBe(8_000);
    expect(published.map((p) => p.cluster).sort()).toEqual(all);
    expect(summary).toEqual({
      resynced: Object.fromEntries(all.map((n) => [n, 1])),
      failed: [],
      notReached: [],
      notFinished: [],
    });
    expect(metrics.total(METRIC.resyncClustersMissed)).toBe(0);
  });

  it('when the clusters take longer than the budget, none starts in the last 10 s: each one not reached is logged and counted', async () => {
    const metrics = new MemoryMetrics();
    const logger = new CapturingLogger();
    const all = names(60);
    const { summary, endedAt } = await invoke(
      runtimeOf(all, () => 10_000, metrics),
      logger,
      60_000,
    );

    // rounds of 8 start at 0, 10, 20, 30 and 40 s; the next would start at 50 s = 60 s − RESYNC_START_MARGIN_MS
    expect(RESYNC_START_MARGIN_MS).toBe(10_000);
    expect(endedAt).toBe(50_000);
    expect(Object.keys(summary.resynced)).toEqual(all.slice(0, 40));
    expect(summary.notReached).toEqual(all.slice(40));
    expect(summary.notFinished).toEqual([]);
    expect(lines(logger, 'resync did not reach cluster')).toEqual(all.slice(40));
    expect(metrics.total(METRIC.resyncClustersMissed, { reason: 'not_reached' })).toBe(20);
    expect(metrics.total(METRIC.resyncClustersMissed, { reason: 'not_finished' })).toBe(0);
  });

  it('a cluster still publishing 3 s before the deadline is reported not finished and the handler returns', async () => {
    const metrics = new MemoryMetrics();
    const logger = new CapturingLogger();
    const all = names(3);
    const { summary, endedAt } = await invoke(
      runtimeOf(all, (c) => (c === 'c01' ? Infinity : 1_000), metrics),
      logger,
      60_000,
    );

    expect(RESYNC_END_MARGIN_MS).toBe(3_000);
    expect(endedAt).toBe(57_000);
    expect(summary).toEqual({
      resynced: { c00: 1, c02: 1 },
      failed: [],
      notReached: [],
      notFinished: ['c01'],
    });
    expect(lines(logger, 'resync did not finish cluster')).toEqual(['c01']);
    expect(metrics.total(METRIC.resyncClustersMissed, { reason: 'not_finished' })).toBe(1);
  });

  it('starts from a random cluster, so the clusters left out change from one resync to the next', async () => {
    const metrics = new MemoryMetrics();
    const logger = new CapturingLogger();
    const all = names(60);
    const { summary } = await invoke(
      runtimeOf(all, () => 10_000, metrics),
      logger,
      60_000,
      0.5,
    );

    expect(Object.keys(summary.resynced)).toEqual([...all.slice(0, 10), ...all.slice(30)]);
    expect(summary.notReached).toEqual(all.slice(10, 30));
    expect(lines(logger, 'resync did not reach cluster')).toEqual(all.slice(10, 30));
  });
});

describe('resyncOrder', () => {
  it('rotates the names to begin at floor(random × n), and copes with none and with random close to 1', () => {
    expect(resyncOrder(['a', 'b', 'c', 'd'], 0)).toEqual(['a', 'b', 'c', 'd']);
    expect(resyncOrder(['a', 'b', 'c', 'd'], 0.5)).toEqual(['c', 'd', 'a', 'b']);
    expect(resyncOrder(['a', 'b', 'c', 'd'], 0.9999)).toEqual(['d', 'a', 'b', 'c']);
    expect(resyncOrder([], 0.7)).toEqual([]);
  });
});
