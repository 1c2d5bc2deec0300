/**
 * Jest global teardown of the `integration` project: stops the control plane only when globalSetup
 * started it (a cluster from `npm run cluster:up` or from KUBECONFIG is left alone), unless
 * KRUISELESS_KEEP_CLUSTER=1.
 */
import { clusterDown } from '../../infra/local/cluster.js';
import { KEEP_CLUSTER_ENV, STARTED_BY_SETUP_ENV } from './support/env.js';

export default async function globalTeardown(): Promise<void> {
  if (process.env[STARTED_BY_SETUP_ENV] !== '1') return;
  delete process.env[STARTED_BY_SETUP_ENV];
  if (process.env[KEEP_CLUSTER_ENV] === '1') {
    process.stderr.write('[integration] KRUISELESS_KEEP_CLUSTER=1: leaving the control plane running\n');
    return;
  }
  await clusterDown((line) => void process.stderr.write(`${line}\n`));
}
