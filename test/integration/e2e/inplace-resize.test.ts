/**
 * CloneSet, an in-place cpu/memory change (gate InPlaceWorkloadVerticalScaling) through the whole pipeline on the
 * local control plane (Kubernetes v1.34: a pod's container resources change only through `pods/resize`; kwok's
 * `pod-container-resize` stage reports them in the container statuses): both pods resized in place (same UID, no
 * restart), at the new revision, lifecycle back to Normal, two SuccessfulUpdatePodInPlace and no Warning Event.
 * Asserted from API objects only.
 */
import type { Embedded } from '../../../lib/local/embedded.js';
import { useTestNamespace } from '../support/cluster.js';
import {
  activePods,
  applySeed,
  eventsOf,
  getCloneSet,
  patchCloneSet,
  RecordingLogger,
  startPipeline,
} from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('e2e-resize');
let embedded: Embedded;

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace, new RecordingLogger(), {
    inPlaceWorkloadVerticalScaling: true,
  });
}, 30_000);

afterAll(async () => {
  await embedded?.stop();
});

describe('CloneSet in-place resize through the whole pipeline', () => {
  test('cpu 100m → 150m: each pod resized through pods/resize, same pods, the update completed', async () => {
    const cs = await applySeed(ctx.custom, ctx.namespace, (c) => {
      c.spec.updateStrategy = { type: 'InPlaceIfPossible' };
      c.spec.template.spec.containers[0].resources = { requests: { cpu: '100m', memory: '64Mi' } };
    });
    await waitFor('READY 2', 90_000, async () => {
      const s = (await getCloneSet(ctx.custom, ctx.namespace)).status;
      return s?.replicas === 2 && s.readyReplicas === 2;
    });
    const before = (await activePods(ctx.core, ctx.namespace)).map((p) => p.metadata.uid).sort();
    await patchCloneSet(ctx.custom, ctx.namespace, [
      { op: 'replace', path: '/spec/template/spec/containers/0/resources/requests/cpu', value: '150m' },
    ]);
    const status = await waitFor('2 updated and ready', 120_000, async () => {
      const s = (await getCloneSet(ctx.custom, ctx.namespace)).status;
      return s?.observedGeneration === 2 && s.updatedReplicas === 2 && s.updatedReadyReplicas === 2
        ? s
        : undefined;
    });
    const pods = await waitFor('lifecycle Normal again', 60_000, async () => {
      const all = await activePods(ctx.core, ctx.namespace);
      return all.every((p) => p.metadata.labels?.['lifecycle.apps.kruise.io/state'] === 'Normal')
        ? all
        : undefined;
    });
    expect(pods.map((p) => p.metadata.uid).sort()).toEqual(before);
    for (const p of pods) {
      expect(p.spec.containers[0].resources?.requests?.cpu).toBe('150m');
      expect(p.status?.containerStatuses?.[0].resources?.requests?.cpu).toBe('150m');
      expect(p.status?.containerStatuses?.[0].restartCount).toBe(0);
      expect(p.metadata.labels?.['controller-revision-hash']).toBe(status.updateRevision);
    }
    const events = await eventsOf(ctx.core, ctx.namespace, cs.metadata.uid ?? '');
    expect(events.filter((e) => e.reason === 'SuccessfulUpdatePodInPlace')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'Warning').map((e) => `${e.reason}: ${e.message}`)).toEqual([]);
  }, 300_000);
});
