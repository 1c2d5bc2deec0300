/**
 * Lifecycle hooks on the in-memory World: docs/behaviour/scenarios.md cases C25, C27 (a and b), C28 (gate on
 * and off) and C30.
 */
import type { CloneSet } from '../../../lib/api/types.js';
import { World } from '../support/world.js';
import {
  actionPod,
  availablePods,
  countRev,
  img,
  imageOf,
  ipur,
  revOf,
  round,
  sample,
  setImage,
  stateOf,
  updateRev,
} from './helpers.js';

const IDS = 'abcdefghijklmnopqrstuvwxyz'.split('');

/** A CloneSet whose `inPlaceUpdate` hook is the given labels, which the template also carries. */
function hooked(
  replicas: number,
  hook: Record<string, string>,
  extra: Partial<CloneSet['spec']> = {},
): CloneSet {
  const cs = sample({
    replicas,
    lifecycle: { inPlaceUpdate: { labelsHandler: hook } },
    updateStrategy: { type: 'InPlaceIfPossible' },
    ...extra,
  });
  cs.spec.template.metadata!.labels = { app: 'sample', ...hook };
  return cs;
}

const setLabel = (w: World, pod: string, key: string, value: string): void => {
  w.pod(pod).metadata.labels![key] = value;
};

describe('C25: inPlaceUpdate hook with several labels: all must be restored', () => {
  test('C25: sample-a goes PreparingUpdate → Updating → Updated and back to Normal only when both labels are restored; sample-b waits', () => {
    const A = 'example.io/block-a';
    const B = 'example.io/block-b';
    const w = new World(
      hooked(
        2,
        { [A]: 'true', [B]: 'true' },
        { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 } },
      ),
    ).useIds(...IDS);
    w.settle();
    const r1 = updateRev(w);
    const uidA = w.pod('sample-a').metadata.uid;
    const states = (): string[] => [stateOf(w.pod('sample-a')), stateOf(w.pod('sample-b'))];
    expect(states()).toEqual(['Normal', 'Normal']);

    // 1. image v2 → sample-a PreparingUpdate
    w.edit((cs) => setImage(cs, 'v2'));
    w.settle();
    expect(states()).toEqual(['PreparingUpdate', 'Normal']);
    expect(revOf(w.pod('sample-a'))).toBe(r1);

    // 2. block-a released: block-b still holds it
    setLabel(w, 'sample-a', A, 'false');
    w.settle();
    expect(states()).toEqual(['PreparingUpdate', 'Normal']);

    // 3. block-b released → Updating: image patched, revision r2, InPlaceUpdateReady False
    setLabel(w, 'sample-a', B, 'false');
    w.reconcile();
    const r2 = updateRev(w);
    expect(states()).toEqual(['Updating', 'Normal']);
    expect(revOf(w.pod('sample-a'))).toBe(r2);
    expect(imageOf(w.pod('sample-a'))).toBe(img('v2'));
    expect(ipur(w.pod('sample-a'))).toBe('False');

    // 4. containers report the new image → Updated (hooks not all present)
    w.kubelet();
    w.settle();
    expect(states()).toEqual(['Updated', 'Normal']);
    expect(w.pod('sample-a').metadata.uid).toBe(uidA);

    // 5. only block-a restored → stays Updated, sample-b does not start
    setLabel(w, 'sample-a', A, 'true');
    w.settle();
    expect(states()).toEqual(['Updated', 'Normal']);
    expect(revOf(w.pod('sample-b'))).toBe(r1);

    // 6. block-b restored → Normal, and only then sample-b PreparingUpdate
    setLabel(w, 'sample-a', B, 'true');
    const p6 = w.reconcile();
    expect(stateOf(w.pod('sample-a'))).toBe('Normal');
    expect(stateOf(w.pod('sample-b'))).toBe('Normal');
    expect(p6.actions.every((a) => actionPod(a) === 'sample-a')).toBe(true);
    w.kubelet();
    w.settle();
    expect(states()).toEqual(['Normal', 'PreparingUpdate']);
  });
});

describe('C27: rollback while a pod waits in PreparingUpdate', () => {
  const H = 'example.io/hook';
  function preparing(): { w: World; r1: string; uid: string } {
    const w = new World(hooked(1, { [H]: 'true' })).useIds(...IDS);
    w.settle();
    const r1 = updateRev(w);
    w.edit((cs) => setImage(cs, 'v2'));
    w.settle();
    expect(stateOf(w.pod('sample-a'))).toBe('PreparingUpdate');
    return { w, r1, uid: w.pod('sample-a').metadata.uid! };
  }

  test('C27a: hook still present when the template is reverted → Normal after one sync; no in-place patch', () => {
    const { w, r1, uid } = preparing();
    w.edit((cs) => setImage(cs, 'v1'));
    const plan = w.reconcile();
    expect(updateRev(w)).toBe(r1);
    expect(stateOf(w.pod('sample-a'))).toBe('Normal');
    expect(plan.actions.some((a) => a.type === 'PatchPod' && a.reason === 'InPlaceUpdate')).toBe(false);
    expect(w.pod('sample-a').metadata.uid).toBe(uid);
    expect(imageOf(w.pod('sample-a'))).toBe(img('v1'));
  });

  test('C27b: hook already released when the template is reverted → Updated, then Normal once the hook is restored', () => {
    const { w, r1, uid } = preparing();
    setLabel(w, 'sample-a', H, 'false');
    w.edit((cs) => setImage(cs, 'v1'));
    const plan = w.reconcile();
    expect(updateRev(w)).toBe(r1);
    expect(stateOf(w.pod('sample-a'))).toBe('Updated');
    expect(plan.actions.some((a) => a.type === 'PatchPod' && a.reason === 'InPlaceUpdate')).toBe(false);
    w.settle();
    expect(stateOf(w.pod('sample-a'))).toBe('Updated');
    setLabel(w, 'sample-a', H, 'true');
    w.reconcile();
    expect(stateOf(w.pod('sample-a'))).toBe('Normal');
    expect(w.pod('sample-a').metadata.uid).toBe(uid);
    expect(imageOf(w.pod('sample-a'))).toBe(img('v1'));
  });
});

describe('C28: PreparingUpdate pod and a replacement under partition', () => {
  const H = 'example.io/hook';
  function preparing(gates: { preparingUpdateAsUpdate?: boolean }): { w: World; r1: string; r2: string } {
    const w = new World(
      hooked(4, { [H]: 'true' }, { updateStrategy: { type: 'InPlaceIfPossible', partition: 3 } }),
      {
        gates,
      },
    ).useIds(...IDS);
    w.settle();
    const r1 = updateRev(w);
    w.edit((cs) => setImage(cs, 'v2'));
    w.settle();
    expect(w.activePods().map(stateOf)).toEqual(['PreparingUpdate', 'Normal', 'Normal', 'Normal']);
    return { w, r1, r2: updateRev(w) };
  }

  test('C28 with PreparingUpdateAsUpdate: the replacement for sample-b is r1; sample-a is then updated; 3 × r1 + 1 × r2', () => {
    const { w, r1, r2 } = preparing({ preparingUpdateAsUpdate: true });
    w.deletePod('sample-b');
    const plan = w.reconcile();
    expect(plan.actions).toEqual([expect.objectContaining({ type: 'CreatePod', revision: r1 })]);
    w.kubelet();
    setLabel(w, 'sample-a', H, 'false');
    w.settle();
    setLabel(w, 'sample-a', H, 'true');
    w.settle();
    expect(revOf(w.pod('sample-a'))).toBe(r2);
    expect(stateOf(w.pod('sample-a'))).toBe('Normal');
    expect([countRev(w, r1), countRev(w, r2)]).toEqual([3, 1]);
  });

  test('C28 with the gate off (default): the replacement is r2 and sample-a stays PreparingUpdate with 3 × r1', () => {
    const { w, r1, r2 } = preparing({});
    w.deletePod('sample-b');
    const plan = w.reconcile();
    expect(plan.actions).toEqual([expect.objectContaining({ type: 'CreatePod', revision: r2 })]);
    w.kubelet();
    for (let i = 0; i < 10; i++) round(w.tick(30));
    expect(stateOf(w.pod('sample-a'))).toBe('PreparingUpdate');
    expect(revOf(w.pod('sample-a'))).toBe(r1);
    expect([countRev(w, r1), countRev(w, r2)]).toEqual([3, 1]);
  });
});

describe('C30: PreparingNormal becomes Normal only after scheduling', () => {
  test('C30: a new pod is PreparingNormal and not Available until nodeName is set, then Normal', () => {
    const w = new World(sample()).useIds(...IDS);
    w.settle();
    w.edit((cs) => (cs.spec.replicas = 4));
    w.reconcile();
    w.stuck.add('sample-d');
    expect(stateOf(w.pod('sample-d'))).toBe('PreparingNormal');
    for (let i = 0; i < 3; i++) round(w);
    expect(w.pod('sample-d').spec.nodeName).toBeUndefined();
    expect(stateOf(w.pod('sample-d'))).toBe('PreparingNormal');
    expect(availablePods(w).map((p) => p.metadata.name)).not.toContain('sample-d');
    expect(w.cloneSet.status!.availableReplicas).toBe(3);
    w.pod('sample-d').spec.nodeName = 'node-1';
    w.reconcile();
    expect(stateOf(w.pod('sample-d'))).toBe('Normal');
  });

  test('C30: with lifecycle.preNormal the scheduled pod stays PreparingNormal until every preNormal label is present', () => {
    const w = new World(
      sample({
        lifecycle: { preNormal: { labelsHandler: { 'example.io/warm': 'true', 'example.io/dns': 'true' } } },
      }),
    ).useIds(...IDS);
    w.settle();
    expect(w.activePods().map(stateOf)).toEqual(['PreparingNormal', 'PreparingNormal', 'PreparingNormal']);
    expect(w.cloneSet.status!.availableReplicas).toBe(0);
    expect(w.cloneSet.status!.readyReplicas).toBe(3);
    setLabel(w, 'sample-a', 'example.io/warm', 'true');
    w.settle();
    expect(stateOf(w.pod('sample-a'))).toBe('PreparingNormal');
    setLabel(w, 'sample-a', 'example.io/dns', 'true');
    w.settle();
    expect(w.activePods().map(stateOf)).toEqual(['Normal', 'PreparingNormal', 'PreparingNormal']);
    expect(w.cloneSet.status!.availableReplicas).toBe(1);
  });
});
