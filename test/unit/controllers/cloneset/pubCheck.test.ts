/**
 * lib/controllers/cloneset/pubCheck.ts: the CloneSet asks each pod's PodUnavailableBudget before the pod's update
 * starts (OpenKruise's cloneset_update.go under PodUnavailableBudgetUpdateGate); at the first refusal that pod and
 * the later ones wait and the CloneSet is looked at again in 1 s.
 */
import { describe, expect, it } from '@jest/globals';
import type { Pod } from '../../../../lib/api/types.js';
import type { Action } from '../../../../lib/podset/actions.js';
import { podsUpdated, withPubCheck } from '../../../../lib/controllers/cloneset/pubCheck.js';

const ref = (name: string) => ({ name, uid: `uid-${name}` });
const start = (name: string): Action[] => [
  { type: 'PatchPodStatus', pod: ref(name), reason: 'StartInPlaceUpdate', patch: {} },
  { type: 'PatchPod', pod: ref(name), reason: 'InPlaceUpdate', patch: {} },
];
const lifecycle: Action = { type: 'PatchPod', pod: ref('web-d'), reason: 'LifecycleTransition', patch: {} };
const pod = (name: string) =>
  ({ metadata: { name, namespace: 'ns' }, spec: { containers: [] } }) as unknown as Pod;
const pods = ['web-a', 'web-b', 'web-c', 'web-d'].map(pod);
const plan = {
  actions: [...start('web-a'), lifecycle, ...start('web-b'), ...start('web-c')],
  requeueAfterSeconds: 30,
};

describe('withPubCheck', () => {
  it('names the pods whose update starts, in plan order', () => {
    expect(podsUpdated(plan.actions)).toEqual(['web-a', 'web-b', 'web-c']);
  });

  it('every update allowed: the plan is unchanged and each pod was asked once, in order', async () => {
    const asked: string[] = [];
    const out = await withPubCheck(plan, pods, (p) => {
      asked.push(p.metadata.name ?? '');
      return Promise.resolve(true);
    });
    expect(out).toEqual({ plan });
    expect(asked).toEqual(['web-a', 'web-b', 'web-c']);
  });

  it('the budget refuses web-b: web-a updates, web-b and web-c wait (web-c not asked), other writes stay, 1 s requeue', async () => {
    const asked: string[] = [];
    const out = await withPubCheck(plan, pods, (p) => {
      asked.push(p.metadata.name ?? '');
      return Promise.resolve(p.metadata.name !== 'web-b');
    });
    expect(asked).toEqual(['web-a', 'web-b']);
    expect(out).toEqual({
      plan: { actions: [...start('web-a'), lifecycle], requeueAfterSeconds: 1 },
      refused: 'web-b',
    });
  });
});
