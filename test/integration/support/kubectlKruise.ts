/**
 * Runs OpenKruise's kubectl plugin (built by `npm run kubectl-kruise:build`) against the test cluster. Test-only.
 */
import { execFile } from 'node:child_process';
import { kubectlKruiseTarget } from '../../../infra/kubectl-kruise/build.js';
import { testKubeconfig } from './pipeline.js';

/** What a command printed and exited with. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `kubectl-kruise --kubeconfig=<test kubeconfig> -n <namespace> <args>` asynchronously (the pipeline runs in
 * the test's process), at most 90 s.
 * @returns its exit code (1 when it was killed or could not start), stdout and stderr
 */
export function kubectlKruise(namespace: string, ...args: string[]): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      kubectlKruiseTarget().binary,
      [`--kubeconfig=${testKubeconfig()}`, '-n', namespace, ...args],
      { timeout: 90_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
