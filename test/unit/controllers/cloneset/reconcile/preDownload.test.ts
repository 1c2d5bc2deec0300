/**
 * The image pre-download writes through the reconciler (lib/controllers/cloneset/preDownload.ts,
 * docs/behaviour/cloneset.md#image-pre-download), on the recording API server: with the gate on, the new revision,
 * then the ImagePullJob, then the revision label, then the pod writes; a failed create is an Event and does not stop
 * the pass; nothing is listed or written with the gate off; the job goes once every pod is at one revision.
 */
import { RESOURCES } from '../../../../../lib/kube/resources.js';
import { reconcileCloneSet } from '../../../../../lib/controllers/cloneset/index.js';
import { internalError } from './support/recordingKube.js';
import { harness, REQUEST, seedCloneSet, type Harness } from './support/harness.js';
import type { CloneSet } from '../../../../../lib/api/types.js';
import type { PlannerOptions } from '../../../../../lib/controllers/cloneset/plan/types.js';

const GATE_ON: Partial<PlannerOptions> = { preDownloadImageForInPlaceUpdate: true };

/** The seed at 5 replicas, partition 1, settled at 1.18; ImagePullJobs served. */
async function settled(options: Partial<PlannerOptions>): Promise<Harness> {
  const h = harness();
  h.kube.serve(RESOURCES.imagepulljobs);
  const cs = seedCloneSet();
  cs.spec.replicas = 5;
  cs.spec.updateStrategy = { ...cs.spec.updateStrategy, partition: 1 };
  h.kube.apply(cs);
  await run(h, options);
  h.kube.kubelet();
  h.clock.now += 30_000;
  await run(h, options);
  h.journal.length = 0;
  return h;
}

/** One invocation at the harness's current time (its budget starts now). */
function run(h: Harness, options: Partial<PlannerOptions> = {}) {
  return reconcileCloneSet(h.deps({ options, deadlineMs: h.clock.now + 60_000 }), REQUEST);
}

function stored(h: Harness): CloneSet {
  return h.kube.cloneSets.get(REQUEST.name) as CloneSet;
}

function changeImage(h: Harness): void {
  const cs = structuredClone(stored(h));
  cs.spec.template.spec.containers[0].image = 'nginx:1.19-alpine';
  h.kube.apply(cs);
}

const kubeWrites = (h: Harness) =>
  h.journal.filter((l) => /^(create|patch|delete|replace) (controllerrevision|imagepulljob|pod)/.test(l));

describe('image pre-download writes', () => {
  test('gate on: revision, then the job, then the label, then the in-place updates; the Event is recorded', async () => {
    const h = await settled(GATE_ON);
    changeImage(h);
    await run(h, GATE_ON);
    const writes = kubeWrites(h);
    const revision = stored(h).status?.updateRevision ?? '';
    expect(writes.slice(0, 3)).toEqual([
      `create controllerrevision ${revision}`,
      `create imagepulljob ${revision}-nginx`,
      `patch controllerrevision ${revision} {"metadata":{"labels":{"apps.kruise.io/pre-predownload-created":"true"}}}`,
    ]);
    expect(writes.slice(3).every((l) => l.startsWith('patch pod'))).toBe(true);
    expect([...h.kube.objects(RESOURCES.imagepulljobs).keys()]).toEqual([`${revision}-nginx`]);
    expect(h.journal.filter((l) => l.includes('CreatedImagePullJob'))).toHaveLength(1);
    // labelled: later passes create nothing more
    const creates = h.journal.filter((l) => l.startsWith('create imagepulljob'));
    expect(creates).toHaveLength(1);
  });

  test('a create that fails is a FailedCreateImagePullJob Event; the revision is still labelled and pods updated', async () => {
    const h = await settled(GATE_ON);
    h.kube.failOn((call) => (call.startsWith('create imagepulljob') ? internalError(call) : undefined));
    changeImage(h);
    const out = await run(h, GATE_ON);
    expect(out.error).toBeUndefined();
    const revision = stored(h).status?.updateRevision ?? '';
    expect(h.kube.revisions.get(revision)?.metadata.labels?.['apps.kruise.io/pre-predownload-created']).toBe(
      'true',
    );
    expect(h.journal.filter((l) => l.includes('FailedCreateImagePullJob'))).toHaveLength(1);
    expect(h.journal.some((l) => l.startsWith('patch pod'))).toBe(true);
  });

  test('gate off: no ImagePullJob is listed or created', async () => {
    const h = await settled({});
    changeImage(h);
    await run(h);
    expect(h.journal.filter((l) => l.includes('imagepulljob'))).toEqual([]);
    expect(h.kube.objects(RESOURCES.imagepulljobs).size).toBe(0);
  });

  test('once current = update the CloneSet’s jobs are deleted', async () => {
    const h = await settled(GATE_ON);
    changeImage(h);
    await run(h, GATE_ON);
    const cs = structuredClone(stored(h));
    cs.spec.updateStrategy = { ...cs.spec.updateStrategy, partition: 0 };
    h.kube.apply(cs);
    for (let i = 0; i < 30 && h.kube.objects(RESOURCES.imagepulljobs).size > 0; i++) {
      h.kube.kubelet();
      h.clock.now += 30_000;
      await run(h, GATE_ON);
    }
    expect(stored(h).status?.currentRevision).toBe(stored(h).status?.updateRevision);
    expect(h.kube.objects(RESOURCES.imagepulljobs).size).toBe(0);
    expect(h.journal.filter((l) => l.startsWith('delete imagepulljob'))).toHaveLength(1);
  });

  const PODS: Partial<PlannerOptions> = { ...GATE_ON, preDownloadImageWithPods: true };

  test('PreDownloadImageWithPods without NodeImages: a pre-pull pod on the pods’ node after the job, not counted', async () => {
    const h = await settled(PODS);
    changeImage(h);
    await run(h, PODS);
    const revision = stored(h).status?.updateRevision ?? '';
    const writes = kubeWrites(h);
    expect(writes.slice(0, 3)).toEqual([
      `create controllerrevision ${revision}`,
      `create imagepulljob ${revision}-nginx`,
      `patch controllerrevision ${revision} {"metadata":{"labels":{"apps.kruise.io/pre-predownload-created":"true"}}}`,
    ]);
    expect(writes[3]).toMatch(new RegExp(`^create pod ${revision}-prepull-[0-9a-z]+$`));
    const pulls = [...h.kube.pods.values()].filter((p) => p.metadata.name?.includes('-prepull-'));
    expect(pulls.map((p) => [p.spec.nodeName, p.spec.containers.map((c) => c.image)])).toEqual([
      ['node-1', ['nginx:1.19-alpine']],
    ]);
    expect(stored(h).status?.replicas).toBe(5);
  });

  test('with a node agent (a NodeImage exists) no pre-pull pod is made', async () => {
    const h = await settled(PODS);
    h.kube.objects(RESOURCES.nodeimages).set('node-1', { metadata: { name: 'node-1' } });
    changeImage(h);
    await run(h, PODS);
    expect(h.journal.filter((l) => l.includes('-prepull-'))).toEqual([]);
    expect(h.journal.filter((l) => l.startsWith('create imagepulljob'))).toHaveLength(1);
  });

  test('a failed pre-pull create is logged only; the pass goes on', async () => {
    const h = await settled(PODS);
    h.kube.failOn((call) => (call.includes('-prepull-') ? internalError(call) : undefined));
    changeImage(h);
    const out = await run(h, PODS);
    expect(out.error).toBeUndefined();
    expect(
      h.journal.filter((l) => l.startsWith('create pod') && l.includes('-prepull-')).length,
    ).toBeGreaterThan(0);
    expect([...h.kube.pods.keys()].filter((n) => n.includes('-prepull-'))).toEqual([]);
    expect(h.journal.some((l) => l.startsWith('patch pod'))).toBe(true);
  });
});
