import { describe, expect, it } from '@jest/globals';
import { coalesce, type ReconcileReason, type ReconcileRequest } from '../../../lib/requests/index.js';
import { readScopeFor } from '../../../lib/controllers/cloneset/pass.js';
import { startingFloors } from '../../../lib/reconcile/reconcile.js';
import { ListFloors } from '../../../lib/kube/listFloors.js';
import { RESOURCES } from '../../../lib/kube/resources.js';

function req(
  name: string,
  reason: ReconcileReason,
  resourceVersion?: string,
  cluster = 'c1',
  kind = 'apps.kruise.io/CloneSet',
): ReconcileRequest {
  return {
    version: 2,
    cluster,
    kind,
    namespace: 'default',
    name,
    reason,
    ...(resourceVersion ? { resourceVersion } : {}),
  };
}

describe('coalesce', () => {
  it('keeps one request per object key, at the position of its first appearance', () => {
    const out = coalesce([
      req('a', 'OwnedObjectChanged'),
      req('b', 'OwnedObjectChanged'),
      req('a', 'OwnedObjectChanged'),
      req('c', 'Resync'),
    ]);
    expect(out.map((r) => r.name)).toEqual(['a', 'b', 'c']);
  });

  it('treats the same namespace/name in another cluster as another key', () => {
    expect(
      coalesce([
        req('a', 'OwnedObjectChanged', undefined, 'c1'),
        req('a', 'OwnedObjectChanged', undefined, 'c2'),
      ]),
    ).toHaveLength(2);
  });

  it('treats the same namespace/name of another kind, or a cluster-scoped key of that name, as another key', () => {
    const cloneSet = req('a', 'ObjectChanged');
    const job = req('a', 'ObjectChanged', undefined, 'c1', 'apps.kruise.io/BroadcastJob');
    const { namespace: _, ...clusterScoped } = req(
      'a',
      'ObjectChanged',
      undefined,
      'c1',
      'apps.kruise.io/ResourceDistribution',
    );
    expect(coalesce([cloneSet, job, clusterScoped, job, cloneSet])).toEqual([cloneSet, job, clusterScoped]);
  });

  it.each<[ReconcileReason[], ReconcileReason]>([
    [['OwnedObjectChanged', 'Resync'], 'Resync'],
    [['Resync', 'ObjectChanged'], 'Resync'],
    [['OwnedObjectChanged', 'ObjectChanged', 'MappedObjectChanged'], 'ObjectChanged'],
    [['MappedObjectChanged', 'OwnedObjectChanged'], 'OwnedObjectChanged'],
    [['Resync', 'MappedObjectChanged'], 'Resync'],
    [['Resync', 'Requeue'], 'Resync'],
    [['Requeue', 'Resync'], 'Resync'],
    [['Requeue', 'MappedObjectChanged'], 'MappedObjectChanged'],
  ])('reasons %j coalesce to %s', (reasons, expected) => {
    expect(coalesce(reasons.map((r) => req('a', r)))).toEqual([req('a', expected)]);
  });

  it('keeps the numerically highest resourceVersion, not the lexically highest', () => {
    expect(
      coalesce([
        req('a', 'OwnedObjectChanged', '999'),
        req('a', 'OwnedObjectChanged', '1000'),
        req('a', 'OwnedObjectChanged', '998'),
      ]),
    ).toEqual([req('a', 'OwnedObjectChanged', '1000')]);
  });

  it('compares resourceVersions beyond 2^53 exactly', () => {
    const out = coalesce([
      req('a', 'OwnedObjectChanged', '9007199254740993'),
      req('a', 'OwnedObjectChanged', '9007199254740992'),
    ]);
    expect(out[0].resourceVersion).toBe('9007199254740993');
  });

  it('takes the later resourceVersion when one is not numeric', () => {
    expect(
      coalesce([req('a', 'OwnedObjectChanged', '12'), req('a', 'OwnedObjectChanged', 'opaque-7')])[0]
        .resourceVersion,
    ).toBe('opaque-7');
    expect(
      coalesce([req('a', 'OwnedObjectChanged', 'opaque-7'), req('a', 'OwnedObjectChanged', '12')])[0]
        .resourceVersion,
    ).toBe('12');
  });

  it('keeps a resourceVersion seen on any request of the key', () => {
    expect(coalesce([req('a', 'Requeue'), req('a', 'OwnedObjectChanged', '5'), req('a', 'Requeue')])).toEqual(
      [req('a', 'OwnedObjectChanged', '5')],
    );
  });

  it('never narrows a read: a Resync with a change still reads as a Resync (every PVC, by quorum)', () => {
    const merged = coalesce([req('a', 'Resync'), req('a', 'OwnedObjectChanged', '5'), req('a', 'Requeue')]);
    expect(merged).toEqual([req('a', 'Resync', '5')]);
    expect(readScopeFor(merged[0].reason)).toBe('full');
    const kept = new ListFloors();
    kept.note(RESOURCES.pods, '4', true, Date.now());
    expect(startingFloors(kept.carried(), merged[0]).carried()).toBeUndefined(); // a quorum read
    expect(startingFloors(kept.carried(), req('a', 'OwnedObjectChanged', '5')).carried()).toBeDefined();
  });

  it('merges reason and resourceVersion independently', () => {
    expect(coalesce([req('a', 'ObjectChanged', '3'), req('a', 'OwnedObjectChanged', '8')])).toEqual([
      req('a', 'ObjectChanged', '8'),
    ]);
  });

  it('does not modify its input', () => {
    const input = [req('a', 'Resync', '1'), req('a', 'OwnedObjectChanged', '2')];
    const copy = structuredClone(input);
    coalesce(input);
    expect(input).toEqual(copy);
  });

  it('returns an empty array for no requests', () => {
    expect(coalesce([])).toEqual([]);
  });
});
