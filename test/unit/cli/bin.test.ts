/** The package's bin as a real process: its exit code and stderr are what a shell sees. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';

const BIN = path.resolve('bin/kruiseless.js');

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('bin/kruiseless.js', () => {
  it('exits 1 with the lint lines, 0 for a valid file', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'kruiseless-bin-')), 'bad.yaml');
    writeFileSync(
      file,
      'apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata: {name: web}\nspec:\n  replicas: -1\n  selector: {matchLabels: {app: x}}\n  template:\n    metadata: {labels: {app: x}}\n    spec: {containers: [{name: c, image: nginx}]}\n',
    );
    expect(run('lint', '-f', file)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'spec.replicas: Invalid value: -1: must be greater than or equal to 0\n',
    });
    expect(run('lint', '-f', 'examples/cs-no-pvc-sample.yaml')).toEqual({
      code: 0,
      stdout: 'cloneset "cs-no-pvc-sample" is valid\n',
      stderr: '',
    });
  }, 60_000);

  it('exits 1 without a kubeconfig', () => {
    expect(run('rollout', 'status', 'web')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: no kubeconfig: pass --kubeconfig <file>, set KUBECONFIG, or create ~/.kube/config\n',
    });
  }, 60_000);
});
