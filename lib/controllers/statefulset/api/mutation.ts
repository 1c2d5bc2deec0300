/**
 * OpenKruise's mutating webhook for Advanced StatefulSets (`pkg/webhook/statefulset/mutating`, handler `Handle`) as
 * a {@link Mutator}: the v1beta1 object is stored with `SetDefaultsStatefulSet`'s defaults (./defaults.ts
 * `applyDefaults`), the pod-template and claim-template defaults only on a CREATE or an UPDATE that changes
 * `spec.template` (and never under gate `TemplateNoDefaults`), as the webhook decides, in the shape of the webhook's
 * Go round trip (lib/api/admission/templateDefaulting.ts: `paused: false` and other empty `omitempty` fields dropped,
 * `volumeClaimUpdateStrategy: {}`, the templates' `creationTimestamp: null`, a claim template's `status`). The
 * controller applies the same defaults in memory on every read, so an object stored while the webhook was not called
 * plans the same.
 */
import type { Mutator } from '../../../api/admission/mutation.js';
import { goDefaultingMutator } from '../../../api/admission/templateDefaulting.js';
import { applyDefaults, type StatefulSetDefaultsOptions } from './defaults.js';
import { STATEFULSET_RESOURCE } from './resource.js';
import type { StatefulSet } from './types.js';

/**
 * The Advanced StatefulSet mutator under the deployment's gates.
 * @param options the gates that change the defaults (absent ones take OpenKruise v1.9.0's defaults)
 */
export function statefulSetMutator(options: StatefulSetDefaultsOptions = {}): Mutator {
  return goDefaultingMutator<StatefulSet>(
    {
      group: STATEFULSET_RESOURCE.group,
      version: STATEFULSET_RESOURCE.version,
      resource: STATEFULSET_RESOURCE.plural,
      specType: 'v1beta1.StatefulSetSpec',
      specDefaults: (sts) => applyDefaults(sts, { ...options, templateNoDefaults: true }),
      templateDefaults: (sts) => applyDefaults(sts, { ...options, templateNoDefaults: false }),
      clearsStatus: true,
    },
    options.templateNoDefaults,
  );
}
