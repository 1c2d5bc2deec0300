/**
 * OpenKruise's mutating webhook for BroadcastJobs (`pkg/webhook/broadcastjob/mutating`, `Handle`) as a
 * {@link Mutator}: a v1beta1 BroadcastJob (a v1alpha1 request reaches it converted, the API server's `Equivalent`
 * match) gets `SetDefaultsBroadcastJob`'s defaults (./defaults.ts), the pod template's only on a CREATE or an UPDATE
 * that changes `spec.template`, and never under gate `TemplateNoDefaults`. A job the defaults change is stored in the
 * shape of the webhook's Go round trip ({@link broadcastJobSpecAsGoStores}); one they leave as it is is allowed as
 * sent, as the webhook answers it without a patch.
 */
import { withoutGoZero } from '../../../api/goZeroValues.js';
import type { Mutator } from '../../../api/admission/mutation.js';
import { templateDefaultingMutator } from '../../../api/admission/templateDefaulting.js';
import { isJsonObject, type JsonObject } from '../../../api/types.js';
import { withDefaults, withPodTemplateDefaults } from './defaults.js';
import { BROADCASTJOB_RESOURCE } from './resource.js';
import type { BroadcastJob } from './types.js';

/**
 * A BroadcastJob `spec` as Go marshals `apis/apps/v1beta1`'s `BroadcastJobSpec`: `paused` false and
 * `failurePolicy.restartLimit` 0 (non-pointer `omitempty` fields) dropped. The pod template's own Go round trip
 * (`creationTimestamp: null`) is not repeated (a documented parity difference). Also used for an AdvancedCronJob's
 * `broadcastJobTemplate.spec`.
 * @returns a new object; `spec` is not modified
 */
export function broadcastJobSpecAsGoStores(spec: JsonObject): JsonObject {
  const out = withoutGoZero(spec, ['paused']);
  if (isJsonObject(out.failurePolicy)) out.failurePolicy = withoutGoZero(out.failurePolicy, ['restartLimit']);
  return out;
}

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
  return templateDefaultingMutator<BroadcastJob>(
    {
      group: BROADCASTJOB_RESOURCE.group,
      version: BROADCASTJOB_RESOURCE.version,
      resource: BROADCASTJOB_RESOURCE.plural,
      specDefaults: withDefaults,
      templateDefaults: withPodTemplateDefaults,
      asGoStores: broadcastJobSpecAsGoStores,
    },
    options.templateNoDefaults,
  );
}
