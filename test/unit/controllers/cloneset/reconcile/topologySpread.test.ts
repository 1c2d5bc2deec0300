/**
 * A scale-in under `topologySpreadConstraints` ranks the victims by the labels of the pods' nodes, as OpenKruise's
 * `choosePodsToDelete` with `NewSpreadConstraintsRanker` (lib/controllers/cloneset/spreadNodes.ts): the pass reads
 * each node once, only when the template has constraints and more pods are active than `replicas`. Before, the
 * planner was never given node labels and ranked by node alone.
 *
 * Five pods: zone a has one on each of `a-1`, `a-2`, `a-3`; zone b two on `b-1`. Scaling to 4 deletes one. By node
 * alone, the only pod that shares a node (on `b-1`) goes; by zone, zone a (3 pods) ranks above zone b (2), and its
 * newest pod goes.
 */
import type { Node } from '../../../../../lib/api/node.js';
import type { Pod } from '../../../../../lib/api/types.js';
import { RESOURCES } from '../../../../../lib/kube/resources.js';
import { reconcileCloneSet } from '../../../../../lib/controllers/cloneset/index.js';
import { harness, REQUEST, seedCloneSet, T0, type Harness } from './support/harness.js';
import { recordingReads } from './support/recordingReads.js';

const ZONE = 'topology.kubernetes.io/zone';
const NODE_OF: Record<string, string> = {
  aaaaa: 'a-1',
  bbbbb: 'a-2',
  ccccc: 'a-3',
  ddddd: 'b-1',
  eeeee: 'b-1',
};
const podName = (id: string) => `cs-no-pvc-sample-${id}`;

function node(name: string): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { [ZONE]: name.startsWith('a-') ? 'a' : 'b', 'kubernetes.io/hostname': name } },
  };
}

/** Five Ready pods placed as {@link NODE_OF}, created a second apart in id order; `spread`: the template's constraint. */
async function fivePods(spread: boolean): Promise<Harness> {
  const h = harness();
  const cs = seedCloneSet();
  cs.spec.replicas = 5;
  if (spread)
    cs.spec.template.spec.topologySpreadConstraints = [
      { maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'ScheduleAnyway' },
    ];
  h.kube.apply(cs);
  for (const name of new Set(Object.values(NODE_OF))) h.kube.objects(RESOURCES.nodes).set(name, node(name));
  await reconcileCloneSet(h.deps(), REQUEST);
  h.kube.kubelet();
  Object.entries(NODE_OF).forEach(([id, nodeName], i) => {
    const pod = h.kube.pods.get(podName(id)) as Pod;
    pod.spec.nodeName = nodeName;
    pod.metadata.creationTimestamp = new Date(T0 + i * 1000).toISOString().slice(0, 19) + 'Z';
  });
  h.clock.now += 30_000;
  await reconcileCloneSet(h.deps(), REQUEST);
  h.journal.length = 0;
  return h;
}

/** Scale to `replicas`; the reads of the pass and the pods it deleted. */
async function scaleTo(h: Harness, replicas: number): Promise<{ reads: string[]; deleted: string[] }> {
  const cs = structuredClone(h.kube.cloneSets.get('cs-no-pvc-sample'));
  if (!cs) throw new Error('no CloneSet');
  cs.spec.replicas = replicas;
  h.kube.apply(cs);
  const reads: string[] = [];
  const deps = h.deps();
  await reconcileCloneSet({ ...deps, kube: recordingReads(deps.kube, reads) }, REQUEST);
  return {
    reads: reads.filter((r) => r.startsWith('get nodes')),
    deleted: h.journal.filter((l) => l.startsWith('delete pod ')).map((l) => l.split(' ')[2]),
  };
}

describe('scale-in under topologySpreadConstraints', () => {
  test('ranks by zone: the newest pod of the fuller zone goes; each node is read once', async () => {
    const h = await fivePods(true);
    const { reads, deleted } = await scaleTo(h, 4);
    expect(deleted).toEqual([podName('ccccc')]);
    expect(reads).toEqual(['get nodes a-1', 'get nodes a-2', 'get nodes a-3', 'get nodes b-1']);
  });

  test('without constraints the pod sharing a node goes and no node is read', async () => {
    const h = await fivePods(false);
    const { reads, deleted } = await scaleTo(h, 4);
    expect(deleted).toEqual([podName('eeeee')]);
    expect(reads).toEqual([]);
  });

  test('a node that cannot be read leaves its pods without a zone rank (upstream skips it)', async () => {
    const h = await fivePods(true);
    // a-1 and a-2 unreadable: zone a is a-3's pod alone (rank 1·ln 4), zone b's newest ranks 2·ln 4
    h.kube.objects(RESOURCES.nodes).delete('a-1');
    h.kube.objects(RESOURCES.nodes).delete('a-2');
    const { deleted } = await scaleTo(h, 4);
    expect(deleted).toEqual([podName('eeeee')]);
  });

  test('no scale-in, no node read: as many pods as replicas', async () => {
    const h = await fivePods(true);
    const reads: string[] = [];
    const deps = h.deps();
    await reconcileCloneSet({ ...deps, kube: recordingReads(deps.kube, reads) }, REQUEST);
    expect(reads.filter((r) => r.startsWith('get nodes'))).toEqual([]);
  });
});
