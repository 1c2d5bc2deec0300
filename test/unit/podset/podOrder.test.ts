/**
 * The one active-pods comparator behind both the scale-in victim order and the update order: the optional steps
 * (deletion cost, availability, rank) are what tell OpenKruise's `ActivePodsWithRanks.Less` from Kubernetes'
 * `ActivePods.Less`.
 */
import type { Pod } from '../../../lib/api/types.js';
import {
  activePodKey,
  activePodsLess,
  compareActivePodKeys,
  comparePodsForDeletion,
  stableSortBy,
} from '../../../lib/podset/podOrder.js';

const pod = (name: string, extra: { cost?: string; node?: string } = {}): Pod => ({
  metadata: {
    name,
    ...(extra.cost ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': extra.cost } } : {}),
  },
  spec: { containers: [], ...(extra.node ? { nodeName: extra.node } : {}) },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
});

describe('podOrder', () => {
  it('deletion cost orders scale-in victims but not update candidates', () => {
    const cheap = pod('cheap', { cost: '-5' });
    const dear = pod('dear', { cost: '7' });
    expect(comparePodsForDeletion(cheap, dear)).toBeLessThan(0);
    expect(comparePodsForDeletion(dear, cheap)).toBeGreaterThan(0);
    expect(activePodsLess(cheap, dear)).toBe(false);
    expect(activePodsLess(dear, cheap)).toBe(false);
  });

  it('rank and availability steps apply only when given', () => {
    const a = pod('a');
    const b = pod('b');
    expect(compareActivePodKeys(activePodKey(a), activePodKey(b))).toBe(0);
    const ranks = new Map([[b, 2]]);
    expect(compareActivePodKeys(activePodKey(a, { ranks }), activePodKey(b, { ranks }))).toBeGreaterThan(0);
    const available = (p: Pod) => p === a;
    expect(
      compareActivePodKeys(activePodKey(a, { available }), activePodKey(b, { available })),
    ).toBeGreaterThan(0);
  });

  it('stableSortBy keeps the input order of ties and does not modify the input', () => {
    const pods = [pod('x', { node: 'n' }), pod('y'), pod('z', { node: 'n' }), pod('w')];
    const sorted = stableSortBy(pods, (p) => activePodKey(p), compareActivePodKeys);
    expect(sorted.map((p) => p.metadata.name)).toEqual(['y', 'w', 'x', 'z']);
    expect(pods.map((p) => p.metadata.name)).toEqual(['x', 'y', 'z', 'w']);
  });
});
