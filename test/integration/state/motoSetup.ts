/**
 * Jest global setup of the `state-moto` project: makes sure the pinned moto is installed
 * (`scripts/moto-install.sh`, a no-op when cached under ~/.cache/kruiseless/), so that `npm test` works on a fresh
 * clone. Node built-ins only (jest loads this file outside its module mapper).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Config } from '@jest/types';

export default function motoSetup(_g: Config.GlobalConfig, project: Config.ProjectConfig): void {
  if (process.env.KRUISELESS_MOTO_PYTHON) return;
  process.stderr.write('\n');
  const res = spawnSync('bash', [path.join('scripts', 'moto-install.sh')], {
    cwd: project.rootDir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (res.status !== 0)
    throw new Error(
      'scripts/moto-install.sh failed (see above): the state-moto project needs moto[server] from PyPI; ' +
        'set KRUISELESS_MOTO_PYTHON to a Python that has moto to use that instead',
    );
}
