/**
 * `npm run bench:timeline`: where the time of an OrderedReady scale-up goes, pod by pod, on Kruiseless and on
 * OpenKruise in the same run (BENCHMARKS.md#asts-ordered-timeline). The same control planes as `npm run bench`
 * (bench/support/sides.ts). On each, one Advanced StatefulSet of the bench's shape (bench/scenarios/workload.ts,
 * OrderedReady) is scaled 0 → N while a pod watch stamps each pod's creation, binding and Ready
 * (bench/support/podTimeline.ts), and the API server's `/metrics` is scraped before and after for the time its
 * LISTs waited for the watch cache to be fresh (`apiserver_watch_cache_read_wait_seconds`).
 *
 * Ends with one line:
 * `bench:timeline: OrderedReady N=<n>, ms a pod: Kruiseless a (reaction p50 b), OpenKruise c (reaction p50 d);
 * watch-cache wait per pod: Kruiseless e ms, OpenKruise f ms`
 * and writes `bench/results/<date>T<hhmm>-timeline.json`.
 *
 * Options: `--pods N` (default 50).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Watch } from '@kubernetes/client-node';
import { Command } from 'commander';
import { errorMessage } from '../lib/core/errors.js';
import { workload, type ControllerName } from './scenarios/workload.js';
import {
  createNamespace,
  deleteNamespace,
  ensureNodes,
  nodesFor,
  type BenchCluster,
} from './support/kube.js';
import {
  cacheWaits,
  notePodEvent,
  timelineFigures,
  type CacheWait,
  type PodTimes,
  type TimelineFigures,
  type WatchedPod,
} from './support/podTimeline.js';
import { startSides, stopOnInterrupt } from './support/sides.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.KRUISELESS_REFERENCE_STATE_DIR ??= path.join(REPO, '.reference');

const opts = new Command('bench:timeline')
  .option('--pods <n>', 'pods of the scale-up', (v) => Number(v), 50)
  .parse()
  .opts<{ pods: number }>();

/** What one side measured. */
interface SideResult {
  figures: TimelineFigures;
  /** Watch-cache read waits per resource during the scale-up. */
  cacheWaits: Record<string, CacheWait>;
  /** Their total ÷ pods, ms. */
  cacheWaitPerPodMs: number;
}

const NAME = 'tl';
/** Longest scale-up before the run fails: 60 s + 2 s a pod (bench/scenarios/workload.ts `phaseTimeoutMs`'s pace). */
const timeoutMs = (pods: number): number => 60_000 + pods * 2000;

/**
 * Scale an OrderedReady set 0 → `pods` on `c` under a pod watch; prints progress every tenth of the pods.
 * @throws Error when the pods are not all Ready within {@link timeoutMs}, or a request fails
 */
async function measure(side: ControllerName, c: BenchCluster, pods: number): Promise<SideResult> {
  const namespace = `timeline-${Date.now().toString(36)}`;
  await createNamespace(c, namespace);
  const times = new Map<string, PodTimes>();
  const t0 = performance.now();
  const watch = await new Watch(c.kc).watch(
    `/api/v1/namespaces/${namespace}/pods`,
    {},
    (_type: string, pod: WatchedPod) => notePodEvent(times, pod, performance.now() - t0),
    () => undefined,
  );
  try {
    const before = String(await c.request('GET', '/metrics'));
    const created = workload(side, namespace, NAME, pods, {
      kind: 'asts',
      podManagementPolicy: 'OrderedReady',
    });
    const start = performance.now();
    await c.request('POST', created.path, created.body);
    let shown = 0;
    for (;;) {
      const ready = [...times.values()].filter((t) => t.ready !== undefined).length;
      const tenth = Math.floor((ready * 10) / pods);
      if (tenth > shown) {
        shown = tenth;
        const elapsed = performance.now() - start;
        const eta = ready > 0 ? ((elapsed / ready) * (pods - ready)) / 1000 : NaN;
        console.log(`[timeline] ${side}: ${tenth * 10}% (${ready}/${pods} Ready) — ETA ${eta.toFixed(0)} s`);
      }
      if (ready >= pods) break;
      if (performance.now() - start > timeoutMs(pods))
        throw new Error(`${side}: ${ready} of ${pods} pods Ready after ${timeoutMs(pods) / 1000} s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const after = String(await c.request('GET', '/metrics'));
    const waits = cacheWaits(before, after);
    const waited = Object.values(waits).reduce((a, w) => a + w.totalMs, 0);
    return {
      figures: timelineFigures(times, NAME, pods),
      cacheWaits: waits,
      cacheWaitPerPodMs: waited / pods,
    };
  } finally {
    watch.abort();
    await deleteNamespace(c, namespace);
  }
}

const fmt = (x: number): string => x.toFixed(1);

function report(side: string, r: SideResult): void {
  const f = r.figures;
  console.log(
    `[timeline] ${side}: ${fmt(f.perPodMs)} ms a pod (${(f.totalMs / 1000).toFixed(2)} s for ${f.pods}); ` +
      `reaction (pod i Ready → pod i+1 created) p50 ${fmt(f.reaction.p50)} p90 ${fmt(f.reaction.p90)} ms; ` +
      `created → bound p50 ${fmt(f.binding.p50)} ms; bound → Ready p50 ${fmt(f.readiness.p50)} ms; ` +
      `reaction p50 by tenth ${f.reactionByTenth.map(fmt).join(' ')} ms; slowest ${fmt(f.reactionMax)} ms, ` +
      `${f.reactionsOver500ms} over 500 ms`,
  );
  const waits = Object.entries(r.cacheWaits)
    .sort(([, a], [, b]) => b.totalMs - a.totalMs)
    .map(([res, w]) => `${res} ${w.reads} reads ${fmt(w.totalMs / w.reads)} ms each`)
    .join('; ');
  console.log(
    `[timeline] ${side}: watch-cache wait ${fmt(r.cacheWaitPerPodMs)} ms a pod (${waits || 'none'})`,
  );
}

async function main(): Promise<number> {
  const pods = opts.pods;
  if (!Number.isInteger(pods) || pods < 2) throw new Error('bench:timeline: --pods must be an integer ≥ 2');
  const logDir = path.join(REPO, '.kruiseless', 'logs');
  mkdirSync(logDir, { recursive: true });
  let stopSoFar = async (): Promise<void> => undefined;
  const offInterrupt = stopOnInterrupt(() => stopSoFar());
  const sides = await startSides(logDir, [], (stop) => {
    stopSoFar = stop;
  });
  try {
    await ensureNodes(sides.ours, nodesFor(pods));
    await ensureNodes(sides.reference, nodesFor(pods));
    console.log(
      `[timeline] control planes up (OpenKruise ${sides.openKruiseVersion}); OrderedReady 0 → ${pods}`,
    );
    const ours = await measure('kruiseless', sides.ours, pods);
    report('Kruiseless', ours);
    const reference = await measure('openkruise', sides.reference, pods);
    report('OpenKruise', reference);
    const day = new Date().toISOString().slice(0, 16).replace(':', '');
    const out = path.join(REPO, 'bench', 'results', `${day}-timeline.json`);
    writeFileSync(out, `${JSON.stringify({ pods, kruiseless: ours, openkruise: reference }, null, 2)}\n`);
    console.log(`[timeline] written to ${path.relative(REPO, out)}`);
    console.log(
      `bench:timeline: OrderedReady N=${pods}, ms a pod: Kruiseless ${fmt(ours.figures.perPodMs)} (reaction p50 ` +
        `${fmt(ours.figures.reaction.p50)}), OpenKruise ${fmt(reference.figures.perPodMs)} (reaction p50 ` +
        `${fmt(reference.figures.reaction.p50)}); watch-cache wait per pod: Kruiseless ${fmt(ours.cacheWaitPerPodMs)} ms, ` +
        `OpenKruise ${fmt(reference.cacheWaitPerPodMs)} ms`,
    );
    return 0;
  } finally {
    offInterrupt();
    await sides.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`bench:timeline: failed: ${errorMessage(e)}`);
    process.exit(1);
  },
);
