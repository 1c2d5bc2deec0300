/**
 * OpenKruise's mutating webhook for AdvancedCronJobs (`pkg/webhook/advancedcronjob/mutating`, `Handle`) as a
 * {@link Mutator}: a v1beta1 AdvancedCronJob (a v1alpha1 request reaches it converted, the API server's `Equivalent`
 * match) gets `SetDefaultsAdvancedCronJob`'s defaults (./defaults.ts), the templates' pod-spec defaults only on a
 * CREATE or an UPDATE that changes `spec.template`, and never under gate `TemplateNoDefaults`. One the defaults leave
 * as it is is allowed as sent, as the webhook answers it without a patch. The spec has no non-pointer `omitempty`
 * field a default leaves at zero, so the Go round trip changes nothing more outside the templates (whose own
 * re-encoding, `creationTimestamp: null`, is a documented parity difference).
 */
import type { Mutator } from '../../../api/admission/mutation.js';
import { templateDefaultingMutator } from '../../../api/admission/templateDefaulting.js';
import { withChildTemplateDefaults, withDefaults } from './defaults.js';
import { ACJ_RESOURCE } from './resource.js';
import type { AdvancedCronJob } from './types.js';

/** Options of {@link advancedCronJobMutator}. */
export interface AdvancedCronJobMutatorOptions {
  /** Gate `TemplateNoDefaults` (default false): the templates are never defaulted. */
  templateNoDefaults?: boolean;
}

/**
 * The AdvancedCronJob mutator under the deployment's gates.
 * @param options the gates that change the defaults (absent ones take OpenKruise v1.9.0's defaults)
 */
export function advancedCronJobMutator(options: AdvancedCronJobMutatorOptions = {}): Mutator {
  return templateDefaultingMutator<AdvancedCronJob>(
    {
      group: ACJ_RESOURCE.group,
      version: ACJ_RESOURCE.version,
      resource: ACJ_RESOURCE.plural,
      specDefaults: withDefaults,
      templateDefaults: withChildTemplateDefaults,
    },
    options.templateNoDefaults,
  );
}
