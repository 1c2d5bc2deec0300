/**
 * Ownership (docs/behaviour/cloneset.md#ownership): TestClaimPods (scenario 51,
 * docs/behaviour/scenarios.md#s51), TestCleanupPVCs (scenario 53) and C21.
 */
import type { CloneSet, Pod } from '../../../lib/api/types.js';
import { claimPods, cleanupPVCs } from '../../../lib/cloneset/ownership.js';
import { cloneSet, CS_UID, P, pvc } from '../support/fixtures.js';

const OWNER = {
  apiVersion: 'apps.kruise.io/v1alpha1',
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

function bare(name: string, labels: Record<string, string>, ownerUid?: string, controller = true): Pod {
  const p = P('r', 'Normal', true, false, { name, labels, ...(ownerUid !== undefined ? { ownerUid } : {}) });
  delete p.metadata.labels?.['controller-revision-hash'];
  delete p.metadata.labels?.['lifecycle.apps.kruise.io/state'];
  if (!controller && p.metadata.ownerReferences) p.metadata.ownerReferences[0].controller = false;
  return p;
}

describe('claimPods (scenario 51, docs/behaviour/scenarios.md#s51)', () => {
  it('(a) claims the matching controlled pod and releases the one that stopped matching', () => {
    const pod1 = bare('pod1', { type: 'production' }, CS_UID);
    const pod2 = bare('pod2', {}, CS_UID);
    const res = claimPods(production(), [pod2, pod1]);
    expect(res.claimed).toEqual([pod1]);
    expect(res.actions).toEqual([
      {
        type: 'PatchPod',
        pod: { name: 'pod2', uid: 'uid-pod2' },
        reason: 'ReleaseOwnership',
        patch: { metadata: { ownerReferences: [{ $patch: 'delete', uid: CS_UID }] } },
      },
    ]);
  });

  it('(b) adopts a matching pod without a controller reference', () => {
    const pod3 = bare('pod3', { type: 'production' });
    const pod4 = bare('pod4', {});
    const res = claimPods(production(), [pod3, pod4]);
    expect(res.claimed).toEqual([pod3]);
    expect(res.actions).toEqual([
      {
        type: 'PatchPod',
        pod: { name: 'pod3', uid: 'uid-pod3' },
        reason: 'ReleaseOwnership',
        patch: { metadata: { ownerReferences: [OWNER] } },
      },
    ]);
  });

  it('adopts a pod holding only a non-controller reference to the CloneSet', () => {
    const p = bare('p', { type: 'production' }, CS_UID, false);
    expect(claimPods(production(), [p]).actions.map((a) => a.type === 'PatchPod' && a.patch)).toEqual([
      { metadata: { ownerReferences: [OWNER] } },
    ]);
  });

  it('ignores pods controlled by another owner and inactive pods; sorts claimed pods by name', () => {
    const other = bare('other', { type: 'production' }, 'someone-else');
    const failed = bare('failed', { type: 'production' }, CS_UID);
    failed.status = { phase: 'Failed' };
    const terminating = bare('terminating', { type: 'production' }, CS_UID);
    terminating.metadata.deletionTimestamp = '2024-05-01T07:00:00Z';
    const b = bare('b', { type: 'production' }, CS_UID);
    const a = bare('a', { type: 'production' }, CS_UID);
    const res = claimPods(production(), [other, failed, terminating, b, a]);
    expect(res.claimed.map((p) => p.metadata.name)).toEqual(['a', 'b']);
    expect(res.actions).toEqual([]);
  });

  it('neither releases nor adopts while the CloneSet is being deleted (docs/behaviour/cloneset.md#edge-deletion)', () => {
    const cs = production();
    cs.metadata.deletionTimestamp = '2024-05-01T07:00:00Z';
    const owned = bare('owned', { type: 'production' }, CS_UID);
    const res = claimPods(cs, [owned, bare('drifted', {}, CS_UID), bare('orphan', { type: 'production' })]);
    expect(res.claimed).toEqual([owned]);
    expect(res.actions).toEqual([]);
  });

  it('C21: removing the app label releases sample-a; adding it back does not re-adopt a pod without a reference', () => {
    const cs = cloneSet(3);
    const drifted = bare('sample-a', {}, CS_UID);
    expect(claimPods(cs, [drifted]).actions.map((a) => a.type === 'PatchPod' && a.reason)).toEqual([
      'ReleaseOwnership',
    ]);
    // after the release the pod has no owner reference; the caller lists pods by owner UID, so it never
    // reaches claimPods
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
