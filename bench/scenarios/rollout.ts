/**
 * Scenarios 1, 2 and 4: scale 0 → N, then an image change of all N pods, for one controller — times until all
 * pods exist / are Ready, the API server's request counters over each phase, pods per image over time, and for
 * Kruiseless the coalescing figures (pod events vs reconcile invocations vs invocations that wrote). The CloneSet
 * part runs it on a CloneSet or a Deployment, the Advanced StatefulSet part on an Advanced StatefulSet or an apps/v1
 * StatefulSet of one pod management policy (./workload.ts), the OrderedReady ones without the image change; the
 * Advanced DaemonSet part on an Advanced DaemonSet or an apps/v1 DaemonSet over N labelled kwok nodes (scale-up is
 * its creation, one pod a node; the image change a rolling update).
 */
import { performance } from 'node:perf_hooks';
import { diffCounters, summarizeCost, type CostSummary } from '../support/apiCost.js';
import {
  createNamespace,
  deleteNamespace,
  quietScrape,
  scrapeApi,
  type BenchCluster,
} from '../support/kube.js';
import {
  cloneSetKey,
  coalescingOf,
  daemonSetKey,
  statefulSetKey,
  type BenchLogger,
  type Coalescing,
} from '../support/reconciles.js';
import { MilestoneRecorder, rollingSteps, type RollingSteps } from '../support/rollingSteps.js';
import { Timeline, Tracker } from '../support/tracker.js';
import {
  CLONESET_SHAPE,
  IMAGE_V2,
  MERGE_PATCH,
  daemonSetMaxUnavailablePods,
  imagePatch,
  objectPath,
  phaseTimeoutMs,
  workload,
  type ControllerName,
  type WorkloadShape,
} from './workload.js';

/** One controller's run. */
export interface RolloutRun {
  controller: ControllerName;
  n: number;
  round: number;
  /** The Advanced StatefulSet or Advanced DaemonSet part's shape; absent for the CloneSet part. */
  workload?: WorkloadShape;
  scaleUp: { allExistS: number; allReadyS: number; cost: CostSummary; coalescing?: Coalescing };
  /** The image change; absent when the run had none (the OrderedReady runs of the Advanced StatefulSet part). */
  rollout?: {
    allUpdatedS: number;
    allReadyS: number;
    cost: CostSummary;
    coalescing?: Coalescing;
    /** A Standard (recreate) DaemonSet update's steps and floor (bench/support/rollingSteps.ts). */
    steps?: RollingSteps;
  };
  /**
   * Watches of the bench's tracker that the API server ended and that were re-listed (bench/support/listWatch.ts);
   * absent when none was. Times measured across a re-list are too long by the gap.
   */
  watchRestarts?: number;
  /** Pods per image (live pods) and new Ready pods, every 250 ms from the image change (empty without one). */
  timeline: { t: number; byImage: Record<string, number>; readyNew: number }[];
}

export type { Coalescing } from '../support/reconciles.js';

const NAME = 'bench';
const secs = (ms: number): number => Math.round(ms) / 1000;

/** Coalescing of `key` over the invocations logged since `from` (Kruiseless only: `logger` given). */
function coalescing(
  logger: BenchLogger | undefined,
  key: string,
  from: number,
  podEvents: number,
): Coalescing | undefined {
  return logger ? coalescingOf(logger.finished.slice(from), key, podEvents) : undefined;
}

/** What a run does besides the CloneSet part's default. */
export interface RolloutOptions {
  /** The workload (default: the CloneSet part's). */
  shape?: WorkloadShape;
  /** Whether the image change follows the scale-up (default true). */
  imageChange?: boolean;
}

/**
 * A run's namespace prefix: `bench-<controller>` in the CloneSet part, `bench-<controller>-asts-<policy>` and
 * `bench-<controller>-ads-<rolling update type>` in the others.
 */
function runName(controller: ControllerName, shape: WorkloadShape): string {
  if (shape.kind === 'asts') return `bench-${controller}-asts-${shape.podManagementPolicy.toLowerCase()}`;
  if (shape.kind === 'ads') return `bench-${controller}-ads-${shape.rollingUpdateType.toLowerCase()}`;
  return `bench-${controller}`;
}

/** The run's workload and its variant, for messages: `kruiseless Parallel`, `daemonset Standard`. */
function describeRun(controller: ControllerName, shape: WorkloadShape): string {
  if (shape.kind === 'asts') return `${controller} ${shape.podManagementPolicy}`;
  if (shape.kind === 'ads') return `${controller} ${shape.rollingUpdateType}`;
  return controller;
}

/** The object key of the run's workload as the reconcile handler logs it. */
function keyOf(namespace: string, shape: WorkloadShape): string {
  if (shape.kind === 'asts') return statefulSetKey(namespace, NAME);
  if (shape.kind === 'ads') return daemonSetKey(namespace, NAME);
  return cloneSetKey(namespace, NAME);
}

/**
 * Run scale-up and rollout of `n` pods for `controller` in a fresh namespace, deleted afterwards.
 * @param logger the pipeline's recording logger, for Kruiseless (coalescing figures)
 * @throws Error when a phase does not finish within its timeout (workload.ts `phaseTimeoutMs`)
 */
export async function runRollout(
  controller: ControllerName,
  cluster: BenchCluster,
  n: number,
  round: number,
  logger?: BenchLogger,
  opts: RolloutOptions = {},
): Promise<RolloutRun> {
  const shape = opts.shape ?? CLONESET_SHAPE;
  const ns = `${runName(controller, shape)}-${n}-${round}-${Date.now().toString(36)}`;
  const what = describeRun(controller, shape);
  await createNamespace(cluster, ns);
  const tracker = new Tracker(cluster, ns);
  await tracker.start();
  try {
    const key = keyOf(ns, shape);
    const m0 = await scrapeApi(cluster);
    const l0 = logger?.finished.length ?? 0;
    const e0 = tracker.podEvents;
    const { path, body } = workload(controller, ns, NAME, n, shape);
    const scaleTimeoutMs = phaseTimeoutMs(controller, shape, 'scaleUp', n);
    const t0 = performance.now();
    await cluster.request('POST', path, body);
    const exist = await tracker.until(
      `${what}: ${n} pods exist`,
      () => tracker.live().length === n,
      scaleTimeoutMs,
    );
    const ready = await tracker.until(
      `${what}: ${n} pods Ready`,
      () => tracker.live().filter((p) => p.ready).length === n,
      scaleTimeoutMs,
    );
    const m1 = await quietScrape(cluster);
    const scaleCoalescing = coalescing(logger, key, l0, tracker.podEvents - e0);
    const scaleUp = {
      allExistS: secs(exist - t0),
      allReadyS: secs(ready - t0),
      cost: summarizeCost(diffCounters(m0.requests, m1.requests), n),
      ...(scaleCoalescing ? { coalescing: scaleCoalescing } : {}),
    };
    const head = {
      controller,
      n,
      round,
      ...(shape.kind !== 'cloneset' ? { workload: shape } : {}),
    };
    if (opts.imageChange === false)
      return {
        ...head,
        scaleUp,
        ...(tracker.restarts > 0 ? { watchRestarts: tracker.restarts } : {}),
        timeline: [],
      };

    const timeoutMs = phaseTimeoutMs(controller, shape, 'rollout', n);
    const l1 = logger?.finished.length ?? 0;
    const e1 = tracker.podEvents;
    const timeline = new Timeline(tracker, IMAGE_V2);
    const t1 = performance.now();
    timeline.start(t1);
    const recreates = shape.kind === 'ads' && shape.rollingUpdateType === 'Standard';
    const milestones = recreates ? new MilestoneRecorder(tracker, t1, NAME) : undefined;
    await cluster.request(
      'PATCH',
      objectPath(controller, ns, NAME, shape),
      imagePatch(IMAGE_V2),
      MERGE_PATCH,
    );
    const updated = (): boolean => {
      const live = tracker.live();
      return live.length === n && live.every((p) => p.image === IMAGE_V2);
    };
    const allUpdated = await tracker.until(`${what}: ${n} pods updated`, updated, timeoutMs);
    const allReady = await tracker.until(
      `${what}: ${n} updated pods Ready`,
      () => updated() && tracker.live().every((p) => p.runningImage === IMAGE_V2 && p.ready),
      timeoutMs,
    );
    await new Promise((r) => setTimeout(r, 500)); // half a second more of the chart: the settled state
    timeline.stop();
    milestones?.stop();
    const steps = milestones
      ? rollingSteps(milestones.pods, IMAGE_V2, n, daemonSetMaxUnavailablePods(n))
      : undefined;
    if (steps)
      console.log(
        `[bench] ${what} N=${n}: ${steps.waves} waves; median termination ${steps.terminationMs} ms, ` +
          `replacement ${steps.replacementMs} ms, readiness ${steps.readinessMs} ms, next delete ` +
          `${steps.nextDeleteMs} ms; floor ${steps.floorS} s of ${secs(allReady - t1)} s`,
      );
    const m2 = await quietScrape(cluster);
    const rolloutCoalescing = coalescing(logger, key, l1, tracker.podEvents - e1);
    return {
      ...head,
      scaleUp,
      rollout: {
        allUpdatedS: secs(allUpdated - t1),
        allReadyS: secs(allReady - t1),
        cost: summarizeCost(diffCounters(m1.requests, m2.requests), n),
        ...(rolloutCoalescing ? { coalescing: rolloutCoalescing } : {}),
        ...(steps ? { steps } : {}),
      },
      ...(tracker.restarts > 0 ? { watchRestarts: tracker.restarts } : {}),
      timeline: timeline.samples,
    };
  } finally {
    tracker.stop();
    await deleteNamespace(cluster, ns, 60_000 + n * 300);
  }
}
