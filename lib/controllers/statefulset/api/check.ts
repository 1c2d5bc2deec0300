/**
 * A stored Advanced StatefulSet as the controller reads it: defaulted in memory as OpenKruise's mutating webhook
 * would have stored it, then validated by its validating webhook's rules. One place for the pairing, for the
 * planner and for `kruiseless lint`.
 */
import type { FieldError } from '../../../api/errors.js';
import { applyDefaults, type StatefulSetDefaultsOptions } from './defaults.js';
import type { StatefulSet } from './types.js';
import { validateStatefulSet } from './validation.js';

/**
 * The defaulted StatefulSet (./defaults.ts `applyDefaults`) and its validation errors (./validation.ts
 * `validateStatefulSet`), `[]` when valid. The input is not modified.
 * @param options the gates that change the defaults
 */
export function checkStatefulSet(
  sts: StatefulSet,
  options: StatefulSetDefaultsOptions = {},
): { statefulSet: StatefulSet; errors: FieldError[] } {
  const statefulSet = applyDefaults(sts, options);
  return { statefulSet, errors: validateStatefulSet(statefulSet) };
}
