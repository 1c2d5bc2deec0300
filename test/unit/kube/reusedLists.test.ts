/**
 * LISTs answered from the invocation's last answer (lib/kube/reusedLists.ts): the same query answered again without a
 * request, as a deep copy, until a write of the resource (sent, refused or answered without an object), the TTL, or
 * the reconciled object read under another uid; other queries, other resources, continue pages, partial pages and
 * explicit versions read as asked; and through `guardedReconciler`: the answers live as long as the invocation's env.
 */
import { describe, expect, test } from '@jest/globals';
import type { ControllerRevision, Pod } from '../../../lib/api/types.js';
import { emptyCorrelation } from '../../../lib/kube/eventCorrelation.js';
import { KubeApiError } from '../../../lib/kube/errors.js';
import { ReusedLists, reusingKube, REUSED_LIST_TTL_MS } from '../../../lib/kube/reusedLists.js';
import type { KubeObject, Resource } from '../../../lib/kube/resource.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import type { KubeClient, Listed, ListOptions } from '../../../lib/kube/types.js';
import { guardedReconciler } from '../../../lib/reconcile/guardedReconciler.js';
import type { PassEnv } from '../../../lib/reconcile/reconcile.js';

/** Every call as `<method> <plural> [<selector>]`; each LIST answers one revision named by the call's number. */
function recordingKube(opts: { refuseCreate?: boolean; continueToken?: string } = {}) {
  const calls: string[] = [];
  let uid = 'uid-1';
  const kube = {
    get: (resource: Resource, ref: { name: string }) => {
      calls.push(`get ${resource.plural} ${ref.name}`);
      return Promise.resolve({ metadata: { name: ref.name, uid } });
    },
    list: (resource: Resource, options: ListOptions = {}): Promise<Listed<KubeObject>> => {
      calls.push(['list', resource.plural, options.labelSelector].filter(Boolean).join(' '));
      return Promise.resolve({
        items: [{ metadata: { name: `rev-${calls.length}`, labels: { n: String(calls.length) } } }],
        resourceVersion: String(100 + calls.length),
        ...(opts.continueToken ? { continue: opts.continueToken } : {}),
      });
    },
    create: (resource: Resource, object: KubeObject) => {
      calls.push(`create ${resource.plural} ${object.metadata.name ?? ''}`);
      return opts.refuseCreate
        ? Promise.reject(new KubeApiError('create', 409, 'AlreadyExists', 'exists'))
        : Promise.resolve(object);
    },
    patch: (resource: Resource) => {
      calls.push(`patch ${resource.plural}`);
      return Promise.resolve({ metadata: { resourceVersion: '500' } });
    },
    delete: (resource: Resource) => {
      calls.push(`delete ${resource.plural}`);
      return Promise.resolve();
    },
  } as unknown as KubeClient;
  return { kube, calls, replaceObject: () => (uid = 'uid-2') };
}

const REVS = { namespace: 'ns', labelSelector: 'app=web' };
const rev: ControllerRevision = { metadata: { name: 'web-1', namespace: 'ns' }, revision: 1 };

describe('reusingKube', () => {
  test('the same query answered again without a request, until the TTL is up; a deep copy each time', async () => {
    const { kube, calls } = recordingKube();
    let now = 1_000;
    const k = reusingKube(kube, new ReusedLists(), [RESOURCES.controllerrevisions], () => now);
    const first = await k.list(RESOURCES.controllerrevisions, REVS);
    first.items[0].metadata.labels = { changed: 'by the pass' };
    now += REUSED_LIST_TTL_MS - 1;
    const second = await k.list(RESOURCES.controllerrevisions, REVS);
    expect(second).toEqual({
      items: [{ metadata: { name: 'rev-1', labels: { n: '1' } } }],
      resourceVersion: '101',
    });
    second.items.pop();
    expect((await k.list(RESOURCES.controllerrevisions, REVS)).items).toHaveLength(1);
    now += 1;
    await k.list(RESOURCES.controllerrevisions, REVS);
    expect(calls).toEqual(['list controllerrevisions app=web', 'list controllerrevisions app=web']);
  });

  test('a write of the resource drops its answers, whether it succeeds or is refused; writes elsewhere do not', async () => {
    const { kube, calls } = recordingKube({ refuseCreate: true });
    const k = reusingKube(kube, new ReusedLists(), [RESOURCES.controllerrevisions], () => 0);
    await k.list(RESOURCES.controllerrevisions, REVS);
    await k.patch(RESOURCES.pods, { namespace: 'ns', name: 'p' }, { type: 'merge', body: {} });
    await k.delete(RESOURCES.pods, { namespace: 'ns', name: 'p' });
    await k.list(RESOURCES.controllerrevisions, REVS);
    await expect(k.create(RESOURCES.controllerrevisions, rev)).rejects.toThrow('exists');
    await k.list(RESOURCES.controllerrevisions, REVS);
    await k.list(RESOURCES.controllerrevisions, REVS);
    await k.patch(RESOURCES.controllerrevisions, { namespace: 'ns', name: 'r' }, { type: 'merge', body: {} });
    await k.list(RESOURCES.controllerrevisions, REVS);
    await k.delete(RESOURCES.controllerrevisions, { namespace: 'ns', name: 'r' });
    await k.list(RESOURCES.controllerrevisions, REVS);
    expect(calls).toEqual([
      'list controllerrevisions app=web',
      'patch pods',
      'delete pods',
      'create controllerrevisions web-1',
      'list controllerrevisions app=web',
      'patch controllerrevisions',
      'list controllerrevisions app=web',
      'delete controllerrevisions',
      'list controllerrevisions app=web',
    ]);
  });

  test('an answer to a LIST begun before a write is not kept', async () => {
    const { kube, calls } = recordingKube();
    const lists = new ReusedLists();
    const k = reusingKube(kube, lists, [RESOURCES.controllerrevisions], () => 0);
    const listing = k.list(RESOURCES.controllerrevisions, REVS);
    await k.create(RESOURCES.controllerrevisions, rev);
    await listing;
    await k.list(RESOURCES.controllerrevisions, REVS);
    expect(calls).toEqual([
      'list controllerrevisions app=web',
      'create controllerrevisions web-1',
      'list controllerrevisions app=web',
    ]);
  });

  test('other queries and resources, continue pages, explicit versions and partial pages are read as asked', async () => {
    const { kube, calls } = recordingKube();
    const k = reusingKube(kube, new ReusedLists(), [RESOURCES.controllerrevisions], () => 0);
    await k.list(RESOURCES.controllerrevisions, REVS);
    await k.list(RESOURCES.controllerrevisions, { ...REVS, labelSelector: 'app=db' });
    await k.list(RESOURCES.controllerrevisions, { ...REVS, continue: 'tok' });
    await k.list(RESOURCES.controllerrevisions, { ...REVS, resourceVersion: '0' });
    await k.list<Pod>(RESOURCES.pods, REVS);
    await k.list<Pod>(RESOURCES.pods, REVS);
    await k.list(RESOURCES.controllerrevisions, REVS);
    await k.list(RESOURCES.controllerrevisions, { ...REVS, labelSelector: 'app=db' });
    expect(calls).toEqual([
      'list controllerrevisions app=web',
      'list controllerrevisions app=db',
      'list controllerrevisions app=web',
      'list controllerrevisions app=web',
      'list pods app=web',
      'list pods app=web',
    ]);
    const paged = recordingKube({ continueToken: 'next' });
    const p = reusingKube(paged.kube, new ReusedLists(), [RESOURCES.controllerrevisions], () => 0);
    await p.list(RESOURCES.controllerrevisions, { ...REVS, limit: 1 });
    await p.list(RESOURCES.controllerrevisions, { ...REVS, limit: 1 });
    expect(paged.calls).toHaveLength(2);
  });

  test('the reconciled object read under another uid drops every answer', async () => {
    const { kube, calls, replaceObject } = recordingKube();
    const k = reusingKube(kube, new ReusedLists(), [RESOURCES.controllerrevisions], () => 0);
    await k.get(RESOURCES.pods, { namespace: 'ns', name: 'web' });
    await k.list(RESOURCES.controllerrevisions, REVS);
    await k.get(RESOURCES.pods, { namespace: 'ns', name: 'web' });
    await k.list(RESOURCES.controllerrevisions, REVS);
    replaceObject();
    await k.get(RESOURCES.pods, { namespace: 'ns', name: 'web' });
    await k.list(RESOURCES.controllerrevisions, REVS);
    expect(calls).toEqual([
      'get pods web',
      'list controllerrevisions app=web',
      'get pods web',
      'get pods web',
      'list controllerrevisions app=web',
    ]);
  });

  test("through guardedReconciler: an invocation's passes share the answers, the next invocation reads again", async () => {
    const { kube, calls } = recordingKube();
    const reconciler = guardedReconciler(
      () => 'all',
      async (deps: { kube: KubeClient; clock: () => number }) => {
        await deps.kube.list(RESOURCES.controllerrevisions, REVS);
        return { gone: false, writes: 0, acted: false };
      },
      [],
      [RESOURCES.controllerrevisions],
    );
    const envOf = (): PassEnv<string> => ({
      lease: {
        key: { cluster: 'c', kind: 'k', name: 'web' },
        holder: 'h',
        token: 1,
        expiresAt: Number.MAX_SAFE_INTEGER,
      },
      recordedEvents: new Set(),
      eventCorrelation: { state: emptyCorrelation() },
      scope: 'all',
    });
    const deps = { kube, clock: () => 0 };
    const key = { cluster: 'c', kind: 'k', name: 'web' };
    const first = envOf();
    await reconciler.pass(deps, key, first);
    await reconciler.pass(deps, key, first);
    await reconciler.pass(deps, key, envOf());
    expect(calls).toEqual(['list controllerrevisions app=web', 'list controllerrevisions app=web']);
  });
});
