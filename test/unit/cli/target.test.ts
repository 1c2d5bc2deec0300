/** `TYPE/NAME` arguments of `kruiseless rollout` and `plan`: which kind, and the refusals' exact words. */
import { describe, expect, it } from '@jest/globals';
import { CliError } from '../../../lib/cli/io.js';
import { runCli } from '../../../lib/cli/program.js';
import { rolloutTarget } from '../../../lib/cli/target.js';

describe('rolloutTarget', () => {
  it.each<[string, string, string]>([
    ['web', 'cloneset', 'web'],
    ['clone/web', 'cloneset', 'web'],
    ['CloneSet/web', 'cloneset', 'web'],
    ['clonesets.apps.kruise.io/web', 'cloneset', 'web'],
    ['asts/db', 'statefulset', 'db'],
    ['statefulset.apps.kruise.io/db', 'statefulset', 'db'],
    ['statefulsets.v1beta1.apps.kruise.io/db', 'statefulset', 'db'],
    ['statefulsets.v1alpha1.apps.kruise.io/db', 'statefulset', 'db'],
    ['ds/agent', 'daemonset', 'agent'],
    ['DaemonSet/agent', 'daemonset', 'agent'],
    ['daemonsets/agent', 'daemonset', 'agent'],
    ['ads/agent', 'daemonset', 'agent'],
    ['daemon/agent', 'daemonset', 'agent'],
    ['daemonsets.apps.kruise.io/agent', 'daemonset', 'agent'],
    ['daemonset.v1beta1.apps.kruise.io/agent', 'daemonset', 'agent'],
  ])('%s is a %s named %s', (arg, kind, name) => {
    expect(rolloutTarget(arg)).toEqual({ kind, name });
  });

  it("refuses apps/v1's StatefulSet, naming the spelling that works", () => {
    for (const type of ['sts', 'statefulset', 'statefulsets.apps']) {
      expect(() => rolloutTarget(`${type}/db`)).toThrow(
        new CliError(
          `"${type}" is apps/v1's StatefulSet, which kube-controller-manager runs; an Advanced StatefulSet is statefulset.apps.kruise.io/db (or asts/db)`,
        ),
      );
    }
  });

  it("refuses apps/v1's DaemonSet named with its group, naming the spelling that works", () => {
    for (const type of ['daemonsets.apps', 'daemonset.v1.apps']) {
      expect(() => rolloutTarget(`${type}/agent`)).toThrow(
        new CliError(
          `"${type}" is apps/v1's DaemonSet, which kube-controller-manager runs; an Advanced DaemonSet is daemonset.apps.kruise.io/agent (or ds/agent)`,
        ),
      );
    }
  });

  it('refuses another type and an empty name', () => {
    expect(() => rolloutTarget('deployment/web')).toThrow(
      new CliError(
        '"deployment" is not a CloneSet, an Advanced StatefulSet or an Advanced DaemonSet: kruiseless handles clonesets.apps.kruise.io, statefulsets.apps.kruise.io and daemonsets.apps.kruise.io',
      ),
    );
    expect(() => rolloutTarget('clone/')).toThrow(new CliError('"clone/" names no workload'));
  });

  it('plan and rollout take an Advanced DaemonSet, as far as the connection', async () => {
    expect(await runCli(['plan', 'ds/agent'], { HOME: '/nonexistent' })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: no kubeconfig: pass --kubeconfig <file>, set KUBECONFIG, or create ~/.kube/config\n',
    });
    expect(await runCli(['rollout', 'status', 'ds/agent'], { HOME: '/nonexistent' })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: no kubeconfig: pass --kubeconfig <file>, set KUBECONFIG, or create ~/.kube/config\n',
    });
  });
});
