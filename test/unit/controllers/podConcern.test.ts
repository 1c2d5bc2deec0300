/**
 * The pod registration's concerns (lib/controllers/podConcern.ts, ./pod.ts, ./podKind.ts): one pass reads the pod
 * once and runs each concern whose predicate accepts it, in order; the results are joined; the registration's
 * `selects` is the union of the predicates, listed in the order of the concerns.
 */
import { jest } from '@jest/globals';
import type { JsonObject, Pod } from '../../../lib/api/types.js';
import { silentLogger } from '../../../lib/core/logger.js';
import type { ObjectKey } from '../../../lib/core/objectKey.js';
import { POD_CONCERNS } from '../../../lib/controllers/pod.js';
import {
  podConcernsPass,
  type PodConcern,
  type PodConcernDeps,
} from '../../../lib/controllers/podConcern.js';
import { POD_CONCERN_PREDICATES, podKind } from '../../../lib/controllers/podKind.js';
import { runPodReadiness } from '../../../lib/controllers/podreadiness/pass.js';
import { barrierEnv } from '../../../lib/podset/launchPriority.js';
import type { PassResult } from '../../../lib/reconcile/reconcile.js';

const KEY: ObjectKey = { cluster: 'c', kind: 'core/Pod', namespace: 'ns', name: 'p' };

const pod = (labels: Record<string, string>): Pod => ({
  metadata: { name: 'p', namespace: 'ns', labels },
  spec: { containers: [{ name: 'main' }] },
});

/** A concern that selects pods labelled `<name>=yes` and records its runs in `calls`. */
function concern(name: string, calls: string[], result: Partial<PassResult> = {}): PodConcern {
  return {
    name,
    selects: (p) => p.metadata.labels?.[name] === 'yes',
    run: (_deps, key, p) => {
      calls.push(`${name} ${key.name} ${JSON.stringify(p.metadata.labels)}`);
      return Promise.resolve({ gone: false, writes: 1, acted: false, plan: `${name}-plan`, ...result });
    },
  };
}

function depsWith(stored: Pod | undefined): PodConcernDeps & { gets: number } {
  const deps = {
    gets: 0,
    kube: {
      get: () => {
        deps.gets++;
        return Promise.resolve(stored);
      },
      create: () => Promise.reject(new Error('no create')),
      patch: () => Promise.reject(new Error('no patch')),
    } as unknown as PodConcernDeps['kube'],
    log: silentLogger,
    clock: () => Date.parse('2026-12-06T10:00:00Z'),
  };
  return deps;
}

describe('podConcernsPass', () => {
  test('a pod one concern selects: only that one runs, on the pod as read', async () => {
    const calls: string[] = [];
    const deps = depsWith(pod({ b: 'yes' }));
    const result = await podConcernsPass([concern('a', calls), concern('b', calls)])(deps, KEY);
    expect(calls).toEqual(['b p {"b":"yes"}']);
    expect(deps.gets).toBe(1);
    expect(result).toEqual({ gone: false, writes: 1, acted: false, plan: { b: 'b-plan' } });
  });

  test('a pod both select: both run, in order, under one read; writes summed, errors and requeues joined', async () => {
    const calls: string[] = [];
    const deps = depsWith(pod({ a: 'yes', b: 'yes' }));
    const result = await podConcernsPass([
      concern('a', calls, { error: 'a failed', requeueAfterSeconds: 5 }),
      concern('b', calls, { acted: true, error: 'b failed', requeueAfterSeconds: 2 }),
    ])(deps, KEY);
    expect(calls).toEqual(['a p {"a":"yes","b":"yes"}', 'b p {"a":"yes","b":"yes"}']);
    expect(deps.gets).toBe(1);
    expect(result).toEqual({
      gone: false,
      writes: 2,
      acted: true,
      plan: { a: 'a-plan', b: 'b-plan' },
      requeueAfterSeconds: 2,
      error: 'a failed; b failed',
    });
  });

  test('a pod none selects: nothing runs', async () => {
    const calls: string[] = [];
    const result = await podConcernsPass([concern('a', calls)])(depsWith(pod({})), KEY);
    expect(calls).toEqual([]);
    expect(result).toEqual({ gone: false, writes: 0, acted: false, plan: {} });
  });

  test('a pod that is gone: nothing runs; a concern that finds it gone ends the pass', async () => {
    const calls: string[] = [];
    expect(await podConcernsPass([concern('a', calls)])(depsWith(undefined), KEY)).toEqual({
      gone: true,
      writes: 0,
      acted: false,
    });
    const result = await podConcernsPass([
      concern('a', calls, { gone: true, writes: 0 }),
      concern('b', calls),
    ])(depsWith(pod({ a: 'yes', b: 'yes' })), KEY);
    expect(result).toEqual({ gone: true, writes: 0, acted: false });
    expect(calls).toEqual(['a p {"a":"yes","b":"yes"}']);
  });
});

describe('the pod registration', () => {
  const launching: Pod = {
    metadata: { name: 'l', namespace: 'ns' },
    spec: {
      containers: [
        { name: 'a', env: [barrierEnv(0, 'l')] },
        { name: 'b', env: [barrierEnv(10, 'l')] },
      ],
    },
  };
  const gated: Pod = {
    metadata: { name: 'g', namespace: 'ns' },
    spec: { containers: [{ name: 'a' }], readinessGates: [{ conditionType: 'KruisePodReady' }] },
  };
  const both: Pod = { ...launching, spec: { ...launching.spec, readinessGates: gated.spec.readinessGates } };
  const plain: Pod = { metadata: { name: 'x', namespace: 'ns' }, spec: { containers: [{ name: 'a' }] } };

  test('runs container launch priority, then pod readiness, with the predicates its selects joins', () => {
    expect(POD_CONCERNS.map((c) => c.name)).toEqual(['containerlaunchpriority', 'podreadiness']);
    expect(POD_CONCERNS.map((c) => c.selects)).toEqual(POD_CONCERN_PREDICATES);
    POD_CONCERNS.forEach((c, i) => expect(c.selects).toBe(POD_CONCERN_PREDICATES[i]));
  });

  test.each<[string, unknown, boolean[], boolean]>([
    ['a pod waiting on its barrier', launching, [true, false], true],
    ['a pod waiting for KruisePodReady', gated, [false, true], true],
    ['a pod waiting on both', both, [true, true], true],
    ['a pod neither concerns', plain, [false, false], false],
    ['an object that is not a pod', { kind: 'Pod' }, [], false],
  ])('selects %s', (_what, obj, each, selected) => {
    if (each.length > 0) expect(POD_CONCERNS.map((c) => c.selects(obj as Pod))).toEqual(each);
    expect(podKind.selects?.(obj as JsonObject)).toBe(selected);
  });

  test('the readiness work given a pod that has the condition writes nothing', async () => {
    const deps = depsWith(undefined);
    const patch = jest.spyOn(deps.kube, 'patch');
    const has: Pod = { ...gated, status: { conditions: [{ type: 'KruisePodReady', status: 'True' }] } };
    expect(await runPodReadiness(deps, KEY, has)).toEqual({ gone: false, writes: 0, acted: false });
    expect(patch).not.toHaveBeenCalled();
  });
});
