/**
 * Every kind the parity harness runs, one line each (as OpenKruise's `pkg/controller/controllers.go` lists its
 * controllers): `npm run parity` without `--kind` runs them in this order.
 */
import type { ParityKind } from '../kind.js';
import { cloneSet } from './cloneset/index.js';
import { statefulSet } from './statefulset/index.js';
import { broadcastJob } from './broadcastjob/index.js';
import { sidecarSet } from './sidecarset/index.js';
import { advancedCronJob } from './advancedcronjob/index.js';
import { daemonSet } from './daemonset/index.js';
import { podUnavailableBudget } from './podunavailablebudget/index.js';
import { workloadSpread } from './workloadspread/index.js';
import { KruiselessError } from '../../../lib/core/errors.js';

/** The kinds, in run order. */
export const PARITY_KINDS: readonly ParityKind[] = [
  cloneSet,
  statefulSet,
  broadcastJob,
  sidecarSet,
  advancedCronJob,
  daemonSet,
  podUnavailableBudget,
  workloadSpread,
];

/** `--kind` named no kind of {@link PARITY_KINDS}. */
export class UnknownKindError extends KruiselessError {
  constructor(readonly given: string) {
    super(`unknown kind "${given}" (known: ${PARITY_KINDS.map((k) => k.name).join(', ')})`);
    this.name = 'UnknownKindError';
  }
}

/**
 * The kinds a `--kind` option selects: the one named (its lower-case name, case ignored), or every kind when absent.
 * @throws UnknownKindError when no kind has that name
 */
export function selectKinds(name: string | undefined): readonly ParityKind[] {
  if (name === undefined) return PARITY_KINDS;
  const kind = PARITY_KINDS.find((k) => k.name === name.trim().toLowerCase());
  if (!kind) throw new UnknownKindError(name);
  return [kind];
}
