/**
 * Microbenchmark of the pure planner (issue: "plan() for a CloneSet of 1,000 and 10,000 pods mid-rollout").
 * Not a test: it prints timings. Each size is measured against a reference taken in the same run — one
 * `JSON.parse(JSON.stringify(input))` round trip of the same pods, i.e. the cost of merely decoding the LIST
 * response the reconciler gets from the API server — so the ratio says how much planning adds to reading.
 *
 * Run: `npm run bench:plan` (optionally `-- 1000 10000 50000`); `npm run bench` runs it as one of its scenarios.
 */
import { performance } from 'node:perf_hooks';
import type { CloneSet, ControllerRevision, Pod } from '../lib/api/types.js';
import { newRevision, planCloneSet } from '../lib/controllers/cloneset/plan/index.js';

const NOW = new Date('2024-05-01T08:00:00Z');

function cloneSetOf(replicas: number, image: string): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'bench', namespace: 'default', uid: 'bench-uid', generation: 2 },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'bench' } },
      template: { metadata: { labels: { app: 'bench' } }, spec: { containers: [{ name: 'main', image }] } },
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '10%', partition: 0 },
    },
  };
}

function podsOf(n: number, oldRev: ControllerRevision, newRev: ControllerRevision): Pod[] {
  const pods: Pod[] = [];
  for (let i = 0; i < n; i++) {
    const updated = i % 2 === 0;
    const rev = updated ? newRev : oldRev;
    const name = `bench-${i.toString(36).padStart(5, '0')}`;
    pods.push({
      metadata: {
        name,
        namespace: 'default',
        uid: `uid-${i}`,
        resourceVersion: String(1000 + i),
        creationTimestamp: '2024-05-01T07:00:00Z',
        labels: {
          app: 'bench',
          'controller-revision-hash': rev.metadata.name ?? '',
          'pod-template-hash': (rev.metadata.name ?? '').split('-').pop() ?? '',
          'apps.kruise.io/cloneset-instance-id': name.slice(6),
          'lifecycle.apps.kruise.io/state': 'Normal',
        },
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'CloneSet',
            name: 'bench',
            uid: 'bench-uid',
            controller: true,
          },
        ],
      },
      spec: {
        nodeName: `node-${i % 50}`,
        containers: [{ name: 'main', image: updated ? 'app:v2' : 'app:v1' }],
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
      },
      status: {
        phase: 'Running',
        conditions: [
          { type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T07:01:00Z' },
          { type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: '2024-05-01T07:01:00Z' },
        ],
        containerStatuses: [
          {
            name: 'main',
            image: updated ? 'app:v2' : 'app:v1',
            imageID: `id-${i}`,
            ready: true,
            restartCount: 0,
          },
        ],
      },
    });
  }
  return pods;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function measure(fn: () => void, iterations: number): number {
  for (let i = 0; i < 5; i++) fn(); // warm-up: let the JIT settle before timing
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
for (const n of sizes.length ? sizes : [1000, 10000]) {
  const oldCs = cloneSetOf(n, 'app:v1');
  const cs = cloneSetOf(n, 'app:v2');
  const oldRev = newRevision(oldCs, 1, 0);
  const newRev = newRevision(cs, 2, 0);
  cs.status = {
    replicas: n,
    readyReplicas: n,
    availableReplicas: n,
    updatedReplicas: Math.ceil(n / 2),
    updatedReadyReplicas: Math.ceil(n / 2),
    currentRevision: oldRev.metadata.name,
    updateRevision: newRev.metadata.name,
    collisionCount: 0,
  };
  const pods = podsOf(n, oldRev, newRev);
  const input = {
    cloneSet: cs,
    pods,
    pvcs: [],
    revisions: [oldRev, newRev],
    now: NOW,
    newInstanceId: () => 'zzzzz',
  };
  const iterations = n >= 10000 ? 15 : 50;
  const planMs = measure(() => void planCloneSet(input), iterations);
  const refMs = measure(() => void JSON.parse(JSON.stringify(pods)), iterations);
  const plan = planCloneSet(input);
  console.log(
    `pods=${n} plan=${planMs.toFixed(2)} ms (median of ${iterations}) reference JSON round trip=${refMs.toFixed(2)} ms ` +
      `ratio=${(planMs / refMs).toFixed(2)}x phase=${plan.phase} actions=${plan.actions.length}`,
  );
}
