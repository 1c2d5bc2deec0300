/**
 * The seed's story (issue "serverless pipeline", `npm run demo`) on the in-memory World: a 2-replica
 * InPlaceIfPossible CloneSet comes up Ready, then replicas 1 + a new image deletes one pod and updates the other
 * in place after the 5 s grace period.
 */
import type { CloneSet } from '../../../lib/api/types.js';
import { World } from '../support/world.js';

function seed(): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: {
      name: 'cs-no-pvc-sample',
      namespace: 'default',
      labels: { app: 'cs-no-pvc-cs-no-pvc-sample' },
    },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'cs-no-pvc-sample' } },
      template: {
        metadata: { labels: { app: 'cs-no-pvc-sample' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.18-alpine' }] },
      },
      updateStrategy: { type: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 5 } },
    },
  };
}

describe('seed CloneSet on the planner', () => {
  test('comes up with 2 ready pods, then scales to 1 and updates the kept pod in place', () => {
    const w = new World(seed()).useIds('aaaaa', 'bbbbb');
    w.settle();
    expect(w.activePods().map((p) => p.metadata.name)).toEqual([
      'cs-no-pvc-sample-aaaaa',
      'cs-no-pvc-sample-bbbbb',
    ]);
    const s1 = w.cloneSet.status!;
    expect([s1.replicas, s1.readyReplicas, s1.availableReplicas, s1.updatedReplicas]).toEqual([2, 2, 2, 2]);
    const firstRevision = s1.updateRevision;

    w.edit((cs) => {
      cs.spec.replicas = 1;
      cs.spec.template.spec.containers[0].image = 'nginx:1.19-alpine';
    });
    w.reconcile(); // scale phase: one pod deleted
    expect(w.activePods()).toHaveLength(1);
    const kept = w.activePods()[0];
    const keptUid = kept.metadata.uid;
    for (let i = 0; i < 10; i++) {
      w.tick(1);
      w.reconcile();
      w.kubelet();
    }
    w.settle();
    const pod = w.activePods()[0];
    expect(pod.metadata.uid).toBe(keptUid);
    expect(pod.spec.containers[0].image).toBe('nginx:1.19-alpine');
    expect(pod.status?.containerStatuses?.[0].restartCount).toBe(1);
    const state = JSON.parse(pod.metadata.annotations?.['apps.kruise.io/inplace-update-state'] ?? '{}') as {
      revision?: string;
    };
    expect(state.revision).toBe(w.cloneSet.status?.updateRevision);
    const s2 = w.cloneSet.status!;
    expect(s2.updateRevision).not.toBe(firstRevision);
    expect([s2.replicas, s2.readyReplicas, s2.updatedReplicas, s2.updatedReadyReplicas]).toEqual([
      1, 1, 1, 1,
    ]);
    expect(s2.currentRevision).toBe(s2.updateRevision);
  });
});
