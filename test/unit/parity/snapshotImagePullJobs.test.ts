/**
 * The parity snapshot's image pre-download view (test/parity/snapshot.ts): the revisions' decision labels and the
 * ImagePullJobs the scenario's object controls and has not deleted.
 */
import type { ClusterState } from '../../parity/cluster.js';
import { statefulSet } from '../../parity/kinds/statefulset/index.js';
import { takeSnapshot } from '../../parity/snapshot.js';

const owner = (kind: string, controller = true) => ({ kind, name: 'db', controller });

const state: ClusterState = {
  object: { metadata: { name: 'db', generation: 2 }, spec: {}, status: {} },
  pods: [],
  pvcs: [],
  revisions: [
    {
      metadata: {
        name: 'db-2',
        ownerReferences: [{ ...owner('StatefulSet'), apiVersion: 'x', uid: 'u' }],
        labels: { 'apps.kruise.io/pre-predownload-created': 'true' },
      },
      revision: 2,
    },
    {
      metadata: {
        name: 'db-1',
        ownerReferences: [{ ...owner('StatefulSet'), apiVersion: 'x', uid: 'u' }],
        labels: { 'apps.kruise.io/image-predownload-ignored': 'true' },
      },
      revision: 1,
    },
  ],
  imagePullJobs: [
    {
      metadata: { name: 'db-2-main', labels: { app: 'db' }, ownerReferences: [owner('StatefulSet')] },
      spec: { image: 'nginx:2' },
    },
    {
      metadata: {
        name: 'gone',
        ownerReferences: [owner('StatefulSet')],
        deletionTimestamp: '2026-12-02T00:00:00Z',
      },
    },
    { metadata: { name: 'foreign', ownerReferences: [owner('CloneSet')] } },
    { metadata: { name: 'not-controlled', ownerReferences: [owner('StatefulSet', false)] } },
  ],
  events: [],
};

test('revisions show their pre-download label; only live jobs the object controls are kept', () => {
  const snap = takeSnapshot(statefulSet, state, new Set(), { maxPods: 0, minReady: 0 }, true);
  expect(snap.revisions).toEqual([
    'db-1 #1 apps.kruise.io/image-predownload-ignored',
    'db-2 #2 apps.kruise.io/pre-predownload-created',
  ]);
  expect(snap.imagePullJobs).toEqual([
    {
      name: 'db-2-main',
      labels: { app: 'db' },
      owners: ['StatefulSet/db controller=true'],
      spec: { image: 'nginx:2' },
    },
  ]);
});
