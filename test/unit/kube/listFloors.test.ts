/**
 * LISTs of a rarely written resource from the invocation's floor (lib/kube/listFloors.ts): the first a quorum read,
 * the later ones `NotOlderThan` what the last answered, a quorum read again after the TTL, after any write to the
 * resource (attempted, even refused) and after a floor read that failed; other resources, `continue` pages and
 * reads that name their own resourceVersion are passed through as asked. And through `guardedReconciler`: the
 * floors live as long as the invocation's env, so a second pass of one invocation lists ControllerRevisions without
 * the watch cache's wait, and a new invocation starts from a quorum read.
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

/** Every call the client got, as `<method> <plural> <resourceVersion or quorum>`; LISTs answer rv 100, 101, …. */
function recordingKube(failNotOlderThan = false) {
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
      return Promise.resolve({ metadata: {} });
    },
  } as unknown as KubeClient;
  return { kube, calls };
}

const REVS = { namespace: 'ns', labelSelector: 'app=web' };

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

  test('a write to the resource, even one refused, makes its next LIST a quorum read; a write elsewhere does not', async () => {
    const { kube, calls } = recordingKube();
    const k = flooredKube(kube, new ListFloors(), [RESOURCES.controllerrevisions], () => 0);
    await k.list(RESOURCES.controllerrevisions, REVS);
    await k.patch(RESOURCES.pods, { namespace: 'ns', name: 'p' }, { type: 'merge', body: {} });
    await k.list(RESOURCES.controllerrevisions, REVS);
    const rev: ControllerRevision = { metadata: { name: 'web-1', namespace: 'ns' }, revision: 1 };
    await expect(k.create(RESOURCES.controllerrevisions, rev)).rejects.toThrow('exists');
    await k.list(RESOURCES.controllerrevisions, REVS);
    expect(calls).toEqual([
      'list controllerrevisions ns app=web quorum',
      'patch pods',
      'list controllerrevisions ns app=web notOlderThan 100',
      'create controllerrevisions web-1',
      'list controllerrevisions ns app=web quorum',
    ]);
  });

  test('a floor per namespace and selector; other resources, continue pages and explicit versions as asked', async () => {
    const { kube, calls } = recordingKube();
    const k = flooredKube(kube, new ListFloors(), [RESOURCES.controllerrevisions], () => 0);
    await k.list(RESOURCES.controllerrevisions, REVS);
    await k.list(RESOURCES.controllerrevisions, { ...REVS, labelSelector: 'app=db' });
    await k.list(RESOURCES.controllerrevisions, REVS);
    await k.list(RESOURCES.controllerrevisions, { ...REVS, continue: 'tok' });
    await k.list(RESOURCES.controllerrevisions, { ...REVS, resourceVersion: '0' });
    await k.list<Pod>(RESOURCES.pods, { namespace: 'ns' });
    await k.list<Pod>(RESOURCES.pods, { namespace: 'ns' });
    expect(calls).toEqual([
      'list controllerrevisions ns app=web quorum',
      'list controllerrevisions ns app=db quorum',
      'list controllerrevisions ns app=web notOlderThan 100',
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
