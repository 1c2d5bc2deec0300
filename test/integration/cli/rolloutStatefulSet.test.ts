/**
 * `kruiseless rollout status|pause|resume|history|undo` on an Advanced StatefulSet (`asts/<name>`,
 * `statefulset.apps.kruise.io/<name>`) against the real local control plane, with the embedded pipeline reconciling
 * the set: kubectl-kruise's status lines, pause holding an image change back (no pod updated), resume finishing it,
 * the revision history, undo restoring the previous template and the pods following it.
 */
import type { Embedded } from '../../../lib/local/embedded.js';
import type { StatefulSet } from '../../../lib/controllers/statefulset/api/types.js';
import { runCli } from '../../../lib/cli/program.js';
import { useTestNamespace } from '../support/cluster.js';
import { startPipeline, testKubeconfig } from '../support/pipeline.js';
import { activeSetPods, ASTS_API, getStatefulSet, webStatefulSet } from '../support/statefulset.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('cli-rollout-asts');
let embedded: Embedded;
const env = (): Record<string, string> => ({ KUBECONFIG: testKubeconfig(), HOME: '/nonexistent' });
const cli = (...argv: string[]) => runCli([...argv, '-n', ctx.namespace], env());
const SHOWN = 'statefulset.apps.kruise.io/web';
const getSet = (): Promise<StatefulSet> => getStatefulSet(ctx.custom, ctx.namespace);
async function images(): Promise<string[]> {
  return (await activeSetPods(ctx.core, ctx.namespace)).map(
    (p) => `${p.metadata.name}=${p.spec?.containers[0]?.image}`,
  );
}

/** Waits for the set to be settled: spec observed, 2 pods ready and updated. */
async function settled(): Promise<StatefulSet> {
  return waitFor('the set to settle', 90_000, async () => {
    const s = await getSet();
    const st = s.status;
    return st !== undefined &&
      st.observedGeneration === s.metadata.generation &&
      st.readyReplicas === 2 &&
      st.updatedReplicas === 2 &&
      st.currentRevision === st.updateRevision
      ? s
      : undefined;
  });
}

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace);
  await ctx.custom.createNamespacedCustomObject({
    ...ASTS_API,
    namespace: ctx.namespace,
    body: webStatefulSet((s) => (s.spec.podManagementPolicy = 'Parallel')),
  });
  await settled();
}, 150_000);

afterAll(async () => {
  await embedded?.stop();
});

describe('kruiseless rollout on an Advanced StatefulSet', () => {
  it("status of a finished rollout is kubectl-kruise's line; apps/v1's StatefulSet is refused", async () => {
    const rev = (await getSet()).status?.updateRevision ?? '';
    expect(rev).toMatch(/^web-[0-9a-z]+$/);
    const line = `Advanced StatefulSet rolling update complete 2 pods at revision ${rev}...\n`;
    expect(await cli('rollout', 'status', 'asts/web')).toEqual({ code: 0, stdout: line, stderr: '' });
    expect(await cli('rollout', 'status', 'statefulsets.apps.kruise.io/web', '--watch=false')).toEqual({
      code: 0,
      stdout: line,
      stderr: '',
    });
    expect(await cli('rollout', 'status', 'sts/web')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: "sts" is apps/v1\'s StatefulSet, which kube-controller-manager runs; an Advanced StatefulSet is statefulset.apps.kruise.io/web (or asts/web)\n',
    });
    expect(await cli('rollout', 'history', 'asts/nope')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error from server (NotFound): statefulsets.apps.kruise.io "nope" not found\n',
    });
  });

  it('pause holds an image change back; resume lets it finish; history and undo', async () => {
    expect(await cli('rollout', 'pause', 'asts/web')).toEqual({
      code: 0,
      stdout: `${SHOWN} paused\n`,
      stderr: '',
    });
    expect((await getSet()).spec.updateStrategy?.rollingUpdate?.paused).toBe(true);
    expect(await cli('rollout', 'pause', 'asts/web')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: statefulsets.apps.kruise.io "web" is already paused\n',
    });

    await ctx.custom.patchNamespacedCustomObject({
      ...ASTS_API,
      namespace: ctx.namespace,
      name: 'web',
      body: [
        { op: 'add', path: '/metadata/annotations', value: { 'kubernetes.io/change-cause': 'image 1.25' } },
        { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.25-alpine' },
      ],
    });
    await waitFor('the paused spec observed', 60_000, async () => {
      const { metadata, status } = await getSet();
      return (
        status !== undefined &&
        status.observedGeneration === metadata.generation &&
        status.currentRevision !== status.updateRevision
      );
    });
    expect(await cli('rollout', 'status', 'asts/web', '--timeout', '2s', '--interval', '200')).toEqual({
      code: 1,
      stdout: 'Waiting for partitioned roll out to finish:0 out of 2 new pods has been updated...\n',
      stderr: 'error: timed out waiting for the condition\n',
    });
    expect(await images()).toEqual(['web-0=nginx:1.24-alpine', 'web-1=nginx:1.24-alpine']);

    expect(await cli('rollout', 'resume', 'asts/web')).toEqual({
      code: 0,
      stdout: `${SHOWN} resumed\n`,
      stderr: '',
    });
    const run = await cli('rollout', 'status', 'asts/web', '--timeout', '90s', '--interval', '200');
    expect(run.code).toBe(0);
    const updated = await settled();
    expect(run.stdout.split('\n').slice(0, -1).at(-1)).toBe(
      `Advanced StatefulSet rolling update complete 2 pods at revision ${updated.status?.updateRevision}...`,
    );
    expect(await images()).toEqual(['web-0=nginx:1.25-alpine', 'web-1=nginx:1.25-alpine']);

    expect(await cli('rollout', 'history', 'asts/web')).toEqual({
      code: 0,
      stdout: `${SHOWN} \nREVISION  CHANGE-CAUSE\n1         <none>\n2         image 1.25\n\n`,
      stderr: '',
    });
    const two = await cli('rollout', 'history', 'asts/web', '--revision', '2');
    expect(two.stdout).toContain(`${SHOWN} with revision #2\ntemplate:\n`);
    expect(two.stdout).toContain('image: nginx:1.25-alpine');

    expect(await cli('rollout', 'undo', 'asts/web')).toEqual({
      code: 0,
      stdout: `${SHOWN} rolled back\n`,
      stderr: '',
    });
    expect((await getSet()).spec.template.spec?.containers[0]?.image).toBe('nginx:1.24-alpine');
    await settled();
    expect(await images()).toEqual(['web-0=nginx:1.24-alpine', 'web-1=nginx:1.24-alpine']);
    // the first revision is brought forward as number 3, as the controller reuses an equal revision
    expect(await cli('rollout', 'history', 'asts/web')).toEqual({
      code: 0,
      stdout: `${SHOWN} \nREVISION  CHANGE-CAUSE\n2         image 1.25\n3         <none>\n\n`,
      stderr: '',
    });
    expect(await cli('rollout', 'undo', 'asts/web', '--to-revision', '3')).toEqual({
      code: 0,
      stdout: `${SHOWN} skipped rollback (current template already matches revision 3)\n`,
      stderr: '',
    });
  }, 200_000);
});
