/**
 * The pod writes of one pass are bounded (lib/reconcile/pods/passLimit.ts): the expectations and scale-down ledger
 * items hold every pending pod of a pass and must fit one DynamoDB item (400 KB), which ~5,000 pods do not
 * (docs/reliability.md#bad-input-corpus). A 5,000-pod scale-down therefore runs over several passes.
 */
import { reconcileCloneSet } from '../../../../../lib/controllers/cloneset/index.js';
import { capPendingWrites, MAX_PENDING_PER_PASS } from '../../../../../lib/reconcile/pods/passLimit.js';
import type { Action } from '../../../../../lib/podset/actions.js';
import type { Pod } from '../../../../../lib/api/types.js';
import { harness, REQUEST, seedCloneSet } from './support/harness.js';

const KEY = {
  cluster: REQUEST.cluster,
  kind: REQUEST.kind,
  namespace: REQUEST.namespace,
  name: REQUEST.name,
};

/** A harness with the seed's 2 ready pods plus `surplus` owned copies of the first (names `copy-<i>`). */
async function withSurplus(surplus: number) {
  const h = harness();
  h.kube.apply(seedCloneSet());
  await reconcileCloneSet(h.deps(), REQUEST);
  h.kube.kubelet();
  h.clock.now += 30_000;
  const template = [...h.kube.pods.values()][0];
  for (let i = 0; i < surplus; i++) {
    const pod = structuredClone(template);
    pod.metadata.name = `copy-${i}`;
    pod.metadata.uid = `copy-${i}-uid`;
    h.kube.pods.set(pod.metadata.name, pod);
  }
  h.journal.length = 0;
  return h;
}

const deletedPods = (journal: readonly string[]) =>
  journal.filter((l) => l.startsWith('delete pod ')).map((l) => l.slice('delete pod '.length));
const ledgerRecords = (journal: readonly string[]) =>
  journal
    .filter((l) => l.startsWith('ledger.record ['))
    .map((l) => l.slice('ledger.record ['.length, -1).split(','));

describe('a 5,000-pod scale-down is bounded per pass', () => {
  test('the bound is 1,000 pending objects per kind', () => {
    expect(MAX_PENDING_PER_PASS).toBe(1000);
  });

  test('the first pass records and deletes exactly the bound; its ledger intent names exactly those pods, in order', async () => {
    const h = await withSurplus(5000);
    const out = await reconcileCloneSet(h.deps({ holder: 'inv-2', maxPasses: 1 }), REQUEST);
    expect(out.error).toBeUndefined();
    const deleted = deletedPods(h.journal);
    expect(deleted).toHaveLength(MAX_PENDING_PER_PASS);
    expect(ledgerRecords(h.journal)).toEqual([deleted]);
    expect(h.kube.pods.size).toBe(5002 - MAX_PENDING_PER_PASS);
    expect(await h.stores.ledger.get(KEY)).toBeUndefined();
    // every delete of the pass is pending, and no more
    expect((await h.stores.expectations.get(KEY)).deletes.map((d) => d.name)).toEqual(deleted);
  });

  test('later passes continue: 5 passes of 1,000 deletes each, ending with exactly the 2 wanted pods', async () => {
    const h = await withSurplus(5000);
    const out = await reconcileCloneSet(
      h.deps({ holder: 'inv-2', deadlineMs: h.clock.now + 60_000 }),
      REQUEST,
    );
    expect(out.error).toBeUndefined();
    const records = ledgerRecords(h.journal);
    expect(records.map((r) => r.length)).toEqual([1000, 1000, 1000, 1000, 1000]);
    const deleted = deletedPods(h.journal);
    expect(deleted).toEqual(records.flat());
    expect(new Set(deleted).size).toBe(5000);
    expect(h.kube.pods.size).toBe(2);
    expect(h.kube.cloneSets.get(REQUEST.name)?.status?.replicas).toBe(2);
    const largestPut = Math.max(
      ...h.journal
        .filter((l) => l.startsWith('expectations.put deletes['))
        .map((l) => l.slice('expectations.put deletes['.length, -1).split(',').length),
    );
    expect(largestPut).toBe(MAX_PENDING_PER_PASS);
  });
});

describe('5,000 new pods: their status patches are bounded per pass too', () => {
  test('the KruisePodReady patches of a 5,000-pod scale-up store at most 1,000 update expectations at once', async () => {
    const h = harness();
    const cs = seedCloneSet();
    cs.spec.replicas = 5000;
    h.kube.apply(cs);
    let n = 0;
    const out = await reconcileCloneSet(
      h.deps({
        deadlineMs: h.clock.now + 600_000,
        maxPasses: 40,
        newInstanceId: () => (n++).toString(36).padStart(5, '0'),
      }),
      REQUEST,
    );
    expect(out.error).toBeUndefined();
    const updatesPerPut = h.journal
      .filter((l) => l.startsWith('expectations.put') && l.includes(' updates['))
      .map((l) => l.slice(l.indexOf(' updates[') + ' updates['.length, -1).split(',').length);
    // passes 2–5 patch the pods the previous pass created; then the remaining patches, 1,000 a pass. Before the
    // bound the last pass stored 5,000 at once: about 790 KB with 63-character names, over DynamoDB's 400 KB
    expect(updatesPerPut).toEqual(Array.from({ length: 9 }, () => 1000));
    // the same 9,000 status patches as without the bound (pods of passes 1–4 twice), only spread over the passes
    expect(h.journal.filter((l) => l.startsWith('patch pod status ')).length).toBe(9000);
  });
});

describe('capPendingWrites', () => {
  const pod = (name: string): Pod => ({ metadata: { name }, spec: { containers: [] } });
  const create = (name: string, batch: number, pvcs = 0): Action =>
    ({
      type: 'CreatePod',
      batch,
      pod: pod(name),
      pvcs: Array.from({ length: pvcs }, (_, i) => ({ metadata: { name: `${name}-pvc-${i}` } })),
    }) as unknown as Action;
  const del = (name: string, pvcNames: string[] = []): Action =>
    ({
      type: 'DeletePod',
      pod: { name, uid: `${name}-uid` },
      pvcNames,
      reason: 'ScaleDown',
    }) as unknown as Action;
  const names = (actions: Action[]) =>
    actions.map(
      (a) =>
        `${a.type}:${a.type === 'CreatePod' ? a.pod.metadata.name : a.type === 'DeletePod' ? a.pod.name : ''}`,
    );

  test('keeps the first creates and deletes in plan order within the bound, counting PVCs; other actions stay', () => {
    const patch = { type: 'PatchPVCOwner', name: 'x', uid: 'u', ownerReferences: [] } as unknown as Action;
    const actions = [
      create('a', 0, 1),
      create('b', 1, 1),
      create('c', 1),
      patch,
      del('d'),
      del('e', ['e-pvc']),
      del('f'),
    ];
    expect(names(capPendingWrites(actions, 3))).toEqual([
      'CreatePod:a',
      'PatchPVCOwner:',
      'DeletePod:d',
      'DeletePod:e',
    ]);
  });

  test('once an action is left out, a later smaller one of its kind is too; the first action is kept even over the bound', () => {
    expect(names(capPendingWrites([create('a', 0, 3), create('b', 0)], 2))).toEqual(['CreatePod:a']);
    expect(names(capPendingWrites([del('a'), del('b', ['p', 'q']), del('c')], 2))).toEqual(['DeletePod:a']);
  });

  test('pod patches: every patch of the first `max` pods patched, none of later pods', () => {
    const patch = (name: string, type: 'PatchPod' | 'PatchPodStatus' = 'PatchPod'): Action =>
      ({
        type,
        pod: { name, uid: `${name}-uid` },
        reason: 'LifecycleTransition',
        patch: {},
      }) as unknown as Action;
    const label = (a: Action) =>
      a.type === 'PatchPod' || a.type === 'PatchPodStatus' ? `${a.type}:${a.pod.name}` : a.type;
    const actions = [
      patch('a'),
      patch('b', 'PatchPodStatus'),
      patch('a', 'PatchPodStatus'),
      patch('c'),
      del('d'),
      patch('b'),
    ];
    expect(capPendingWrites(actions, 2).map(label)).toEqual([
      'PatchPod:a',
      'PatchPodStatus:b',
      'PatchPodStatus:a',
      'DeletePod',
      'PatchPod:b',
    ]);
  });

  test('under the bound nothing changes', () => {
    const actions = [create('a', 0), del('b')];
    expect(capPendingWrites(actions, 1000)).toEqual(actions);
  });
});
