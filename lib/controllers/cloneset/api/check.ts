/**
 * A stored CloneSet as the controller reads it (docs/behaviour/cloneset.md#validation): defaulted in memory, then
 * validated. One place for the pairing, used by the planner and by `kruiseless lint`.
 */
import { applyDefaults } from './defaults.js';
import type { FieldError } from '../../../api/errors.js';
import type { CloneSet } from '../../../api/types.js';
import { validateCloneSet } from './validation.js';

/** Options of {@link checkCloneSet}. */
export interface CheckOptions {
  /** OpenKruise's `TemplateNoDefaults` gate: keep the pod template as stored (default false). */
  templateNoDefaults?: boolean;
  /**
   * Accept `updateStrategy.type: OnDelete` (reachable through v1beta1; the v1alpha1 webhook rejects it), see
   * {@link validateCloneSet}. Default false.
   */
  allowOnDelete?: boolean;
  /** As ./validation.ts `ValidationOptions.progressDeadlineRules` (the planner: false). Default true. */
  progressDeadlineRules?: boolean;
}

/**
 * The defaulted CloneSet ({@link applyDefaults}) and its validation errors ({@link validateCloneSet}), `[]` when
 * valid. The input is not modified.
 */
export function checkCloneSet(
  cs: CloneSet,
  opts: CheckOptions = {},
): { cloneSet: CloneSet; errors: FieldError[] } {
  const cloneSet = applyDefaults(cs, { templateNoDefaults: opts.templateNoDefaults ?? false });
  return {
    cloneSet,
    errors: validateCloneSet(cloneSet, undefined, {
      allowOnDelete: opts.allowOnDelete ?? false,
      progressDeadlineRules: opts.progressDeadlineRules ?? true,
    }),
  };
}
