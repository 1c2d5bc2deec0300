/**
 * Jest global setup of the `integration` project: makes a real control plane available once per run.
 * - `KUBECONFIG` set and reachable: use that cluster (the CloneSet CRD is applied to it).
 * - otherwise: `clusterUp()` (builds the binaries first if the cache has none, with progress on stderr;
 *   a no-op when `npm run cluster:up` already started one).
 * The kubeconfig path reaches the test workers through process.env (workers inherit it).
 */
import { clusterUp } from '../../infra/local/cluster.js';
import { installCrds, reachable } from './support/kube.js';
import { STARTED_BY_SETUP_ENV, TEST_KUBECONFIG_ENV } from './support/env.js';

export default async function globalSetup(): Promise<void> {
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const given = process.env.KUBECONFIG;
  if (given && (await reachable(given))) {
    log(`\n[integration] using the cluster of KUBECONFIG=${given}`);
    await installCrds(given);
    process.env[TEST_KUBECONFIG_ENV] = given;
    return;
  }
  if (given) log(`\n[integration] KUBECONFIG=${given} is not reachable; starting the local control plane`);
  else log('\n[integration] starting the local control plane (npm run cluster:up)');
  const { info, started } = await clusterUp(log);
  process.env[TEST_KUBECONFIG_ENV] = info.kubeconfig;
  if (started) process.env[STARTED_BY_SETUP_ENV] = '1';
}
