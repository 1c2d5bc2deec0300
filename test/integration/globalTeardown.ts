/**
 * Jest global teardown of the `integration` project: stops the control plane (`infra/local/cli.ts down`)
 * only when globalSetup started it — a cluster from `npm run cluster:up` or from KUBECONFIG is left alone —
 * and not when KRUISELESS_KEEP_CLUSTER=1 (faster reruns). Node built-ins only (see globalSetup.ts).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Config } from '@jest/types';

export default function globalTeardown(_g: Config.GlobalConfig, project: Config.ProjectConfig): void {
  if (process.env.KRUISELESS_TEST_STARTED_CLUSTER !== '1') return;
  delete process.env.KRUISELESS_TEST_STARTED_CLUSTER;
  if (process.env.KRUISELESS_KEEP_CLUSTER === '1') {
    process.stderr.write('[integration] KRUISELESS_KEEP_CLUSTER=1: leaving the control plane running\n');
    return;
  }
  const res = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join('infra', 'local', 'cli.ts'), 'down'],
    {
      cwd: project.rootDir,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  if (res.status !== 0) throw new Error(`infra/local/cli.ts down failed (exit ${res.status})`);
}
