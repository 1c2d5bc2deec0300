/**
 * PVC templates on the in-memory World: case C34 (docs/behaviour/scenarios.md#c34) (gate
 * RecreatePodWhenChangeVCTInCloneSetGate on and off), C36 and C37.
 */
import type { CloneSet, PersistentVolumeClaim } from '../../../lib/api/types.js';
import { World } from '../support/world.js';
import { idOf, imageOf, img, names, sample, setImage, uids, updateRev } from './helpers.js';

const IDS = 'abcdefghijklmnopqrstuvwxyz'.split('');

const vct = (name: string, size: string): PersistentVolumeClaim => ({
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } } },
});

/** `{ pvcName: storage }` of the World's PVCs. */
const sizes = (w: World): Record<string, string> =>
  Object.fromEntries(
    w.pvcs.map((p) => [
      p.metadata.name ?? '',
      (p.spec as { resources: { requests: { storage: string } } }).resources.requests.storage,
    ]),
  );

function c34(): CloneSet {
  const cs = sample({
    replicas: 2,
    updateStrategy: { type: 'InPlaceIfPossible' },
    volumeClaimTemplates: [vct('data-a', '1Gi'), vct('data-b', '1Gi')],
  });
  cs.spec.template.spec.containers[0].volumeMounts = [
    { name: 'data-a', mountPath: '/a' },
    { name: 'data-b', mountPath: '/b' },
  ];
  return cs;
}

describe('C34: volumeClaimTemplates changes and when pods are recreated', () => {
  test('C34 with the gate on: image + VCT recreates; VCT-only touches nothing; image-only recreates again; InPlaceOnly stays in place', () => {
    const w = new World(c34(), { gates: { recreatePodWhenChangeVCTInCloneSet: true } }).useIds(...IDS);
    w.settle();
    expect(sizes(w)).toEqual({
      'data-a-sample-a': '1Gi',
      'data-a-sample-b': '1Gi',
      'data-b-sample-a': '1Gi',
      'data-b-sample-b': '1Gi',
    });

    // 1. image v2 + data-a 2Gi → recreated with new ids; old PVCs gone
    w.edit((cs) => {
      setImage(cs, 'v2');
      cs.spec.volumeClaimTemplates![0] = vct('data-a', '2Gi');
    });
    w.settle();
    expect(names(w)).toEqual(['sample-c', 'sample-d']);
    expect(sizes(w)).toEqual({
      'data-a-sample-c': '2Gi',
      'data-a-sample-d': '2Gi',
      'data-b-sample-c': '1Gi',
      'data-b-sample-d': '1Gi',
    });
    const r2 = updateRev(w);
    const afterStep1 = uids(w);

    // 2. only data-b 2Gi → no new revision, nothing touched
    const revisionsBefore = w.revisions.length;
    w.edit((cs) => (cs.spec.volumeClaimTemplates![1] = vct('data-b', '2Gi')));
    w.settle();
    expect(updateRev(w)).toBe(r2);
    expect(w.revisions).toHaveLength(revisionsBefore);
    expect(uids(w)).toEqual(afterStep1);
    expect(sizes(w)['data-b-sample-c']).toBe('1Gi');

    // 3. image v3 only → recreated (the revision's VCT hash differs); every new PVC is 2Gi
    w.edit((cs) => setImage(cs, 'v3'));
    w.settle();
    expect(names(w)).toEqual(['sample-e', 'sample-f']);
    expect(Object.values(sizes(w))).toEqual(['2Gi', '2Gi', '2Gi', '2Gi']);
    expect(w.pvcs).toHaveLength(4);

    // 4. InPlaceOnly + image v4 + VCTs 3Gi → in place, PVCs untouched
    const afterStep3 = uids(w);
    const pvcsBefore = sizes(w);
    w.edit((cs) => {
      cs.spec.updateStrategy = { type: 'InPlaceOnly' };
      setImage(cs, 'v4');
      cs.spec.volumeClaimTemplates = [vct('data-a', '3Gi'), vct('data-b', '3Gi')];
    });
    w.settle();
    expect(uids(w)).toEqual(afterStep3);
    expect(w.activePods().map(imageOf)).toEqual([img('v4'), img('v4')]);
    expect(sizes(w)).toEqual(pvcsBefore);
  });

  test('C34 with the gate off (default): image + VCT change is made in place; PVCs stay 1Gi; only later pods get 2Gi', () => {
    const w = new World(c34()).useIds(...IDS);
    w.settle();
    const before = uids(w);
    w.edit((cs) => {
      setImage(cs, 'v2');
      cs.spec.volumeClaimTemplates![0] = vct('data-a', '2Gi');
    });
    w.settle();
    expect(uids(w)).toEqual(before);
    expect(w.activePods().map(imageOf)).toEqual([img('v2'), img('v2')]);
    expect(Object.values(sizes(w))).toEqual(['1Gi', '1Gi', '1Gi', '1Gi']);
    w.edit((cs) => (cs.spec.replicas = 3));
    w.settle();
    expect(sizes(w)['data-a-sample-c']).toBe('2Gi');
    expect(sizes(w)['data-b-sample-c']).toBe('1Gi');
  });
});

describe('C36: a terminating PVC must not block scaling', () => {
  test('C36: with data-sample-a terminating, scaling 3 → 6 creates 3 pods with fresh PVCs, none using data-sample-a', () => {
    const w = new World(sample({ volumeClaimTemplates: [vct('data', '1Gi')] })).useIds(...IDS);
    w.settle();
    w.pvcs.find((p) => p.metadata.name === 'data-sample-a')!.metadata.deletionTimestamp = w.now.toISOString();
    w.edit((cs) => (cs.spec.replicas = 6));
    w.settle();
    expect(w.activePods()).toHaveLength(6);
    expect(w.pvcs.map((p) => p.metadata.name).sort()).toEqual([
      'data-sample-a',
      'data-sample-b',
      'data-sample-c',
      'data-sample-d',
      'data-sample-e',
      'data-sample-f',
    ]);
    const claims = (n: string): string[] =>
      (w.pod(n).spec.volumes ?? []).map((v) => v.persistentVolumeClaim?.claimName ?? '');
    for (const n of ['sample-d', 'sample-e', 'sample-f']) {
      expect(claims(n)).toEqual([`data-${n}`]);
    }
    expect(w.cloneSet.status!.replicas).toBe(6);
  });
});

describe('C37: pod/PVC naming and the instance-id label', () => {
  test('C37: scaling 3 → 10 gives every pod sample-<id> a PVC data-sample-<id> with the same id label and a CloneSet owner', () => {
    const w = new World(sample({ volumeClaimTemplates: [vct('data', '1Gi')] }));
    w.settle();
    w.edit((cs) => (cs.spec.replicas = 10));
    w.settle();
    expect(w.activePods()).toHaveLength(10);
    expect(w.pvcs).toHaveLength(10);
    expect(new Set(w.activePods().map(idOf)).size).toBe(10);
    for (const p of w.activePods()) {
      const id = idOf(p);
      expect(p.metadata.name).toBe(`sample-${id}`);
      const claim = `data-sample-${id}`;
      expect(p.spec.volumes?.find((v) => v.name === 'data')?.persistentVolumeClaim?.claimName).toBe(claim);
      const pvc = w.pvcs.find((x) => x.metadata.name === claim)!;
      expect(pvc.metadata.labels).toEqual({ app: 'sample', 'apps.kruise.io/cloneset-instance-id': id });
      expect(pvc.metadata.ownerReferences?.[0]).toMatchObject({
        kind: 'CloneSet',
        name: 'sample',
        uid: 'uid-sample',
        controller: true,
      });
    }
  });

  test('C37: free PVC ids are reused first: a deleted pod is recreated under its old id and PVC', () => {
    const w = new World(sample({ volumeClaimTemplates: [vct('data', '1Gi')] })).useIds(...IDS);
    w.settle();
    w.deletePod('sample-b');
    w.settle();
    expect(names(w)).toEqual(['sample-a', 'sample-b', 'sample-c']);
    expect(w.pvcs).toHaveLength(3);
  });
});
