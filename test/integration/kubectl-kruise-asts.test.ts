/**
 * OpenKruise's kubectl plugin (kubectl-kruise v1.2.2, `npm run kubectl-kruise:build`) against an Advanced StatefulSet
 * that Kruiseless manages on the real control plane: `rollout status|history|undo|pause` on
 * `statefulset.apps.kruise.io/<name>`, each checked by what the plugin prints and exits with and by what Kruiseless
 * then does to the pods. When the plugin is not in the cache the file checks the skip reason instead (a hollow run,
 * infra/reference/hollow.ts).
 */
import type { Embedded } from '../../lib/local/embedded.js';
import type { Pod } from '../../lib/api/types.js';
import type { StatefulSet } from '../../lib/controllers/statefulset/api/types.js';
import { kruiseToolsVersion, kubectlKruiseSkipReason } from '../../infra/kubectl-kruise/build.js';
import { recordHollow } from '../../infra/reference/hollow.js';
import { useTestNamespace } from './support/cluster.js';
import { kubectlKruise } from './support/kubectlKruise.js';
import { settle, startPipeline } from './support/pipeline.js';
import { activeSetPods, ASTS_API, getStatefulSet, inPlace, webStatefulSet } from './support/statefulset.js';
import { waitFor } from './support/wait.js';

const reason = await kubectlKruiseSkipReason();
const skipTitle =
  reason &&
  recordHollow({
    suite: 'kubectl-kruise-asts',
    component: 'kubectl-kruise',
    version: kruiseToolsVersion(),
    reason,
  });
const ctx = useTestNamespace('kubectl-kruise-asts');
const REF = 'statefulset.apps.kruise.io/web';
const STEP_TIMEOUT_MS = 120_000;

const kk = (...args: string[]) => kubectlKruise(ctx.namespace, ...args);
const getSet = (): Promise<StatefulSet> => getStatefulSet(ctx.custom, ctx.namespace);
const pods = (): Promise<Pod[]> => activeSetPods(ctx.core, ctx.namespace);

/** Waits until both pods run `image` and the status counts them ready and updated at one revision. */
async function rolledOut(image: string): Promise<{ set: StatefulSet; pods: Pod[] }> {
  return waitFor(`2 pods Ready on ${image}`, 90_000, async () => {
    const set = await getSet();
    const listed = await pods();
    const s = set.status;
    const ok =
      listed.length === 2 &&
      listed.every((p) => p.spec.containers[0].image === image) &&
      s !== undefined &&
      s.observedGeneration === set.metadata.generation &&
      s.readyReplicas === 2 &&
      s.updatedReplicas === 2 &&
      s.currentRevision === s.updateRevision;
    return ok && { set, pods: listed };
  });
}

const uids = (listed: Pod[]): string[] => listed.map((p) => p.metadata.uid ?? '');

if (reason) {
  test(`skips when kubectl-kruise is not cached: ${skipTitle ?? reason}`, () => {
    expect(reason).toMatch(/^kubectl-kruise v\S+ .*; `npm run kubectl-kruise:build` builds it$/);
  });
} else {
  let embedded: Embedded;
  beforeAll(async () => {
    embedded = await startPipeline(ctx.namespace);
  }, 30_000);
  afterAll(async () => {
    await embedded?.stop();
  });
  const story: { first?: Pod[]; rev1?: string; rev2?: string } = {};

  test(
    'rollout status: the plugin’s Advanced StatefulSet line once Kruiseless has rolled the set out',
    async () => {
      await ctx.custom.createNamespacedCustomObject({
        ...ASTS_API,
        namespace: ctx.namespace,
        body: webStatefulSet((s) => {
          s.spec.podManagementPolicy = 'Parallel';
          inPlace(s);
        }),
      });
      const { set, pods: first } = await rolledOut('nginx:1.24-alpine');
      story.first = first;
      story.rev1 = set.status?.updateRevision;
      expect(await kk('rollout', 'status', REF)).toEqual({
        code: 0,
        stdout: `Advanced StatefulSet rolling update complete 2 pods at revision ${story.rev1}...\n`,
        stderr: '',
      });
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'rollout history lists both revisions after an in-place image change',
    async () => {
      await ctx.custom.patchNamespacedCustomObject({
        ...ASTS_API,
        namespace: ctx.namespace,
        name: 'web',
        body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.25-alpine' }],
      });
      const { set, pods: updated } = await rolledOut('nginx:1.25-alpine');
      story.rev2 = set.status?.updateRevision;
      expect(uids(updated)).toEqual(uids(story.first ?? []));
      expect(await kk('rollout', 'history', REF)).toEqual({
        code: 0,
        stdout: `${REF} \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n`,
        stderr: '',
      });
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'rollout undo: the plugin merge-patches the previous revision back and Kruiseless rolls it in place',
    async () => {
      expect(await kk('rollout', 'undo', REF)).toEqual({
        code: 0,
        stdout: `${REF} rolled back\n`,
        stderr: '',
      });
      // a JSON merge patch of the revision's data: the strategic-merge directive lands in the stored template as a
      // field (the CRD keeps the template's unknown fields), as it does on OpenKruise's cluster; the template's
      // revision is still the first one
      const patched = (await getSet()).spec.template as { $patch?: string };
      expect(patched.$patch).toBe('replace');
      const { set, pods: back } = await rolledOut('nginx:1.24-alpine');
      expect(uids(back)).toEqual(uids(story.first ?? []));
      expect(set.status?.updateRevision).toBe(story.rev1);
      expect(await kk('rollout', 'history', REF)).toEqual({
        code: 0,
        stdout: `${REF} \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n`,
        stderr: '',
      });
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'rollout pause is not supported by the plugin for an Advanced StatefulSet, and nothing changes',
    async () => {
      await settle(embedded);
      const before = await getSet();
      expect(await kk('rollout', 'pause', REF)).toEqual({
        code: 1,
        stdout: '',
        stderr: 'error: statefulsets.apps.kruise.io "web" pausing is not supported\n',
      });
      expect((await getSet()).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    },
    STEP_TIMEOUT_MS,
  );
}
