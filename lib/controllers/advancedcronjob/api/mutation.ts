/**
 * OpenKruise's mutating webhook for AdvancedCronJobs (`pkg/webhook/advancedcronjob/mutating`, `Handle`) as a
 * {@link Mutator}: a v1beta1 AdvancedCronJob (a v1alpha1 request reaches it converted, the API server's `Equivalent`
 * match) gets `SetDefaultsAdvancedCronJob`'s defaults (./defaults.ts), the templates' pod-spec defaults only on a
 * CREATE or an UPDATE that changes `spec.template`, and never under gate `TemplateNoDefaults`; it is stored as the
 * webhook's Go round trip writes it (lib/api/admission/templateDefaulting.ts: the job templates' and their pod
 * templates' `creationTimestamp: null`, …), or as sent when the defaults change nothing and it has no status.
 */
import type { Mutator } from '../../../api/admission/mutation.js';
import { goDefaultingMutator } from '../../../api/admission/templateDefaulting.js';
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
  return goDefaultingMutator<AdvancedCronJob>(
    {
      group: ACJ_RESOURCE.group,
      version: ACJ_RESOURCE.version,
      resource: ACJ_RESOURCE.plural,
      specType: 'v1beta1.AdvancedCronJobSpec',
      specDefaults: withDefaults,
      templateDefaults: withChildTemplateDefaults,
      clearsStatus: true,
    },
    options.templateNoDefaults,
  );
}
