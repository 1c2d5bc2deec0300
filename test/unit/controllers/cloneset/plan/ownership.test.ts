/**
 * A CloneSet's ownership (docs/behaviour/cloneset.md#ownership): the CloneSet as the claimer of its pods (the claim
 * itself, TestClaimPods and C21, is test/unit/podset/ownership.test.ts) and TestCleanupPVCs (scenario 53,
 * docs/behaviour/scenarios.md#s53).
 */
import type { CloneSet } from '../../../../../lib/api/types.js';
import { cleanupPVCs, cloneSetPodClaimer } from '../../../../../lib/controllers/cloneset/plan/ownership.js';
import { cloneSet, CS_UID, P, pvc } from '../../../support/fixtures.js';

const OWNER = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'CloneSet',
  name: 'foo',
  uid: CS_UID,
  controller: true,
  blockOwnerDeletion: true,
};

function production(): CloneSet {
  const cs = cloneSet(1);
  cs.spec.selector = { matchLabels: { type: 'production' } };
  return cs;
}

describe('cloneSetPodClaimer (docs/behaviour/cloneset.md#ownership)', () => {
  it('claims by the CloneSet controller reference (UID) and selector, deleting while deletionTimestamp is set', () => {
    const cs = production();
    expect(cloneSetPodClaimer(cs)).toEqual({
      controllerRef: OWNER,
      selector: { matchLabels: { type: 'production' } },
      deleting: false,
    });
    cs.metadata.deletionTimestamp = '2024-05-01T07:00:00Z';
    expect(cloneSetPodClaimer(cs).deleting).toBe(true);
  });
});

describe('cleanupPVCs (scenario 53, docs/behaviour/scenarios.md#s53)', () => {
  const cs = () => {
    const c = cloneSet(3);
    c.spec.scaleStrategy = { disablePVCReuse: true };
    return c;
  };
  const withId = (id: string, terminating: boolean) =>
    P('r', 'Normal', true, false, {
      name: `pod-${id}`,
      instanceId: id,
      ...(terminating ? { deletionTimestamp: '2024-05-01T07:59:00Z' } : {}),
    });

  it('keeps PVCs of active pods, re-owns PVCs of terminating pods to the pod, deletes none', () => {
    const pods = ['0', '1', '2', '3', '4'].map((id) => withId(id, id === '0' || id === '1'));
    const pvcs = ['0', '1', '2', '3', '4'].map((id) => pvc(id));
    const res = cleanupPVCs(cs(), pods, pvcs);
    expect(res.keep.map((c) => c.metadata.name)).toEqual(['datadir-foo-2', 'datadir-foo-3', 'datadir-foo-4']);
    expect(res.actions).toEqual(
      ['0', '1'].map((id) => ({
        type: 'PatchPVCOwner',
        name: `datadir-foo-${id}`,
        uid: `uid-pvc-datadir-${id}`,
        ownerReferences: [
          {
            apiVersion: 'v1',
            kind: 'Pod',
            name: `pod-${id}`,
            uid: `uid-pod-${id}`,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      })),
    );
  });

  it('deletes PVCs whose pod is gone, after the owner changes', () => {
    const res = cleanupPVCs(cs(), [withId('1', true)], [pvc('9'), pvc('1')]);
    expect(res.keep).toEqual([]);
    expect(res.actions.map((a) => [a.type, 'name' in a ? a.name : ''])).toEqual([
      ['PatchPVCOwner', 'datadir-foo-1'],
      ['DeletePVC', 'datadir-foo-9'],
    ]);
  });

  it('keeps other owner references and does not add the pod twice', () => {
    const c = pvc('1');
    c.metadata.ownerReferences = [
      ...(c.metadata.ownerReferences ?? []),
      { apiVersion: 'v1', kind: 'Pod', name: 'pod-1', uid: 'uid-pod-1', controller: false },
    ];
    const res = cleanupPVCs(cs(), [withId('1', true)], [c]);
    expect(res.actions).toEqual([
      {
        type: 'PatchPVCOwner',
        name: 'datadir-foo-1',
        uid: 'uid-pvc-datadir-1',
        ownerReferences: [
          { apiVersion: 'v1', kind: 'Pod', name: 'pod-1', uid: 'uid-pod-1', controller: false },
        ],
      },
    ]);
  });

  it('does nothing when PVC reuse is enabled (the default)', () => {
    const pvcs = [pvc('9')];
    expect(cleanupPVCs(cloneSet(1), [], pvcs)).toEqual({ keep: pvcs, actions: [] });
  });

  it('ignores pods without an instance id', () => {
    const p = P('r', 'Normal', true, false, { name: 'x' });
    expect(cleanupPVCs(cs(), [p], [pvc('1')]).actions.map((a) => a.type)).toEqual(['DeletePVC']);
  });
});
