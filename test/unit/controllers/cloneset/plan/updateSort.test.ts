import type { Pod } from '../../../../../lib/api/types.js';
import { activePodsLess } from '../../../../../lib/podset/podOrder.js';
import { sortUpdateIndexes } from '../../../../../lib/controllers/cloneset/plan/sync/updateSort.js';

const labelled = (labels: Record<string, string>): Pod => ({
  metadata: { labels },
  spec: { containers: [] },
});

describe('sortUpdateIndexes (docs/behaviour/cloneset.md#update-phase)', () => {
  it('scenario 48: not-ready before ready, pending before running', () => {
    const pods: Pod[] = [
      {
        metadata: {},
        spec: { containers: [] },
        status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'True' }] },
      },
      { metadata: {}, spec: { containers: [] }, status: { phase: 'Pending' } },
      { metadata: {}, spec: { containers: [] }, status: { phase: 'Pending' } },
      {
        metadata: {},
        spec: { containers: [] },
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
      },
      { metadata: {}, spec: { containers: [] }, status: { phase: 'Running' } },
    ];
    expect(sortUpdateIndexes(pods, [0, 1, 3, 4], { type: 'ReCreate' })).toEqual([1, 0, 4, 3]);
  });

  it('PreparingUpdate pods come first, stable otherwise', () => {
    const pods = [
      labelled({}),
      labelled({ 'lifecycle.apps.kruise.io/state': 'PreparingUpdate' }),
      labelled({}),
    ];
    expect(sortUpdateIndexes(pods, [0, 1, 2], undefined)).toEqual([1, 0, 2]);
  });

  it('active-pods order: unscheduled, ready time, restarts, creation time', () => {
    const p = (o: Partial<Pod['status']> & { node?: string; created?: string; readyAt?: string }): Pod => ({
      metadata: { creationTimestamp: o.created },
      spec: { containers: [], nodeName: o.node },
      status: {
        phase: 'Running',
        conditions: o.readyAt ? [{ type: 'Ready', status: 'True', lastTransitionTime: o.readyAt }] : [],
        containerStatuses: o.containerStatuses,
      },
    });
    expect(activePodsLess(p({}), p({ node: 'n' }))).toBe(true);
    expect(
      activePodsLess(p({ readyAt: '2024-01-02T00:00:00Z' }), p({ readyAt: '2024-01-01T00:00:00Z' })),
    ).toBe(true);
    const restarts = (n: number) => [{ name: 'c', image: '', imageID: '', ready: true, restartCount: n }];
    expect(activePodsLess(p({ containerStatuses: restarts(3) }), p({ containerStatuses: restarts(1) }))).toBe(
      true,
    );
    expect(
      activePodsLess(p({ created: '2024-01-02T00:00:00Z' }), p({ created: '2024-01-01T00:00:00Z' })),
    ).toBe(true);
    expect(activePodsLess(p({}), p({ created: '2024-01-01T00:00:00Z' }))).toBe(true);
    expect(activePodsLess(p({}), p({}))).toBe(false);
  });

  it('applies the CloneSet scatterStrategy after the active-pods order (upstream TestSort "2 dimensions")', () => {
    const pods = [
      labelled({ labelB: 'BBB' }),
      labelled({ labelB: 'BBB' }),
      labelled({}),
      labelled({}),
      labelled({ labelA: 'AAA' }),
      labelled({ labelA: 'AAA' }),
    ];
    const terms = [
      { key: 'labelA', value: 'AAA' },
      { key: 'labelB', value: 'BBB' },
    ];
    expect(sortUpdateIndexes(pods, [0, 1, 2, 3, 4, 5], { scatterStrategy: terms })).toEqual([
      0, 4, 2, 3, 5, 1,
    ]);
  });
});
