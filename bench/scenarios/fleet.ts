/**
 * Scenario 7, the fleet: one set of handlers (the embedded pipeline, one watch pump, one bus, one reconcile
 * handler) serving CloneSets in 20 namespaces of one control plane — 20 *simulated* clusters, not 20 cluster
 * registrations: keys, leases and events are per namespace, the API server and the watch streams are shared.
 * In each round one pod is deleted in every namespace at once; measured: reconcile invocations per second until all
 * 20 CloneSets are settled again, and the latency from each deletion to the first write it causes.
 */
import { performance } from 'node:perf_hooks';
import { createNamespace, deleteNamespace, type BenchCluster } from '../support/kube.js';
import { cloneSetKey, invocationsOf, type BenchLogger } from '../support/reconciles.js';
import { Tracker } from '../support/tracker.js';
import { isControllerWrite, latencies, recorder, settled, type Latencies } from './reaction.js';
import { workload } from './workload.js';

/** What the fleet scenario reports. */
export interface FleetResult {
  namespaces: number;
  podsEach: number;
  rounds: number;
  /** Reconcile invocations (deferred ones included) per second of the bursts. */
  reconcilesPerSecond: number;
  /** Invocations that wrote, per second of the bursts (counted once the pipeline is idle again). */
  writingReconcilesPerSecond: number;
  eventToFirstWrite: Latencies;
  eventToCorrectStatus: Latencies;
}

const NAME = 'fleet';

/** Run the fleet scenario on Kruiseless's control plane; `drain` waits until the pipeline is idle. */
export async function runFleet(
  cluster: BenchCluster,
  logger: BenchLogger,
  drain: () => Promise<void>,
  opts: { namespaces: number; podsEach: number; rounds: number },
): Promise<FleetResult> {
  const stamp = Date.now().toString(36);
  const namespaces = Array.from({ length: opts.namespaces }, (_, i) => `bench-fleet-${i}-${stamp}`);
  const keys = new Set(namespaces.map((ns) => cloneSetKey(ns, NAME)));
  const tracker = new Tracker(cluster, undefined, `app=${NAME}`);
  await tracker.start();
  const allSettled = (): boolean => namespaces.every((ns) => settled(tracker, ns, NAME, opts.podsEach));
  try {
    for (const ns of namespaces) {
      await createNamespace(cluster, ns);
      const { path, body } = workload('kruiseless', ns, NAME, opts.podsEach);
      await cluster.request('POST', path, body);
    }
    await tracker.until('fleet settled', allSettled, 180_000);
    const w: number[] = [];
    const s: number[] = [];
    let burstMs = 0;
    let invocations = 0;
    let writing = 0;
    for (let r = 0; r < opts.rounds; r++) {
      await new Promise((res) => setTimeout(res, 1000));
      const rec = recorder(tracker);
      const l0 = logger.finished.length;
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
      const tBurst = performance.now();
      await Promise.all(
        namespaces.map(async (ns) => {
          const victim = tracker.live(ns)[r % opts.podsEach];
          starts.set(ns, performance.now());
          await cluster.request('DELETE', `/api/v1/namespaces/${ns}/pods/${victim.name}`);
        }),
      );
      const end = await tracker.until(
        'fleet settled after the deletions',
        () => doneAt.size === namespaces.length && allSettled(),
        120_000,
      );
      offDone();
      rec.stop();
      burstMs += end - tBurst;
      await drain(); // invocations still running (a holder's last passes) are counted in this round
      const mine = invocationsOf(logger.finished.slice(l0), keys);
      invocations += mine.invocations;
      writing += mine.withWrites;
      for (const ns of namespaces) {
        const t0 = starts.get(ns) ?? tBurst;
        const first = rec.events.find((e) => isControllerWrite(e, ns, t0, new Set()));
        const done = doneAt.get(ns) ?? end;
        w.push((first?.at ?? done) - t0);
        s.push(done - t0);
      }
    }
    const perSecond = (x: number): number => Math.round((x / (burstMs / 1000)) * 10) / 10;
    return {
      namespaces: opts.namespaces,
      podsEach: opts.podsEach,
      rounds: opts.rounds,
      reconcilesPerSecond: perSecond(invocations),
      writingReconcilesPerSecond: perSecond(writing),
      eventToFirstWrite: latencies(w),
      eventToCorrectStatus: latencies(s),
    };
  } finally {
    tracker.stop();
    await Promise.all(namespaces.map((ns) => deleteNamespace(cluster, ns)));
  }
}
