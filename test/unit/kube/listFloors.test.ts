/**
 * LISTs from the floors of lib/kube/listFloors.ts: the first a quorum read, the later ones `NotOlderThan` the floor —
 * raised by every answer, by the resourceVersion of every write's answer (a failed write, or one answering without
 * one, drops it) and by a change named from outside (`raise`) — a quorum read again after the TTL and after a floor
 * read that failed; other resources, `continue` pages and reads that name their own resourceVersion as asked; the
 * floors as the text a release carries to the next invocation. And through `guardedReconciler`: the floors live as
 * long as the invocation's env.
 */
import { describe, expect, test } from '@jest/globals';
import type { ControllerRevision, Pod } from '../../../lib/api/types.js';
import { KubeApiError } from '../../../lib/kube/errors.js';
import { flooredKube, ListFloors, LIST_FLOOR_TTL_MS } from '../../../lib/kube/listFloors.js';
import type { Resource } from '../../../lib/kube/resource.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import type { KubeClient, Listed, ListOptions } from '../../../lib/kube/types.js';
import { guardedReconciler } from '../../../lib/reconcile/guardedReconciler.js';
import type { PassEnv } from '../../../lib/reconcile/reconcile.js';
import { emptyCorrelation } from '../../../lib/kube/eventCorrelation.js';

/**
 * Every call the client got, as `<method> <plural> <resourceVersion or quorum>`; LISTs answer rv 100, 101, …; a
 * create is refused (AlreadyExists); a patch answers `patchRv` (none when null).
 */
function recordingKube(failNotOlderThan = false, patchRv: string | null = '500') {
  const calls: string[] = [];
  let rv = 100;
  const kube = {
    list: (resource: Resource, options: ListOptions = {}): Promise<Listed<never>> => {
      const how =
        options.resourceVersionMatch === 'NotOlderThan'
          ? `notOlderThan ${options.resourceVersion ?? '?'}`
          : options.continue !== undefined
            ? `continue ${options.continue}`
            : options.resourceVersion !== undefined
              ? `rv ${options.resourceVersion}`
              : 'quorum';
      calls.push(
        ['list', resource.plural, options.namespace, options.labelSelector, how].filter(Boolean).join(' '),
      );
      if (failNotOlderThan && options.resourceVersionMatch === 'NotOlderThan')
        return Promise.reject(new KubeApiError('list', 504, 'Timeout', 'Too large resource version'));
      return Promise.resolve({ items: [], resourceVersion: String(rv++) });
    },
    create: (resource: Resource, object: { metadata: { name?: string } }) => {
      calls.push(`create ${resource.plural} ${object.metadata.name ?? ''}`);
      return Promise.reject(new KubeApiError('create', 409, 'AlreadyExists', 'exists'));
    },
    patch: (resource: Resource) => {
      calls.push(`patch ${resource.plural}`);
      return Promise.resolve({ metadata: patchRv === null ? {} : { resourceVersion: patchRv } });
    },
    delete: (resource: Resource) => {
      calls.push(`delete ${resource.plural}`);
      return Promise.resolve();
    },
  } as unknown as KubeClient;
  return { kube, calls };
}

const REVS = { namespace: 'ns', labelSelector: 'app=web' };
const PODS = { namespace: 'ns' };

describe('flooredKube', () => {
  test('quorum first, then NotOlderThan the last answer; a quorum read again once the TTL is up', async () => {
    const { kube, calls } = recordingKube();
    let now = 1_000;
    const k = flooredKube(kube, new ListFloors(), [RESOURCES.controllerrevisions], () => now);
    await k.list(RESOURCES.controllerrevisions, REVS);
    await k.list(RESOURCES.controllerrevisions, REVS);
    now += LIST_FLOOR_TTL_MS - 1;
    await k.list(RESOURCES.controllerrevisions, REVS);
    now += 1;
    await k.list(RESOURCES.controllerrevisions, REVS);
    await k.list(RESOURCES.controllerrevisions, REVS);
    expect(calls).toEqual([
      'list controllerrevisions ns app=web quorum',
      'list controllerrevisions ns app=web notOlderThan 100',
      'list controllerrevisions ns app=web notOlderThan 101',
      // 10 s after the quorum read of 1,000 (the floor reads did not extend it)
      'list controllerrevisions ns app=web quorum',
      'list controllerrevisions ns app=web notOlderThan 103',
    ]);
  });

  test("a write raises the floor to its answer's resourceVersion; a refused write, or one answering none, drops it; writes elsewhere do not count", async () => {
    const { kube, calls } = recordingKube();
    const floored = [RESOURCES.pods, RESOURCES.controllerrevisions];
    const k = flooredKube(kube, new ListFloors(), floored, () => 0);
    await k.list(RESOURCES.controllerrevisions, REVS);
    await k.list<Pod>(RESOURCES.pods, PODS);
    await k.patch(RESOURCES.pods, { namespace: 'ns', name: 'p' }, { type: 'merge', body: {} });
    await k.patch(RESOURCES.controllerrevisions, { namespace: 'ns', name: 'r' }, { type: 'merge', body: {} });
    await k.patch(
      RESOURCES.persistentvolumeclaims,
      { namespace: 'ns', name: 'c' },
      { type: 'merge', body: {} },
    );
    await k.list<Pod>(RESOURCES.pods, PODS);
    await k.list(RESOURCES.controllerrevisions, REVS);
    const rev: ControllerRevision = { metadata: { name: 'web-1', namespace: 'ns' }, revision: 1 };
    await expect(k.create(RESOURCES.controllerrevisions, rev)).rejects.toThrow('exists');
    await k.delete(RESOURCES.pods, { namespace: 'ns', name: 'p' });
    await k.list(RESOURCES.controllerrevisions, REVS);
    await k.list<Pod>(RESOURCES.pods, PODS);
    expect(calls).toEqual([
      'list controllerrevisions ns app=web quorum',
      'list pods ns quorum',
      'patch pods',
      'patch controllerrevisions',
      'patch persistentvolumeclaims',
      'list pods ns notOlderThan 500',
      'list controllerrevisions ns app=web notOlderThan 500',
      'create controllerrevisions web-1',
      'delete pods',
      // the refused create and the delete (no answer) dropped their floors
      'list controllerrevisions ns app=web quorum',
      'list pods ns quorum',
    ]);
  });

  test('a patch answered without a resourceVersion drops the floor', async () => {
    const { kube, calls } = recordingKube(false, null);
    const k = flooredKube(kube, new ListFloors(), [RESOURCES.pods], () => 0);
    await k.list<Pod>(RESOURCES.pods, PODS);
    await k.patch(RESOURCES.pods, { namespace: 'ns', name: 'p' }, { type: 'merge', body: {} });
    await k.list<Pod>(RESOURCES.pods, PODS);
    expect(calls).toEqual(['list pods ns quorum', 'patch pods', 'list pods ns quorum']);
  });

  test('one floor per resource, whatever the namespace and selector; other resources, continue pages and explicit versions as asked', async () => {
    const { kube, calls } = recordingKube();
    const k = flooredKube(kube, new ListFloors(), [RESOURCES.controllerrevisions], () => 0);
    await k.list(RESOURCES.controllerrevisions, REVS);
    await k.list(RESOURCES.controllerrevisions, { ...REVS, labelSelector: 'app=db' });
    await k.list(RESOURCES.controllerrevisions, { namespace: 'other' });
    await k.list(RESOURCES.controllerrevisions, { ...REVS, continue: 'tok' });
    await k.list(RESOURCES.controllerrevisions, { ...REVS, resourceVersion: '0' });
    await k.list<Pod>(RESOURCES.pods, PODS);
    await k.list<Pod>(RESOURCES.pods, PODS);
    expect(calls).toEqual([
      'list controllerrevisions ns app=web quorum',
      'list controllerrevisions ns app=db notOlderThan 100',
      'list controllerrevisions other notOlderThan 101',
      'list controllerrevisions ns app=web continue tok',
      'list controllerrevisions ns app=web rv 0',
      'list pods ns quorum',
      'list pods ns quorum',
    ]);
  });

  test('a floor read that fails (504 Too large resource version) is read again by quorum, and answers', async () => {
    const { kube, calls } = recordingKube(true);
    const k = flooredKube(kube, new ListFloors(), [RESOURCES.controllerrevisions], () => 0);
    await k.list(RESOURCES.controllerrevisions, REVS);
    await expect(k.list(RESOURCES.controllerrevisions, REVS)).resolves.toEqual({
      items: [],
      resourceVersion: '101',
    });
    expect(calls).toEqual([
      'list controllerrevisions ns app=web quorum',
      'list controllerrevisions ns app=web notOlderThan 100',
      'list controllerrevisions ns app=web quorum',
    ]);
  });
});

describe('ListFloors', () => {
  test('raise moves every floor up to a newer resourceVersion, never down, and makes none where there was none', () => {
    const floors = new ListFloors();
    floors.note(RESOURCES.pods, '120', true, 0);
    floors.note(RESOURCES.controllerrevisions, '90', true, 0);
    floors.raise('100');
    expect(floors.floorOf(RESOURCES.pods, 0)).toBe('120');
    expect(floors.floorOf(RESOURCES.controllerrevisions, 0)).toBe('100');
    expect(floors.floorOf(RESOURCES.persistentvolumeclaims, 0)).toBeUndefined();
    floors.raise('130', RESOURCES.pods);
    expect(floors.carried()).toBe('{"pods.":["130",0],"controllerrevisions.apps":["100",0]}');
  });

  test('a quorum answer older than the floor (a write finished while it was under way) does not lower it', () => {
    const floors = new ListFloors();
    floors.note(RESOURCES.pods, '120', true, 0);
    floors.raise('150', RESOURCES.pods); // our create answered 150 while the next quorum LIST was in flight
    floors.note(RESOURCES.pods, '140', true, 5_000);
    expect(floors.carried()).toBe('{"pods.":["150",5000]}');
  });

  test('a LIST begun before a write failed starts no floor: its answer may lack that write', () => {
    const floors = new ListFloors();
    const began = floors.generation;
    floors.forget(RESOURCES.pods); // the write failed while the LIST was under way
    floors.note(RESOURCES.pods, '140', true, 0, began);
    expect(floors.carried()).toBeUndefined();
    floors.note(RESOURCES.pods, '141', true, 0, floors.generation);
    expect(floors.carried()).toBe('{"pods.":["141",0]}');
  });

  test('a resourceVersion that is not a decimal revision drops every floor: they cannot be compared', () => {
    const floors = new ListFloors();
    floors.note(RESOURCES.pods, '120', true, 0);
    floors.raise('abc');
    expect(floors.carried()).toBeUndefined();
    expect(floors.floorOf(RESOURCES.pods, 0)).toBeUndefined();
  });

  test('carried text round-trips with its quorum time, so the TTL counts across invocations', () => {
    const floors = new ListFloors();
    floors.note(RESOURCES.pods, '120', true, 5_000);
    floors.note(RESOURCES.pods, '125', false, 6_000);
    const text = floors.carried();
    expect(text).toBe('{"pods.":["125",5000]}');
    const next = ListFloors.fromCarried(text);
    expect(next.floorOf(RESOURCES.pods, 5_000 + LIST_FLOOR_TTL_MS - 1)).toBe('125');
    expect(next.floorOf(RESOURCES.pods, 5_000 + LIST_FLOOR_TTL_MS)).toBeUndefined();
  });

  test.each([
    ['absent', undefined],
    ['not JSON', '{'],
    ['not the carried shape', '{"pods.":"125"}'],
    ['a resourceVersion that is not decimal', '{"pods.":["x",0]}'],
  ])('carried text %s: no floors', (_name, text) => {
    expect(ListFloors.fromCarried(text).carried()).toBeUndefined();
  });
});

describe('guardedReconciler with floored ControllerRevisions', () => {
  const reconciler = guardedReconciler<{ kube: KubeClient; clock: () => number }, undefined, 'owned'>(
    () => 'owned',
    async (deps) => {
      await deps.kube.list(RESOURCES.controllerrevisions, REVS);
      await deps.kube.list<Pod>(RESOURCES.pods, { namespace: 'ns' });
      return { gone: false, writes: 0, acted: false };
    },
    [RESOURCES.controllerrevisions],
  );
  const key = { cluster: 'c', kind: 'apps.kruise.io/StatefulSet', namespace: 'ns', name: 'web' };
  const envOf = (floors?: ListFloors): PassEnv<'owned'> => ({
    lease: { key, holder: 'h', token: 1, expiresAt: Number.MAX_SAFE_INTEGER },
    recordedEvents: new Set(),
    eventCorrelation: { state: emptyCorrelation() },
    scope: 'owned',
    ...(floors ? { listFloors: floors } : {}),
  });

  test('two passes of one invocation: the second lists revisions NotOlderThan the first; pods by quorum both times', async () => {
    const { kube, calls } = recordingKube();
    const deps = { kube, clock: () => 0 };
    const env = envOf(new ListFloors());
    await reconciler.pass(deps, key, env);
    await reconciler.pass(deps, key, env);
    await reconciler.pass(deps, key, envOf(new ListFloors())); // the next invocation
    await reconciler.pass(deps, key, envOf()); // an env without floors
    expect(calls).toEqual([
      'list controllerrevisions ns app=web quorum',
      'list pods ns quorum',
      'list controllerrevisions ns app=web notOlderThan 100',
      'list pods ns quorum',
      'list controllerrevisions ns app=web quorum',
      'list pods ns quorum',
      'list controllerrevisions ns app=web quorum',
      'list pods ns quorum',
    ]);
  });
});
