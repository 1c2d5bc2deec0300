/**
 * The sources' mapping of a changed object to the v2 reconcile request of its CloneSet through the CloneSet
 * registration's watch specs (docs/architecture.md#lib-source).
 */
import { describe, expect, it } from '@jest/globals';
import { handleAdmissionReview } from '../../../lib/source/admission.js';
import {
  requestForObject,
  watchStreams,
  type ForWatch,
  type OwnsWatch,
} from '../../../lib/source/watchSpec.js';
import { cloneSet } from '../../../lib/controllers/cloneset/index.js';
import { reviewBody } from '../support/admissionReview.js';

const STREAMS = watchStreams([cloneSet]);
const FOR: ForWatch = { type: 'For' };
/** The Owns watch of a kind (pods or PVCs) in the CloneSet registration. */
function owns(kind: string): OwnsWatch {
  const spec = cloneSet.watches.find((w) => w.type === 'Owns' && w.resource.kind === kind);
  if (spec?.type !== 'Owns') throw new Error(`no Owns watch of ${kind}`);
  return spec;
}

const owner = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  name: 'web',
  uid: 'u1',
  controller: true,
};

describe('requestForObject', () => {
  it('maps a CloneSet to its own key with ObjectChanged', () => {
    const cs = { metadata: { namespace: 'shop', name: 'web', resourceVersion: '7' } };
    expect(requestForObject('prod', cloneSet, FOR, cs)).toEqual({
      version: 2,
      cluster: 'prod',
      kind: 'apps.kruise.io/CloneSet',
      namespace: 'shop',
      name: 'web',
      reason: 'ObjectChanged',
      resourceVersion: '7',
    });
  });

  it('maps a pod or PVC to the key of its controller CloneSet with OwnedObjectChanged', () => {
    for (const kind of ['Pod', 'PersistentVolumeClaim'] as const) {
      const obj = { metadata: { namespace: 'shop', name: 'web-abcde', ownerReferences: [owner] } };
      expect(requestForObject('prod', cloneSet, owns(kind), obj)).toEqual({
        version: 2,
        cluster: 'prod',
        kind: 'apps.kruise.io/CloneSet',
        namespace: 'shop',
        name: 'web',
        reason: 'OwnedObjectChanged',
      });
    }
  });

  it('maps a pod of another controller, or without a namespace, to nothing', () => {
    const rs = { ...owner, apiVersion: 'apps/v1', kind: 'ReplicaSet' };
    expect(
      requestForObject('prod', cloneSet, owns('Pod'), {
        metadata: { namespace: 'shop', ownerReferences: [rs] },
      }),
    ).toBeUndefined();
    expect(
      requestForObject('prod', cloneSet, owns('Pod'), { metadata: { ownerReferences: [owner] } }),
    ).toBeUndefined();
  });
});

describe('handleAdmissionReview', () => {
  it('turns a pod write into the v2 request of its CloneSet, the namespace taken from the review', () => {
    const review = reviewBody({
      uid: 'r1',
      kind: { group: '', version: 'v1', kind: 'Pod' },
      namespace: 'shop',
      operation: 'CREATE',
      object: { metadata: { generateName: 'web-', ownerReferences: [owner] } },
    });
    expect(handleAdmissionReview('prod', review, STREAMS).requests).toEqual([
      {
        version: 2,
        cluster: 'prod',
        kind: 'apps.kruise.io/CloneSet',
        namespace: 'shop',
        name: 'web',
        reason: 'OwnedObjectChanged',
      },
    ]);
  });
});
