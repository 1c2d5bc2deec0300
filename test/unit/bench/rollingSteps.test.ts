/**
 * The Advanced DaemonSet part's steps of a recreate rolling update (bench/support/rollingSteps.ts): the medians of
 * termination, replacement, readiness and the next delete from what the pod watch saw, and the floor of
 * ⌈N ÷ maxUnavailable⌉ terminations. The recorder runs on the bench's tracker over a scripted watch.
 */
import { describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import type { BenchCluster } from '../../../bench/support/kube.js';
import type { WatchFn } from '../../../bench/support/listWatch.js';
import { MilestoneRecorder, rollingSteps, type PodMilestones } from '../../../bench/support/rollingSteps.js';
import { Tracker } from '../../../bench/support/tracker.js';
import { daemonSetMaxUnavailablePods } from '../../../bench/scenarios/workload.js';

const V1 = 'bench:v1';
const V2 = 'bench:v2';

describe('rollingSteps', () => {
  it('pairs each old pod with the new pod on its node and takes the medians of every step', () => {
    // Two waves of two nodes: old pods deleted at 0 and 1000, terminating 500 ms (and 520, 540, 560), new pods
    // seen 100 / 110 / 120 / 130 ms after the old one went, Ready 50 / 60 / 70 / 80 ms after that.
    const pods = new Map<string, PodMilestones>([
      ['a-old', { image: V1, node: 'n0', seen: 0, deleting: 0, gone: 500 }],
      ['b-old', { image: V1, node: 'n1', seen: 0, deleting: 10, gone: 530 }],
      ['a-new', { image: V2, node: 'n0', seen: 600, ready: 650 }],
      ['b-new', { image: V2, node: 'n1', seen: 640, ready: 700 }],
      ['c-old', { image: V1, node: 'n2', seen: 0, deleting: 760, gone: 1300 }],
      ['d-old', { image: V1, node: 'n3', seen: 0, deleting: 800, gone: 1360 }],
      ['c-new', { image: V2, node: 'n2', seen: 1420, ready: 1490 }],
      ['d-new', { image: V2, node: 'n3', seen: 1490, ready: 1570 }],
      // a pod that was never deleted nor replaced (still old when the recorder stopped) counts nowhere
      ['e-old', { image: V1, node: 'n4', seen: 0 }],
    ]);
    expect(rollingSteps(pods, V2, 4, 2)).toEqual({
      deleted: 4,
      terminationMs: 520, // 500, 520, 540, 560: the nearest-rank median
      replacementMs: 110, // 100, 110, 120, 130
      readinessMs: 60, // 50, 60, 70, 80
      nextDeleteMs: 60, // c: 760 − 700, d: 800 − 700 (a and b had no Ready before them)
      waves: 2,
      floorS: 1.04,
    });
  });

  it('gives NaN for the steps no pod went through, and refuses a maxUnavailable that is no count of pods', () => {
    const pods = new Map<string, PodMilestones>([['a-old', { image: V1, node: 'n0', seen: 0, deleting: 5 }]]);
    const steps = rollingSteps(pods, V2, 10, 1);
    expect(steps.deleted).toBe(1);
    expect(steps.terminationMs).toBeNaN();
    expect(steps.replacementMs).toBeNaN();
    expect(steps.readinessMs).toBeNaN();
    expect(steps.nextDeleteMs).toBeNaN();
    expect(steps.waves).toBe(10);
    expect(() => rollingSteps(pods, V2, 10, 0)).toThrow('maxUnavailable must be a positive integer, got 0');
    expect(() => rollingSteps(pods, V2, 10, 0.5)).toThrow('got 0.5');
  });

  it('scales the bench DaemonSets’ maxUnavailable (10 %) to pods rounding up, as the controllers do', () => {
    expect([1, 9, 10, 11, 200, 1000].map(daemonSetMaxUnavailablePods)).toEqual([1, 1, 1, 2, 20, 100]);
  });
});

describe('MilestoneRecorder', () => {
  const NS = 'bench-kruiseless-ads-standard-2-1-x';
  const pod = (
    name: string,
    image: string,
    o: { node?: string; deleting?: boolean; ready?: boolean; app?: string },
  ) => ({
    metadata: {
      name,
      namespace: NS,
      resourceVersion: '1',
      labels: { app: o.app ?? 'bench' },
      ...(o.deleting ? { deletionTimestamp: '2026-12-06T00:00:00Z' } : {}),
    },
    spec: { containers: [{ image }], ...(o.node ? { nodeName: o.node } : {}) },
    status: { conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False' }] },
  });

  it('records image, last node and the first time of each milestone, for the workload’s pods only', async () => {
    let send: (type: string, obj: unknown) => void = () => undefined;
    const watch: WatchFn = async (_path, _query, onEvent) => {
      send = onEvent;
      return { abort: () => undefined };
    };
    const cluster: BenchCluster = {
      name: 'ours',
      kc: new KubeConfig(),
      request: async (_m, path) => {
        if (path === '/apis/apps.kruise.io/v1alpha1') throw new Error('GET: 404');
        return { metadata: { resourceVersion: '1' }, items: [] };
      },
    };
    const tracker = new Tracker(cluster, NS, undefined, watch);
    await tracker.start();
    const recorder = new MilestoneRecorder(tracker, 0, 'bench');
    send('MODIFIED', pod('old', V1, { node: 'n0', ready: true, deleting: true }));
    send('DELETED', pod('old', V1, { node: 'n0', deleting: true }));
    send('ADDED', pod('new', V2, {}));
    send('MODIFIED', pod('new', V2, { node: 'n0' }));
    send('MODIFIED', pod('new', V2, { node: 'n0', ready: true }));
    send('ADDED', pod('other', V2, { node: 'n9', app: 'someone-else' }));
    recorder.stop();
    send('MODIFIED', pod('late', V2, { node: 'n1' }));
    tracker.stop();

    expect([...recorder.pods.keys()]).toEqual(['old', 'new']);
    const old = recorder.pods.get('old');
    const fresh = recorder.pods.get('new');
    expect(old).toMatchObject({ image: V1, node: 'n0' });
    expect(fresh).toMatchObject({ image: V2, node: 'n0' });
    expect(fresh?.deleting).toBeUndefined();
    expect(fresh?.gone).toBeUndefined();
    // Each milestone is stamped once, in the order the events came.
    const times = [old?.seen, old?.deleting, old?.ready, old?.gone, fresh?.seen, fresh?.ready];
    expect(times.every((t) => typeof t === 'number' && t >= 0)).toBe(true);
    expect(old?.seen).toBe(old?.deleting);
    expect(old!.gone!).toBeGreaterThanOrEqual(old!.deleting!);
    expect(fresh!.ready!).toBeGreaterThanOrEqual(fresh!.seen);
  });
});
