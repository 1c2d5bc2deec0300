/**
 * Whether a running kube-controller-manager runs the controllers the bench needs. infra/local reads
 * `KRUISELESS_KCM_CONTROLLERS` only when it starts a control plane; one started by `npm run demo` or `cluster:up`
 * runs without the Deployment controller, so every Deployment run of the bench failed on it
 * (`deployment: 200 pods exist: not within 240 s`). What a running control plane's controller manager runs is
 * infra/local's to tell (cluster.ts `runningControllers`); the bench checks a control plane it would reuse against
 * it and refuses it with one line instead.
 */

/** The controllers the bench's Deployment runs need (kube-controller-manager's names). */
export const DEPLOYMENT_CONTROLLERS = ['deployment-controller', 'replicaset-controller'] as const;

/** The controller the bench's apps/v1 StatefulSet runs (the Advanced StatefulSet part) need. */
export const STATEFULSET_CONTROLLERS = ['statefulset-controller'] as const;

/** The controller the bench's apps/v1 DaemonSet runs (the Advanced DaemonSet part) need. */
export const DAEMONSET_CONTROLLERS = ['daemonset-controller'] as const;

/**
 * The kube-controller-manager controllers the bench's runs of `parts` need: the Deployment controllers for the
 * CloneSet part (`rollout`), the StatefulSet controller for the Advanced StatefulSet part (`asts`), the DaemonSet
 * controller for the Advanced DaemonSet part (`ads`).
 */
export function controllersFor(parts: ReadonlySet<string>): string[] {
  return [
    ...(parts.has('rollout') ? DEPLOYMENT_CONTROLLERS : []),
    ...(parts.has('asts') ? STATEFULSET_CONTROLLERS : []),
    ...(parts.has('ads') ? DAEMONSET_CONTROLLERS : []),
  ];
}

/** Which runs need `missing`: `Deployment`, `StatefulSet`, `DaemonSet`, or several joined by `and`. */
function runsNeeding(missing: readonly string[]): string {
  const needs = (list: readonly string[]): boolean => missing.some((m) => list.includes(m));
  const runs = [
    ...(needs(DEPLOYMENT_CONTROLLERS) ? ['Deployment'] : []),
    ...(needs(STATEFULSET_CONTROLLERS) ? ['StatefulSet'] : []),
    ...(needs(DAEMONSET_CONTROLLERS) ? ['DaemonSet'] : []),
  ];
  return runs.length > 0 ? runs.join(' and ') : 'Deployment';
}

/** A controller's name without kube-controller-manager's `-controller` suffix (both spellings are accepted). */
const short = (name: string): string => name.replace(/-controller$/, '');

/**
 * The controllers of `needed` that a kube-controller-manager running the `--controllers` list `controllers` does
 * not run, by its rule (k8s.io/controller-manager `IsControllerEnabled`): a name turns a controller on, `-name`
 * off, the first match wins; `*` turns on every controller that is on by default. Only controllers on by default
 * may be `needed` (the Deployment, ReplicaSet, StatefulSet and DaemonSet controllers are).
 * @param controllers the `--controllers` list (infra/local/cluster.ts `runningControllers`, `controllersOf`)
 */
export function missingControllers(controllers: readonly string[], needed: readonly string[]): string[] {
  return needed.filter((name) => {
    for (const c of controllers) {
      if (c === '*') continue;
      const off = c.startsWith('-');
      if (short(off ? c.slice(1) : c) === short(name)) return off;
    }
    return !controllers.includes('*');
  });
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
        `kube-controller-manager without ${missing.join(', ')}, which the ${runsNeeding(missing)} runs need; stop it with ` +
        `\`npm run cluster:down\` and run the bench again (it then starts its own with them, and stops it after)`,
    );
    this.name = 'ControlPlaneRefusedError';
  }
}

/**
 * Refuse a running control plane whose kube-controller-manager lacks some of `needed`.
 * @param stateDir its state folder
 * @param controllers its kube-controller-manager's `--controllers` list (infra/local/cluster.ts `runningControllers`)
 * @throws ControlPlaneRefusedError naming what is missing
 */
export function checkControllers(
  stateDir: string,
  controllers: readonly string[],
  needed: readonly string[],
): void {
  const missing = missingControllers(controllers, needed);
  if (missing.length > 0) throw new ControlPlaneRefusedError(stateDir, missing);
}
