/**
 * The stage of `npm run test:faults`: a local control plane of its own (state folder `faults-cluster` in the cache,
 * so that a parity run elsewhere never shares it), a dynalite that outlives the reconciler, the fault front in front
 * of the API server, and `kruiseless local` talking to the API server only through it. The scenario steps, the
 * checkpoints and the observers talk to the API server directly.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDynalite, type LocalDynamo } from '../../lib/emulator/dynalite.js';
import { pkiPaths } from '../../infra/local/pki.js';
import { runCommand } from '../parity/sides.js';
import { FaultProxy, proxyTlsOf } from './proxy.js';
import { Reconciler } from './reconciler.js';

/** The running stage. */
export interface Stage {
  /** Admin kubeconfig of the API server itself (the harness's side). */
  kubeconfig: string;
  proxy: FaultProxy;
  reconciler: Reconciler;
  dynamo: LocalDynamo;
  table: string;
  /** Folder of the logs and the last results. */
  stateDir: string;
  /** Stops the reconciler, the proxy and dynalite (the control plane keeps running, as `cluster:up` leaves it). */
  stop(): Promise<void>;
}

/** State folder of the fault front's control plane (env `KRUISELESS_FAULTS_STATE_DIR`). */
export function faultsStateDir(): string {
  const cache = process.env.KRUISELESS_CACHE ?? path.join(os.homedir(), '.cache', 'kruiseless');
  return process.env.KRUISELESS_FAULTS_STATE_DIR ?? path.join(cache, 'faults-cluster');
}

/**
 * Brings the stage up (the control plane started when it does not run).
 * @throws Error naming the log when the control plane or the reconciler does not come up
 */
export async function startStage(): Promise<Stage> {
  const stateDir = faultsStateDir();
  const logDir = path.join(stateDir, 'logs');
  await runCommand(
    ['infra/local/cli.ts', 'up'],
    { KRUISELESS_STATE_DIR: stateDir },
    path.join(logDir, 'faults-cluster-up.log'),
  );
  const info = JSON.parse(readFileSync(path.join(stateDir, 'run', 'cluster.json'), 'utf8')) as {
    kubeconfig: string;
    server: string;
  };
  const pki = pkiPaths(path.join(stateDir, 'pki'));
  const reconciler: { current?: Reconciler } = {};
  const proxy = new FaultProxy({
    upstream: info.server,
    tls: proxyTlsOf(pki),
    onKill: () => reconciler.current?.kill(),
  });
  const url = await proxy.start();
  const proxyKubeconfig = path.join(stateDir, 'run', 'kubeconfig-fault-front');
  writeFileSync(
    proxyKubeconfig,
    readFileSync(info.kubeconfig, 'utf8').replace(`server: "${info.server}"`, `server: "${url}"`),
    { mode: 0o600 },
  );
  const dynamo = await startDynalite();
  const table = 'kruiseless-faults';
  reconciler.current = new Reconciler({
    kubeconfig: proxyKubeconfig,
    dynamoEndpoint: dynamo.endpoint,
    table,
    clusterName: 'faults',
    logFile: path.join(logDir, 'kruiseless-local.log'),
  });
  const r = reconciler.current;
  return {
    kubeconfig: info.kubeconfig,
    proxy,
    reconciler: r,
    dynamo,
    table,
    stateDir,
    async stop() {
      await r.settled().catch(() => undefined);
      await r.stop();
      await proxy.close();
      await dynamo.close();
    },
  };
}
