/**
 * The emulated-AWS suites' guard: moto from `npm run moto:install` (PyPI), installed here when missing. A suite is
 * skipped, with the reason printed, only when it cannot be installed.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findMotoPython } from '../../../lib/emulator/moto.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Whether moto is there (installing it first when it is not); warns naming `file` when it cannot be. */
function motoAvailable(file: string): boolean {
  if (findMotoPython()) return true;
  const res = spawnSync('bash', [path.join(ROOT, 'scripts', 'moto-install.sh')], { stdio: 'inherit' });
  if (res.status === 0 && findMotoPython()) return true;
  console.warn(`SKIPPED ${file}: moto could not be installed (npm run moto:install)`);
  return false;
}

/**
 * `describe` when moto is available, else `describe.skip` after one warning line naming `file`.
 * @param file the suite's path from the repository root, for the warning
 */
export function motoSuite(file: string): jest.Describe {
  return motoAvailable(file) ? describe : describe.skip;
}
