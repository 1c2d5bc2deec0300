/**
 * OpenKruise's validating webhook for CloneSets (`pkg/webhook/cloneset/validating`, `vcloneset.kb.io`, handler
 * `Handle`) as a {@link Validator}: a CREATE is refused with the rules of ./validation.ts `validateCloneSet`, an
 * UPDATE with those and the update rules (only the listed spec fields may change; InPlaceOnly changes images only),
 * each as `admission.Errored(422, errors.ToAggregate())`. The webhook takes v1alpha1 (the stored version); a write
 * through v1beta1 reaches it converted, and only such a write may ask for `OnDelete`. The object is defaulted in memory
 * first, as the controller reads it (./check.ts), since Kruiseless stores CloneSets as written (no `/mutate` for them).
 *
 * Not checked, as the controller does not either: that newly listed `podsToDelete` pods exist and belong to the
 * CloneSet (a read), and deletion protection (gate `ResourcesDeletionProtection`, off by default in OpenKruise v1.9.0).
 */
import { verdictOf, type Validator } from '../../../api/admission/validation.js';
import type { CloneSet } from '../../../api/types.js';
import { isJsonObject } from '../../../api/types.js';
import { applyDefaults } from './defaults.js';
import { CLONESET_RESOURCE } from './resource.js';
import { validateCloneSet } from './validation.js';

/** Options of {@link cloneSetValidator}. */
export interface CloneSetValidatorOptions {
  /** Gate `TemplateNoDefaults`: the template is validated as stored. */
  templateNoDefaults?: boolean;
}

/** A CloneSet with a spec object (a missing or non-object spec read as `{}`, as Go decodes it). */
function withSpec(o: unknown): CloneSet {
  const cs = o as CloneSet;
  return isJsonObject(cs.spec) ? cs : ({ ...cs, spec: {} } as unknown as CloneSet);
}

/** The CloneSet validator (`vcloneset.kb.io`, CREATE and UPDATE of v1alpha1 `clonesets`). */
export function cloneSetValidator(options: CloneSetValidatorOptions = {}): Validator {
  const defaulted = (o: unknown): CloneSet =>
    applyDefaults(withSpec(o), { templateNoDefaults: options.templateNoDefaults ?? false });
  return {
    webhookName: 'vcloneset.kb.io',
    group: CLONESET_RESOURCE.group,
    resource: CLONESET_RESOURCE.plural,
    version: 'v1alpha1',
    operations: ['CREATE', 'UPDATE'],
    validate({ operation, object, oldObject, requestVersion }) {
      const opts = { allowOnDelete: requestVersion === 'v1beta1' };
      const old = operation === 'UPDATE' && oldObject ? defaulted(oldObject) : undefined;
      return verdictOf(validateCloneSet(defaulted(object), old, opts));
    },
  };
}
