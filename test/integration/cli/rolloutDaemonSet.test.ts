/**
 * `kruiseless rollout status|pause|resume|history|undo` on an Advanced DaemonSet (`ds/<name>`,
 * `daemonsets.apps.kruise.io/<name>`) against the real local control plane, with the embedded pipeline reconciling
 * it on two kwok nodes of this file's own (labelled and tainted with its namespace, as
 * test/integration/daemonset/daemonset.test.ts does): kubectl's DaemonSet status lines, pause holding an image change
 * back (no pod updated, the waiting line saying `(paused)`), resume finishing it, the revision history, undo
 * restoring the previous template and the pods following it, and a partitioned rollout complete at
 * `desired − partition` updated pods.
 */
import type { Embedded } from '../../../lib/local/embedded.js';
import type { Pod } from '../../../lib/api/types.js';
import type { DaemonSet } from '../../../lib/controllers/daemonset/api/types.js';
import { runCli } from '../../../lib/cli/program.js';
import { useTestNamespace } from '../support/cluster.js';
import { startPipeline, testKubeconfig } from '../support/pipeline.js';
import { agentDaemonSet, createFileNodes, deleteNodes, DS_API, getDaemonSet } from '../support/daemonset.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('cli-rollout-ds');
const LABEL = 'kruiseless.io/ds-cli-test';
const SHOWN = 'daemonset.apps.kruise.io/agent';
let embedded: Embedded;
let nodes: string[] = [];
const env = (): Record<string, string> => ({ KUBECONFIG: testKubeconfig(), HOME: '/nonexistent' });
const cli = (...argv: string[]) => runCli([...argv, '-n', ctx.namespace], env());

const getSet = (): Promise<DaemonSet> => getDaemonSet(ctx.custom, ctx.namespace);

/** `<node>=<image>` of each live pod, by node name. */
async function images(): Promise<string[]> {
  const pods = (await ctx.core.listNamespacedPod({ namespace: ctx.namespace })).items as unknown as Pod[];
  return pods
    .filter((p) => !p.metadata.deletionTimestamp)
    .map((p) => `${(p.spec.nodeName ?? '').slice(-1)}=${p.spec.containers[0]?.image}`)
    .sort();
}

/** Waits until the spec is observed and both pods are updated and available. */
async function settled(): Promise<DaemonSet> {
  return waitFor('the DaemonSet to settle', 90_000, async () => {
    const ds = await getSet();
    const s = ds.status;
    return s !== undefined &&
      s.observedGeneration === ds.metadata.generation &&
      s.desiredNumberScheduled === 2 &&
      s.updatedNumberScheduled === 2 &&
      s.numberAvailable === 2 &&
      (await images()).length === 2
      ? ds
      : undefined;
  });
}

async function patchSet(body: object[]): Promise<void> {
  await ctx.custom.patchNamespacedCustomObject({ ...DS_API, namespace: ctx.namespace, name: 'agent', body });
}

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace);
  nodes = await createFileNodes(ctx.core, 'kwok-cli-ds', LABEL, ctx.namespace);
  const ds = agentDaemonSet(ctx.namespace, LABEL);
  await ctx.custom.createNamespacedCustomObject({ ...DS_API, namespace: ctx.namespace, body: ds });
  await settled();
}, 150_000);

afterAll(async () => {
  await embedded?.stop();
  await deleteNodes(ctx.core, nodes);
});

describe('kruiseless rollout on an Advanced DaemonSet', () => {
  it("status of a finished rollout is kubectl's DaemonSet line; errors name the DaemonSet", async () => {
    const line = 'daemon set "agent" successfully rolled out\n';
    expect(await cli('rollout', 'status', 'ds/agent')).toEqual({ code: 0, stdout: line, stderr: '' });
    expect(await cli('rollout', 'status', 'daemonsets.apps.kruise.io/agent', '--watch=false')).toEqual({
      code: 0,
      stdout: line,
      stderr: '',
    });
    expect(await cli('rollout', 'status', 'daemonsets.apps/agent')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: "daemonsets.apps" is apps/v1\'s DaemonSet, which kube-controller-manager runs; an Advanced DaemonSet is daemonset.apps.kruise.io/agent (or ds/agent)\n',
    });
    expect(await cli('rollout', 'history', 'ds/nope')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error from server (NotFound): daemonsets.apps.kruise.io "nope" not found\n',
    });
    expect(await cli('rollout', 'history', 'ds/agent', '--revision', '7')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: unable to find the specified revision\n',
    });
    expect(await cli('rollout', 'undo', 'ds/agent')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: no last revision to roll back to\n',
    });
  });

  it('pause holds an image change back; resume lets it finish; history and undo', async () => {
    expect(await cli('rollout', 'pause', 'ds/agent')).toEqual({
      code: 0,
      stdout: `${SHOWN} paused\n`,
      stderr: '',
    });
    expect((await getSet()).spec.updateStrategy?.rollingUpdate?.paused).toBe(true);
    expect(await cli('rollout', 'pause', 'ds/agent')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: daemonsets.apps.kruise.io "agent" is already paused\n',
    });

    await patchSet([
      { op: 'add', path: '/metadata/annotations', value: { 'kubernetes.io/change-cause': 'image 1.26' } },
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.26' },
    ]);
    await waitFor('the paused spec observed', 60_000, async () => {
      const { metadata, status } = await getSet();
      return status?.observedGeneration === metadata.generation && status?.updatedNumberScheduled === 0;
    });
    expect(await cli('rollout', 'status', 'ds/agent', '--timeout', '2s', '--interval', '200')).toEqual({
      code: 1,
      stdout:
        'Waiting for daemon set "agent" rollout to finish: 0 out of 2 new pods have been updated (paused)...\n',
      stderr: 'error: timed out waiting for the condition\n',
    });
    expect(await images()).toEqual(['a=nginx:1.25', 'b=nginx:1.25']);

    expect(await cli('rollout', 'resume', 'ds/agent')).toEqual({
      code: 0,
      stdout: `${SHOWN} resumed\n`,
      stderr: '',
    });
    const run = await cli('rollout', 'status', 'ds/agent', '--timeout', '90s', '--interval', '200');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.split('\n').slice(0, -1).at(-1)).toBe('daemon set "agent" successfully rolled out');
    await settled();
    expect(await images()).toEqual(['a=nginx:1.26', 'b=nginx:1.26']);

    expect(await cli('rollout', 'history', 'ds/agent')).toEqual({
      code: 0,
      stdout: `${SHOWN} \nREVISION  CHANGE-CAUSE\n1         <none>\n2         image 1.26\n\n`,
      stderr: '',
    });
    const two = await cli('rollout', 'history', 'ds/agent', '--revision', '2');
    expect(two.stdout).toContain(`${SHOWN} with revision #2\ntemplate:\n`);
    expect(two.stdout).toContain('image: nginx:1.26');

    expect(await cli('rollout', 'undo', 'ds/agent')).toEqual({
      code: 0,
      stdout: `${SHOWN} rolled back\n`,
      stderr: '',
    });
    expect((await getSet()).spec.template.spec.containers[0]?.image).toBe('nginx:1.25');
    await waitFor('the pods back at nginx:1.25', 90_000, async () =>
      (await images()).join() === 'a=nginx:1.25,b=nginx:1.25' ? true : undefined,
    );
    await settled();
    // the first revision is brought forward as number 3, as the controller reuses an equal revision
    expect(await cli('rollout', 'history', 'ds/agent')).toEqual({
      code: 0,
      stdout: `${SHOWN} \nREVISION  CHANGE-CAUSE\n2         image 1.26\n3         <none>\n\n`,
      stderr: '',
    });
    expect(await cli('rollout', 'undo', 'ds/agent', '--to-revision', '3')).toEqual({
      code: 0,
      stdout: `${SHOWN} skipped rollback (current template already matches revision 3)\n`,
      stderr: '',
    });
    expect(await cli('rollout', 'undo', 'ds/agent', '--to-revision', '9')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: unable to find specified revision 9 in history\n',
    });
  }, 240_000);

  it('a partitioned rollout is complete at desired − partition updated pods', async () => {
    await patchSet([
      { op: 'add', path: '/spec/updateStrategy/rollingUpdate/partition', value: 1 },
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.27' },
    ]);
    const run = await cli('rollout', 'status', 'ds/agent', '--timeout', '90s', '--interval', '200');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.split('\n').slice(0, -1).at(-1)).toBe(
      'daemon set "agent" partitioned roll out complete: 1 new pods have been updated...',
    );
    // nodes are updated by name descending: b first, a held back by the partition
    expect(await images()).toEqual(['a=nginx:1.25', 'b=nginx:1.27']);
  }, 120_000);
});
