/**
 * The container launch priority rules (lib/podset/launchPriority.ts) against OpenKruise v1.9.0's own unit tests as
 * data (`TestContainerLaunchPriorityInitialization`, `TestFindNextPriorities`, `TestReconcile`) and the cases those
 * leave out: env priorities, equal priorities, a value that is not an int, the step sequence to completion.
 */
import type { ConfigMap, Container, Pod } from '../../../lib/api/types.js';
import {
  awaitsLaunch,
  barrierEnv,
  goAtoi,
  isReleased,
  pendingPriorities,
  planLaunchStep,
  requestedPriorities,
  withBarrierEnv,
} from '../../../lib/podset/launchPriority.js';

const podOf = (
  containers: Container[],
  opts: { annotations?: Record<string, string>; ready?: string[]; containersReady?: boolean } = {},
): Pod => ({
  metadata: {
    name: 'fake',
    namespace: 'default',
    ...(opts.annotations ? { annotations: opts.annotations } : {}),
  },
  spec: { containers },
  status: {
    conditions: [{ type: 'ContainersReady', status: opts.containersReady ? 'True' : 'False' }],
    containerStatuses: containers.map((c) => ({
      name: c.name,
      image: '',
      imageID: '',
      ready: (opts.ready ?? []).includes(c.name),
      restartCount: 0,
    })),
  },
});
const prio = (name: string, value: string): Container => ({
  name,
  env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value }],
});
const barrier = (data?: Record<string, string>): ConfigMap => ({
  metadata: { name: 'fake-barrier', namespace: 'default' },
  ...(data ? { data } : {}),
});

describe('requestedPriorities (the pod webhook)', () => {
  test('no priority asked: none (upstream case #0)', () => {
    expect(requestedPriorities(podOf([{ name: 'a' }, { name: 'b' }]))).toBeUndefined();
  });

  test('Ordered: 0, -1, -2 in container order (upstream case #1)', () => {
    const pod = podOf([{ name: 'a' }, { name: 'b' }, { name: 'c' }], {
      annotations: { 'apps.kruise.io/container-launch-priority': 'Ordered' },
    });
    expect(requestedPriorities(pod)).toEqual([0, -1, -2]);
    expect(withBarrierEnv(pod, [0, -1, -2], 'fake').spec.containers).toEqual([
      { name: 'a', env: [barrierEnv(0, 'fake')] },
      { name: 'b', env: [barrierEnv(-1, 'fake')] },
      { name: 'c', env: [barrierEnv(-2, 'fake')] },
    ]);
    expect(barrierEnv(-1, 'fake')).toEqual({
      name: 'KRUISE_CONTAINER_BARRIER',
      valueFrom: { configMapKeyRef: { name: 'fake-barrier', key: 'p_-1' } },
    });
  });

  test('a single container is never ordered, whatever it asks', () => {
    expect(
      requestedPriorities(
        podOf([{ name: 'a' }], { annotations: { 'apps.kruise.io/container-launch-priority': 'Ordered' } }),
      ),
    ).toBeUndefined();
  });

  test('env priorities: the last entry of a container wins, absent is 0; all equal is none', () => {
    expect(requestedPriorities(podOf([{ name: 'nginx' }, prio('redis', '10')]))).toEqual([0, 10]);
    expect(
      requestedPriorities(
        podOf([
          {
            name: 'a',
            env: [
              { name: 'KRUISE_CONTAINER_PRIORITY', value: '1' },
              { name: 'KRUISE_CONTAINER_PRIORITY', value: '+7' },
            ],
          },
          prio('b', '-3'),
        ]),
      ),
    ).toEqual([7, -3]);
    expect(requestedPriorities(podOf([prio('a', '5'), prio('b', '5')]))).toBeUndefined();
    expect(requestedPriorities(podOf([prio('a', '0'), { name: 'b' }]))).toBeUndefined();
  });

  test('a priority that is not an int: Go strconv.Atoi error, the first one found', () => {
    expect(requestedPriorities(podOf([prio('a', 'high'), prio('b', 'x')]))).toEqual({
      message: 'strconv.Atoi: parsing "high": invalid syntax',
    });
    expect(goAtoi('')).toEqual({ message: 'strconv.Atoi: parsing "": invalid syntax' });
    expect(goAtoi('9223372036854775808')).toEqual({
      message: 'strconv.Atoi: parsing "9223372036854775808": value out of range',
    });
    expect(goAtoi('-9223372036854775808')).toBe(-9223372036854775808);
    expect(goAtoi('007')).toBe(7);
    expect(goAtoi(' 1')).toEqual({ message: 'strconv.Atoi: parsing " 1": invalid syntax' });
  });
});

describe('pendingPriorities (upstream findNextPriorities)', () => {
  test('not-ready containers with a barrier, ascending (TestFindNextPriorities)', () => {
    const pod = podOf(
      [
        { name: 'a', env: [barrierEnv(3, 'fake')] },
        { name: 'b', env: [barrierEnv(5, 'fake')] },
        { name: 'c', env: [barrierEnv(0, 'fake')] },
        { name: 'd' },
        { name: 'e', env: [barrierEnv(-1, 'fake')] },
        { name: 'f', env: [barrierEnv(4, 'fake')] },
      ],
      { ready: ['b', 'f'] },
    );
    expect(pendingPriorities(pod)).toEqual([-1, 0, 3]);
  });
});

describe('planLaunchStep (upstream Reconcile and handle)', () => {
  const two = (ready: string[] = []) =>
    podOf(
      [
        { name: 'nginx', env: [barrierEnv(0, 'fake')] },
        { name: 'redis', env: [barrierEnv(10, 'fake')] },
      ],
      { ready },
    );
  /** Upstream's outcome, replayed: the barrier after the step and whether the pod is marked. */
  const run = (pod: Pod, data: Record<string, string>) => {
    const step = planLaunchStep(pod);
    if ('complete' in step) return { data, complete: true };
    const after = { ...data, [step.release]: 'true' };
    return { data: after, complete: isReleased(barrier(after), step.lowest) };
  };

  test('TestReconcile: one container p_100 → released and complete; two → the highest, p_1000', () => {
    const pod0 = podOf([{ name: 'c1', env: [barrierEnv(100, 'pod0')] }]);
    expect(planLaunchStep(pod0)).toEqual({ release: 'p_100', lowest: 'p_100' });
    expect(run(pod0, {})).toEqual({ data: { p_100: 'true' }, complete: true });
    const pod1 = podOf([
      { name: 'c1', env: [barrierEnv(100, 'pod1')] },
      { name: 'c2', env: [barrierEnv(1000, 'pod1')] },
    ]);
    expect(run(pod1, {})).toEqual({ data: { p_1000: 'true' }, complete: false });
  });

  test('the whole launch of two containers: release 10, nothing while redis starts, then 0 and complete', () => {
    expect(run(two(), {})).toEqual({ data: { p_10: 'true' }, complete: false });
    expect(run(two(), { p_10: 'true' })).toEqual({ data: { p_10: 'true' }, complete: false });
    expect(run(two(['redis']), { p_10: 'true' })).toEqual({
      data: { p_10: 'true', p_0: 'true' },
      complete: true,
    });
    // released already (a pass that failed before its mark): the mark only
    expect(run(two(['redis']), { p_10: 'true', p_0: 'true' })).toEqual({
      data: { p_10: 'true', p_0: 'true' },
      complete: true,
    });
    expect(planLaunchStep(two(['redis', 'nginx']))).toEqual({ complete: true });
  });

  test('awaitsLaunch: completed, ContainersReady or nothing pending is not the controller’s', () => {
    expect(awaitsLaunch(two())).toBe(true);
    expect(awaitsLaunch(two(['redis', 'nginx']))).toBe(false);
    expect(
      awaitsLaunch({
        ...two(),
        metadata: {
          name: 'fake',
          annotations: { 'apps.kruise.io/container-launch-priority-completed': 'true' },
        },
      }),
    ).toBe(false);
    expect(
      awaitsLaunch(podOf([{ name: 'a', env: [barrierEnv(1, 'fake')] }], { containersReady: true })),
    ).toBe(false);
    expect(awaitsLaunch(podOf([{ name: 'a' }, { name: 'b' }]))).toBe(false);
  });
});
