import { describe, expect, it } from '@jest/globals';
import { coalesce, type ReconcileReason, type ReconcileRequest } from '../../../lib/events/index.js';

function req(
  name: string,
  reason: ReconcileReason,
  resourceVersion?: string,
  cluster = 'c1',
): ReconcileRequest {
  return {
    version: 1,
    cluster,
    namespace: 'default',
    name,
    reason,
    ...(resourceVersion ? { resourceVersion } : {}),
  };
}

describe('coalesce', () => {
  it('keeps one request per CloneSet key, at the position of its first appearance', () => {
    const out = coalesce([
      req('a', 'PodChanged'),
      req('b', 'PodChanged'),
      req('a', 'PodChanged'),
      req('c', 'Resync'),
    ]);
    expect(out.map((r) => r.name)).toEqual(['a', 'b', 'c']);
  });

  it('treats the same namespace/name in another cluster as another key', () => {
    expect(
      coalesce([req('a', 'PodChanged', undefined, 'c1'), req('a', 'PodChanged', undefined, 'c2')]),
    ).toHaveLength(2);
  });

  it.each<[ReconcileReason[], ReconcileReason]>([
    [['Resync', 'PodChanged'], 'PodChanged'],
    [['PodChanged', 'CloneSetChanged', 'PVCChanged'], 'CloneSetChanged'],
    [['PVCChanged', 'PodChanged'], 'PodChanged'],
    [['Resync', 'PVCChanged'], 'PVCChanged'],
    [['Resync', 'Requeue'], 'Requeue'],
    [['Requeue', 'Resync'], 'Requeue'],
    [['Requeue', 'PVCChanged'], 'PVCChanged'],
  ])('reasons %j coalesce to %s', (reasons, expected) => {
    expect(coalesce(reasons.map((r) => req('a', r)))).toEqual([req('a', expected)]);
  });

  it('keeps the numerically highest resourceVersion, not the lexically highest', () => {
    expect(
      coalesce([
        req('a', 'PodChanged', '999'),
        req('a', 'PodChanged', '1000'),
        req('a', 'PodChanged', '998'),
      ]),
    ).toEqual([req('a', 'PodChanged', '1000')]);
  });

  it('compares resourceVersions beyond 2^53 exactly', () => {
    const out = coalesce([
      req('a', 'PodChanged', '9007199254740993'),
      req('a', 'PodChanged', '9007199254740992'),
    ]);
    expect(out[0].resourceVersion).toBe('9007199254740993');
  });

  it('takes the later resourceVersion when one is not numeric', () => {
    expect(
      coalesce([req('a', 'PodChanged', '12'), req('a', 'PodChanged', 'opaque-7')])[0].resourceVersion,
    ).toBe('opaque-7');
    expect(
      coalesce([req('a', 'PodChanged', 'opaque-7'), req('a', 'PodChanged', '12')])[0].resourceVersion,
    ).toBe('12');
  });

  it('keeps a resourceVersion seen on any request of the key', () => {
    expect(coalesce([req('a', 'Resync'), req('a', 'PodChanged', '5'), req('a', 'Requeue')])).toEqual([
      req('a', 'PodChanged', '5'),
    ]);
  });

  it('merges reason and resourceVersion independently', () => {
    expect(coalesce([req('a', 'CloneSetChanged', '3'), req('a', 'PodChanged', '8')])).toEqual([
      req('a', 'CloneSetChanged', '8'),
    ]);
  });

  it('does not modify its input', () => {
    const input = [req('a', 'Resync', '1'), req('a', 'PodChanged', '2')];
    const copy = structuredClone(input);
    coalesce(input);
    expect(input).toEqual(copy);
  });

  it('returns an empty array for no requests', () => {
    expect(coalesce([])).toEqual([]);
  });
});
