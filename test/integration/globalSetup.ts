/**
 * Jest global setup of the `integration` project: makes a real control plane available once per run by
 * running `infra/local/cli.ts test-setup` (tsx, in a child process: jest loads this file outside its module
 * mapper, so it cannot import the infra TypeScript modules; this file uses Node built-ins only).
 * That is the cluster of `KUBECONFIG` when set and reachable (CRDs applied to it), otherwise the local
 * control plane, built first when the cache has no binaries (progress on stderr) and reused when
 * `npm run cluster:up` already started it. The kubeconfig path reaches the test workers through
 * process.env.KRUISELESS_TEST_KUBECONFIG; KRUISELESS_TEST_STARTED_CLUSTER=1 tells teardown to stop it.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Config } from '@jest/types';

const RESULT_PREFIX = 'KRUISELESS_TEST_CLUSTER ';

export default async function globalSetup(
  _g: Config.GlobalConfig,
  project: Config.ProjectConfig,
): Promise<void> {
  process.stderr.write('\n');
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join('infra', 'local', 'cli.ts'), 'test-setup'],
      {
        cwd: project.rootDir,
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, NODE_OPTIONS: '' },
      },
    );
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`infra/local/cli.ts test-setup failed (exit ${code}), see above`)),
    );
  });
  const line = out.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
  if (!line) throw new Error(`infra/local/cli.ts test-setup printed no result:\n${out}`);
  const info = JSON.parse(line.slice(RESULT_PREFIX.length)) as { kubeconfig: string; started: boolean };
  process.env.KRUISELESS_TEST_KUBECONFIG = info.kubeconfig;
  if (info.started) process.env.KRUISELESS_TEST_STARTED_CLUSTER = '1';
}
