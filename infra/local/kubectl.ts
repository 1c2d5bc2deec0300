/**
 * `npm run kubectl -- <args>`: the built kubectl with the local cluster's admin kubeconfig
 * (`.kruiseless/kubeconfig`), e.g. `npm run kubectl -- get clone -A`. Exits with kubectl's exit code.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { binPath, kubeconfigPath } from './versions.js';

const kubeconfig = kubeconfigPath();
if (!fs.existsSync(binPath('kubectl')) || !fs.existsSync(kubeconfig)) {
  console.error('no local cluster: run `npm run cluster:up` first');
  process.exit(1);
}
const res = spawnSync(binPath('kubectl'), [`--kubeconfig=${kubeconfig}`, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(res.status ?? 1);
