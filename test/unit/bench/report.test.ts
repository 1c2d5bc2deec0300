/**
 * From a bench run to its figures, on the results of a real `npm run bench -- --quick` on this machine
 * (fixtures/quick-run.json: its three rollout runs of 200 pods, timelines cut to their first three samples, and its
 * no-op figures).
 */
import { readFileSync } from 'node:fs';
import type { RolloutRun } from '../../../bench/scenarios/rollout.js';
import type { NoopResult } from '../../../bench/scenarios/noop.js';
import { headline, rolloutPanels, rolloutTable, summarizeRollouts } from '../../../bench/support/report.js';
import { summaryLine } from '../../../bench/support/stats.js';

const run = JSON.parse(readFileSync(new URL('./fixtures/quick-run.json', import.meta.url), 'utf8')) as {
  rollouts: RolloutRun[];
  noop: NoopResult[];
};

describe('summarizeRollouts', () => {
  const [s] = summarizeRollouts(run.rollouts);
  test('times per controller (seconds) and requests per pod', () => {
    expect(s.n).toBe(200);
    expect(s.times.kruiseless).toEqual({
      scaleUpExist: 2.604,
      scaleUpReady: 11.157,
      rolloutUpdated: 12.319,
      rolloutReady: 12.734,
      scaleUpPerPod: 9.24,
      rolloutPerPod: 9.4,
    });
    expect(s.times.openkruise?.scaleUpReady).toBe(18.378);
    expect(s.times.deployment?.rolloutReady).toBe(22.705);
  });
  test('Kruiseless ÷ OpenKruise and ÷ Deployment, all-Ready times', () => {
    expect(s).toMatchObject({
      scaleUpVsOpenKruise: 0.61,
      scaleUpVsDeployment: 1.26,
      rolloutVsOpenKruise: 0.46,
      rolloutVsDeployment: 0.56,
    });
  });
  test('the median of two rounds is the lower of the two (nearest rank)', () => {
    const again = run.rollouts.map((r) => ({
      ...r,
      round: 2,
      scaleUp: { ...r.scaleUp, allReadyS: r.scaleUp.allReadyS + 1 },
    }));
    expect(summarizeRollouts([...run.rollouts, ...again])[0].times.kruiseless?.scaleUpReady).toBe(11.157);
  });
});

describe('headline and the summary line', () => {
  test('the line that run ended with', () => {
    expect(summaryLine(headline(summarizeRollouts(run.rollouts), run.noop))).toBe(
      'bench: scale-up 0.61x OpenKruise 1.26x Deployment; rollout 0.46x OpenKruise; noop reads 3 writes 0',
    );
  });
  test('no runs: n/a ratios', () => {
    expect(summaryLine(headline([], []))).toBe(
      'bench: scale-up n/ax OpenKruise n/ax Deployment; rollout n/ax OpenKruise; noop reads n/a writes n/a',
    );
  });
});

describe('rolloutPanels', () => {
  test('one panel per run, old image, new image and new Ready pods over time', () => {
    const panels = rolloutPanels(run.rollouts);
    expect(panels.map((p) => p.title)).toEqual([
      'Deployment (KCM), 200 pods',
      'OpenKruise, 200 pods',
      'Kruiseless, 200 pods',
    ]);
    expect(panels[2].series.map((s) => [s.name, s.points])).toEqual([
      [
        'pods of bench:v1',
        [
          [0, 200],
          [0.268, 199],
          [0.518, 190],
        ],
      ],
      [
        'pods of bench:v2',
        [
          [0, 0],
          [0.268, 1],
          [0.518, 10],
        ],
      ],
      [
        'bench:v2 running and Ready',
        [
          [0, 0],
          [0.268, 0],
          [0.518, 0],
        ],
      ],
    ]);
  });
});

describe('rolloutTable', () => {
  test('header and the all-Ready rows', () => {
    const rows = rolloutTable(summarizeRollouts(run.rollouts));
    expect(rows[0]).toBe(
      '| N | job | Deployment (KCM) | OpenKruise | Kruiseless | ÷ OpenKruise | ÷ Deployment |',
    );
    expect(rows[3]).toBe('| 200 | scale 0 → N, all Ready (s) | 8.87 | 18.38 | 11.16 | 0.61 | 1.26 |');
    expect(rows[5]).toBe(
      '| 200 | image change, all updated and Ready (s) | 22.70 | 27.54 | 12.73 | 0.46 | 0.56 |',
    );
    expect(rows).toHaveLength(8);
  });
});
