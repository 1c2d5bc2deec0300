/**
 * The controller registry (OpenKruise's `pkg/controller/controllers.go`): one line per controller. The sources,
 * the reconcile handler's dispatch, the request parser's kinds, the access rows, `kruiseless install` and the CLI
 * all derive from this list; adding a kind is one folder and one line here, and its light part's line in ./kinds.ts
 * (docs/architecture.md#how-to-add-a-kind).
 */
import { cloneSetWith } from './cloneset/index.js';
import { statefulSet } from './statefulset/index.js';
import { broadcastJob } from './broadcastjob/index.js';
import { sidecarSet } from './sidecarset/index.js';
import { advancedCronJob } from './advancedcronjob/index.js';
import { daemonSet } from './daemonset/index.js';
import { podUnavailableBudget } from './podunavailablebudget/index.js';
import { admitPodUpdate } from './podunavailablebudget/podWebhook.js';
import { workloadSpread } from './workloadspread/index.js';
import { pod } from './pod.js';
import type { Controller } from './controller.js';

export { CONTROLLER_KINDS, KNOWN_KINDS, kindsOf } from './kinds.js';

/** Every controller this build runs, in registration order (./kinds.ts lists their light parts in the same order). */
export const CONTROLLERS: readonly Controller[] = [
  // under PodUnavailableBudgetUpdateGate the CloneSet asks the PUB before a pod's update, as OpenKruise's does
  cloneSetWith({ admitPodUpdate }),
  statefulSet,
  broadcastJob,
  sidecarSet,
  advancedCronJob,
  daemonSet,
  podUnavailableBudget,
  workloadSpread,
  // OpenKruise's pod-keyed controllers (container launch priority, pod readiness) as concerns of one registration
  pod,
];

/** The registered controller of a kind (`<group>/<Kind>`), or undefined. */
export function controllerByKind(
  kind: string,
  controllers: readonly Controller[] = CONTROLLERS,
): Controller | undefined {
  return controllers.find((c) => c.kind === kind);
}

/** The registered controller of a name (`cloneset`, the `--kind` value), or undefined. */
export function controllerByName(
  name: string,
  controllers: readonly Controller[] = CONTROLLERS,
): Controller | undefined {
  return controllers.find((c) => c.name === name);
}
