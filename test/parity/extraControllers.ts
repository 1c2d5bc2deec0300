/**
 * A second kube-controller-manager for the length of one upstream e2e run, running only the controllers a kind's
 * specs need beyond what the shared control planes run (infra/local/cluster.ts `DEFAULT_KCM_CONTROLLERS`): e.g. the
 * Deployment and ReplicaSet controllers for OpenKruise's PodUnavailableBudget and WorkloadSpread specs, which make
 * Deployments. The shared control planes are neither restarted nor changed: the process is started against the
 * side's kubeconfig after the side is up and stopped after the suite run.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { binPath } from '../../infra/local/versions.js';

/** A started extra controller manager. */
export interface ExtraControllers {
  /** Stops it (SIGTERM, SIGKILL after 10 s); resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * The command line of the extra kube-controller-manager: the side's kubeconfig for its client and its delegated
 * authentication, no HTTPS serving (`--secure-port=0`: nothing probes it, and no port is taken from the control
 * plane's), no leader election (the control plane's own manager runs none either), and only `controllers`.
 * @param kubeconfig the side's kubeconfig
 * @param controllers kube-controller-manager's names, e.g. `['deployment-controller', 'replicaset-controller']`;
 *   not empty
 * @throws Error when `controllers` is empty (kube-controller-manager would then run its default set)
 */
export function extraControllerArgs(kubeconfig: string, controllers: readonly string[]): string[] {
  if (controllers.length === 0) throw new Error('extra kube-controller-manager: no controller named');
  return [
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    '--secure-port=0',
    '--leader-elect=false',
    `--controllers=${controllers.join(',')}`,
  ];
}

/**
 * Starts the extra kube-controller-manager (the cached binary, infra/local/versions.ts `binPath`) and waits 3 s for
 * it to stay up.
 * @param logFile its stdout and stderr (replaced)
 * @throws Error naming `logFile` when it exits within those 3 s
 */
export async function startExtraControllers(
  kubeconfig: string,
  controllers: readonly string[],
  logFile: string,
): Promise<ExtraControllers> {
  mkdirSync(path.dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile);
  const child = spawn(binPath('kube-controller-manager'), extraControllerArgs(kubeconfig, controllers), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const early = await Promise.race([exited, new Promise<'up'>((r) => setTimeout(() => r('up'), 3000))]);
  if (early !== 'up')
    throw new Error(`extra kube-controller-manager exited ${String(early)} (log: ${logFile})`);
  return {
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
