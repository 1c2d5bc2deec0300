/**
 * `npm run bench`: Kruiseless against OpenKruise's controller and kube-controller-manager's Deployment controller
 * in the same run, on two local control planes of the same build (bench/support/sides.ts), every figure a ratio
 * against a reference measured minutes apart. Scenarios: scale-up and rollout with API cost and coalescing
 * (scenarios/rollout.ts), the same for Advanced StatefulSets beside OpenKruise's and kube-controller-manager's
 * StatefulSet controller (part `asts`: OrderedReady and Parallel scale-up, in-place image change), the same for
 * Advanced DaemonSets beside OpenKruise's and kube-controller-manager's DaemonSet controller (part `ads`: creation on
 * N labelled kwok nodes, a rolling update recreating the pods at maxUnavailable 10 %, and the kruise two's in-place
 * image change), reaction time
 * (scenarios/reaction.ts), no-op reconcile (scenarios/noop.ts), fleet (scenarios/fleet.ts), Lambda packaging
 * (scenarios/packaging.ts), planner (plan.bench.ts). Prints progress with percent and ETA, writes
 * `bench/results/<date>[-quick].json` and the rollout charts next to it (`-rollout.svg`, `-asts-rollout.svg`,
 * `-ads-rollout.svg`), prints the tables for BENCHMARKS.md, and ends with the summary line of
 * bench/support/stats.ts `summaryLine()`.
 *
 * `npm run bench` (N = 100, 500, 1,000, 2 rounds), `npm run bench -- --quick` (N = 200, 1 round),
 * `--sizes 50,100 --rounds 1 --samples 5` for development; `--only asts --sizes 200,1000` for the Advanced
 * StatefulSet part alone; `--only ads` for the Advanced DaemonSet part alone (its N default to 200 and 1,000, 200
 * with `--quick`; `--sizes` sets them too). Clusters it started are stopped at the end; the DaemonSet part's kwok
 * nodes (kwok-ds-<i>) stay on a control plane the bench reused.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Command, Option } from 'commander';
import {
  costOfFleet,
  runFleet,
  type FleetDynamo,
  type FleetFront,
  type FleetPhase,
  type FleetResult,
} from './scenarios/fleet.js';
import { runNoop, type NoopResult } from './scenarios/noop.js';
import { missingZips, runPackaging } from './scenarios/packaging.js';
import { runPlanner } from './scenarios/planner.js';
import { runReactionIn, type Reaction } from './scenarios/reaction.js';
import { runRollout, type RolloutRun } from './scenarios/rollout.js';
import {
  oneAtATime,
  type ControllerName,
  type PodManagementPolicy,
  type RollingUpdateType,
  type WorkloadShape,
} from './scenarios/workload.js';
import {
  controllersFor,
  ControlPlaneRefusedError,
  DAEMONSET_CONTROLLERS,
  DEPLOYMENT_CONTROLLERS,
  STATEFULSET_CONTROLLERS,
} from './support/controllers.js';
import { ensureDaemonNodes, ensureNodes, nodesFor } from './support/kube.js';
import { PARTS, selectParts, type Part } from './support/parts.js';
import {
  CLONESET_PART_CONTROLLERS,
  DAEMONSET_PART_CONTROLLERS,
  daemonSetTable,
  headline,
  rolloutPanels,
  rolloutTable,
  STATEFULSET_PART_CONTROLLERS,
  statefulSetTable,
  summarizeDaemonSets,
  summarizeRollouts,
  summarizeStatefulSets,
} from './support/report.js';
import { benchStateDir, startSides, stopOnInterrupt, type Sides } from './support/sides.js';
import { summaryLine } from './support/stats.js';
import { stepChart } from './support/svg.js';
import { Tracker } from './support/tracker.js';
import { errorMessage } from '../lib/core/errors.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// both control planes run the Deployment, StatefulSet and DaemonSet controllers (read when a control plane starts)
process.env.KRUISELESS_KCM_CONTROLLERS ??= [
  ...DEPLOYMENT_CONTROLLERS,
  ...STATEFULSET_CONTROLLERS,
  ...DAEMONSET_CONTROLLERS,
].join(',');
process.env.KRUISELESS_REFERENCE_STATE_DIR ??= path.join(REPO, '.reference');

const opts = new Command('bench')
  .description(
    'Kruiseless beside OpenKruise and the Deployment, StatefulSet and DaemonSet controllers on two local control planes (started if needed, ' +
      'stopped after; the OpenKruise reference is built the first time, ~7 min). Writes bench/results/<date>.json; ' +
      'figures in BENCHMARKS.md',
  )
  .option('--quick', 'N = 200, one round, fewer reaction samples (under ~10 min)')
  .option('--sizes <list>', 'comma-separated N (default: 100,500,1000; the ads part 200,1000)')
  .option('--rounds <n>', 'rounds of the three controllers per N (default: 2)')
  .option('--samples <n>', 'reaction samples per kind and controller (default: 20, --quick 8)')
  .option('--only <list>', `comma-separated parts: ${PARTS.join(',')}`)
  .option('--fleet-clusters <n>', 'cluster registrations of the fleet part (default: 100)')
  .addOption(
    new Option('--fleet-dynamo <where>', "the fleet part's dynalite: its own process, or the bench's thread")
      .choices(['process', 'in-process'])
      .default('process'),
  )
  .addOption(
    new Option('--fleet-front <speaks>', 'what the fleet front speaks: TLS with HTTP/2, or plain HTTP/1.1')
      .choices(['h2', 'plain'])
      .default('h2'),
  )
  .parse(process.argv)
  .opts<{
    quick?: boolean;
    sizes?: string;
    rounds?: string;
    samples?: string;
    only?: string;
    fleetClusters?: string;
    fleetDynamo: FleetDynamo;
    fleetFront: FleetFront;
  }>();

const sizes = (opts.sizes ?? (opts.quick ? '200' : '100,500,1000')).split(',').map(Number);
const rounds = Number(opts.rounds ?? (opts.quick ? 1 : 2));
const samples = Number(opts.samples ?? (opts.quick ? 8 : 20));
/** Workload objects per cluster the fleet's cost model is printed for (the resync reconciles each every 5 min). */
const FLEET_COST_WORKLOADS = [10, 100];
/** Cluster registrations of the fleet part (issue 21: at least 100). */
const fleetClusters = Number(opts.fleetClusters ?? 100);
if (!Number.isInteger(fleetClusters) || fleetClusters < 1) {
  console.error(`bench: --fleet-clusters must be a whole number of at least 1, got ${opts.fleetClusters}`);
  process.exit(2);
}
const parts = ((): Set<Part> => {
  try {
    return selectParts(opts.only);
  } catch (e) {
    console.error(errorMessage(e));
    process.exit(2);
  }
})();
/** N of the Advanced DaemonSet part: `--sizes`, else 200 and 1,000 (issue 20's), 200 with `--quick`. */
const daemonSetSizes = opts.sizes ? sizes : opts.quick ? [200] : [200, 1000];
const maxN = Math.max(...sizes);
const noopSizes = [...new Set([10, 100, maxN])].sort((a, b) => a - b);
const CONTROLLERS = CLONESET_PART_CONTROLLERS;
const POLICIES: readonly PodManagementPolicy[] = ['OrderedReady', 'Parallel'];
/** The Advanced DaemonSet part's rolling update types: Standard on the three sides, in place on the kruise two. */
const ROLLING_UPDATE_TYPES: readonly RollingUpdateType[] = ['Standard', 'InPlaceIfPossible'];

/** The cluster a controller runs on: OpenKruise on the reference, the others on Kruiseless's control plane. */
const clusterOf = (c: ControllerName, s: Sides): Sides['ours'] => (c === 'openkruise' ? s.reference : s.ours);

/**
 * Estimated seconds of one Advanced StatefulSet run (for the ETA): as a CloneSet run for what goes many pods at a
 * time, 0.3 s a pod for what goes one pod at a time (workload.ts `oneAtATime`; measured at N = 20 and 50).
 */
function statefulSetEstimate(
  c: ControllerName,
  shape: WorkloadShape,
  n: number,
  imageChange: boolean,
): number {
  const phase = (p: 'scaleUp' | 'rollout'): number => n * (oneAtATime(c, shape, p) ? 0.3 : 0.06);
  return 20 + phase('scaleUp') + (imageChange ? phase('rollout') : 0);
}

/** A step of the run and its estimated cost, seconds (for the ETA). */
interface Step {
  name: string;
  estimate: number;
  run: (sides: Sides) => Promise<void>;
}

const results: {
  packaging?: ReturnType<typeof runPackaging>;
  planner?: ReturnType<typeof runPlanner>;
  rollouts: RolloutRun[];
  /** The Advanced StatefulSet part's runs. */
  statefulSets: RolloutRun[];
  /** The Advanced DaemonSet part's runs. */
  daemonSets: RolloutRun[];
  reaction: Partial<Record<'openkruise' | 'kruiseless', { podDeleted: Reaction; cloneSetEdited: Reaction }>>;
  noop?: NoopResult[];
  fleet?: FleetResult;
} = { rollouts: [], statefulSets: [], daemonSets: [], reaction: {} };

function machine(): Record<string, unknown> {
  const cpu =
    readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.*)$/m)?.[1] ?? os.cpus()[0]?.model;
  return { nproc: os.availableParallelism(), cpu, memGiB: Math.round(os.totalmem() / 2 ** 30) };
}

const load = (): number[] => os.loadavg().map((x) => Math.round(x * 100) / 100);

function steps(): Step[] {
  const out: Step[] = [];
  if (parts.has('packaging'))
    out.push({
      name: 'packaging',
      // osls package takes about 90 s on 2 cores when the zips must be built first
      estimate: missingZips(path.join(REPO, '.serverless')).length > 0 ? 110 : 20,
      run: async () => {
        const dir = path.join(REPO, '.serverless');
        // A fresh clone has no zips: build them (osls package, as `npm run package:check` does) rather than
        // report an empty packaging part.
        if (missingZips(dir).length > 0) {
          console.log(
            `[bench] packaging: no zip for ${missingZips(dir).join(',')}: running npm run package:check`,
          );
          const built = spawnSync('npm', ['run', '--silent', 'package:check'], {
            cwd: REPO,
            stdio: 'inherit',
          });
          if (built.status !== 0)
            console.log(`[bench] packaging: npm run package:check exited ${built.status}`);
        }
        results.packaging = runPackaging(dir);
        if (results.packaging.missing.length > 0)
          console.log(`[bench] PACKAGING HOLLOW: no zip for ${results.packaging.missing.join(',')}`);
      },
    });
  if (parts.has('planner'))
    out.push({
      name: 'planner',
      estimate: 30,
      run: async () => void (results.planner = runPlanner(REPO, [1000, 10000])),
    });
  if (parts.has('rollout'))
    for (const n of sizes)
      for (let r = 1; r <= rounds; r++)
        // alternate the order between rounds so that no controller always follows the same one
        for (const c of r % 2 === 1 ? CONTROLLERS : [...CONTROLLERS].reverse())
          out.push({
            name: `rollout ${c} N=${n} round ${r}`,
            estimate: 20 + n * 0.12,
            run: async (s) => {
              results.rollouts.push(
                await runRollout(c, clusterOf(c, s), n, r, c === 'kruiseless' ? s.logger : undefined),
              );
            },
          });
  if (parts.has('asts'))
    for (const n of sizes)
      for (let r = 1; r <= rounds; r++)
        for (const policy of POLICIES)
          for (const c of r % 2 === 1
            ? STATEFULSET_PART_CONTROLLERS
            : [...STATEFULSET_PART_CONTROLLERS].reverse()) {
            const shape: WorkloadShape = { kind: 'asts', podManagementPolicy: policy };
            // the in-place image change runs on the Parallel set (OrderedReady allows maxUnavailable 1 only)
            const imageChange = policy === 'Parallel';
            out.push({
              name: `asts ${c} ${policy} N=${n} round ${r}`,
              estimate: statefulSetEstimate(c, shape, n, imageChange),
              run: async (s) => {
                results.statefulSets.push(
                  await runRollout(c, clusterOf(c, s), n, r, c === 'kruiseless' ? s.logger : undefined, {
                    shape,
                    imageChange,
                  }),
                );
              },
            });
          }
  if (parts.has('ads'))
    for (const n of daemonSetSizes)
      for (let r = 1; r <= rounds; r++)
        for (const type of ROLLING_UPDATE_TYPES) {
          // the DaemonSet controller recreates pods only: it has no in-place run
          const sides = DAEMONSET_PART_CONTROLLERS.filter((c) => type === 'Standard' || c !== 'daemonset');
          for (const c of r % 2 === 1 ? sides : [...sides].reverse()) {
            const shape: WorkloadShape = { kind: 'ads', rollingUpdateType: type };
            out.push({
              name: `ads ${c} ${type} N=${n} round ${r}`,
              estimate: 30 + n * 0.15,
              run: async (s) => {
                results.daemonSets.push(
                  await runRollout(c, clusterOf(c, s), n, r, c === 'kruiseless' ? s.logger : undefined, {
                    shape,
                  }),
                );
              },
            });
          }
        }
  if (parts.has('reaction'))
    for (const c of ['openkruise', 'kruiseless'] as const)
      out.push({
        name: `reaction ${c}`,
        estimate: 10 + samples * 5,
        run: async (s) => {
          const cluster = clusterOf(c, s);
          results.reaction[c] = await runReactionIn(cluster, (ns) => new Tracker(cluster, ns), c, samples);
        },
      });
  if (parts.has('noop'))
    out.push({
      name: 'noop',
      estimate: 40 + maxN * 0.08,
      run: async (s) => void (results.noop = await runNoop(s.ours, s.embedded, noopSizes)),
    });
  if (parts.has('fleet'))
    out.push({
      name: 'fleet',
      // the take-over of every cluster, a 75 s idle window, a resync, the bursts and the steady rounds
      estimate: 150 + fleetClusters * 0.8,
      run: async (s) =>
        void (results.fleet = await runFleet(
          s.ours,
          s.logger,
          { stateDir: benchStateDir(), stopMain: () => s.embedded.stop() },
          {
            clusters: fleetClusters,
            podsEach: 5,
            rounds: opts.quick ? 3 : 5,
            dynamo: opts.fleetDynamo,
            front: opts.fleetFront,
          },
        )),
    });
  return out;
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const loadStart = load();
  const plan = steps();
  const total = plan.reduce((a, s) => a + s.estimate, 0);
  const t0 = performance.now();
  const logDir = path.join(REPO, '.kruiseless', 'logs');
  mkdirSync(logDir, { recursive: true });
  console.log(
    `[bench] N=${sizes.join(',')} rounds=${rounds} samples=${samples}; ${plan.length} steps, estimated ${Math.round(total / 60)} min; load ${loadStart.join(' ')}`,
  );
  // the Deployment, StatefulSet and DaemonSet runs need kube-controller-manager's controllers on Kruiseless's control plane
  // an interrupt stops what has been started so far: while the control planes come up, and during the run
  let stopSoFar = async (): Promise<void> => undefined;
  const offInterrupt = stopOnInterrupt(() => stopSoFar());
  const sides = await startSides(logDir, controllersFor(parts), (stop) => {
    stopSoFar = stop;
  });
  let done = 0;
  const failures: string[] = [];
  try {
    const nodes = nodesFor(maxN + 100);
    await ensureNodes(sides.ours, nodes);
    await ensureNodes(sides.reference, nodes);
    console.log(
      `[bench] control planes up (OpenKruise ${sides.openKruiseVersion}), ${nodes} kwok nodes each`,
    );
    if (parts.has('ads')) {
      const d0 = performance.now();
      await ensureDaemonNodes(sides.ours, daemonSetSizes);
      await ensureDaemonNodes(sides.reference, daemonSetSizes);
      console.log(
        `[bench] ${Math.max(...daemonSetSizes)} DaemonSet kwok nodes each (kwok-ds-<i>) Ready in ${((performance.now() - d0) / 1000).toFixed(1)} s`,
      );
    }
    for (const step of plan) {
      const s0 = performance.now();
      // a failed step is reported and the run goes on: the other figures of a long run are still worth having
      await step.run(sides).catch((e: unknown) => {
        failures.push(`${step.name}: ${errorMessage(e)}`);
        console.error(`[bench] ${step.name} FAILED: ${errorMessage(e)}`);
      });
      done += step.estimate;
      const elapsed = (performance.now() - t0) / 1000;
      const eta = Math.round((elapsed / done) * (total - done));
      console.log(
        `[bench] ${Math.round((done / total) * 100)}% ${step.name} done in ${((performance.now() - s0) / 1000).toFixed(1)} s — ETA ${eta} s`,
      );
    }
  } finally {
    await sides.stop();
    offInterrupt();
  }
  const loadEnd = load();
  const sizesSummary = summarizeRollouts(results.rollouts);
  const statefulSetSummary = summarizeStatefulSets(results.statefulSets);
  const daemonSetSummary = summarizeDaemonSets(results.daemonSets);
  const h = headline(sizesSummary, results.noop ?? [], statefulSetSummary, daemonSetSummary);
  const day = startedAt.toISOString().slice(0, 10);
  const base = path.join(REPO, 'bench', 'results', `${day}${opts.quick ? '-quick' : ''}`);
  mkdirSync(path.dirname(base), { recursive: true });
  const versions = {
    node: process.version,
    kubernetes: 'v1.34.4 (infra/local)',
    openKruise: sides.openKruiseVersion,
    kruiseless: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).trim(),
  };
  writeFileSync(
    `${base}.json`,
    JSON.stringify(
      {
        startedAt,
        wallSeconds: Math.round((performance.now() - t0) / 1000),
        machine: machine(),
        load: { start: loadStart, end: loadEnd },
        versions,
        config: { sizes, rounds, samples, noopSizes, ...(parts.has('ads') ? { daemonSetSizes } : {}) },
        failures,
        summary: {
          sizes: sizesSummary,
          ...(parts.has('asts') ? { statefulSets: statefulSetSummary } : {}),
          ...(parts.has('ads') ? { daemonSets: daemonSetSummary } : {}),
          headline: h,
        },
        results,
      },
      null,
      2,
    ),
  );
  const firstRound = results.rollouts.filter((r) => r.n === maxN && r.round === 1);
  if (firstRound.length > 0)
    writeFileSync(
      `${base}-rollout.svg`,
      stepChart(
        CONTROLLERS.flatMap((c) => rolloutPanels(firstRound.filter((r) => r.controller === c))),
        {
          title: `Image change of ${maxN} pods (maxUnavailable 20 %): pods per revision over time`,
          xLabel: 'seconds since the change',
          yLabel: 'pods',
        },
      ),
    );
  const astsFirstRound = results.statefulSets.filter((r) => r.n === maxN && r.round === 1 && r.rollout);
  if (astsFirstRound.length > 0)
    writeFileSync(
      `${base}-asts-rollout.svg`,
      stepChart(
        STATEFULSET_PART_CONTROLLERS.flatMap((c) =>
          rolloutPanels(astsFirstRound.filter((r) => r.controller === c)),
        ),
        {
          // in place at maxUnavailable 20 %; the StatefulSet controller recreates one pod at a time (BENCHMARKS.md#asts)
          title: `Advanced StatefulSet (Parallel), image change of ${maxN} pods: pods per revision over time`,
          xLabel: 'seconds since the change',
          yLabel: 'pods',
        },
      ),
    );
  const maxDaemonSetN = Math.max(...daemonSetSizes);
  const adsFirstRound = results.daemonSets.filter(
    (r) =>
      r.n === maxDaemonSetN &&
      r.round === 1 &&
      r.workload?.kind === 'ads' &&
      r.workload.rollingUpdateType === 'Standard' &&
      r.rollout,
  );
  if (adsFirstRound.length > 0)
    writeFileSync(
      `${base}-ads-rollout.svg`,
      stepChart(
        DAEMONSET_PART_CONTROLLERS.flatMap((c) =>
          rolloutPanels(adsFirstRound.filter((r) => r.controller === c)),
        ),
        {
          title: `Advanced DaemonSet, rolling update of ${maxDaemonSetN} nodes (maxUnavailable 10 %): pods per revision over time`,
          xLabel: 'seconds since the change',
          yLabel: 'pods',
        },
      ),
    );
  console.log(
    `[bench] machine ${JSON.stringify(machine())}, load ${loadStart.join(' ')} → ${loadEnd.join(' ')}, ${JSON.stringify(versions)}`,
  );
  if (parts.has('rollout')) for (const row of rolloutTable(sizesSummary)) console.log(row);
  if (parts.has('asts')) {
    console.log('[bench] Advanced StatefulSet');
    for (const row of statefulSetTable(statefulSetSummary)) console.log(row);
  }
  if (parts.has('ads')) {
    console.log('[bench] Advanced DaemonSet');
    for (const row of daemonSetTable(daemonSetSummary)) console.log(row);
  }
  for (const r of results.rollouts.filter((x) => x.controller === 'kruiseless'))
    console.log(
      `[bench] coalescing N=${r.n} round ${r.round}: scale-up ${JSON.stringify(r.scaleUp.coalescing)} rollout ${JSON.stringify(r.rollout?.coalescing)}`,
    );
  for (const r of results.statefulSets.filter((x) => x.controller === 'kruiseless'))
    console.log(
      `[bench] coalescing asts ${r.workload?.kind === 'asts' ? r.workload.podManagementPolicy : ''} N=${r.n} round ${r.round}: scale-up ${JSON.stringify(r.scaleUp.coalescing)}${r.rollout ? ` rollout ${JSON.stringify(r.rollout.coalescing)}` : ''}`,
    );
  for (const r of results.daemonSets.filter((x) => x.controller === 'kruiseless'))
    console.log(
      `[bench] coalescing ads ${r.workload?.kind === 'ads' ? r.workload.rollingUpdateType : ''} N=${r.n} round ${r.round}: create ${JSON.stringify(r.scaleUp.coalescing)}${r.rollout ? ` update ${JSON.stringify(r.rollout.coalescing)}` : ''}`,
    );
  for (const r of [...results.rollouts, ...results.statefulSets, ...results.daemonSets].filter(
    (x) => x.watchRestarts,
  ))
    console.log(
      `[bench] ${r.workload?.kind ?? 'rollout'} ${r.controller} N=${r.n} round ${r.round}: ${r.watchRestarts} watch(es) of the bench ended by the API server and re-listed; its times are upper bounds`,
    );
  for (const [c, r] of Object.entries(results.reaction))
    console.log(
      `[bench] reaction ${c}: pod deleted first write p50/p99 ${r.podDeleted.firstWrite.p50}/${r.podDeleted.firstWrite.p99} s, status ${r.podDeleted.correctStatus.p50}/${r.podDeleted.correctStatus.p99} s; CloneSet edited first write ${r.cloneSetEdited.firstWrite.p50}/${r.cloneSetEdited.firstWrite.p99} s, status ${r.cloneSetEdited.correctStatus.p50}/${r.cloneSetEdited.correctStatus.p99} s`,
    );
  for (const r of results.noop ?? [])
    console.log(
      `[bench] noop ${r.pods} pods (+${r.otherPods} others): reads ${r.apiReads} writes ${r.apiWrites} bytes ${r.bytesRead} dynamo ${JSON.stringify(r.dynamo)} wall ${r.wallMs} ms`,
    );
  if (results.fleet) {
    const f = results.fleet;
    /** A phase without its latency samples, and its p50/p99 in one phrase. */
    const phase = (p: FleetPhase): string => {
      const { eventToFirstWrite: w, eventToCorrectStatus: st, ...rest } = p;
      return `${JSON.stringify(rest)}; event → first write p50/p99 ${w.p50}/${w.p99} s, → correct status ${st.p50}/${st.p99} s`;
    };
    const { bursts, steady, ...rest } = f;
    console.log(`[bench] fleet ${JSON.stringify(rest)}`);
    console.log(`[bench] fleet bursts ${phase(bursts)}`);
    console.log(`[bench] fleet steady ${phase(steady)}`);
    for (const workloads of FLEET_COST_WORKLOADS) {
      try {
        console.log(
          `[bench] fleet cost, ${results.fleet.clusters} clusters × ${workloads} workloads: ${JSON.stringify(costOfFleet(results.fleet, workloads))}`,
        );
      } catch (e) {
        console.log(`[bench] fleet cost: ${errorMessage(e)}`);
      }
    }
  }
  if (results.packaging) console.log(`[bench] packaging ${JSON.stringify(results.packaging)}`);
  if (results.planner) console.log(`[bench] planner ${JSON.stringify(results.planner)}`);
  for (const f of failures) console.log(`[bench] failed step: ${f}`);
  console.log(`[bench] results: ${base}.json`);
  console.log(summaryLine(h));
  if (failures.length > 0) process.exitCode = 1;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (e: unknown) => {
    if (e instanceof ControlPlaneRefusedError) console.error(e.message);
    else console.error(`bench: failed — ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(2);
  },
);
