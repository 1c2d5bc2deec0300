/**
 * PhaseContext builder for the update-phase tests (docs/behaviour/cloneset.md#update-phase): revisions
 * `old_rev` (image foo1) and `new_rev` (image foo2) of a one-container (`c1`) template, pods shaped like
 * OpenKruise's cloneset_update_test.go (the pods and revisions are ../support/inPlacePods.ts).
 */
import type { CloneSet, ControllerRevision, Pod } from '../../../../../lib/api/types.js';
import { resolveStrategy } from '../../../../../lib/controllers/cloneset/plan/strategy.js';
import {
  DEFAULT_PLANNER_OPTIONS,
  type PhaseContext,
  type PlannerOptions,
} from '../../../../../lib/controllers/cloneset/plan/types.js';
import { cloneSet, NEW_REV, NOW, OLD_REV } from '../../../support/fixtures.js';
import { REV_NEW, REV_OLD, tpl } from '../../../support/inPlacePods.js';

/** A PhaseContext for `cs` and `pods`; current = old_rev, update = new_rev unless given. */
export function phaseContext(
  cs: CloneSet,
  pods: Pod[],
  o: {
    current?: ControllerRevision;
    update?: ControllerRevision;
    revisions?: ControllerRevision[];
    options?: Partial<PlannerOptions>;
    now?: Date;
  } = {},
): PhaseContext {
  const options = { ...DEFAULT_PLANNER_OPTIONS, ...(o.options ?? {}) };
  const current = o.current ?? REV_OLD;
  const update = o.update ?? REV_NEW;
  return {
    cloneSet: cs,
    strategy: resolveStrategy(cs, options),
    currentRevision: current,
    updateRevision: update,
    revisions: o.revisions ?? [current, update].filter((r, i, a) => a.indexOf(r) === i),
    pods,
    pvcs: [],
    now: o.now ?? NOW,
    options,
    newInstanceId: () => 'unused',
  };
}

/** `CS(R, partition, maxUnavailable, maxSurge)` with the given update type and extras. */
export function updateCloneSet(
  type: 'ReCreate' | 'InPlaceIfPossible' | 'InPlaceOnly' | 'OnDelete',
  replicas = 1,
  extra: Partial<CloneSet['spec']> = {},
): CloneSet {
  const cs = cloneSet(replicas, 0, 1, 0);
  cs.spec.template = tpl('foo2');
  cs.spec.updateStrategy = { ...cs.spec.updateStrategy, type };
  Object.assign(cs.spec, extra);
  return cs;
}

export { NEW_REV, NOW, OLD_REV };
export { ipPod, REV_NEW, REV_OLD, tpl } from '../../../support/inPlacePods.js';
