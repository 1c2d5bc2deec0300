/**
 * OnDelete, reachable through v1beta1 (docs/behaviour/cloneset.md#api-fields,
 * docs/behaviour/cloneset.md#v1beta1-mapping): scenario 80 of docs/behaviour/scenarios.md#scenarios and the
 * OnDelete variant of C24. (Once a known bug: the planner's validation rejected OnDelete; it now validates
 * with `allowOnDelete`.)
 */
import { fromV1beta1, toV1beta1 } from '../../../lib/controllers/cloneset/api/versionMapping.js';
import type { CloneSet } from '../../../lib/api/types.js';
import { World } from '../support/world.js';
import { countRev, ipur, names, revOf, sample, setImage, updateRev } from './helpers.js';

const IDS = 'abcdefghijklmnopqrstuvwxyz'.split('');

/** A v1beta1 `type: OnDelete` CloneSet as the controller sees it (converted to v1alpha1). */
function onDelete(replicas: number): CloneSet {
  const beta = toV1beta1(sample({ replicas, progressDeadlineSeconds: 600 }));
  beta.spec.updateStrategy = { type: 'OnDelete' };
  return fromV1beta1(beta);
}

describe('OnDelete (v1beta1)', () => {
  test('80: image change updates nothing; deleted pods come back at the new revision; scale-in removes old pods first', () => {
    const w = new World(onDelete(5)).useIds(...IDS);
    w.settle();
    expect(w.plans.every((p) => p.validationErrors.length === 0)).toBe(true);
    const r1 = updateRev(w);
    w.edit((c) => setImage(c, 'v2'));
    w.settle();
    const r2 = updateRev(w);
    expect(w.cloneSet.status!.updatedReplicas).toBe(0);
    expect(countRev(w, r1)).toBe(5);

    w.deletePod('sample-a');
    w.deletePod('sample-b');
    w.settle();
    expect(w.cloneSet.status!.updatedAvailableReplicas).toBe(2);

    w.edit((c) => (c.spec.replicas = 3));
    w.settle();
    expect([w.cloneSet.status!.readyReplicas, w.cloneSet.status!.updatedAvailableReplicas]).toEqual([3, 2]);
    expect([countRev(w, r1), countRev(w, r2)]).toEqual([1, 2]);

    w.edit((c) => (c.spec.replicas = 5));
    w.settle();
    expect(w.cloneSet.status!.updatedAvailableReplicas).toBe(4);

    const lastOld = w.activePods().find((p) => revOf(p) === r1)!.metadata.name!;
    w.deletePod(lastOld);
    w.settle();
    expect(w.cloneSet.status!.updatedReplicas).toBe(5);
    expect(w.cloneSet.status!.conditions?.find((c) => c.type === 'Progressing')?.reason).toBe(
      'CloneSetAvailable',
    );
    expect(names(w)).not.toContain(lastOld);
  });

  test('C24 (OnDelete): a replacement pod gets InPlaceUpdateReady=True and readyReplicas recovers to 2', () => {
    const w = new World(onDelete(2)).useIds(...IDS);
    w.settle();
    expect(w.cloneSet.status!.readyReplicas).toBe(2);
    w.deletePod('sample-a');
    w.settle();
    expect(ipur(w.pod('sample-c'))).toBe('True');
    expect(w.cloneSet.status!.readyReplicas).toBe(2);
  });
});
