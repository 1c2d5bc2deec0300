/**
 * OpenKruise's mutating webhook for BroadcastJobs (`pkg/webhook/broadcastjob/mutating`, `Handle`) as a
 * {@link Mutator}: a v1beta1 BroadcastJob (a v1alpha1 request reaches it converted, the API server's `Equivalent`
 * match) gets `SetDefaultsBroadcastJob`'s defaults (./defaults.ts), the pod template's only on a CREATE or an UPDATE
 * that changes `spec.template`, and never under gate `TemplateNoDefaults`; it is stored as the webhook's Go round
 * trip writes it (lib/api/admission/templateDefaulting.ts: `paused: false` dropped, the template's
 * `creationTimestamp: null`, …), or as sent when the defaults change nothing and it has no status.
 */
import type { Mutator } from '../../../api/admission/mutation.js';
import { goDefaultingMutator } from '../../../api/admission/templateDefaulting.js';
import { withDefaults, withPodTemplateDefaults } from './defaults.js';
import { BROADCASTJOB_RESOURCE } from './resource.js';
import type { BroadcastJob } from './types.js';

/** Options of {@link broadcastJobMutator}. */
export interface BroadcastJobMutatorOptions {
  /** Gate `TemplateNoDefaults` (default false): the pod template is never defaulted. */
  templateNoDefaults?: boolean;
}

/**
 * The BroadcastJob mutator under the deployment's gates.
 * @param options the gates that change the defaults (absent ones take OpenKruise v1.9.0's defaults)
 */
export function broadcastJobMutator(options: BroadcastJobMutatorOptions = {}): Mutator {
  return goDefaultingMutator<BroadcastJob>(
    {
      group: BROADCASTJOB_RESOURCE.group,
      version: BROADCASTJOB_RESOURCE.version,
      resource: BROADCASTJOB_RESOURCE.plural,
      specType: 'v1beta1.BroadcastJobSpec',
      specDefaults: withDefaults,
      templateDefaults: withPodTemplateDefaults,
      clearsStatus: true,
    },
    options.templateNoDefaults,
  );
}
