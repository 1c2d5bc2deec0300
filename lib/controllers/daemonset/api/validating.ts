/**
 * OpenKruise's validating webhook for Advanced DaemonSets (`pkg/webhook/daemonset/validating`, `vdaemonset.kb.io`,
 * handler `Handle`) as a {@link Validator} of v1beta1 (a v1alpha1 write reaches it converted): a CREATE refused with
 * ./validation.ts `validateDaemonSet`'s errors as the handler answers them — the validation error turned into an
 * internal one, code 500 — and an UPDATE refused with code 422 when a spec field other than the mutable ones changed
 * (so the selector is fixed) or the new spec is invalid. The object is defaulted in memory first (./defaults.ts), as
 * `/mutate` stores it.
 */
import { verdictOf, withSpecObject, type Validator } from '../../../api/admission/validation.js';
import { frozenFieldsChanged } from '../../../api/admission/frozenSpec.js';
import type { FieldError } from '../../../api/errors.js';
import { forbidden } from '../../../api/fieldValidation.js';
import { withDefaults } from './defaults.js';
import { DAEMONSET_RESOURCE } from './resource.js';
import type { DaemonSet } from './types.js';
import { validateDaemonSet } from './validation.js';

/** The spec fields an update may change (upstream `validateDaemonSetUpdateV1beta1`). */
export const DAEMONSET_MUTABLE_SPEC_FIELDS = [
  'burstReplicas',
  'template',
  'lifecycle',
  'scaleStrategy',
  'updateStrategy',
  'minReadySeconds',
  'revisionHistoryLimit',
] as const;

const defaulted = (o: unknown): DaemonSet => withDefaults(withSpecObject<DaemonSet>(o));

/** The Advanced DaemonSet validator (`vdaemonset.kb.io`, CREATE and UPDATE of v1beta1 `daemonsets`). */
export const daemonSetValidator: Validator = {
  webhookName: 'vdaemonset.kb.io',
  group: DAEMONSET_RESOURCE.group,
  resource: DAEMONSET_RESOURCE.plural,
  version: DAEMONSET_RESOURCE.version,
  operations: ['CREATE', 'UPDATE'],
  validate({ operation, object, oldObject }) {
    const ds = defaulted(object);
    if (operation !== 'UPDATE' || !oldObject) return verdictOf(validateDaemonSet(ds), 500);
    const old = defaulted(oldObject);
    const errors: FieldError[] = [];
    if (frozenFieldsChanged(ds.spec, old.spec, DAEMONSET_MUTABLE_SPEC_FIELDS))
      errors.push(
        forbidden(
          'spec',
          "updates to daemonset spec for fields other than 'BurstReplicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', and 'revisionHistoryLimit' are forbidden",
        ),
      );
    errors.push(...validateDaemonSet(ds));
    return verdictOf(errors, 422);
  },
};
