/**
 * The pump run's shared LIST answers (lib/source/listMemo.ts): which LISTs reach the cluster, in order, as the pump
 * reports changes between them. The "cluster" is a recording stand-in whose answers the test releases by hand, so
 * a LIST under way while a change is seen is a real interleaving, not a timing guess.
 */
import { describe, expect, it } from '@jest/globals';
import { LIST_MEMO_TTL_MS, listMemo } from '../../../lib/source/listMemo.js';
import type { KubeObject, Resource } from '../../../lib/kube/resource.js';
import type { KubeClient, Listed, ListOptions } from '../../../lib/kube/types.js';
import { scaleReadsStandIn } from '../kube/support/scaleReads.js';

const PUBS: Resource = {
  group: 'policy.kruise.io',
  version: 'v1beta1',
  plural: 'podunavailablebudgets',
  namespaced: true,
  kind: 'PodUnavailableBudget',
};
const PUBS_V1ALPHA1: Resource = { ...PUBS, version: 'v1alpha1' };
const NODES: Resource = { group: '', version: 'v1', plural: 'nodes', namespaced: false, kind: 'Node' };
const SECRETS: Resource = { group: '', version: 'v1', plural: 'secrets', namespaced: true, kind: 'Secret' };

const item = (name: string): KubeObject => ({ metadata: { name } });

/** A cluster whose LISTs are recorded and answered when the test says so (`answer`), or at once (`auto`). */
function cluster(auto = true) {
  const calls: string[] = [];
  const pending: { resolve: (l: Listed<KubeObject>) => void; reject: (e: Error) => void }[] = [];
  let answers = 0;
  const kube: Pick<KubeClient, 'get' | 'list'> = {
    get: () => Promise.resolve(undefined),
    list: <T extends KubeObject>(r: Resource<T>, o: ListOptions = {}) => {
      calls.push(
        `${r.plural} ${o.namespace ?? '*'}${o.labelSelector ? ` ${o.labelSelector}` : ''}${o.continue ? ` continue=${o.continue}` : ''}`,
      );
      answers++;
      const listed: Listed<KubeObject> = {
        items: [item(`answer-${answers}`)],
        resourceVersion: String(answers),
      };
      if (auto) return Promise.resolve(listed as Listed<T>);
      return new Promise<Listed<T>>((resolve, reject) =>
        pending.push({ resolve: () => resolve(listed as Listed<T>), reject }),
      );
    },
  };
  return { kube, calls, pending };
}

const names = (l: Listed<KubeObject>) => l.items.map((i) => i.metadata.name);

describe('listMemo', () => {
  it('passes discovery and scale reads through unkept (a new pod of a scale-subresource kind finds its budget)', async () => {
    const c = cluster();
    const stand = scaleReadsStandIn({ 'argoproj.io/v1alpha1': [] });
    const reads = listMemo([PUBS], () => 0).reads({ ...c.kube, ...stand });
    await reads.serverResources?.('argoproj.io/v1alpha1');
    await reads.serverResources?.('argoproj.io/v1alpha1');
    await reads.getScale?.(PUBS, { namespace: 'a', name: 'web' });
    expect(stand.calls).toEqual([
      'discover argoproj.io/v1alpha1',
      'discover argoproj.io/v1alpha1',
      'get policy.kruise.io/v1beta1 podunavailablebudgets/scale a/web namespaced=true',
    ]);
    expect(listMemo([PUBS], () => 0).reads(c.kube).serverResources).toBeUndefined();
  });

  it('answers a repeated LIST of a followed resource from the first answer', async () => {
    const c = cluster();
    const reads = listMemo([PUBS], () => 0).reads(c.kube);
    expect(names(await reads.list(PUBS, { namespace: 'a', limit: 500 }))).toEqual(['answer-1']);
    expect(names(await reads.list(PUBS, { namespace: 'a', limit: 500 }))).toEqual(['answer-1']);
    expect(names(await reads.list(PUBS_V1ALPHA1, { namespace: 'a', limit: 500 }))).toEqual(['answer-1']);
    expect(c.calls).toEqual(['podunavailablebudgets a']);
  });

  it('keeps one answer per query: namespace, selector and page size', async () => {
    const c = cluster();
    const reads = listMemo([PUBS], () => 0).reads(c.kube);
    await reads.list(PUBS, { namespace: 'a' });
    await reads.list(PUBS, { namespace: 'b' });
    await reads.list(PUBS, { namespace: 'a', labelSelector: 'x=1' });
    await reads.list(PUBS, { namespace: 'a', limit: 10 });
    await reads.list(PUBS, { namespace: 'b' });
    expect(c.calls).toEqual([
      'podunavailablebudgets a',
      'podunavailablebudgets b',
      'podunavailablebudgets a x=1',
      'podunavailablebudgets a',
    ]);
  });

  it('drops the answers a change could be in: its namespace and the all-namespace lists, not the others', async () => {
    const c = cluster();
    const memo = listMemo([PUBS], () => 0);
    const reads = memo.reads(c.kube);
    await reads.list(PUBS, { namespace: 'a' });
    await reads.list(PUBS, { namespace: 'b' });
    await reads.list(PUBS, {});
    memo.changed(PUBS_V1ALPHA1, 'a');
    await reads.list(PUBS, { namespace: 'a' });
    await reads.list(PUBS, { namespace: 'b' });
    await reads.list(PUBS, {});
    expect(c.calls).toEqual([
      'podunavailablebudgets a',
      'podunavailablebudgets b',
      'podunavailablebudgets *',
      'podunavailablebudgets a',
      'podunavailablebudgets *',
    ]);
  });

  it('a cluster-scoped change drops every answer of the resource', async () => {
    const c = cluster();
    const memo = listMemo([NODES], () => 0);
    const reads = memo.reads(c.kube);
    await reads.list(NODES, { labelSelector: 'zone=a' });
    await reads.list(NODES, {});
    memo.changed(NODES, undefined);
    await reads.list(NODES, { labelSelector: 'zone=a' });
    await reads.list(NODES, {});
    expect(c.calls).toEqual(['nodes * zone=a', 'nodes *', 'nodes * zone=a', 'nodes *']);
  });

  it('passes through a resource the pump does not follow in full, and every page after the first', async () => {
    const c = cluster();
    const reads = listMemo([PUBS], () => 0).reads(c.kube);
    await reads.list(SECRETS, { namespace: 'a' });
    await reads.list(SECRETS, { namespace: 'a' });
    await reads.list(PUBS, { namespace: 'a', continue: 'tok' });
    await reads.list(PUBS, { namespace: 'a', continue: 'tok' });
    expect(c.calls).toEqual([
      'secrets a',
      'secrets a',
      'podunavailablebudgets a continue=tok',
      'podunavailablebudgets a continue=tok',
    ]);
  });

  it('shares one LIST under way between callers', async () => {
    const c = cluster(false);
    const reads = listMemo([PUBS], () => 0).reads(c.kube);
    const first = reads.list(PUBS, { namespace: 'a' });
    const second = reads.list(PUBS, { namespace: 'a' });
    expect(c.calls).toEqual(['podunavailablebudgets a']);
    c.pending[0].resolve({ items: [], resourceVersion: '' });
    expect(names(await first)).toEqual(['answer-1']);
    expect(names(await second)).toEqual(['answer-1']);
  });

  it('does not keep a LIST that was under way when a change of the resource was seen', async () => {
    const c = cluster(false);
    const memo = listMemo([PUBS], () => 0);
    const reads = memo.reads(c.kube);
    const first = reads.list(PUBS, { namespace: 'a' });
    memo.changed(PUBS, 'other'); // another namespace: its generation still moved
    c.pending[0].resolve({ items: [], resourceVersion: '' });
    await first;
    const again = reads.list(PUBS, { namespace: 'a' });
    c.pending[1].resolve({ items: [], resourceVersion: '' });
    expect(names(await again)).toEqual(['answer-2']);
    expect(c.calls).toEqual(['podunavailablebudgets a', 'podunavailablebudgets a']);
  });

  it('a caller after a change in the namespace does not join the LIST begun before it', async () => {
    const c = cluster(false);
    const memo = listMemo([PUBS], () => 0);
    const reads = memo.reads(c.kube);
    const before = reads.list(PUBS, { namespace: 'a' });
    memo.changed(PUBS, 'a');
    const after = reads.list(PUBS, { namespace: 'a' });
    c.pending[0].resolve({ items: [], resourceVersion: '' });
    c.pending[1].resolve({ items: [], resourceVersion: '' });
    expect(names(await before)).toEqual(['answer-1']);
    expect(names(await after)).toEqual(['answer-2']);
  });

  it('does not keep a failed LIST nor a limited one with more pages', async () => {
    const c = cluster(false);
    const reads = listMemo([PUBS], () => 0).reads(c.kube);
    const failed = reads.list(PUBS, { namespace: 'a' });
    c.pending[0].reject(new Error('503'));
    await expect(failed).rejects.toThrow('503');
    const paged = reads.list(PUBS, { namespace: 'a' });
    c.pending[1].resolve({ items: [], resourceVersion: '' });
    await paged;
    expect(c.calls).toHaveLength(2);

    const more = cluster();
    const limited = listMemo([PUBS], () => 0).reads({
      ...more.kube,
      list: async <T extends KubeObject>(r: Resource<T>, o?: ListOptions) => ({
        ...(await more.kube.list(r, o)),
        continue: 'next',
      }),
    });
    await limited.list(PUBS, { namespace: 'a', limit: 1 });
    await limited.list(PUBS, { namespace: 'a', limit: 1 });
    expect(more.calls).toEqual(['podunavailablebudgets a', 'podunavailablebudgets a']);
  });

  it(`keeps an answer for ${LIST_MEMO_TTL_MS} ms at most`, async () => {
    const c = cluster();
    let now = 1_000;
    const reads = listMemo([PUBS], () => now).reads(c.kube);
    await reads.list(PUBS, { namespace: 'a' });
    now += LIST_MEMO_TTL_MS - 1;
    await reads.list(PUBS, { namespace: 'a' });
    now += 1;
    await reads.list(PUBS, { namespace: 'a' });
    expect(c.calls).toEqual(['podunavailablebudgets a', 'podunavailablebudgets a']);
  });

  it('gives each caller its own items array', async () => {
    const c = cluster();
    const reads = listMemo([PUBS], () => 0).reads(c.kube);
    const one = await reads.list(PUBS, { namespace: 'a' });
    one.items.length = 0;
    expect(names(await reads.list(PUBS, { namespace: 'a' }))).toEqual(['answer-1']);
  });
});
