/**
 * The controllers of a bench run. Two local control planes of the same build (infra/local, Kubernetes v1.34.4),
 * each with kube-controller-manager's Deployment, StatefulSet and DaemonSet controllers turned on
 * (`KRUISELESS_KCM_CONTROLLERS`):
 * - the reference control plane (`npm run reference:up`) with OpenKruise's kruise-manager (its CRDs, webhooks);
 * - Kruiseless's control plane (`npm run cluster:up`, our CRD) with Kruiseless's embedded pipeline in this process
 *   (the same handlers as in Lambda, lib/local/embedded.ts, as `kruiseless local` runs them), which also hosts
 *   the Deployment, apps/v1 StatefulSet and apps/v1 DaemonSet runs.
 * Each controller sees only its own control plane, so one never reconciles the other's CloneSets.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startEmbedded, type Embedded } from '../../lib/local/embedded.js';
import { referenceInfoFile, runCommand } from '../../test/parity/sides.js';
import { kubeconfigPath, stateDir } from '../../infra/local/versions.js';
import { runningControllers } from '../../infra/local/cluster.js';
import { checkControllers } from './controllers.js';
import { benchCluster, type BenchCluster } from './kube.js';
import { BENCH_CLUSTER, BenchLogger } from './reconciles.js';
import { errorMessage } from '../../lib/core/errors.js';

export { BenchLogger } from './reconciles.js';

/** The running sides. */
export interface Sides {
  reference: BenchCluster;
  ours: BenchCluster;
  embedded: Embedded;
  logger: BenchLogger;
  /** OpenKruise version of the reference. */
  openKruiseVersion: string;
  /** Stop the pipeline, and the control planes this run started. */
  stop: () => Promise<void>;
}

async function reachable(kubeconfig: string): Promise<boolean> {
  if (!existsSync(kubeconfig)) return false;
  try {
    await benchCluster('probe', kubeconfig).request('GET', '/readyz');
    return true;
  } catch {
    return false;
  }
}

/** Why {@link startSides} fails when its stop was called before it was done. */
export const STOPPED_WHILE_STARTING = 'bench: stopped while the control planes came up';

/**
 * Start (or reuse) both control planes and the pipeline. A running Kruiseless control plane is reused only when its
 * kube-controller-manager runs `kcmControllers` (bench/support/controllers.ts); the reference needs none (the
 * Deployment runs are on Kruiseless's control plane). When a later part fails to come up, what this call started
 * is stopped again before the error is thrown: left running, the next run reused it and never stopped it.
 * @param logDir where the `up`/`down` commands' output goes
 * @param kcmControllers controllers the bench needs from Kruiseless's control plane's kube-controller-manager
 * @param onStarting given, before anything starts, the function that stops whatever this call has started so far
 *   (an interrupt while a control plane comes up, or the reference is built, must still stop it): it waits for an
 *   `up` still running, and nothing more is started after it
 * @throws ControlPlaneRefusedError when a running Kruiseless control plane lacks some of `kcmControllers` (before
 *   anything is started); Error when a control plane does not come up (the log file is named)
 */
export async function startSides(
  logDir: string,
  kcmControllers: readonly string[] = [],
  onStarting?: (stopSoFar: () => Promise<void>) => void,
): Promise<Sides> {
  const refInfo = referenceInfoFile();
  const refWasUp = existsSync(refInfo) && (await reachable(readInfo(refInfo).kubeconfig));
  const oursWasUp = await reachable(kubeconfigPath());
  if (oursWasUp && kcmControllers.length > 0) {
    const controllers = runningControllers(stateDir());
    if (controllers) checkControllers(stateDir(), controllers, kcmControllers);
    else
      console.error(
        `[bench] cannot tell what the kube-controller-manager in ${stateDir()} runs: ` +
          `not checked for ${kcmControllers.join(', ')}`,
      );
  }
  // set before each `up` runs: one cut short has started part of its control plane, which `down` stops
  let oursStarting = false;
  let refStarting = false;
  let embedded: Embedded | undefined;
  let stopped: Promise<void> | undefined;
  let upRunning: Promise<unknown> = Promise.resolve();
  /** Run an `up` (unless stopped), after `starting()` marks its control plane as this call's to stop. */
  const up = async (args: string[], log: string, starting: () => void): Promise<void> => {
    if (stopped) throw new Error(STOPPED_WHILE_STARTING);
    starting();
    const run = runCommand(args, {}, path.join(logDir, log));
    upRunning = run.catch(() => undefined);
    await run;
  };
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      // an `up` still running (a SIGTERM reaches the bench alone) would start its control plane after the `down`
      await upRunning;
      await embedded?.stop();
      if (refStarting)
        await runCommand(['infra/reference/cli.ts', 'down'], {}, path.join(logDir, 'reference-down.log'));
      if (oursStarting)
        await runCommand(['infra/local/cli.ts', 'down'], {}, path.join(logDir, 'cluster-down.log'));
    })());
  onStarting?.(stop);
  try {
    await up(['infra/local/cli.ts', 'up'], 'cluster-up.log', () => (oursStarting = !oursWasUp));
    await up(['infra/reference/cli.ts', 'up'], 'reference-up.log', () => (refStarting = !refWasUp));
    const info = readInfo(refInfo);
    const logger = new BenchLogger();
    if (stopped) throw new Error(STOPPED_WHILE_STARTING);
    embedded = await startEmbedded({ kubeconfig: kubeconfigPath(), clusterName: BENCH_CLUSTER, logger });
    return {
      reference: benchCluster('reference', info.kubeconfig),
      ours: benchCluster('kruiseless', kubeconfigPath()),
      embedded,
      logger,
      openKruiseVersion: info.version,
      stop,
    };
  } catch (e) {
    await stop().catch((s: unknown) =>
      console.error(`[bench] stopping what this run started failed too: ${errorMessage(s)}`),
    );
    throw e;
  }
}

/**
 * Stop the sides when the bench is interrupted (SIGINT, as Ctrl-C sends, or SIGTERM), then exit 130; a second
 * signal is not caught (it ends the process at once). The control planes and kruise-manager are detached
 * processes: without this an interrupted bench left both control planes running, and the next run reused them as
 * "already up" and so never stopped them (the reference's is in `.reference`, which `npm run reference:down` does
 * not look at).
 * @param stop {@link Sides.stop}
 * @param exit how to end the process (a test passes its own)
 * @returns a function that removes the handlers (once the run stops the sides itself)
 */
export function stopOnInterrupt(
  stop: () => Promise<void>,
  exit: (code: number) => void = (code) => process.exit(code),
): () => void {
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((signal) => {
    const handler = (): void => {
      off();
      console.error(`[bench] ${signal}: stopping the pipeline and the control planes this run started`);
      void stop()
        .catch((e: unknown) => console.error(`[bench] stopping after ${signal} failed: ${errorMessage(e)}`))
        .finally(() => exit(130));
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  const off = (): void => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
  return off;
}

function readInfo(file: string): { kubeconfig: string; version: string } {
  return JSON.parse(readFileSync(file, 'utf8')) as { kubeconfig: string; version: string };
}

/** State folder of Kruiseless's control plane (where the bench writes its logs). */
export const benchStateDir = (): string => stateDir();
