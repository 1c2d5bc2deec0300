/**
 * Scenario 7, the fleet: one deployment serving many clusters. `clusters` cluster registrations, each a simulated
 * cluster of its own (bench/support/clusterFront.ts: a namespace of Kruiseless's control plane presented at its own
 * URL, so each registration has its own connection pool, watch streams, resync, keys and leases), served by one
 * embedded pipeline (one watch pump over every registration, one bus, one reconcile handler, one DynamoDB table) as
 * one AWS deployment serves its registry. The bench's one-cluster pipeline is stopped first: it would reconcile the
 * same CloneSets (the fleet is the last part of a run).
 *
 * Measured: the time from the pipeline's start to every cluster's CloneSet settled (a cold deployment taking a fleet
 * over) and the memory it added; an idle window (DynamoDB operations and API requests with nothing changing, the
 * standing cost); one resync of every cluster; then two phases of `rounds` rounds each deleting one pod in every
 * cluster — all at once (a burst) and one cluster after the other (a steady rate) — with reconcile invocations per
 * second, the latency from each deletion to the first write it causes and to a correct status, and the counts the
 * cost model prices (bench/support/costModel.ts, {@link costOfFleet}).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { stringify } from 'yaml';
import { startEmbedded, type Embedded } from '../../lib/local/embedded.js';
import { startDynaliteProcess } from '../../lib/emulator/dynaliteProcess.js';
import type { LocalDynamo } from '../../lib/emulator/localDynamo.js';
import { MemoryMetrics } from '../../lib/runtime/metrics.js';
import { METRIC } from '../../lib/core/metrics.js';
import type { CallCounts } from '../../lib/runtime/counting.js';
import { resyncHandler } from '../../lib/runtime/handlers/resync.js';
import { dynamoOpsOf, estimateCost, type CostEstimate, type DynamoOps } from '../support/costModel.js';
import { pkiPaths } from '../../infra/local/pki.js';
import { proxyTlsOf } from '../../test/faults/proxy.js';
import { conversionCertificates } from '../../lib/local/conversionServer.js';
import { ClusterFront } from '../support/clusterFront.js';
import { createNamespace, deleteNamespace, type BenchCluster } from '../support/kube.js';
import { cloneSetKey, invocationsOf, type BenchLogger } from '../support/reconciles.js';
import { Tracker } from '../support/tracker.js';
import { isControllerWrite, latencies, recorder, settled, type Latencies } from './reaction.js';
import { workload } from './workload.js';

/**
 * Where the fleet's DynamoDB (dynalite) runs: `process`, a child process of its own (as DynamoDB is a service beside
 * Lambda; BENCHMARKS.md#fleet-dynamo), or `in-process`, on the bench's own thread beside the pipeline, the front and
 * the tracker (the embedded default's arrangement, and every fleet run before 2026-12-07's afternoon).
 */
export type FleetDynamo = 'process' | 'in-process';

/**
 * What the front of simulated clusters speaks to them: `h2`, TLS with HTTP/2 and HTTP/1.1 by ALPN, as an EKS endpoint
 * (each cluster's watches then share one connection, lib/kube/http2Session.ts); `plain`, HTTP/1.1 without TLS (a
 * connection per watch: every fleet run before 2026-12-08).
 */
export type FleetFront = 'h2' | 'plain';

/** What the fleet's pipeline did in a window (summed counters). */
export interface FleetCounts {
  /** DynamoDB operations of the reconcilers (leases, expectations, ledgers, dirty marks). */
  reconcileDynamo: DynamoOps;
  /** DynamoDB operations of the watch pump's checkpoints. */
  watchDynamo: DynamoOps;
  /** Reconcile requests put on the bus (EventBridge entries), requeues included. */
  busEntries: number;
  /** Reconcile invocations that finished. */
  invocations: number;
  /** Reconcile wall time, seconds (Lambda bills the duration). */
  reconcileSeconds: number;
  /** API-server requests of the pipeline. */
  apiRequests: number;
  /** Pod watch events the bench's own watch saw (ADDED, MODIFIED, DELETED). */
  podEvents: number;
}

/** What the fleet scenario reports. */
export interface FleetResult {
  /** Cluster registrations served by the one pipeline. */
  clusters: number;
  /** Where its DynamoDB ran. */
  dynamo: FleetDynamo;
  podsEach: number;
  rounds: number;
  /** What the front spoke to the simulated clusters. */
  front: FleetFront;
  /** Watch streams the pipeline held open through the front once settled. */
  watchStreams: number;
  /**
   * Connections the pipeline held open to the front once settled: all (the watches' and the request pools' kept-alive
   * ones), the HTTP/2 ones, and the watch streams those carried.
   */
  frontConnections: { all: number; http2: number; http2Watches: number };
  /** Requests that came to the front as HTTP/2 streams, of all, by the end. */
  http2Requests: { http2: number; all: number };
  /** From the pipeline's start to every cluster's CloneSet settled, seconds. */
  takeOverSeconds: number;
  /** Resident memory the pipeline added to the bench process once settled, MiB. */
  pipelineRssMiB: number;
  /** Nothing changing for {@link IDLE_WINDOW_MS}: the counts, and the window in seconds. */
  idle: FleetCounts & { windowSeconds: number };
  /** One resync of every cluster (a no-op reconcile per CloneSet), run by hand after the idle window. */
  resync: FleetCounts & { seconds: number };
  /** One pod deleted in every cluster at once, `rounds` times: a burst of the whole fleet. */
  bursts: FleetPhase;
  /**
   * One pod deleted in each cluster after the other, {@link STEADY_SPACING_MS} apart, `rounds` times: a steady rate
   * of changes over the fleet (what the cost model prices: the embedded pipeline runs every invocation in one
   * process, where Lambda gives each its own, so a burst's billed seconds are inflated by the contention).
   */
  steady: FleetPhase;
}

/** What one phase of deletions measured: its counts, the deletions, the rates and the latencies. */
export interface FleetPhase extends FleetCounts {
  /** Time between two clusters' deletions within a round, ms (0: all at once). */
  spacingMs: number;
  deletedPods: number;
  /** Reconcile invocations (deferred ones included) per second of the rounds. */
  reconcilesPerSecond: number;
  /** Invocations that wrote, per second of the rounds (counted once the pipeline is idle again). */
  writingReconcilesPerSecond: number;
  /**
   * CPU the bench process (pipeline, front, tracker, and dynalite when in-process) used over the rounds, in cores:
   * its user + system CPU seconds per second of the rounds. Near 1: its one JavaScript thread was busy throughout, so
   * the invocations queued behind each other (BENCHMARKS.md#fleet-dynamo).
   */
  benchProcessCores: number;
  eventToFirstWrite: Latencies;
  eventToCorrectStatus: Latencies;
}

/** Spacing of the steady phase, ms: 100 clusters' deletions spread over 10 s (10 a second). */
export const STEADY_SPACING_MS = 100;

const NAME = 'fleet';
/** Cluster names of the fleet's registrations. */
export const fleetClusterName = (i: number): string => `fleet-${i}`;
/** The idle window, ms: longer than one watch round (70 s), so it holds one round's lease hand-over. */
export const IDLE_WINDOW_MS = 75_000;

/** Running totals of the pipeline, read at a window's start and end. */
interface Meter {
  counts: CallCounts;
  metrics: MemoryMetrics;
  bus: { entries: number };
  finished: () => number;
  podEvents: () => number;
}

function read(m: Meter): FleetCounts {
  return {
    reconcileDynamo: dynamoOpsOf(m.counts.dynamo),
    watchDynamo: dynamoOpsOf(m.counts.dynamoWatch),
    busEntries: m.bus.entries,
    invocations: m.finished(),
    reconcileSeconds: m.metrics.total(METRIC.reconcileTime),
    apiRequests: Object.values(m.counts.kube).reduce((a, b) => a + b, 0),
    podEvents: m.podEvents(),
  };
}

const ops = (f: (k: keyof DynamoOps) => number): DynamoOps => ({ reads: f('reads'), writes: f('writes') });

/** `a + sign × b`, field by field. */
function add(a: FleetCounts, b: FleetCounts, sign = 1): FleetCounts {
  return {
    reconcileDynamo: ops((k) => a.reconcileDynamo[k] + sign * b.reconcileDynamo[k]),
    watchDynamo: ops((k) => a.watchDynamo[k] + sign * b.watchDynamo[k]),
    busEntries: a.busEntries + sign * b.busEntries,
    invocations: a.invocations + sign * b.invocations,
    reconcileSeconds: Math.round((a.reconcileSeconds + sign * b.reconcileSeconds) * 1000) / 1000,
    apiRequests: a.apiRequests + sign * b.apiRequests,
    podEvents: a.podEvents + sign * b.podEvents,
  };
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Counts of a window in which nothing happened. */
const NOTHING: FleetCounts = {
  reconcileDynamo: { reads: 0, writes: 0 },
  watchDynamo: { reads: 0, writes: 0 },
  busEntries: 0,
  invocations: 0,
  reconcileSeconds: 0,
  apiRequests: 0,
  podEvents: 0,
};

/**
 * Kubeconfig files of `clusters` simulated clusters, written under `dir`: each names its cluster's URL on the front
 * (plain HTTP on loopback, which client-node accepts only with `insecure-skip-tls-verify`, or TLS checked against
 * `caPem`) and no credentials (the front forwards with the admin client pair). @returns their paths, by cluster index
 */
function writeKubeconfigs(frontUrl: string, clusters: number, dir: string, caPem?: string): string[] {
  return Array.from({ length: clusters }, (_, i) => {
    const name = fleetClusterName(i);
    const server = ClusterFront.clusterServer(frontUrl, i);
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name,
          cluster: caPem
            ? { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') }
            : { server, 'insecure-skip-tls-verify': true },
        },
      ],
      users: [{ name, user: {} }],
      contexts: [{ name, context: { cluster: name, user: name } }],
      'current-context': name,
    };
    const file = path.join(dir, `${name}.yaml`);
    writeFileSync(file, stringify(config));
    return file;
  });
}

/**
 * Run the fleet scenario on Kruiseless's control plane.
 * @param cluster the control plane (the bench's direct client: namespaces, CloneSets, deletions, the tracker)
 * @param env.stateDir the control plane's state folder (the PKI: the CA and admin client pair the front forwards with)
 * @param env.stopMain stops the bench's one-cluster pipeline (it would serve the fleet's CloneSets too)
 * @param opts.dynamo where the pipeline's DynamoDB runs ({@link FleetDynamo}, default `process`)
 * @param opts.front what the front speaks to the simulated clusters ({@link FleetFront}, default `h2`)
 * @throws Error when the fleet does not settle in time
 */
export async function runFleet(
  cluster: BenchCluster,
  logger: BenchLogger,
  env: { stateDir: string; stopMain: () => Promise<void> },
  opts: { clusters: number; podsEach: number; rounds: number; dynamo?: FleetDynamo; front?: FleetFront },
): Promise<FleetResult> {
  await env.stopMain();
  const dynamoWhere: FleetDynamo = opts.dynamo ?? 'process';
  const frontKind: FleetFront = opts.front ?? 'h2';
  const pki = frontKind === 'h2' ? await conversionCertificates('127.0.0.1') : undefined;
  const stamp = Date.now().toString(36);
  const namespaces = Array.from({ length: opts.clusters }, (_, i) => `bench-fleet-${i}-${stamp}`);
  const keys = new Set(namespaces.map((ns, i) => cloneSetKey(ns, NAME, fleetClusterName(i))));
  const tracker = new Tracker(cluster, undefined, `app=${NAME}`);
  const front = new ClusterFront({
    upstream: cluster.kc.getCurrentCluster()?.server ?? '',
    tls: proxyTlsOf(pkiPaths(path.join(env.stateDir, 'pki'))),
    namespaceOf: (i) => namespaces[i],
    ...(pki ? { serve: { cert: pki.cert, key: pki.key } } : {}),
  });
  const dir = path.join(os.tmpdir(), `kruiseless-fleet-${stamp}`);
  mkdirSync(dir, { recursive: true });
  let embedded: Embedded | undefined;
  let dynamo: LocalDynamo | undefined;
  await tracker.start();
  const allSettled = (): boolean => namespaces.every((ns) => settled(tracker, ns, NAME, opts.podsEach));
  try {
    for (const ns of namespaces) {
      await createNamespace(cluster, ns);
      const { path: p, body } = workload('kruiseless', ns, NAME, opts.podsEach);
      await cluster.request('POST', p, body);
    }
    const frontUrl = await front.start();
    const files = writeKubeconfigs(frontUrl, opts.clusters, dir, pki?.caPem);
    const metrics = new MemoryMetrics();
    if (dynamoWhere === 'process') dynamo = await startDynaliteProcess();
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    embedded = await startEmbedded({
      ...(dynamo ? { dynamoEndpoint: dynamo.endpoint } : {}),
      kubeconfig: files[0],
      clusterName: fleetClusterName(0),
      moreClusters: files.slice(1).map((kubeconfig, i) => ({ name: fleetClusterName(i + 1), kubeconfig })),
      logger,
      metrics,
      tableName: 'kruiseless-fleet',
    });
    const pipeline = embedded;
    const bus = { entries: 0 };
    const put = pipeline.bus.put.bind(pipeline.bus);
    pipeline.bus.put = async (entries) => {
      bus.entries += entries.length;
      return put(entries);
    };
    let podEvents = 0;
    const offPods = tracker.listen((e) => {
      if (e.kind === 'pod') podEvents += 1;
    });
    const meter: Meter = {
      counts: pipeline.counts,
      metrics,
      bus,
      finished: () => invocationsOf(logger.finished, keys).invocations,
      podEvents: () => podEvents,
    };
    await tracker.until('fleet settled', allSettled, 300_000);
    const takeOverSeconds = round2((performance.now() - t0) / 1000);
    await pipeline.drain();
    const pipelineRssMiB = Math.round((process.memoryUsage().rss - rss0) / 2 ** 20);
    const watchStreams = front.forwarded().openWatches;
    const settledCounts = front.forwarded();
    const frontConnections = {
      all: settledCounts.openConnections,
      http2: settledCounts.openHttp2Sessions,
      http2Watches: settledCounts.openHttp2Watches,
    };

    // the standing cost: nothing changes for one window longer than a watch round
    const i0 = read(meter);
    await new Promise((res) => setTimeout(res, IDLE_WINDOW_MS));
    const idle = { ...add(read(meter), i0, -1), windowSeconds: IDLE_WINDOW_MS / 1000 };

    // one resync of every cluster, as the schedule runs it every 5 minutes
    const r0 = read(meter);
    const tResync = performance.now();
    await resyncHandler(() => pipeline.runtime, logger)(undefined, {
      awsRequestId: `fleet-resync-${stamp}`,
      getRemainingTimeInMillis: () => 60_000,
    });
    await pipeline.drain();
    const resync = {
      ...add(read(meter), r0, -1),
      seconds: round2((performance.now() - tResync) / 1000),
    };

    /**
     * `opts.rounds` rounds, each deleting one pod in every cluster: at once (`spacingMs` 0), or one cluster after
     * the other `spacingMs` apart; `first` is the index of the first round (which pod each deletes).
     */
    const phase = async (spacingMs: number, first: number): Promise<FleetPhase> => {
      const w: number[] = [];
      const st: number[] = [];
      let activeMs = 0;
      let cpuMicros = 0;
      let writing = 0;
      let counts = NOTHING;
      for (let r = first; r < first + opts.rounds; r++) {
        await new Promise((res) => setTimeout(res, 1000));
        const rec = recorder(tracker);
        const l0 = logger.finished.length;
        const c0 = read(meter);
        const starts = new Map<string, number>();
        const doneAt = new Map<string, number>();
        const offDone = tracker.listen((e) => {
          if (
            starts.has(e.namespace) &&
            !doneAt.has(e.namespace) &&
            settled(tracker, e.namespace, NAME, opts.podsEach)
          )
            doneAt.set(e.namespace, e.at);
        });
        const tRound = performance.now();
        const cpu0 = process.cpuUsage();
        await Promise.all(
          namespaces.map(async (ns, i) => {
            if (spacingMs > 0) await new Promise((res) => setTimeout(res, i * spacingMs));
            const victim = tracker.live(ns)[r % opts.podsEach];
            starts.set(ns, performance.now());
            await cluster.request('DELETE', `/api/v1/namespaces/${ns}/pods/${victim.name}`);
          }),
        );
        const end = await tracker.until(
          'fleet settled after the deletions',
          () => doneAt.size === namespaces.length && allSettled(),
          180_000,
        );
        offDone();
        rec.stop();
        activeMs += end - tRound;
        const cpu = process.cpuUsage(cpu0);
        cpuMicros += cpu.user + cpu.system;
        await pipeline.drain(); // invocations still running (a holder's last passes) are counted in this round
        counts = add(counts, add(read(meter), c0, -1));
        writing += invocationsOf(logger.finished.slice(l0), keys).withWrites;
        for (const ns of namespaces) {
          const t = starts.get(ns) ?? tRound;
          const firstWrite = rec.events.find((e) => isControllerWrite(e, ns, t, new Set()));
          const done = doneAt.get(ns) ?? end;
          w.push((firstWrite?.at ?? done) - t);
          st.push(done - t);
        }
      }
      const perSecond = (x: number): number => Math.round((x / (activeMs / 1000)) * 10) / 10;
      return {
        ...counts,
        spacingMs,
        deletedPods: opts.clusters * opts.rounds,
        reconcilesPerSecond: perSecond(counts.invocations),
        writingReconcilesPerSecond: perSecond(writing),
        benchProcessCores: round2(cpuMicros / 1000 / activeMs),
        eventToFirstWrite: latencies(w),
        eventToCorrectStatus: latencies(st),
      };
    };
    const bursts = await phase(0, 0);
    const steady = await phase(STEADY_SPACING_MS, opts.rounds);
    offPods();
    return {
      clusters: opts.clusters,
      dynamo: dynamoWhere,
      podsEach: opts.podsEach,
      rounds: opts.rounds,
      front: frontKind,
      watchStreams,
      frontConnections,
      http2Requests: { http2: front.forwarded().http2Requests, all: front.forwarded().requests },
      takeOverSeconds,
      pipelineRssMiB,
      idle,
      resync,
      bursts,
      steady,
    };
  } finally {
    tracker.stop();
    await embedded?.stop();
    await dynamo?.close();
    await front.close();
    rmSync(dir, { recursive: true, force: true });
    await Promise.all(namespaces.map((ns) => deleteNamespace(cluster, ns)));
  }
}

/**
 * The cost model's answer for a fleet run (bench/support/costModel.ts): per pod event from the steady phase (each count
 * of the reconcilers divided by the pod events the bench's watch saw), the idle watch's checkpoint operations per
 * minute (the watch's standing cost, whatever changes), and the
 * resync's run and per-object no-op reconcile.
 * @param workloadsPerCluster objects the resync reconciles in each cluster (the run has one)
 * @throws Error when the run saw no pod event or no resync reconcile (nothing to divide by)
 */
export function costOfFleet(f: FleetResult, workloadsPerCluster: number): CostEstimate {
  const e = f.steady.podEvents;
  const o = f.resync.invocations;
  if (e === 0 || o === 0)
    throw new Error(`cost model: the fleet run saw ${e} pod events and ${o} resync reconciles`);
  const per = (x: number, n: number): number => x / n;
  const perMinute = 60 / f.idle.windowSeconds;
  return estimateCost({
    clusters: f.clusters,
    workloadsPerCluster,
    perPodEvent: {
      invocations: per(f.steady.invocations, e),
      reconcileSeconds: per(f.steady.reconcileSeconds, e),
      // the watch's checkpoint writes are the standing cost (`idle`): a phase's window holds them whether or not
      // pods change, and a watch round's hand-over falls into one phase or another
      dynamo: {
        reads: per(f.steady.reconcileDynamo.reads, e),
        writes: per(f.steady.reconcileDynamo.writes, e),
      },
      busEntries: per(f.steady.busEntries, e),
    },
    idle: {
      watchDynamo: {
        reads: f.idle.watchDynamo.reads * perMinute,
        writes: f.idle.watchDynamo.writes * perMinute,
      },
    },
    resync: {
      runSeconds: f.resync.seconds,
      perObject: {
        seconds: per(f.resync.reconcileSeconds, o),
        dynamo: {
          reads: per(f.resync.reconcileDynamo.reads, o),
          writes: per(f.resync.reconcileDynamo.writes, o),
        },
      },
    },
  });
}
