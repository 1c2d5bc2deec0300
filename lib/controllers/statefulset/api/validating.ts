/**
 * OpenKruise's validating webhook for Advanced StatefulSets (`pkg/webhook/statefulset/validating`,
 * `vstatefulset.kb.io`, handler `Handle`) as a {@link Validator} of v1beta1 (a v1alpha1 write reaches it converted):
 * a CREATE refused with ./validation.ts `validateStatefulSet`'s errors, an UPDATE with those and
 * `validateStatefulSetUpdate`'s (both as `admission.Errored(422, errors.ToAggregate())`), and, when those pass, an
 * InPlaceOnly template change that is not an image refused with the webhook's bare sentence. The object is defaulted
 * in memory first (./defaults.ts, under the deployment's gates), as `/mutate` stores it.
 *
 * Not here: the volumeClaimTemplate update rule of gate `StatefulSetAutoResizePVCGate` (a StorageClass read: the
 * ValidatingAdmissionPolicies of infra/rbac/kruiseless-asts-claim-templates.yaml decide it) and deletion protection
 * (gate `ResourcesDeletionProtection`, off by default).
 */
import { aggregateMessage, withSpecObject, type Validator } from '../../../api/admission/validation.js';
import { applyDefaults, type StatefulSetDefaultsOptions } from './defaults.js';
import { STATEFULSET_RESOURCE } from './resource.js';
import type { StatefulSet } from './types.js';
import { validateStatefulSet, validateStatefulSetUpdate, validateTemplateInPlaceOnly } from './validation.js';

/** The Advanced StatefulSet validator (`vstatefulset.kb.io`, CREATE and UPDATE of v1beta1 `statefulsets`). */
export function statefulSetValidator(options: StatefulSetDefaultsOptions = {}): Validator {
  const defaulted = (o: unknown): StatefulSet => applyDefaults(withSpecObject<StatefulSet>(o), options);
  return {
    webhookName: 'vstatefulset.kb.io',
    group: STATEFULSET_RESOURCE.group,
    resource: STATEFULSET_RESOURCE.plural,
    version: STATEFULSET_RESOURCE.version,
    operations: ['CREATE', 'UPDATE'],
    validate({ operation, object, oldObject }) {
      const sts = defaulted(object);
      const old = operation === 'UPDATE' && oldObject ? defaulted(oldObject) : undefined;
      const errors = [...validateStatefulSet(sts), ...(old ? validateStatefulSetUpdate(sts, old) : [])];
      if (errors.length > 0) return { allowed: false, code: 422, message: aggregateMessage(errors) };
      const inPlaceOnly = old ? validateTemplateInPlaceOnly(sts, old) : [];
      // upstream wraps this one in a plain error, not a field error: its sentence alone
      if (inPlaceOnly[0]) return { allowed: false, code: 422, message: inPlaceOnly[0].message };
      return { allowed: true };
    },
  };
}
