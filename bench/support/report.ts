/**
 * From a bench run's results to its figures: per N and controller the median times over rounds, the ratios
 * against OpenKruise and the Deployment controller, the summary line's figures, the chart's panels and a markdown
 * table for BENCHMARKS.md. Pure.
 */
import type { RolloutRun } from '../scenarios/rollout.js';
import type { ControllerName } from '../scenarios/workload.js';
import { IMAGE_V1, IMAGE_V2 } from '../scenarios/workload.js';
import { median, ratio, type Headline } from './stats.js';
import type { Panel } from './svg.js';

/** Median times of one controller at one N, seconds. */
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

/** Median times per controller and N over the rounds, and the ratios. */
export function summarizeRollouts(runs: readonly RolloutRun[]): SizeSummary[] {
  const sizes = [...new Set(runs.map((r) => r.n))].sort((a, b) => a - b);
  return sizes.map((n) => {
    const times: Partial<Record<ControllerName, Times>> = {};
    for (const c of ['deployment', 'openkruise', 'kruiseless'] as const) {
      const mine = runs.filter((r) => r.n === n && r.controller === c);
      if (mine.length === 0) continue;
      const m = (f: (r: RolloutRun) => number): number => median(mine.map(f));
      times[c] = {
        scaleUpExist: m((r) => r.scaleUp.allExistS),
        scaleUpReady: m((r) => r.scaleUp.allReadyS),
        rolloutUpdated: m((r) => r.rollout.allUpdatedS),
        rolloutReady: m((r) => r.rollout.allReadyS),
        scaleUpPerPod: m((r) => r.scaleUp.cost.perPod),
        rolloutPerPod: m((r) => r.rollout.cost.perPod),
      };
    }
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

/**
 * The summary line's figures: ratios of the largest N, no-op reads and writes of the largest no-op size.
 * @returns NaN ratios when a side is missing
 */
export function headline(
  sizes: readonly SizeSummary[],
  noop: readonly { pods: number; apiReads: number; apiWrites: number }[],
): Headline {
  const last = sizes[sizes.length - 1];
  const biggest = [...noop].sort((a, b) => b.pods - a.pods)[0];
  return {
    scaleUpVsOpenKruise: last?.scaleUpVsOpenKruise ?? NaN,
    scaleUpVsDeployment: last?.scaleUpVsDeployment ?? NaN,
    rolloutVsOpenKruise: last?.rolloutVsOpenKruise ?? NaN,
    noopReads: biggest?.apiReads ?? NaN,
    noopWrites: biggest?.apiWrites ?? NaN,
  };
}

const TITLES: Record<ControllerName, string> = {
  deployment: 'Deployment (KCM)',
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

/** Markdown rows of the rollout table (one per N). */
export function rolloutTable(sizes: readonly SizeSummary[]): string[] {
  const rows = [
    '| N | job | Deployment (KCM) | OpenKruise | Kruiseless | ÷ OpenKruise | ÷ Deployment |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const s of sizes) {
    const t = s.times;
    rows.push(
      `| ${s.n} | scale 0 → N, all exist (s) | ${f(t.deployment?.scaleUpExist)} | ${f(t.openkruise?.scaleUpExist)} | ${f(t.kruiseless?.scaleUpExist)} | ${f(ratio(t.kruiseless?.scaleUpExist, t.openkruise?.scaleUpExist))} | ${f(ratio(t.kruiseless?.scaleUpExist, t.deployment?.scaleUpExist))} |`,
      `| ${s.n} | scale 0 → N, all Ready (s) | ${f(t.deployment?.scaleUpReady)} | ${f(t.openkruise?.scaleUpReady)} | ${f(t.kruiseless?.scaleUpReady)} | ${f(s.scaleUpVsOpenKruise)} | ${f(s.scaleUpVsDeployment)} |`,
      `| ${s.n} | image change, all updated (s) | ${f(t.deployment?.rolloutUpdated)} | ${f(t.openkruise?.rolloutUpdated)} | ${f(t.kruiseless?.rolloutUpdated)} | ${f(ratio(t.kruiseless?.rolloutUpdated, t.openkruise?.rolloutUpdated))} | ${f(ratio(t.kruiseless?.rolloutUpdated, t.deployment?.rolloutUpdated))} |`,
      `| ${s.n} | image change, all updated and Ready (s) | ${f(t.deployment?.rolloutReady)} | ${f(t.openkruise?.rolloutReady)} | ${f(t.kruiseless?.rolloutReady)} | ${f(s.rolloutVsOpenKruise)} | ${f(s.rolloutVsDeployment)} |`,
      `| ${s.n} | API requests per pod, scale-up | ${f(t.deployment?.scaleUpPerPod)} | ${f(t.openkruise?.scaleUpPerPod)} | ${f(t.kruiseless?.scaleUpPerPod)} | ${f(ratio(t.kruiseless?.scaleUpPerPod, t.openkruise?.scaleUpPerPod))} | |`,
      `| ${s.n} | API requests per pod, rollout | ${f(t.deployment?.rolloutPerPod)} | ${f(t.openkruise?.rolloutPerPod)} | ${f(t.kruiseless?.rolloutPerPod)} | ${f(ratio(t.kruiseless?.rolloutPerPod, t.openkruise?.rolloutPerPod))} | |`,
    );
  }
  return rows;
}
