/**
 * Whether a running kube-controller-manager runs the controllers the bench needs. infra/local reads
 * `KRUISELESS_KCM_CONTROLLERS` only when it starts a control plane; one started by `npm run demo` or `cluster:up`
 * runs without the Deployment controller, so every Deployment run of the bench failed on it
 * (`deployment: 200 pods exist: not within 240 s`). The bench checks a control plane it reuses and refuses it with
 * one line instead.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The controllers the bench's Deployment runs need (kube-controller-manager's names). */
export const DEPLOYMENT_CONTROLLERS = ['deployment-controller', 'replicaset-controller'] as const;

/**
 * The `--controllers` list of a kube-controller-manager command line (`--controllers=a,b` or `--controllers a,b`,
 * the last one winning as with pflag); `['*']`, kube-controller-manager's default, when there is none.
 */
export function controllersFlag(args: readonly string[]): string[] {
  let value = '*';
  args.forEach((a, i) => {
    if (a.startsWith('--controllers=')) value = a.slice('--controllers='.length);
    else if (a === '--controllers' && i + 1 < args.length) value = args[i + 1];
  });
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A controller's name without kube-controller-manager's `-controller` suffix (both spellings are accepted). */
const short = (name: string): string => name.replace(/-controller$/, '');

/**
 * The controllers of `needed` that a kube-controller-manager started with `args` does not run, by its rule
 * (k8s.io/controller-manager `IsControllerEnabled`): a name turns a controller on, `-name` off, the first match
 * wins; `*` turns on every controller that is on by default. Only controllers on by default may be `needed`
 * (the Deployment and ReplicaSet controllers are).
 * @param args the command line after the program name
 */
export function missingControllers(args: readonly string[], needed: readonly string[]): string[] {
  const list = controllersFlag(args);
  return needed.filter((name) => {
    for (const c of list) {
      if (c === '*') continue;
      const off = c.startsWith('-');
      if (short(off ? c.slice(1) : c) === short(name)) return off;
    }
    return !list.includes('*');
  });
}

/**
 * The command line of the kube-controller-manager a control plane's state folder records as running: its pid
 * file (`run/kube-controller-manager.pid`, infra/local/processes.ts) and that process's `/proc/<pid>/cmdline`.
 * @returns the arguments after the program name, or undefined when the pid file or the process cannot be read
 */
export function runningKcmArgs(stateDir: string): string[] | undefined {
  try {
    const rec = JSON.parse(
      readFileSync(path.join(stateDir, 'run', 'kube-controller-manager.pid'), 'utf8'),
    ) as {
      pid?: unknown;
    };
    if (typeof rec.pid !== 'number') return undefined;
    const argv = readFileSync(`/proc/${rec.pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((s) => s !== '');
    return argv.slice(1);
  } catch {
    return undefined;
  }
}

/** Thrown when the bench refuses a control plane it would reuse; the message is the one line to print. */
export class ControlPlaneRefusedError extends Error {
  /**
   * @param stateDir the control plane's state folder
   * @param missing the controllers its kube-controller-manager lacks
   */
  constructor(
    readonly stateDir: string,
    readonly missing: readonly string[],
  ) {
    super(
      `bench: the running control plane in ${stateDir} (started by \`npm run demo\` or \`cluster:up\`?) runs ` +
        `kube-controller-manager without ${missing.join(', ')}, which the Deployment runs need; stop it with ` +
        `\`npm run cluster:down\` and run the bench again (it then starts its own with them, and stops it after)`,
    );
    this.name = 'ControlPlaneRefusedError';
  }
}

/**
 * Refuse a running control plane whose kube-controller-manager lacks some of `needed`.
 * @param stateDir its state folder
 * @param args its kube-controller-manager's command line ({@link runningKcmArgs})
 * @throws ControlPlaneRefusedError naming what is missing
 */
export function checkControllers(stateDir: string, args: readonly string[], needed: readonly string[]): void {
  const missing = missingControllers(args, needed);
  if (missing.length > 0) throw new ControlPlaneRefusedError(stateDir, missing);
}
