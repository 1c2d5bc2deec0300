/**
 * OpenKruise's kubectl plugin (kubectl-kruise, built by `npm run kubectl-kruise:build`, infra/kubectl-kruise) against
 * a CloneSet that Kruiseless manages on the real control plane: `rollout status|history|pause|resume|undo` and
 * `scaledown --pods`, each checked by what the plugin prints and exits with and by what Kruiseless then does to the
 * pods. When the plugin is not in the cache the file checks the skip reason instead (and records the skip as a hollow
 * run, infra/reference/hollow.ts).
 */
import { AppsV1Api } from '@kubernetes/client-node';
import type { Embedded } from '../../lib/local/embedded.js';
import type { CloneSet, ControllerRevision, Pod } from '../../lib/api/types.js';
import { kruiseToolsVersion, kubectlKruiseSkipReason } from '../../infra/kubectl-kruise/build.js';
import { recordHollow } from '../../infra/reference/hollow.js';
import { useTestNamespace } from './support/cluster.js';
import { kubectlKruise } from './support/kubectlKruise.js';
import {
  SEED_NAME,
  activePods,
  applySeed,
  getCloneSet,
  listPods,
  patchCloneSet,
  settle,
  startPipeline,
} from './support/pipeline.js';
import { waitFor } from './support/wait.js';

const reason = await kubectlKruiseSkipReason();
// a skip is a hollow run: recorded for .ci/run's HOLLOW line, named with the last build's outcome
const skipTitle =
  reason &&
  recordHollow({
    suite: 'kubectl-kruise',
    component: 'kubectl-kruise',
    version: kruiseToolsVersion(),
    reason,
  });
const ctx = useTestNamespace('kubectl-kruise');
const STEP_TIMEOUT_MS = 120_000;
/** What `rollout status` answers for an InPlaceIfPossible CloneSet whose 2 pods are all updated. */
const ROLLED_OUT = {
  code: 0,
  stdout: 'partitioned roll out complete: 2 new pods have been updated...\n',
  stderr: '',
};

const kk = (...args: string[]) => kubectlKruise(ctx.namespace, ...args);

async function revisions(): Promise<ControllerRevision[]> {
  const apps = ctx.kc.makeApiClient(AppsV1Api);
  const list = await apps.listNamespacedControllerRevision({ namespace: ctx.namespace });
  return (list.items as unknown as ControllerRevision[]).sort((a, b) => a.revision - b.revision);
}

const images = (pods: Pod[]): string[] => pods.map((p) => p.spec.containers[0].image ?? '');
const uids = (pods: Pod[]): string[] => pods.map((p) => p.metadata.uid ?? '');

/** Waits until every active pod runs `image`, is Ready and the status counts them all as updated and ready. */
async function rolledOut(image: string, replicas: number): Promise<{ cs: CloneSet; pods: Pod[] }> {
  return waitFor(`${replicas} pods Ready on ${image}`, 60_000, async () => {
    const cs = await getCloneSet(ctx.custom, ctx.namespace);
    const pods = await listPods(ctx.core, ctx.namespace);
    const s = cs.status;
    const ok =
      pods.length === replicas &&
      pods.every(
        (p) =>
          p.spec.containers[0].image === image &&
          p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      ) &&
      s?.observedGeneration === cs.metadata.generation &&
      s?.updatedReadyReplicas === replicas &&
      s.readyReplicas === replicas;
    return ok && { cs, pods };
  });
}

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
  // kruise-tools v1.2.2 knows CloneSet v1alpha1 only, and `cloneset/<name>` resolves to the newest served version,
  // v1beta1, as against OpenKruise v1.9 (README.md#cloneset-versions): the version is named
  const ref = `clonesets.v1alpha1.apps.kruise.io/${SEED_NAME}`;

  test(
    'rollout status exits 0 once Kruiseless has rolled the seed out',
    async () => {
      await applySeed(ctx.custom, ctx.namespace);
      const { cs, pods } = await rolledOut('nginx:1.18-alpine', 2);
      story.first = pods;
      story.rev1 = cs.status?.updateRevision;
      expect(story.rev1).toBe(`${SEED_NAME}-7fb7468d98`);
      expect(await kk('rollout', 'status', ref)).toEqual(ROLLED_OUT);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'rollout history lists both revisions after an image change',
    async () => {
      await patchCloneSet(ctx.custom, ctx.namespace, [
        { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.19-alpine' },
      ]);
      const { cs, pods } = await rolledOut('nginx:1.19-alpine', 2);
      story.rev2 = cs.status?.updateRevision;
      expect(story.rev2).toBe(`${SEED_NAME}-6ccb957675`);
      expect(uids(pods)).toEqual(uids(story.first ?? []));
      expect((await revisions()).map((r) => [r.metadata.name, r.revision])).toEqual([
        [story.rev1, 1],
        [story.rev2, 2],
      ]);
      expect(await kk('rollout', 'history', ref)).toEqual({
        code: 0,
        stdout: `cloneset.apps.kruise.io/${SEED_NAME} \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n`,
        stderr: '',
      });
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'pause, undo while paused (nothing rolls), resume (Kruiseless rolls the previous template back in place)',
    async () => {
      const name = `cloneset.apps.kruise.io/${SEED_NAME}`;
      expect(await kk('rollout', 'pause', ref)).toEqual({ code: 0, stdout: `${name} paused\n`, stderr: '' });
      expect((await getCloneSet(ctx.custom, ctx.namespace)).spec.updateStrategy?.paused).toBe(true);

      expect(await kk('rollout', 'undo', ref)).toEqual({
        code: 0,
        stdout: `${name} rolled back\n`,
        stderr: '',
      });
      await settle(embedded);
      const held = await getCloneSet(ctx.custom, ctx.namespace);
      expect(held.spec.template.spec?.containers[0].image).toBe('nginx:1.18-alpine');
      expect(held.status).toMatchObject({
        observedGeneration: held.metadata.generation,
        updateRevision: story.rev1,
        currentRevision: story.rev2,
        updatedReplicas: 0,
        readyReplicas: 2,
      });
      const still = await activePods(ctx.core, ctx.namespace);
      expect(images(still)).toEqual(['nginx:1.19-alpine', 'nginx:1.19-alpine']);
      expect(uids(still)).toEqual(uids(story.first ?? []));
      expect(await kk('rollout', 'status', ref, '--watch=false')).toEqual({
        code: 0,
        stdout: 'Waiting for partitioned roll out to finish: 0 out of 2 new pods have been updated...\n',
        stderr: '',
      });

      expect(await kk('rollout', 'resume', ref)).toEqual({
        code: 0,
        stdout: `${name} resumed\n`,
        stderr: '',
      });
      // paused: false is omitted, as the plugin's Go types encode it
      expect((await getCloneSet(ctx.custom, ctx.namespace)).spec.updateStrategy?.paused).toBeUndefined();
      const { cs, pods } = await rolledOut('nginx:1.18-alpine', 2);
      expect(uids(pods)).toEqual(uids(story.first ?? []));
      expect(pods.map((p) => p.metadata.labels?.['controller-revision-hash'])).toEqual([
        story.rev1,
        story.rev1,
      ]);
      expect([cs.status?.currentRevision, cs.status?.updateRevision]).toEqual([story.rev1, story.rev1]);
      // the undone revision keeps its name and gets the next number, as a StatefulSet's would
      expect((await revisions()).map((r) => [r.metadata.name, r.revision])).toEqual([
        [story.rev2, 2],
        [story.rev1, 3],
      ]);
      expect(await kk('rollout', 'history', ref)).toEqual({
        code: 0,
        stdout: `${name} \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n`,
        stderr: '',
      });
      expect(await kk('rollout', 'status', ref)).toEqual(ROLLED_OUT);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'scaledown --pods puts the pod into podsToDelete and Kruiseless deletes exactly that pod',
    async () => {
      await settle(embedded);
      const [kept, victim] = await activePods(ctx.core, ctx.namespace);
      const victimName = victim.metadata.name ?? '';
      expect(await kk('scaledown', ref, '--pods', victimName)).toEqual({
        code: 0,
        stdout:
          `# ${SEED_NAME} delete pods [${victimName}] successfully\n` +
          `cloneset.apps.kruise.io/${SEED_NAME} selective pod deletion\n`,
        stderr: '',
      });
      const asked = await getCloneSet(ctx.custom, ctx.namespace);
      expect([asked.spec.replicas, asked.spec.scaleStrategy?.podsToDelete]).toEqual([1, [victimName]]);
      await waitFor(`${victimName} gone`, 60_000, async () => {
        const left = await listPods(ctx.core, ctx.namespace);
        return left.length === 1 && left[0].metadata.uid === kept.metadata.uid;
      });
      await settle(embedded);
      const after = await getCloneSet(ctx.custom, ctx.namespace);
      // the deleted name is dropped from the list, and the emptied list from the spec, as OpenKruise's
      // truncatePodsToDelete stores it (a nil slice, omitted)
      expect(after.spec.scaleStrategy).toEqual({ ...asked.spec.scaleStrategy, podsToDelete: undefined });
      expect(after.spec.scaleStrategy && 'podsToDelete' in after.spec.scaleStrategy).toBe(false);
      // the plugin's whole-object PUT (creationTimestamp: null in the template) leaves the revision alone
      expect(after.status).toMatchObject({ replicas: 1, readyReplicas: 1, updateRevision: story.rev1 });
      const [left] = await listPods(ctx.core, ctx.namespace);
      expect([left.metadata.uid, left.metadata.resourceVersion]).toEqual([
        kept.metadata.uid,
        kept.metadata.resourceVersion,
      ]);
    },
    STEP_TIMEOUT_MS,
  );
}
