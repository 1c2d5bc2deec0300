/**
 * `kruiseless rollout status|pause|resume|undo|history` against the real local control plane, with the embedded
 * pipeline reconciling the test namespace: exact lines and exit codes as kubectl-kruise prints them, and the
 * errors every command shares (not found, wrong kind, no kubeconfig). The commands run in process through
 * runCli (the same registration the `kruiseless` binary uses).
 */
import type { Embedded } from '../../../lib/local/embedded.js';
import { runCli } from '../../../lib/cli/program.js';
import { useTestNamespace } from '../support/cluster.js';
import {
  SEED_NAME,
  applySeedAndSettle,
  getCloneSet,
  patchCloneSet,
  startPipeline,
  testKubeconfig,
} from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('cli-rollout');
let embedded: Embedded;
const env = (): Record<string, string> => ({ KUBECONFIG: testKubeconfig(), HOME: '/nonexistent' });
const cli = (...argv: string[]) => runCli([...argv, '-n', ctx.namespace], env());
const SHOWN = `cloneset.apps.kruise.io/${SEED_NAME}`;
const DONE = `cloneset "${SEED_NAME}" successfully rolled out\n`;
/** Every line `rollout status` may print while the seed (2 replicas, no partition) rolls out. */
const PROGRESS =
  /^(Waiting for CloneSet spec update to be observed\.\.\.|Waiting for rollout to finish: \d out of 2 new replicas have been updated\.\.\.|Waiting for rollout to finish: \d old replicas are pending termination\.\.\.|Waiting for rollout to finish: \d of \d updated replicas are available\.\.\.)$/;

/** Waits until the reconciler has observed the latest spec (status.observedGeneration). */
async function observed(): Promise<void> {
  await waitFor('observedGeneration to catch up', 60_000, async () => {
    const cs = await getCloneSet(ctx.custom, ctx.namespace);
    return cs.status?.observedGeneration === cs.metadata.generation;
  });
}

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace);
  await applySeedAndSettle(ctx.custom, ctx.namespace, embedded);
}, 150_000);

afterAll(async () => {
  await embedded?.stop();
});

describe('kruiseless rollout', () => {
  it('status of a finished rollout: the kubectl line, exit 0', async () => {
    expect(await cli('rollout', 'status', SEED_NAME)).toEqual({ code: 0, stdout: DONE, stderr: '' });
    expect(await cli('rollout', 'status', `clonesets.apps.kruise.io/${SEED_NAME}`, '--watch=false')).toEqual({
      code: 0,
      stdout: DONE,
      stderr: '',
    });
  });

  it('not found, wrong kind and no kubeconfig are errors with exit 1', async () => {
    expect(await cli('rollout', 'status', 'nope')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error from server (NotFound): clonesets.apps.kruise.io "nope" not found\n',
    });
    expect(await cli('rollout', 'pause', 'deployment/web')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: "deployment" is not a CloneSet, an Advanced StatefulSet or an Advanced DaemonSet: kruiseless handles clonesets.apps.kruise.io, statefulsets.apps.kruise.io and daemonsets.apps.kruise.io\n',
    });
    expect(await runCli(['rollout', 'history', SEED_NAME], { HOME: '/nonexistent' })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: no kubeconfig: pass --kubeconfig <file>, set KUBECONFIG, or create ~/.kube/config\n',
    });
    expect(await cli('rollout', 'status', SEED_NAME, '--kubeconfig', '/nonexistent/config')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: kubeconfig /nonexistent/config does not exist\n',
    });
  });

  it('pause holds a template change back; status times out with exit 1; resume lets it finish', async () => {
    expect(await cli('rollout', 'pause', SEED_NAME)).toEqual({
      code: 0,
      stdout: `${SHOWN} paused\n`,
      stderr: '',
    });
    expect((await getCloneSet(ctx.custom, ctx.namespace)).spec.updateStrategy?.paused).toBe(true);
    expect(await cli('rollout', 'pause', SEED_NAME)).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: clonesets.apps.kruise.io "${SEED_NAME}" is already paused\n`,
    });

    await patchCloneSet(ctx.custom, ctx.namespace, [
      {
        op: 'add',
        path: '/metadata/annotations',
        value: { 'kubernetes.io/change-cause': 'image nginx:1.19-alpine' },
      },
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.19-alpine' },
    ]);
    await observed();
    const started = Date.now();
    expect(await cli('rollout', 'status', SEED_NAME, '--timeout', '2s', '--interval', '200')).toEqual({
      code: 1,
      stdout: 'Waiting for rollout to finish: 0 out of 2 new replicas have been updated...\n',
      stderr: 'error: timed out waiting for the condition\n',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(await cli('rollout', 'status', SEED_NAME, '--watch=false')).toEqual({
      code: 0,
      stdout: 'Waiting for rollout to finish: 0 out of 2 new replicas have been updated...\n',
      stderr: '',
    });

    expect(await cli('rollout', 'resume', SEED_NAME)).toEqual({
      code: 0,
      stdout: `${SHOWN} resumed\n`,
      stderr: '',
    });
    expect(await cli('rollout', 'resume', SEED_NAME)).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: clonesets.apps.kruise.io "${SEED_NAME}" is not paused\n`,
    });
    const run = await cli('rollout', 'status', SEED_NAME, '--timeout', '90s', '--interval', '200');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.split('\n').slice(0, -1);
    expect(lines.at(-1)).toBe(DONE.trimEnd());
    expect(lines.slice(0, -1).filter((l) => !PROGRESS.test(l))).toEqual([]);
    expect(new Set(lines).size).toBe(lines.length); // a line is printed when it changes, not on every poll
  }, 150_000);

  it('history lists the revisions with the change-cause they copied from the CloneSet; undo restores the previous template; --to-revision picks one', async () => {
    expect(await cli('rollout', 'history', SEED_NAME)).toEqual({
      code: 0,
      stdout: `${SHOWN} \nREVISION  CHANGE-CAUSE\n1         <none>\n2         image nginx:1.19-alpine\n\n`,
      stderr: '',
    });
    expect(await cli('rollout', 'undo', SEED_NAME)).toEqual({
      code: 0,
      stdout: `${SHOWN} rolled back\n`,
      stderr: '',
    });
    expect((await getCloneSet(ctx.custom, ctx.namespace)).spec.template.spec.containers[0]?.image).toBe(
      'nginx:1.18-alpine',
    );
    expect((await cli('rollout', 'status', SEED_NAME, '--timeout', '90s', '--interval', '200')).code).toBe(0);
    // the old revision is renumbered (OpenKruise reuses a revision whose template came back)
    expect(await cli('rollout', 'history', SEED_NAME)).toEqual({
      code: 0,
      stdout: `${SHOWN} \nREVISION  CHANGE-CAUSE\n2         image nginx:1.19-alpine\n3         <none>\n\n`,
      stderr: '',
    });
    expect(await cli('rollout', 'undo', SEED_NAME, '--to-revision', '3')).toEqual({
      code: 0,
      stdout: `${SHOWN} skipped rollback (current template already matches revision 3)\n`,
      stderr: '',
    });
    expect(await cli('rollout', 'undo', SEED_NAME, '--to-revision', '9')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: unable to find specified revision 9 in history\n',
    });
    const one = await cli('rollout', 'history', SEED_NAME, '--revision', '2');
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(`${SHOWN} with revision #2\ntemplate:\n`);
    expect(one.stdout).toContain('image: nginx:1.19-alpine');
  }, 150_000);
});
