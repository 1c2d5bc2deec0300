/**
 * LISTs answered from an invocation's watch (lib/kube/watchedLists.ts, docs/architecture.md#watched-lists): which
 * LISTs reach the API server, what the view answers and when, and that the watch ends with the invocation. A scripted
 * client stands in for the API server: its LISTs answer a fixed collection and every watch is held open until the
 * test ends it (the real watch is exercised by the reconcile integration tests on a real kube-apiserver).
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { Pod } from '../../../lib/api/types.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import type { Listed, ListOptions } from '../../../lib/kube/types.js';
import {
  WATCHED_LIST_MAX_ITEMS,
  WATCHED_LIST_WAIT_MS,
  WatchedLists,
  watchingKube,
} from '../../../lib/kube/watchedLists.js';
import { pod, scripted } from './support/scriptedApi.js';

const NS = { namespace: 'ns', limit: 500 };
const floored = (rv: string): ListOptions => ({
  ...NS,
  resourceVersion: rv,
  resourceVersionMatch: 'NotOlderThan',
});
const names = (l: Listed<Pod>) => l.items.map((p) => `${p.metadata.name}@${p.metadata.resourceVersion}`);

let open: WatchedLists[] = [];
afterEach(() => {
  for (const lists of open) lists.close();
  open = [];
  jest.useRealTimers();
});
function made() {
  const lists = new WatchedLists();
  open.push(lists);
  return lists;
}

describe('watched LISTs', () => {
  it('the third full LIST seeds the view and starts a watch from its resourceVersion; floored LISTs after it are answered from the view, by name, as its frozen objects in a new array', async () => {
    const api = scripted([pod('web-1', '90'), pod('web-0', '80')], '100');
    const kube = watchingKube(api.kube, made(), [RESOURCES.pods]);
    await kube.list(RESOURCES.pods, floored('95'));
    await kube.list(RESOURCES.pods, floored('95'));
    expect(api.watches).toHaveLength(0); // two passes: no watch
    await kube.list(RESOURCES.pods, floored('95'));
    expect(api.watches.map((w) => w.options)).toEqual([
      expect.objectContaining({ namespace: 'ns', resourceVersion: '100', timeoutSeconds: 60 }),
    ]);
    const answer = await kube.list(RESOURCES.pods, floored('100'));
    expect(api.lists).toEqual(['notOlderThan 95', 'notOlderThan 95', 'notOlderThan 95']);
    expect(answer.resourceVersion).toBe('100');
    expect(answer.continue).toBeUndefined();
    expect(names(answer)).toEqual(['web-0@80', 'web-1@90']);
    expect(() => {
      answer.items[0].metadata.labels = { changed: 'by the pass' };
    }).toThrow(TypeError);
    expect(Object.isFrozen(answer.items[1].metadata)).toBe(true);
    const shared = answer.items[1];
    answer.items.pop();
    const again = await kube.list<Pod>(RESOURCES.pods, floored('100'));
    expect(again.items[0].metadata.labels).toBeUndefined();
    expect(names(again)).toEqual(['web-0@80', 'web-1@90']);
    expect(again.items[1]).toBe(shared); // the view's object itself: no copy a pass
  });

  it('applies the watch: a LIST whose floor is ahead of the view waits for the event that reaches it', async () => {
    const api = scripted([pod('web-0', '80'), pod('web-1', '90')], '100');
    const kube = watchingKube(api.kube, made(), [RESOURCES.pods]);
    await kube.list(RESOURCES.pods, NS);
    await kube.list(RESOURCES.pods, NS);
    await kube.list(RESOURCES.pods, NS);
    const [watch] = api.watches;
    const before = await kube.list<Pod>(RESOURCES.pods, floored('100'));
    watch.send('MODIFIED', pod('web-0', '101', 'Running'));
    watch.send('DELETED', pod('web-1', '102'));
    // an answer already given keeps what it was given: the event replaced the view's object, it did not change it
    expect(names(before)).toEqual(['web-0@80', 'web-1@90']);
    const waiting = kube.list<Pod>(RESOURCES.pods, floored('104'));
    watch.send('ADDED', pod('web-2', '103'));
    watch.send('ADDED', pod('web-3', '104'));
    const answer = await waiting;
    expect(names(answer)).toEqual(['web-0@101', 'web-2@103', 'web-3@104']);
    expect(answer.items[0].status?.phase).toBe('Running');
    expect(answer.resourceVersion).toBe('104');
    // a bookmark moves the view on without a change
    watch.send('BOOKMARK', { metadata: { resourceVersion: '150' } });
    expect((await kube.list(RESOURCES.pods, floored('150'))).resourceVersion).toBe('150');
    expect(api.lists).toEqual(['quorum', 'quorum', 'quorum']);
  });

  it(`a floor the watch does not reach within ${WATCHED_LIST_WAIT_MS} ms is read from the API server, whose answer seeds the view again`, async () => {
    const api = scripted([pod('web-0', '80')], '100');
    const kube = watchingKube(api.kube, made(), [RESOURCES.pods]);
    await kube.list(RESOURCES.pods, NS);
    await kube.list(RESOURCES.pods, NS);
    await kube.list(RESOURCES.pods, NS);
    api.state.rv = '300';
    const started = Date.now();
    const answer = await kube.list(RESOURCES.pods, floored('250')); // a PVC's change, say: no pod event reaches it
    expect(Date.now() - started).toBeGreaterThanOrEqual(WATCHED_LIST_WAIT_MS - 5);
    expect(answer.resourceVersion).toBe('300');
    expect(api.lists).toEqual(['quorum', 'quorum', 'quorum', 'notOlderThan 250']);
    // the first watch was ended, the second starts from the new answer
    expect(api.watches[0].options.signal.aborted).toBe(true);
    expect(api.watches[1].options.resourceVersion).toBe('300');
    await kube.list(RESOURCES.pods, floored('300'));
    expect(api.lists).toHaveLength(4);
  });

  it('quorum LISTs, other queries, field selectors and other resources always reach the API server', async () => {
    const api = scripted([pod('web-0', '80')], '100');
    const kube = watchingKube(api.kube, made(), [RESOURCES.pods]);
    await kube.list(RESOURCES.pods, NS);
    await kube.list(RESOURCES.pods, NS);
    await kube.list(RESOURCES.pods, NS);
    await kube.list(RESOURCES.pods, NS); // quorum: read, and a new view
    await kube.list(RESOURCES.pods, { ...floored('100'), labelSelector: 'app=web' });
    await kube.list(RESOURCES.pods, { ...floored('100'), fieldSelector: 'spec.nodeName=n1' });
    await kube.list(RESOURCES.persistentvolumeclaims, floored('100'));
    await kube.list(RESOURCES.pods, { ...NS, resourceVersion: '100' }); // an exact read
    expect(api.lists).toHaveLength(8);
    expect(api.watches).toHaveLength(2);
    expect(api.watches[0].options.signal.aborted).toBe(true);
  });

  it('seeds from every page of a paged LIST', async () => {
    const pods = Array.from({ length: 5 }, (_, i) => pod(`web-${i}`, String(10 + i)));
    const api = scripted(pods, '100');
    const kube = watchingKube(api.kube, made(), [RESOURCES.pods]);
    const paged = { namespace: 'ns', limit: 2 };
    const listAllPages = async (options: ListOptions) => {
      let page = await kube.list(RESOURCES.pods, options);
      while (page.continue) page = await kube.list(RESOURCES.pods, { ...options, continue: page.continue });
    };
    await listAllPages(paged);
    await listAllPages(paged);
    await listAllPages(paged);
    const answer = await kube.list<Pod>(RESOURCES.pods, {
      ...paged,
      resourceVersion: '100',
      resourceVersionMatch: 'NotOlderThan',
    });
    expect(names(answer)).toEqual(['web-0@10', 'web-1@11', 'web-2@12', 'web-3@13', 'web-4@14']);
    expect(api.lists.filter((l) => l === 'quorum')).toHaveLength(3);
  });

  it('a view whose watch ended answers nothing until the next answer seeds it again; a query whose watch failed is not watched again', async () => {
    const api = scripted([pod('web-0', '80')], '100');
    const errors: unknown[] = [];
    const kube = watchingKube(api.kube, made(), [RESOURCES.pods], (e) => errors.push(e));
    await kube.list(RESOURCES.pods, NS);
    await kube.list(RESOURCES.pods, NS);
    await kube.list(RESOURCES.pods, NS);
    api.watches[0].end(); // the server's timeout
    await new Promise((r) => setImmediate(r));
    await kube.list(RESOURCES.pods, floored('100'));
    api.watches[1].fail(new Error('connection reset'));
    await new Promise((r) => setImmediate(r));
    await kube.list(RESOURCES.pods, floored('100'));
    await kube.list(RESOURCES.pods, NS);
    expect(api.lists).toEqual([
      'quorum',
      'quorum',
      'quorum',
      'notOlderThan 100',
      'notOlderThan 100',
      'quorum',
    ]);
    expect(api.watches).toHaveLength(2); // none after the failure
    expect(errors).toEqual([new Error('connection reset')]);
  });

  it('close() ends every watch, and nothing is seeded after it', async () => {
    const api = scripted([pod('web-0', '80')], '100');
    const lists = made();
    const kube = watchingKube(api.kube, lists, [RESOURCES.pods]);
    await kube.list(RESOURCES.pods, NS);
    await kube.list(RESOURCES.pods, NS);
    await kube.list(RESOURCES.pods, NS);
    lists.close();
    expect(api.watches[0].options.signal.aborted).toBe(true);
    await kube.list(RESOURCES.pods, NS);
    await kube.list(RESOURCES.pods, floored('100'));
    expect(api.watches).toHaveLength(1);
    expect(api.lists).toHaveLength(5);
  });

  it(`a collection of more than ${WATCHED_LIST_MAX_ITEMS} objects is not kept`, async () => {
    const pods = Array.from({ length: WATCHED_LIST_MAX_ITEMS + 1 }, (_, i) => pod(`web-${i}`, '10'));
    const api = scripted(pods, '100');
    const kube = watchingKube(api.kube, made(), [RESOURCES.pods]);
    for (let i = 0; i < 4; i++) await kube.list(RESOURCES.pods, {});
    expect(api.watches).toHaveLength(0);
  });

  it('a client that cannot watch is returned as it is', () => {
    const api = scripted([], '1');
    const { watch: _none, ...noWatch } = api.kube;
    expect(watchingKube(noWatch, made(), [RESOURCES.pods])).toBe(noWatch);
  });
});
