/**
 * The watch handler over a fleet (lib/runtime/handlers/watch.ts):
 * - each cluster's pump puts one abort listener on the caller's signal (the embedded default's stop), so a round over
 *   more than 10 clusters made Node print `MaxListenersExceededWarning` (found by the bench's fleet of 100
 *   registrations, bench/scenarios/fleet.ts); the handler now allows one per cluster;
 * - a Lambda function has 1,024 file descriptors: a run opens at most `LAMBDA_CONNECTION_BUDGET` connections (one a
 *   watch stream over HTTP/1.1; one a cluster over HTTP/2 plus its capped pool), and the clusters beyond it take turns
 *   with the others, run by run, each left out logged and counted (before, a run opened every cluster's streams:
 *   1,700 for 100 clusters).
 */
import { getEventListeners, getMaxListeners } from 'node:events';
import { describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { Logger } from '@aws-lambda-powertools/logger';
import {
  clustersWithinBudget,
  connectionsPerCluster,
  LAMBDA_CONNECTION_BUDGET,
  WATCH_POOL_SOCKETS,
  watchHandler,
  type WatchLimits,
} from '../../../lib/runtime/handlers/watch.js';
import { MemoryMetrics } from '../../../lib/runtime/metrics.js';
import { METRIC } from '../../../lib/core/metrics.js';
import type { Runtime } from '../../../lib/runtime/types.js';
import { watchStreams } from '../../../lib/source/watchSpec.js';
import {
  WATCH_SLICE_DETAIL_TYPE,
  type UnsentSlice,
  type WatchFanOut,
} from '../../../lib/source/watchSlices.js';
import { CONTROLLER_KINDS } from '../../../lib/controllers/kinds.js';
import { MemoryCheckpoints } from '../source/support/checkpoints.js';

const STREAMS = watchStreams(CONTROLLER_KINDS).length;
const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `c${i}`);

/** A logger that keeps its error lines (message and fields), and its info messages in `infos` when given. */
class ErrorLines extends Logger {
  readonly lines: { message: string; fields: Record<string, unknown> }[] = [];
  constructor(private readonly infos?: string[]) {
    super({ logLevel: 'SILENT' });
  }
  override info(message: unknown, ...extra: unknown[]): void {
    this.infos?.push(`${String(message)} ${JSON.stringify(Object.assign({}, ...extra))}`);
  }
  override error(message: unknown, ...extra: unknown[]): void {
    this.lines.push({
      message: String(message),
      fields: Object.assign({}, ...extra) as Record<string, unknown>,
    });
  }
}

/**
 * One watch run over `clusters` each held by a live previous run (so each pump waits for its release until the
 * stop), stopped 200 ms in.
 */
async function round(
  clusters: string[],
  limits?: WatchLimits,
  opts: {
    event?: unknown;
    fanOut?: WatchFanOut;
    infos?: string[];
    watchConnectionBudget?: number;
    watchHttp2?: boolean;
  } = {},
) {
  const checkpoints = new MemoryCheckpoints(() => Date.now());
  for (const name of clusters) await checkpoints.acquire(name, 'previous-run', 600_000, Date.now());
  const metrics = new MemoryMetrics();
  const runtime = {
    stores: { watches: checkpoints },
    metrics,
    publisher: { publish: () => Promise.resolve({ published: 0, calls: 0, retried: 0 }) },
    clusterNames: () => Promise.resolve(clusters),
    ...(opts.fanOut ? { watchFanOut: opts.fanOut } : {}),
    ...(opts.watchConnectionBudget ? { watchConnectionBudget: opts.watchConnectionBudget } : {}),
    ...(opts.watchHttp2 !== undefined ? { watchHttp2: opts.watchHttp2 } : {}),
    cluster: (name: string) =>
      Promise.resolve({
        name,
        kc: new KubeConfig(),
        kube: {
          get: () => Promise.reject(new Error('no read')),
          list: () => Promise.reject(new Error('no read')),
        },
      }),
  } as unknown as Runtime;
  const logger = new ErrorLines(opts.infos);
  const stop = new AbortController();
  const handler = watchHandler(() => runtime, logger, stop.signal, 1000, undefined, limits);
  const run = handler(opts.event, { awsRequestId: 'fleet-round', getRemainingTimeInMillis: () => 60_000 });
  await new Promise((r) => setTimeout(r, 200));
  const during = getEventListeners(stop.signal, 'abort').length;
  // Node warns once a signal has more listeners than it allows (jest's sandbox does not pass the warning on)
  const allowed = getMaxListeners(stop.signal);
  stop.abort();
  const byCluster = await run;
  return {
    during,
    allowed,
    after: getEventListeners(stop.signal, 'abort').length,
    watched: Object.keys(byCluster),
    errors: logger.lines,
    deferredMetric: metrics.total(METRIC.watchClustersDeferred),
    slicesMetric: metrics.total(METRIC.watchSlicesSent),
  };
}

it('pumps 30 clusters with one listener each on the caller signal, within what Node allows', async () => {
  const r = await round(names(30));
  expect({
    during: r.during,
    after: r.after,
    withinAllowed: r.during <= r.allowed,
    clusters: r.watched.length,
    errors: r.errors,
  }).toEqual({ during: 30, after: 0, withinAllowed: true, clusters: 30, errors: [] });
});

/** The error line of a run that left `deferred` for later, having watched `watched` clusters at `perCluster` each. */
function budgetReached(deferred: string[], watched: number, perCluster: number) {
  return {
    message: 'watch connection budget reached: clusters left for a later run',
    fields: {
      deferred,
      watched,
      connectionsPerCluster: perCluster,
      connectionBudget: LAMBDA_CONNECTION_BUDGET,
    },
  };
}

it('opens at most the connection budget, a connection a stream without HTTP/2, and logs and counts the clusters left for a later run', async () => {
  const fit = Math.floor(LAMBDA_CONNECTION_BUDGET / STREAMS);
  const r = await round(names(60), { now: () => 0 });
  expect(r.watched).toEqual(names(fit));
  expect(r.errors).toEqual([budgetReached(names(60).slice(fit), fit, STREAMS)]);
  expect(r.deferredMetric).toBe(60 - fit);
});

describe('clustersWithinBudget', () => {
  const hundred = names(100);

  it('takes turns by the minute: consecutive runs watch consecutive slices, every cluster within ceil(n / fit)', () => {
    const minute = 60_000;
    const runs = [0, 1, 2].map((m) => clustersWithinBudget(hundred, 17, 800, m * minute + 30_000));
    expect(runs.map((r) => [r.watched.length, r.deferred.length])).toEqual([
      [47, 53],
      [47, 53],
      [47, 53],
    ]);
    expect(runs[0].watched).toEqual(hundred.slice(0, 47));
    expect(runs[1].watched).toEqual(hundred.slice(47, 94));
    expect(runs[2].watched).toEqual([...hundred.slice(94), ...hundred.slice(0, 41)]);
    expect(new Set(runs.flatMap((r) => r.watched)).size).toBe(100);
  });

  it('watches every cluster when they fit, and one when a cluster alone is over the budget', () => {
    expect(clustersWithinBudget(names(47), 17, 800, 123_456)).toEqual({ watched: names(47), deferred: [] });
    expect(clustersWithinBudget(names(3), 900, 800, 0)).toEqual({ watched: ['c0'], deferred: ['c1', 'c2'] });
    expect(clustersWithinBudget([], 17, 800, 0)).toEqual({ watched: [], deferred: [] });
  });
});

describe('a fleet beyond one run, split into slices (lib/source/watchSlices.ts)', () => {
  /** A fan-out that records what it was asked to send and fails the slices `fail` picks. */
  function recordingFanOut(
    concurrency?: number,
    fail: (clusters: string[]) => string | undefined = () => undefined,
  ) {
    const sent: { slices: string[][]; sentBy: string }[] = [];
    const fanOut: WatchFanOut = {
      ...(concurrency !== undefined ? { concurrency } : {}),
      send: (slices, sentBy) => {
        sent.push({ slices: slices.map((x) => [...x]), sentBy });
        const unsent: UnsentSlice[] = slices.flatMap((x) => {
          const error = fail([...x]);
          return error ? [{ clusters: [...x], error }] : [];
        });
        return Promise.resolve(unsent);
      },
    };
    return { fanOut, sent };
  }
  const fit = Math.floor(LAMBDA_CONNECTION_BUDGET / STREAMS);
  const sorted = names(100).sort();

  it('the scheduled run watches the first slice and sends the others, every cluster once, none deferred', async () => {
    const { fanOut, sent } = recordingFanOut(6);
    const infos: string[] = [];
    const r = await round([...names(100)].reverse(), { now: () => 0 }, { fanOut, infos });
    expect(r.watched).toEqual(sorted.slice(0, fit));
    expect(sent).toEqual([
      { slices: [sorted.slice(fit, 2 * fit), sorted.slice(2 * fit)], sentBy: 'fleet-round' },
    ]);
    expect(new Set([...r.watched, ...(sent[0]?.slices.flat() ?? [])]).size).toBe(100);
    expect(r.errors).toEqual([]);
    expect([r.deferredMetric, r.slicesMetric]).toEqual([0, 2]);
    expect(infos.filter((l) => l.startsWith('watch fleet split'))).toEqual([
      `watch fleet split into slices {"slices":3,"sent":2,"clustersPerSlice":${fit}}`,
    ]);
    expect(infos.filter((l) => l.startsWith('watch run started'))).toEqual([
      `watch run started ${JSON.stringify({ trigger: 'scheduled', clusters: sorted.slice(0, fit) })}`,
    ]);
  });

  it('a slice’s run watches the clusters its event names, and sends nothing', async () => {
    const { fanOut, sent } = recordingFanOut();
    const event = {
      source: 'kruiseless',
      'detail-type': WATCH_SLICE_DETAIL_TYPE,
      detail: { clusters: ['c7', 'c3'] },
    };
    const infos: string[] = [];
    const r = await round(names(100), undefined, { event, fanOut, infos });
    expect(r.watched).toEqual(['c7', 'c3']);
    expect([sent, r.errors]).toEqual([[], []]);
    expect(infos.filter((l) => l.startsWith('watch run started'))).toEqual([
      'watch run started {"trigger":"slice","clusters":["c7","c3"]}',
    ]);
  });

  it('a slice event that does not parse is refused, logged, and watches nothing', async () => {
    const { fanOut, sent } = recordingFanOut();
    const event = {
      source: 'kruiseless',
      'detail-type': WATCH_SLICE_DETAIL_TYPE,
      detail: { clusters: 'c1' },
    };
    const r = await round(names(3), undefined, { event, fanOut });
    expect([r.watched, sent]).toEqual([[], []]);
    expect(r.errors).toEqual([
      {
        message: 'watch slice event refused: nothing watched',
        fields: { error: 'detail.clusters: Invalid input: expected array, received string' },
      },
    ]);
  });

  it('a slice not sent is logged and counted as deferred; a concurrency under two runs a slice is logged', async () => {
    const { fanOut } = recordingFanOut(2, (c) =>
      c[0] === sorted[2 * fit] ? 'ThrottlingException' : undefined,
    );
    const r = await round(names(100), { now: () => 0 }, { fanOut });
    expect(r.watched).toEqual(sorted.slice(0, fit));
    expect(r.errors).toEqual([
      {
        message: 'watch slice not sent: its clusters wait for the next run',
        fields: { clusters: sorted.slice(2 * fit), error: 'ThrottlingException' },
      },
      {
        message: 'watch concurrency too low for the fleet: some slices wait for a free run',
        fields: { slices: 3, watchConcurrency: 2, needed: 6 },
      },
    ]);
    expect([r.deferredMetric, r.slicesMetric]).toEqual([100 - 2 * fit, 1]);
  });

  it('a fleet that fits one run sends nothing', async () => {
    const { fanOut, sent } = recordingFanOut(2);
    const r = await round(names(fit), undefined, { fanOut });
    expect([r.watched.length, sent, r.errors]).toEqual([fit, [], []]);
  });
});

it('takes the runtime’s connection budget when the handler is given none (KRUISELESS_WATCH_CONNECTION_BUDGET)', async () => {
  const r = await round(names(3), { now: () => 0 }, { watchConnectionBudget: STREAMS });
  expect(r.watched).toEqual(['c0']);
  expect(r.deferredMetric).toBe(2);
});

it('budgets a cluster at one HTTP/2 connection and its capped pool when the runtime watches over HTTP/2: 100 a run', async () => {
  const perCluster = 1 + WATCH_POOL_SOCKETS;
  expect(connectionsPerCluster(STREAMS, true)).toBe(perCluster);
  expect(connectionsPerCluster(STREAMS, false)).toBe(STREAMS);
  const fit = Math.floor(LAMBDA_CONNECTION_BUDGET / perCluster);
  expect(fit).toBe(100);
  const r = await round(names(120), { now: () => 0 }, { watchHttp2: true });
  expect(r.watched).toEqual(names(fit));
  expect(r.errors).toEqual([budgetReached(names(120).slice(fit), fit, perCluster)]);
  expect(r.deferredMetric).toBe(20);
});
