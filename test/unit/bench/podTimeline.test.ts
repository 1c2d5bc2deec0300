/** The per-pod timeline of `npm run bench:timeline`: milestones from watch events, figures, watch-cache waits. */
import {
  cacheWaits,
  notePodEvent,
  timelineFigures,
  type PodTimes,
  type WatchedPod,
} from '../../../bench/support/podTimeline.js';

const pod = (name: string, nodeName?: string, ready?: 'True' | 'False'): WatchedPod => ({
  metadata: { name },
  spec: nodeName ? { nodeName } : {},
  status: { conditions: ready ? [{ type: 'Ready', status: ready }] : [] },
});

describe('notePodEvent', () => {
  test('keeps the first time of each milestone; a later event moves none of them', () => {
    const times = new Map<string, PodTimes>();
    notePodEvent(times, pod('s-0'), 10);
    notePodEvent(times, pod('s-0', 'n1'), 15);
    notePodEvent(times, pod('s-0', 'n1', 'False'), 18);
    notePodEvent(times, pod('s-0', 'n1', 'True'), 30);
    notePodEvent(times, pod('s-0', 'n1', 'True'), 99);
    expect(times.get('s-0')).toEqual({ added: 10, bound: 15, ready: 30 });
  });
  test('an event already bound and Ready (a relisted pod) sets all three at once; a nameless one is ignored', () => {
    const times = new Map<string, PodTimes>();
    notePodEvent(times, pod('s-1', 'n2', 'True'), 7);
    notePodEvent(times, {}, 8);
    expect([...times.entries()]).toEqual([['s-1', { added: 7, bound: 7, ready: 7 }]]);
  });
});

describe('timelineFigures', () => {
  const times = new Map<string, PodTimes>([
    ['s-0', { added: 0, bound: 5, ready: 20 }],
    ['s-1', { added: 30, bound: 32, ready: 50 }],
    ['s-2', { added: 90, bound: 95, ready: 100 }],
  ]);
  test('reaction is pod i Ready → pod i+1 seen; binding and readiness per pod; total from the first creation', () => {
    expect(timelineFigures(times, 's', 3)).toEqual({
      pods: 3,
      totalMs: 100,
      perPodMs: 100 / 3,
      reaction: { p50: 10, p90: 40 },
      binding: { p50: 5, p90: 5 },
      readiness: { p50: 15, p90: 18 },
      reactionByTenth: [10, 40],
      reactionMax: 40,
      reactionsOver500ms: 0,
    });
  });
  test('a pod never seen Ready is named', () => {
    const partial = new Map(times);
    partial.set('s-2', { added: 90, bound: 95 });
    expect(() => timelineFigures(partial, 's', 3)).toThrow(
      'bench:timeline: pod s-2 was not seen created, bound and Ready',
    );
  });
});

describe('cacheWaits', () => {
  const metric = (sum: string, count: string, extra = '') =>
    [
      '# HELP apiserver_watch_cache_read_wait_seconds …',
      `apiserver_watch_cache_read_wait_seconds_bucket{group="",resource="pods",le="0.005"} 1`,
      `apiserver_watch_cache_read_wait_seconds_sum{group="",resource="pods"} ${sum}`,
      `apiserver_watch_cache_read_wait_seconds_count{group="",resource="pods"} ${count}`,
      extra,
    ].join('\n');
  test('the difference of sum (as ms) and count per resource; a resource with no new read is left out', () => {
    const before = metric(
      '1.5',
      '10',
      'apiserver_watch_cache_read_wait_seconds_count{group="apps",resource="controllerrevisions"} 4',
    );
    const after = metric(
      '1.75',
      '15',
      [
        'apiserver_watch_cache_read_wait_seconds_sum{group="apps",resource="controllerrevisions"} 0.3',
        'apiserver_watch_cache_read_wait_seconds_count{group="apps",resource="controllerrevisions"} 6',
        'apiserver_watch_cache_read_wait_seconds_count{group="",resource="nodes"} 0',
      ].join('\n'),
    );
    const waits = cacheWaits(before, after);
    expect(Object.keys(waits).sort()).toEqual(['controllerrevisions.apps', 'pods']);
    expect(waits.pods).toEqual({ reads: 5, totalMs: 250 });
    expect(waits['controllerrevisions.apps'].reads).toBe(2);
    expect(waits['controllerrevisions.apps'].totalMs).toBeCloseTo(300);
  });
});
