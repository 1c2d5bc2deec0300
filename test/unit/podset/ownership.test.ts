/**
 * Claiming a workload's pods (lib/podset/ownership.ts, docs/behaviour/cloneset.md#ownership): OpenKruise's
 * TestClaimPods (scenario 51, docs/behaviour/scenarios.md#s51) and C21, for the CloneSet `default/foo` of the test
 * fixtures as the owner.
 */
import type { OwnerReference, Pod } from '../../../lib/api/types.js';
import { claimPods, type PodClaimer } from '../../../lib/podset/ownership.js';
import { CS_UID, P } from '../support/fixtures.js';

const OWNER: OwnerReference = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  name: 'foo',
  uid: CS_UID,
  controller: true,
  blockOwnerDeletion: true,
};

/** The owner selecting `type=production`. */
const production: PodClaimer = {
  controllerRef: OWNER,
  selector: { matchLabels: { type: 'production' } },
  deleting: false,
};
/** The owner selecting `app=foo` (the fixtures' CloneSet). */
const byApp: PodClaimer = {
  controllerRef: OWNER,
  selector: { matchLabels: { app: 'foo' } },
  deleting: false,
};

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
    const res = claimPods(production, [pod2, pod1]);
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
    const res = claimPods(production, [pod3, pod4]);
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

  it('adopts a pod holding only a non-controller reference to the owner', () => {
    const p = bare('p', { type: 'production' }, CS_UID, false);
    expect(claimPods(production, [p]).actions.map((a) => a.type === 'PatchPod' && a.patch)).toEqual([
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
    const res = claimPods(production, [other, failed, terminating, b, a]);
    expect(res.claimed.map((p) => p.metadata.name)).toEqual(['a', 'b']);
    expect(res.actions).toEqual([]);
  });

  it('neither releases nor adopts while the owner is being deleted (docs/behaviour/cloneset.md#edge-deletion)', () => {
    const owned = bare('owned', { type: 'production' }, CS_UID);
    const res = claimPods({ ...production, deleting: true }, [
      owned,
      bare('drifted', {}, CS_UID),
      bare('orphan', { type: 'production' }),
    ]);
    expect(res.claimed).toEqual([owned]);
    expect(res.actions).toEqual([]);
  });

  it('C21: removing the app label releases sample-a; adding it back does not re-adopt a pod without a reference', () => {
    const drifted = bare('sample-a', {}, CS_UID);
    expect(claimPods(byApp, [drifted]).actions.map((a) => a.type === 'PatchPod' && a.reason)).toEqual([
      'ReleaseOwnership',
    ]);
    // after the release the pod has no owner reference; the caller lists pods by owner UID, so it never
    // reaches claimPods
  });
});

describe('claimPods with a member filter and inactive pods (an Advanced StatefulSet: Kubernetes ClaimPods)', () => {
  const members: PodClaimer = {
    ...production,
    isMember: (p) => /^web-\d+$/.test(p.metadata.name ?? ''),
    includeInactive: true,
  };
  it('adopts only a member orphan, releases a controlled pod the filter refuses, keeps inactive pods it controls', () => {
    const orphan = bare('web-1', { type: 'production' });
    const stranger = bare('db-0', { type: 'production' });
    const renamed = bare('cache-0', { type: 'production' }, CS_UID);
    const terminating = bare('web-0', { type: 'production' }, CS_UID);
    terminating.metadata.deletionTimestamp = '2024-05-01T07:00:00Z';
    const terminatingOrphan = bare('web-2', { type: 'production' });
    terminatingOrphan.metadata.deletionTimestamp = '2024-05-01T07:00:00Z';
    const res = claimPods(members, [orphan, stranger, renamed, terminating, terminatingOrphan]);
    expect(res.claimed.map((p) => p.metadata.name)).toEqual(['web-0', 'web-1']);
    expect(res.actions).toEqual([
      {
        type: 'PatchPod',
        pod: { name: 'cache-0', uid: 'uid-cache-0' },
        reason: 'ReleaseOwnership',
        patch: { metadata: { ownerReferences: [{ $patch: 'delete', uid: CS_UID }] } },
      },
      {
        type: 'PatchPod',
        pod: { name: 'web-1', uid: 'uid-web-1' },
        reason: 'ReleaseOwnership',
        patch: { metadata: { ownerReferences: [OWNER] } },
      },
    ]);
  });
});
