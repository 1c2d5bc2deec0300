/**
 * What `npm run demo:aws` and `npm run soak` both stand on: the local control plane, the packaged functions
 * (`osls package`), moto installed if missing, and the emulated AWS stack (lib/emulator/aws/emulatedAws.ts) running
 * those functions against the cluster, stopped on Ctrl-C or SIGTERM as well as by {@link AwsSession.close}.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { clusterUp, type ClusterInfo } from '../../infra/local/cluster.js';
import { REPO_ROOT, stateDir } from '../../infra/local/versions.js';
import { ensureArtifacts } from '../emulator/aws/artifacts.js';
import { startEmulatedAws, type EmulatedAws } from '../emulator/aws/emulatedAws.js';
import type { ProxyObserver } from '../emulator/aws/eksAuthProxy.js';
import { findMotoPython } from '../emulator/moto.js';

/** Options of {@link startAwsSession}. */
export interface AwsSessionOptions {
  /** Schedule rules run at this fraction of their rate (1: serverless.yml's rates). */
  intervalScale: number;
  /** Told about each request the EKS endpoint forwards (lib/emulator/aws/eksAuthProxy.ts). */
  proxyObserver?: ProxyObserver;
  /** Progress lines (indented by the caller's convention). */
  say: (line: string) => void;
  /** Printed before each of the three steps, numbered 1 to 3. */
  heading: (line: string) => void;
}

/** A running session. */
export interface AwsSession {
  /** The local control plane (admin kubeconfig). */
  info: ClusterInfo;
  aws: EmulatedAws;
  /** Function logs live in `<workDir>/logs/<function name>.log`. */
  workDir: string;
  /** Stop emulated AWS (the control plane keeps running, as after `npm run demo`); idempotent. */
  close: () => Promise<void>;
}

/**
 * Installs moto once with `npm run moto:install` (scripts/moto-install.sh: a virtualenv from PyPI, ~1 min) when
 * neither `$KRUISELESS_MOTO_PYTHON` nor the cached virtualenv provides it, as the README's "Try the packaged
 * functions on emulated AWS" promises.
 * @throws Error when the install script fails (its output is shown)
 */
function ensureMoto(say: (line: string) => void): void {
  if (process.env.KRUISELESS_MOTO_PYTHON || findMotoPython()) return;
  say('moto is not installed: running `npm run moto:install` (PyPI, once)');
  execFileSync('bash', [path.join(REPO_ROOT, 'scripts', 'moto-install.sh')], { stdio: 'inherit' });
}

/**
 * Start the control plane (or reuse the running one), package the functions if stale, and start emulated AWS.
 * moto and the function processes are this process's children: a SIGINT or SIGTERM before {@link AwsSession.close}
 * stops them and exits (130 / 143).
 * @throws whatever {@link clusterUp}, {@link ensureArtifacts} or {@link startEmulatedAws} throws
 */
export async function startAwsSession(opts: AwsSessionOptions): Promise<AwsSession> {
  const { say, heading, intervalScale } = opts;
  heading('1. local control plane');
  const { info } = await clusterUp(say);
  heading('2. the packaged functions (osls package → .serverless/)');
  const artifactDir = await ensureArtifacts(REPO_ROOT, say);
  heading(
    `3. emulated AWS (schedule rules at ${intervalScale} × their rate, Lambda retries after 1 s and 2 s)`,
  );
  ensureMoto(say);
  const workDir = path.join(stateDir(), 'aws-emulator');
  const aws = await startEmulatedAws({
    artifactDir,
    kubeconfig: info.kubeconfig,
    workDir,
    intervalScale,
    log: say,
    ...(opts.proxyObserver ? { proxyObserver: opts.proxyObserver } : {}),
  });
  say(`function logs: ${path.join(workDir, 'logs')}/`);
  const interrupted = (signal: NodeJS.Signals) => {
    void aws.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  let closed: Promise<void> | undefined;
  return {
    info,
    aws,
    workDir,
    close: () => {
      closed ??= (async () => {
        process.off('SIGINT', interrupted);
        process.off('SIGTERM', interrupted);
        await aws.stop();
      })();
      return closed;
    },
  };
}
