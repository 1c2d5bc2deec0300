/**
 * The light list of the registry (lib/controllers/controller.ts `ControllerKind`): each registered controller's
 * name, kind, resource, watches, CRD and settings, without its reconcile code — what the watch, resync and
 * admission functions and the request parser need, so their bundles do not carry the planners. Its order and
 * entries are ./index.ts's `CONTROLLERS` (a unit test checks each registration spreads its entry here).
 */
import { kindLookup, type KindLookup } from '../core/objectKey.js';
import { cloneSetKind } from './cloneset/kind.js';
import { statefulSetKind } from './statefulset/kind.js';
import { broadcastJobKind } from './broadcastjob/kind.js';
import { sidecarSetKind } from './sidecarset/kind.js';
import { advancedCronJobKind } from './advancedcronjob/kind.js';
import { daemonSetKind } from './daemonset/kind.js';
import { podUnavailableBudgetKind } from './podunavailablebudget/kind.js';
import { workloadSpreadKind } from './workloadspread/kind.js';
import { podKind } from './podKind.js';
import type { ControllerKind } from './controller.js';

/** Every registered controller's light part, in registration order. */
export const CONTROLLER_KINDS: readonly ControllerKind[] = [
  cloneSetKind,
  statefulSetKind,
  broadcastJobKind,
  sidecarSetKind,
  advancedCronJobKind,
  daemonSetKind,
  podUnavailableBudgetKind,
  workloadSpreadKind,
  podKind,
];

/** A {@link KindLookup} over `controllers`: the request parser's known kinds and their scope. */
export function kindsOf(controllers: readonly Pick<ControllerKind, 'kind' | 'resource'>[]): KindLookup {
  return kindLookup(
    Object.fromEntries(controllers.map((c) => [c.kind, { namespaced: c.resource.namespaced }])),
  );
}

/** The kinds the registered controllers reconcile. */
export const KNOWN_KINDS: KindLookup = kindsOf(CONTROLLER_KINDS);
