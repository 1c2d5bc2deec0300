/**
 * From a bench run to its figures, on the results of a real `npm run bench -- --quick` on this machine
 * (fixtures/quick-run.json: its three rollout runs of 200 pods, timelines cut to their first three samples, and its
 * no-op figures).
 */
import { readFileSync } from 'node:fs';
import type { RolloutRun } from '../../../bench/scenarios/rollout.js';
import type { NoopResult } from '../../../bench/scenarios/noop.js';
import {
  daemonSetTable,
  headline,
  rolloutPanels,
  rolloutTable,
  statefulSetTable,
  summarizeDaemonSets,
  summarizeRollouts,
  summarizeStatefulSets,
} from '../../../bench/support/report.js';
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

describe('the Advanced StatefulSet part', () => {
  // a real `npm run bench -- --only asts --sizes 20 --rounds 1` (fixtures/asts-run.json)
  const asts = JSON.parse(readFileSync(new URL('./fixtures/asts-run.json', import.meta.url), 'utf8')) as {
    statefulSets: RolloutRun[];
  };
  const [s] = summarizeStatefulSets(asts.statefulSets);

  test('times per policy and controller; no image change in the OrderedReady runs', () => {
    expect(s.n).toBe(20);
    expect(s.times.OrderedReady.kruiseless).toMatchObject({
      scaleUpExist: 3.962,
      scaleUpReady: 4.07,
      scaleUpPerPod: 17.65,
    });
    expect(s.times.OrderedReady.kruiseless?.rolloutReady).toBeNaN();
    expect(s.times.Parallel.statefulset).toEqual({
      scaleUpExist: 0.127,
      scaleUpReady: 0.193,
      rolloutUpdated: 4.616,
      rolloutReady: 4.629,
      scaleUpPerPod: 5.45,
      rolloutPerPod: 12.95,
    });
    expect(s.times.Parallel.deployment).toBeUndefined();
  });

  test('Kruiseless ÷ OpenKruise and ÷ the StatefulSet controller; requests per pod ÷ OpenKruise', () => {
    expect(s).toMatchObject({
      orderedReadyVsOpenKruise: 2.31,
      orderedReadyVsStatefulSet: 1.78,
      parallelVsOpenKruise: 1.27,
      parallelVsStatefulSet: 5,
      rolloutVsOpenKruise: 1.26,
      rolloutVsStatefulSet: 0.53,
      perPodVsOpenKruise: { orderedReady: 1.36, parallel: 0.93, rollout: 1.48 },
    });
  });

  test('CloneSet runs give no Advanced StatefulSet times, and the CloneSet summary line is unchanged', () => {
    const [fromCloneSets] = summarizeStatefulSets(run.rollouts);
    expect(fromCloneSets.times).toEqual({ OrderedReady: {}, Parallel: {} });
    expect(fromCloneSets.parallelVsOpenKruise).toBeNaN();
    expect(headline(summarizeRollouts(run.rollouts), run.noop).asts).toBeUndefined();
  });

  test('the summary line that run ended with', () => {
    expect(summaryLine(headline([], [], summarizeStatefulSets(asts.statefulSets)))).toBe(
      'bench: scale-up n/ax OpenKruise n/ax Deployment; rollout n/ax OpenKruise; noop reads n/a writes n/a; ' +
        'asts OrderedReady 2.31x OpenKruise 1.78x StatefulSet, Parallel 1.27x OpenKruise 5.00x StatefulSet, ' +
        'in-place 1.26x OpenKruise 0.53x StatefulSet, requests per pod 1.36/0.93/1.48x OpenKruise',
    );
  });

  test('the table: nine rows per N, blank ÷ StatefulSet for requests per pod', () => {
    const rows = statefulSetTable(summarizeStatefulSets(asts.statefulSets));
    expect(rows[0]).toBe(
      '| N | job | StatefulSet (KCM) | OpenKruise | Kruiseless | ÷ OpenKruise | ÷ StatefulSet |',
    );
    expect(rows.slice(2)).toEqual([
      '| 20 | OrderedReady, scale 0 → N, all exist (s) | 2.27 | 1.70 | 3.96 | 2.33 | 1.74 |',
      '| 20 | OrderedReady, scale 0 → N, all Ready (s) | 2.29 | 1.76 | 4.07 | 2.31 | 1.78 |',
      '| 20 | Parallel, scale 0 → N, all exist (s) | 0.13 | 0.43 | 0.40 | 0.91 | 3.13 |',
      '| 20 | Parallel, scale 0 → N, all Ready (s) | 0.19 | 0.76 | 0.96 | 1.27 | 5.00 |',
      '| 20 | Parallel, image change, all updated (s) | 4.62 | 1.70 | 2.15 | 1.27 | 0.47 |',
      '| 20 | Parallel, image change, all updated and Ready (s) | 4.63 | 1.94 | 2.45 | 1.26 | 0.53 |',
      '| 20 | API requests per pod, OrderedReady scale-up | 7.10 | 12.95 | 17.65 | 1.36 | |',
      '| 20 | API requests per pod, Parallel scale-up | 5.45 | 9.80 | 9.15 | 0.93 | |',
      '| 20 | API requests per pod, image change | 12.95 | 10.35 | 15.35 | 1.48 | |',
    ]);
  });

  test('chart panels of the Parallel runs, titled by controller', () => {
    const panels = rolloutPanels(asts.statefulSets.filter((r) => r.rollout));
    expect(panels.map((p) => p.title)).toEqual([
      'StatefulSet (KCM), 20 pods',
      'OpenKruise, 20 pods',
      'Kruiseless, 20 pods',
    ]);
  });
});

describe('the Advanced DaemonSet part', () => {
  // the N = 200 runs of a real `npm run bench -- --only ads --sizes 200,1000 --rounds 1` (2026-12-03, at 3fd5844;
  // fixtures/ads-run.json: its five runs of 200 pods, timelines cut to their first three samples)
  const ads = JSON.parse(readFileSync(new URL('./fixtures/ads-run.json', import.meta.url), 'utf8')) as {
    daemonSets: RolloutRun[];
  };
  const [s] = summarizeDaemonSets(ads.daemonSets);

  test('times per rolling update type and controller; the DaemonSet controller in the Standard runs only', () => {
    expect(s.n).toBe(200);
    expect(s.times.Standard.daemonset).toEqual({
      scaleUpExist: 9.072,
      scaleUpReady: 9.091,
      rolloutUpdated: 20.019,
      rolloutReady: 20.046,
      scaleUpPerPod: 4.16,
      rolloutPerPod: 7.19,
    });
    expect(s.times.Standard.kruiseless).toEqual({
      scaleUpExist: 2.755,
      scaleUpReady: 6.986,
      rolloutUpdated: 19.23,
      rolloutReady: 19.723,
      scaleUpPerPod: 6.49,
      rolloutPerPod: 10.3,
    });
    expect(s.times.InPlaceIfPossible.openkruise).toMatchObject({ rolloutReady: 21.296, rolloutPerPod: 6.58 });
    expect(s.times.InPlaceIfPossible.daemonset).toBeUndefined();
  });

  test('Kruiseless ÷ the DaemonSet controller and ÷ OpenKruise, times and requests per pod', () => {
    expect(s).toMatchObject({
      createVsDaemonSet: 0.77,
      createVsOpenKruise: 0.91,
      rollingUpdateVsDaemonSet: 0.98,
      rollingUpdateVsOpenKruise: 1.44,
      inPlaceVsOpenKruise: 0.99,
      perPodVsDaemonSet: { create: 1.56, rollingUpdate: 1.43 },
      perPodVsOpenKruise: { create: 0.56, rollingUpdate: 0.77, inPlace: 1.09 },
    });
  });

  test('other parts give no Advanced DaemonSet times, and their summary line is unchanged', () => {
    const [fromCloneSets] = summarizeDaemonSets(run.rollouts);
    expect(fromCloneSets.times).toEqual({ Standard: {}, InPlaceIfPossible: {} });
    expect(fromCloneSets.createVsDaemonSet).toBeNaN();
    expect(headline(summarizeRollouts(run.rollouts), run.noop).ads).toBeUndefined();
  });

  test('the summary line of that run at N = 200', () => {
    expect(summaryLine(headline([], [], [], summarizeDaemonSets(ads.daemonSets)))).toBe(
      'bench: scale-up n/ax OpenKruise n/ax Deployment; rollout n/ax OpenKruise; noop reads n/a writes n/a; ' +
        'ads create 0.77x DaemonSet 0.91x OpenKruise, rolling update 0.98x DaemonSet 1.44x OpenKruise, ' +
        'in-place 0.99x OpenKruise, requests per pod 1.56/1.43x DaemonSet 0.56/0.77/1.09x OpenKruise',
    );
  });

  test('the table: nine rows per N, blank ÷ DaemonSet for the in-place rows', () => {
    const rows = daemonSetTable(summarizeDaemonSets(ads.daemonSets));
    expect(rows[0]).toBe(
      '| N | job | DaemonSet (KCM) | OpenKruise | Kruiseless | ÷ OpenKruise | ÷ DaemonSet |',
    );
    expect(rows.slice(2)).toEqual([
      '| 200 | create on N nodes, all exist (s) | 9.07 | 5.85 | 2.75 | 0.47 | 0.30 |',
      '| 200 | create on N nodes, all Ready (s) | 9.09 | 7.68 | 6.99 | 0.91 | 0.77 |',
      '| 200 | rolling update, all updated (s) | 20.02 | 13.63 | 19.23 | 1.41 | 0.96 |',
      '| 200 | rolling update, all updated and Ready (s) | 20.05 | 13.69 | 19.72 | 1.44 | 0.98 |',
      '| 200 | in-place image change, all updated (s) | n/a | 20.66 | 20.24 | 0.98 | |',
      '| 200 | in-place image change, all updated and Ready (s) | n/a | 21.30 | 21.06 | 0.99 | |',
      '| 200 | API requests per pod, create | 4.16 | 11.61 | 6.49 | 0.56 | 1.56 |',
      '| 200 | API requests per pod, rolling update | 7.19 | 13.36 | 10.30 | 0.77 | 1.43 |',
      '| 200 | API requests per pod, in-place image change | n/a | 6.58 | 7.17 | 1.09 | |',
    ]);
  });

  test('chart panels of the Standard runs, titled by controller', () => {
    const standard = ads.daemonSets.filter(
      (r) => r.workload?.kind === 'ads' && r.workload.rollingUpdateType === 'Standard',
    );
    expect(rolloutPanels(standard).map((p) => p.title)).toEqual([
      'DaemonSet (KCM), 200 pods',
      'OpenKruise, 200 pods',
      'Kruiseless, 200 pods',
    ]);
  });
});
