/**
 * From a bench run's results to its figures: per N and controller the median times over rounds, the ratios
 * against OpenKruise and kube-controller-manager's controller (the Deployment controller in the CloneSet part, the
 * StatefulSet controller in the Advanced StatefulSet part, the DaemonSet controller in the Advanced DaemonSet part),
 * the summary line's figures, the chart's panels and markdown tables for BENCHMARKS.md. Pure.
 */
import type { RolloutRun } from '../scenarios/rollout.js';
import type { ControllerName, PodManagementPolicy, RollingUpdateType } from '../scenarios/workload.js';
import { IMAGE_V1, IMAGE_V2 } from '../scenarios/workload.js';
import { median, ratio, type DaemonSetHeadline, type Headline, type StatefulSetHeadline } from './stats.js';
import type { Panel } from './svg.js';

/** Median times of one controller at one N, seconds (the image change's NaN for runs without one). */
export interface Times {
  scaleUpExist: number;
  scaleUpReady: number;
  rolloutUpdated: number;
  rolloutReady: number;
  /** API requests per pod: scale-up, rollout. */
  scaleUpPerPod: number;
  rolloutPerPod: number;
}

/** Figures of one N. */
export interface SizeSummary {
  n: number;
  times: Partial<Record<ControllerName, Times>>;
  /** Kruiseless ÷ OpenKruise and ÷ Deployment, all-Ready times. */
  scaleUpVsOpenKruise: number;
  scaleUpVsDeployment: number;
  rolloutVsOpenKruise: number;
  rolloutVsDeployment: number;
}

/**
 * The median figures of runs (one controller's rounds at one N); the image change's are the median of the runs
 * that had one, NaN when none had.
 */
export function timesOf(runs: readonly RolloutRun[]): Times {
  const m = (f: (r: RolloutRun) => number): number => median(runs.map(f));
  const withRollout = runs.flatMap((r) => (r.rollout ? [r.rollout] : []));
  const mr = (f: (r: NonNullable<RolloutRun['rollout']>) => number): number => median(withRollout.map(f));
  return {
    scaleUpExist: m((r) => r.scaleUp.allExistS),
    scaleUpReady: m((r) => r.scaleUp.allReadyS),
    rolloutUpdated: mr((r) => r.allUpdatedS),
    rolloutReady: mr((r) => r.allReadyS),
    scaleUpPerPod: m((r) => r.scaleUp.cost.perPod),
    rolloutPerPod: mr((r) => r.cost.perPod),
  };
}

/** {@link timesOf} per controller among `controllers` that has runs among `runs`. */
function timesByController(
  runs: readonly RolloutRun[],
  controllers: readonly ControllerName[],
): Partial<Record<ControllerName, Times>> {
  const times: Partial<Record<ControllerName, Times>> = {};
  for (const c of controllers) {
    const mine = runs.filter((r) => r.controller === c);
    if (mine.length > 0) times[c] = timesOf(mine);
  }
  return times;
}

const sizesOf = (runs: readonly RolloutRun[]): number[] =>
  [...new Set(runs.map((r) => r.n))].sort((a, b) => a - b);

/** The CloneSet part's controllers, in the order of its table's columns. */
export const CLONESET_PART_CONTROLLERS: readonly ControllerName[] = [
  'deployment',
  'openkruise',
  'kruiseless',
];

/** The Advanced StatefulSet part's controllers, in the order of its table's columns. */
export const STATEFULSET_PART_CONTROLLERS: readonly ControllerName[] = [
  'statefulset',
  'openkruise',
  'kruiseless',
];

/**
 * The Advanced DaemonSet part's controllers, in the order of its table's columns (the DaemonSet controller runs the
 * Standard rolling update only, workload.ts).
 */
export const DAEMONSET_PART_CONTROLLERS: readonly ControllerName[] = [
  'daemonset',
  'openkruise',
  'kruiseless',
];

/** Median times per controller and N over the rounds, and the ratios (the CloneSet part). */
export function summarizeRollouts(runs: readonly RolloutRun[]): SizeSummary[] {
  return sizesOf(runs).map((n) => {
    const times = timesByController(
      runs.filter((r) => r.n === n),
      CLONESET_PART_CONTROLLERS,
    );
    const ours = times.kruiseless;
    return {
      n,
      times,
      scaleUpVsOpenKruise: ratio(ours?.scaleUpReady, times.openkruise?.scaleUpReady),
      scaleUpVsDeployment: ratio(ours?.scaleUpReady, times.deployment?.scaleUpReady),
      rolloutVsOpenKruise: ratio(ours?.rolloutReady, times.openkruise?.rolloutReady),
      rolloutVsDeployment: ratio(ours?.rolloutReady, times.deployment?.rolloutReady),
    };
  });
}

/** Figures of one N of the Advanced StatefulSet part: the Kruiseless ratios and every controller's times. */
export interface StatefulSetSizeSummary extends StatefulSetHeadline {
  n: number;
  /** Times of the OrderedReady runs (scale-up only) and of the Parallel runs (scale-up, then the image change). */
  times: Record<PodManagementPolicy, Partial<Record<ControllerName, Times>>>;
}

/**
 * Median times per policy, controller and N over the rounds of the Advanced StatefulSet part, and the Kruiseless
 * ratios: all-Ready times ÷ OpenKruise's and ÷ the StatefulSet controller's, API requests per pod ÷ OpenKruise's.
 * @param runs the part's runs (each with its `workload`)
 */
export function summarizeStatefulSets(runs: readonly RolloutRun[]): StatefulSetSizeSummary[] {
  return sizesOf(runs).map((n) => {
    const of = (policy: PodManagementPolicy): Partial<Record<ControllerName, Times>> =>
      timesByController(
        runs.filter(
          (r) => r.n === n && r.workload?.kind === 'asts' && r.workload.podManagementPolicy === policy,
        ),
        STATEFULSET_PART_CONTROLLERS,
      );
    const ordered = of('OrderedReady');
    const parallel = of('Parallel');
    return {
      n,
      times: { OrderedReady: ordered, Parallel: parallel },
      orderedReadyVsOpenKruise: ratio(ordered.kruiseless?.scaleUpReady, ordered.openkruise?.scaleUpReady),
      orderedReadyVsStatefulSet: ratio(ordered.kruiseless?.scaleUpReady, ordered.statefulset?.scaleUpReady),
      parallelVsOpenKruise: ratio(parallel.kruiseless?.scaleUpReady, parallel.openkruise?.scaleUpReady),
      parallelVsStatefulSet: ratio(parallel.kruiseless?.scaleUpReady, parallel.statefulset?.scaleUpReady),
      rolloutVsOpenKruise: ratio(parallel.kruiseless?.rolloutReady, parallel.openkruise?.rolloutReady),
      rolloutVsStatefulSet: ratio(parallel.kruiseless?.rolloutReady, parallel.statefulset?.rolloutReady),
      perPodVsOpenKruise: {
        orderedReady: ratio(ordered.kruiseless?.scaleUpPerPod, ordered.openkruise?.scaleUpPerPod),
        parallel: ratio(parallel.kruiseless?.scaleUpPerPod, parallel.openkruise?.scaleUpPerPod),
        rollout: ratio(parallel.kruiseless?.rolloutPerPod, parallel.openkruise?.rolloutPerPod),
      },
    };
  });
}

/** Figures of one N of the Advanced DaemonSet part: the Kruiseless ratios and every controller's times. */
export interface DaemonSetSizeSummary extends DaemonSetHeadline {
  n: number;
  /**
   * Times of the runs per rolling update type: Standard (the three controllers: creation on N nodes, then a rolling
   * update recreating the pods) and InPlaceIfPossible (the kruise controllers: creation, then the image changed in
   * place).
   */
  times: Record<RollingUpdateType, Partial<Record<ControllerName, Times>>>;
}

/**
 * Median times per rolling update type, controller and N over the rounds of the Advanced DaemonSet part, and the
 * Kruiseless ratios: all-Ready (all available) times ÷ the DaemonSet controller's and ÷ OpenKruise's, of the
 * creation and the rolling update of the Standard runs and of the in-place image change, and API requests per pod
 * of each phase ÷ the same.
 * @param runs the part's runs (each with its `workload`)
 */
export function summarizeDaemonSets(runs: readonly RolloutRun[]): DaemonSetSizeSummary[] {
  return sizesOf(runs).map((n) => {
    const of = (type: RollingUpdateType): Partial<Record<ControllerName, Times>> =>
      timesByController(
        runs.filter((r) => r.n === n && r.workload?.kind === 'ads' && r.workload.rollingUpdateType === type),
        DAEMONSET_PART_CONTROLLERS,
      );
    const standard = of('Standard');
    const inPlace = of('InPlaceIfPossible');
    const ours = standard.kruiseless;
    return {
      n,
      times: { Standard: standard, InPlaceIfPossible: inPlace },
      createVsDaemonSet: ratio(ours?.scaleUpReady, standard.daemonset?.scaleUpReady),
      createVsOpenKruise: ratio(ours?.scaleUpReady, standard.openkruise?.scaleUpReady),
      rollingUpdateVsDaemonSet: ratio(ours?.rolloutReady, standard.daemonset?.rolloutReady),
      rollingUpdateVsOpenKruise: ratio(ours?.rolloutReady, standard.openkruise?.rolloutReady),
      inPlaceVsOpenKruise: ratio(inPlace.kruiseless?.rolloutReady, inPlace.openkruise?.rolloutReady),
      perPodVsDaemonSet: {
        create: ratio(ours?.scaleUpPerPod, standard.daemonset?.scaleUpPerPod),
        rollingUpdate: ratio(ours?.rolloutPerPod, standard.daemonset?.rolloutPerPod),
      },
      perPodVsOpenKruise: {
        create: ratio(ours?.scaleUpPerPod, standard.openkruise?.scaleUpPerPod),
        rollingUpdate: ratio(ours?.rolloutPerPod, standard.openkruise?.rolloutPerPod),
        inPlace: ratio(inPlace.kruiseless?.rolloutPerPod, inPlace.openkruise?.rolloutPerPod),
      },
    };
  });
}

/**
 * The summary line's figures: ratios of the largest N, no-op reads and writes of the largest no-op size, and the
 * Advanced StatefulSet and Advanced DaemonSet parts' ratios of their largest N when they ran.
 * @param statefulSets {@link summarizeStatefulSets} (none: the line has no Advanced StatefulSet figures)
 * @param daemonSets {@link summarizeDaemonSets} (none: the line has no Advanced DaemonSet figures)
 * @returns NaN ratios when a side is missing
 */
export function headline(
  sizes: readonly SizeSummary[],
  noop: readonly { pods: number; apiReads: number; apiWrites: number }[],
  statefulSets: readonly StatefulSetSizeSummary[] = [],
  daemonSets: readonly DaemonSetSizeSummary[] = [],
): Headline {
  const last = sizes[sizes.length - 1];
  const biggest = [...noop].sort((a, b) => b.pods - a.pods)[0];
  const asts = statefulSets[statefulSets.length - 1];
  const ads = daemonSets[daemonSets.length - 1];
  return {
    scaleUpVsOpenKruise: last?.scaleUpVsOpenKruise ?? NaN,
    scaleUpVsDeployment: last?.scaleUpVsDeployment ?? NaN,
    rolloutVsOpenKruise: last?.rolloutVsOpenKruise ?? NaN,
    noopReads: biggest?.apiReads ?? NaN,
    noopWrites: biggest?.apiWrites ?? NaN,
    ...(asts
      ? {
          asts: {
            orderedReadyVsOpenKruise: asts.orderedReadyVsOpenKruise,
            orderedReadyVsStatefulSet: asts.orderedReadyVsStatefulSet,
            parallelVsOpenKruise: asts.parallelVsOpenKruise,
            parallelVsStatefulSet: asts.parallelVsStatefulSet,
            rolloutVsOpenKruise: asts.rolloutVsOpenKruise,
            rolloutVsStatefulSet: asts.rolloutVsStatefulSet,
            perPodVsOpenKruise: { ...asts.perPodVsOpenKruise },
          },
        }
      : {}),
    ...(ads
      ? {
          ads: {
            createVsDaemonSet: ads.createVsDaemonSet,
            createVsOpenKruise: ads.createVsOpenKruise,
            rollingUpdateVsDaemonSet: ads.rollingUpdateVsDaemonSet,
            rollingUpdateVsOpenKruise: ads.rollingUpdateVsOpenKruise,
            inPlaceVsOpenKruise: ads.inPlaceVsOpenKruise,
            perPodVsDaemonSet: { ...ads.perPodVsDaemonSet },
            perPodVsOpenKruise: { ...ads.perPodVsOpenKruise },
          },
        }
      : {}),
  };
}

const TITLES: Record<ControllerName, string> = {
  deployment: 'Deployment (KCM)',
  statefulset: 'StatefulSet (KCM)',
  daemonset: 'DaemonSet (KCM)',
  openkruise: 'OpenKruise',
  kruiseless: 'Kruiseless',
};

/** Chart panels of the rollout: pods of the old and of the new image, and new pods Ready, per controller. */
export function rolloutPanels(runs: readonly RolloutRun[]): Panel[] {
  return runs.map((r) => ({
    title: `${TITLES[r.controller]}, ${r.n} pods`,
    series: [
      {
        name: `pods of ${IMAGE_V1}`,
        color: '#d62728',
        points: r.timeline.map((s) => [s.t, s.byImage[IMAGE_V1] ?? 0] as const),
      },
      {
        name: `pods of ${IMAGE_V2}`,
        color: '#1f77b4',
        points: r.timeline.map((s) => [s.t, s.byImage[IMAGE_V2] ?? 0] as const),
      },
      {
        name: `${IMAGE_V2} running and Ready`,
        color: '#2ca02c',
        points: r.timeline.map((s) => [s.t, s.readyNew] as const),
      },
    ],
  }));
}

const f = (x: number | undefined, digits = 2): string =>
  x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(digits);

/**
 * One markdown row: N, the job, the figure of each of `columns` (the controllers, Kruiseless last), then Kruiseless's
 * figure ÷ each of `vs`'s (`undefined`: an empty cell).
 */
function figureRow(
  n: number,
  job: string,
  times: Partial<Record<ControllerName, Times>>,
  columns: readonly ControllerName[],
  pick: (t: Times) => number,
  vs: readonly (ControllerName | undefined)[],
): string {
  const of = (c: ControllerName): number | undefined => {
    const t = times[c];
    return t ? pick(t) : undefined;
  };
  const cells = [
    String(n),
    job,
    ...columns.map((c) => f(of(c))),
    ...vs.map((c) => (c === undefined ? '' : f(ratio(of('kruiseless'), of(c))))),
  ];
  return `|${cells.map((c) => (c === '' ? ' ' : ` ${c} `)).join('|')}|`;
}

/** Markdown rows of the rollout table (one per N). */
export function rolloutTable(sizes: readonly SizeSummary[]): string[] {
  const rows = [
    '| N | job | Deployment (KCM) | OpenKruise | Kruiseless | ÷ OpenKruise | ÷ Deployment |',
    '|---|---|---|---|---|---|---|',
  ];
  const both = ['openkruise', 'deployment'] as const;
  const openKruiseOnly = ['openkruise', undefined] as const;
  for (const s of sizes) {
    const row = (
      job: string,
      pick: (t: Times) => number,
      vs: readonly (ControllerName | undefined)[],
    ): string => figureRow(s.n, job, s.times, CLONESET_PART_CONTROLLERS, pick, vs);
    rows.push(
      row('scale 0 → N, all exist (s)', (t) => t.scaleUpExist, both),
      row('scale 0 → N, all Ready (s)', (t) => t.scaleUpReady, both),
      row('image change, all updated (s)', (t) => t.rolloutUpdated, both),
      row('image change, all updated and Ready (s)', (t) => t.rolloutReady, both),
      row('API requests per pod, scale-up', (t) => t.scaleUpPerPod, openKruiseOnly),
      row('API requests per pod, rollout', (t) => t.rolloutPerPod, openKruiseOnly),
    );
  }
  return rows;
}

/**
 * Markdown rows of the Advanced StatefulSet table (nine per N): OrderedReady scale-up, Parallel scale-up, the
 * in-place image change of the Parallel set (the StatefulSet controller recreates its pods one at a time), and API
 * requests per pod of each; ratios of Kruiseless ÷ OpenKruise and ÷ the StatefulSet controller.
 */
export function statefulSetTable(sizes: readonly StatefulSetSizeSummary[]): string[] {
  const rows = [
    '| N | job | StatefulSet (KCM) | OpenKruise | Kruiseless | ÷ OpenKruise | ÷ StatefulSet |',
    '|---|---|---|---|---|---|---|',
  ];
  const both = ['openkruise', 'statefulset'] as const;
  const openKruiseOnly = ['openkruise', undefined] as const;
  for (const s of sizes) {
    const row = (
      policy: PodManagementPolicy,
      job: string,
      pick: (t: Times) => number,
      vs: readonly (ControllerName | undefined)[],
    ): string => figureRow(s.n, job, s.times[policy], STATEFULSET_PART_CONTROLLERS, pick, vs);
    rows.push(
      row('OrderedReady', 'OrderedReady, scale 0 → N, all exist (s)', (t) => t.scaleUpExist, both),
      row('OrderedReady', 'OrderedReady, scale 0 → N, all Ready (s)', (t) => t.scaleUpReady, both),
      row('Parallel', 'Parallel, scale 0 → N, all exist (s)', (t) => t.scaleUpExist, both),
      row('Parallel', 'Parallel, scale 0 → N, all Ready (s)', (t) => t.scaleUpReady, both),
      row('Parallel', 'Parallel, image change, all updated (s)', (t) => t.rolloutUpdated, both),
      row('Parallel', 'Parallel, image change, all updated and Ready (s)', (t) => t.rolloutReady, both),
      row(
        'OrderedReady',
        'API requests per pod, OrderedReady scale-up',
        (t) => t.scaleUpPerPod,
        openKruiseOnly,
      ),
      row('Parallel', 'API requests per pod, Parallel scale-up', (t) => t.scaleUpPerPod, openKruiseOnly),
      row('Parallel', 'API requests per pod, image change', (t) => t.rolloutPerPod, openKruiseOnly),
    );
  }
  return rows;
}

/**
 * Markdown rows of the Advanced DaemonSet table (nine per N): creation on N nodes and the rolling update (Standard:
 * pods recreated, maxUnavailable 10 %) of the three controllers, the in-place image change of the kruise two
 * (InPlaceIfPossible, same maxUnavailable), and API requests per pod of each; ratios of Kruiseless ÷ OpenKruise and ÷
 * the DaemonSet controller (blank for the in-place rows, which the DaemonSet controller has no way to do).
 */
export function daemonSetTable(sizes: readonly DaemonSetSizeSummary[]): string[] {
  const rows = [
    '| N | job | DaemonSet (KCM) | OpenKruise | Kruiseless | ÷ OpenKruise | ÷ DaemonSet |',
    '|---|---|---|---|---|---|---|',
  ];
  const both = ['openkruise', 'daemonset'] as const;
  const openKruiseOnly = ['openkruise', undefined] as const;
  for (const s of sizes) {
    const row = (
      type: RollingUpdateType,
      job: string,
      pick: (t: Times) => number,
      vs: readonly (ControllerName | undefined)[],
    ): string => figureRow(s.n, job, s.times[type], DAEMONSET_PART_CONTROLLERS, pick, vs);
    rows.push(
      row('Standard', 'create on N nodes, all exist (s)', (t) => t.scaleUpExist, both),
      row('Standard', 'create on N nodes, all Ready (s)', (t) => t.scaleUpReady, both),
      row('Standard', 'rolling update, all updated (s)', (t) => t.rolloutUpdated, both),
      row('Standard', 'rolling update, all updated and Ready (s)', (t) => t.rolloutReady, both),
      row(
        'InPlaceIfPossible',
        'in-place image change, all updated (s)',
        (t) => t.rolloutUpdated,
        openKruiseOnly,
      ),
      row(
        'InPlaceIfPossible',
        'in-place image change, all updated and Ready (s)',
        (t) => t.rolloutReady,
        openKruiseOnly,
      ),
      row('Standard', 'API requests per pod, create', (t) => t.scaleUpPerPod, both),
      row('Standard', 'API requests per pod, rolling update', (t) => t.rolloutPerPod, both),
      row(
        'InPlaceIfPossible',
        'API requests per pod, in-place image change',
        (t) => t.rolloutPerPod,
        openKruiseOnly,
      ),
    );
  }
  return rows;
}
