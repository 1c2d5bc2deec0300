/**
 * `lifecycle.preDelete.markPodNotReady` on the real control plane (docs/behaviour/cloneset.md#kruise-pod-ready,
 * docs/behaviour/cloneset.md#lifecycle): pods are created with the `KruisePodReady` readiness gate, get the
 * condition True and so become Ready (the fake kubelet of infra/local/kwok-stages.yaml waits for every gate);
 * scaled in, the hooked victim stays as `PreparingDelete` with `KruisePodReady=False` and therefore `Ready=False`,
 * while the other pods stay Ready. Asserted from API objects only.
 */
import type { Embedded } from '../../../lib/local/embedded.js';
import type { Pod } from '../../../lib/api/types.js';
import { useTestNamespace } from '../support/cluster.js';
import {
  activePods,
  applySeed,
  getCloneSet,
  patchCloneSet,
  podCondition,
  startPipeline,
} from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('e2e-notready');
let embedded: Embedded;

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace);
}, 30_000);

afterAll(async () => {
  await embedded?.stop();
});

const STEP_TIMEOUT_MS = 120_000;
const HOOK_LABEL = 'example.com/hold';

function state(pod: Pod): string | undefined {
  return pod.metadata.labels?.['lifecycle.apps.kruise.io/state'];
}

function conditions(pod: Pod): Record<string, string | undefined> {
  return Object.fromEntries(
    ['InPlaceUpdateReady', 'KruisePodReady', 'Ready'].map((t) => [t, podCondition(pod, t)?.status]),
  );
}

describe('preDelete.markPodNotReady through the whole pipeline', () => {
  test(
    '3 pods gated by KruisePodReady become Ready; scaled to 2, the hooked victim is PreparingDelete and not Ready',
    async () => {
      await applySeed(ctx.custom, ctx.namespace, (cs) => {
        cs.spec.replicas = 3;
        cs.spec.template.metadata = {
          ...cs.spec.template.metadata,
          labels: { ...(cs.spec.template.metadata?.labels ?? {}), [HOOK_LABEL]: 'true' },
        };
        cs.spec.lifecycle = { preDelete: { labelsHandler: { [HOOK_LABEL]: 'true' }, markPodNotReady: true } };
      });
      await waitFor('READY 3', 90_000, async () => {
        const s = (await getCloneSet(ctx.custom, ctx.namespace)).status;
        return s?.replicas === 3 && s.readyReplicas === 3 && s.availableReplicas === 3;
      });
      const created = await activePods(ctx.core, ctx.namespace);
      expect(created.map((p) => p.spec.readinessGates)).toEqual(
        created.map(() => [{ conditionType: 'InPlaceUpdateReady' }, { conditionType: 'KruisePodReady' }]),
      );
      expect(created.map(conditions)).toEqual(
        created.map(() => ({ InPlaceUpdateReady: 'True', KruisePodReady: 'True', Ready: 'True' })),
      );

      await patchCloneSet(ctx.custom, ctx.namespace, [{ op: 'replace', path: '/spec/replicas', value: 2 }]);
      const cs = await waitFor('one pod PreparingDelete and not Ready, readyReplicas 2', 60_000, async () => {
        const c = await getCloneSet(ctx.custom, ctx.namespace);
        const pods = await activePods(ctx.core, ctx.namespace);
        const victims = pods.filter((p) => state(p) === 'PreparingDelete');
        return victims.length === 1 &&
          podCondition(victims[0], 'Ready')?.status === 'False' &&
          c.status?.readyReplicas === 2 &&
          c.status.observedGeneration === c.metadata.generation
          ? c
          : undefined;
      });

      const pods = await activePods(ctx.core, ctx.namespace);
      expect(pods).toHaveLength(3);
      const victim = pods.find((p) => state(p) === 'PreparingDelete') as Pod;
      const kept = pods.filter((p) => p !== victim);
      expect(conditions(victim)).toEqual({
        InPlaceUpdateReady: 'True',
        KruisePodReady: 'False',
        Ready: 'False',
      });
      expect(victim.status?.conditions?.find((c) => c.type === 'KruisePodReady')?.message).toBe(
        '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]',
      );
      expect(kept.map(state)).toEqual(['Normal', 'Normal']);
      expect(kept.map(conditions)).toEqual(
        kept.map(() => ({ InPlaceUpdateReady: 'True', KruisePodReady: 'True', Ready: 'True' })),
      );
      expect(cs.status).toMatchObject({ replicas: 3, readyReplicas: 2, updatedReadyReplicas: 2 });
    },
    STEP_TIMEOUT_MS,
  );
});
