/**
 * A fleet beyond one watch run's connection budget split into slices (lib/source/watchSlices.ts): what starts a run, and
 * the split.
 */
import { describe, expect, it } from '@jest/globals';
import {
  MAX_SLICE_CLUSTERS,
  WATCH_SLICE_DETAIL_TYPE,
  watchSlices,
  watchTrigger,
} from '../../../lib/source/watchSlices.js';

const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `c${String(i).padStart(3, '0')}`);
const sliceEvent = (detail: unknown) => ({
  version: '0',
  id: 'e-1',
  source: 'kruiseless',
  'detail-type': WATCH_SLICE_DETAIL_TYPE,
  detail,
});

describe('watchTrigger', () => {
  it('the schedule rule’s event, none, or another event is the schedule', () => {
    const scheduled = { source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} };
    for (const e of [
      scheduled,
      undefined,
      null,
      'x',
      { source: 'kruiseless', 'detail-type': 'Reconcile Requested' },
    ])
      expect(watchTrigger(e)).toEqual({ kind: 'scheduled' });
  });

  it('a slice event names its clusters and its sender', () => {
    expect(watchTrigger(sliceEvent({ clusters: ['b', 'a'], sentBy: 'req-1' }))).toEqual({
      kind: 'slice',
      detail: { clusters: ['b', 'a'], sentBy: 'req-1' },
    });
  });

  it('a slice event with a bad detail is refused with the field and why', () => {
    expect(watchTrigger(sliceEvent({ clusters: [] }))).toEqual({
      kind: 'invalid',
      error: 'detail.clusters: Too small: expected array to have >=1 items',
    });
    expect(watchTrigger(sliceEvent({ clusters: ['a', 7] }))).toEqual({
      kind: 'invalid',
      error: 'detail.clusters.1: Invalid input: expected string, received number',
    });
    expect(watchTrigger(sliceEvent({ clusters: ['a'], extra: true }))).toMatchObject({ kind: 'invalid' });
    expect(watchTrigger(sliceEvent(undefined))).toEqual({
      kind: 'invalid',
      error: 'detail: Invalid input: expected object, received undefined',
    });
    expect(watchTrigger(sliceEvent({ clusters: names(MAX_SLICE_CLUSTERS + 1) }))).toMatchObject({
      kind: 'invalid',
    });
  });
});

describe('watchSlices', () => {
  it('sorts by name and cuts every floor(budget / streams) clusters: 100 at 17 streams and 800 → 47, 47, 6', () => {
    const fleet = names(100).reverse();
    const slices = watchSlices(fleet, 17, 800);
    expect(slices.map((s) => s.length)).toEqual([47, 47, 6]);
    expect(slices.flat()).toEqual(names(100));
    expect(slices[1]?.[0]).toBe('c047');
  });

  it('one slice when the fleet fits; none for no cluster; one cluster a slice when a cluster alone is over', () => {
    expect(watchSlices(names(47), 17, 800)).toEqual([names(47)]);
    expect(watchSlices([], 17, 800)).toEqual([]);
    expect(watchSlices(['b', 'a'], 900, 800)).toEqual([['a'], ['b']]);
  });
});
