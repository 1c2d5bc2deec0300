/**
 * OpenKruise's mutating webhook for CloneSets (`mcloneset.kb.io`: `pkg/webhook/cloneset/mutating`, v1alpha1 branch of
 * `Handle`) as a {@link Mutator}: the CloneSet gets `SetDefaultsCloneSet`'s defaults (./defaults.ts
 * `applyDefaults`, the ones the controller also applies in memory on every read, so an object stored while the
 * webhook was not called plans the same), the pod-template and claim-template defaults only on a CREATE or an UPDATE
 * whose `spec.template` differs from the stored one, and never under gate `TemplateNoDefaults`. A CloneSet the
 * defaults leave as it is is allowed as sent (the webhook answers it without a patch; it compares the status too,
 * which it does not change); any other is stored as the webhook's Go round trip writes it
 * (lib/api/admission/templateDefaulting.ts: `creationTimestamp: null`, `resources: {}`, `scaleStrategy: {}`, a claim
 * template's `status`, no empty `omitempty` field), then as a v1alpha1 reader sees it on OpenKruise, which stores
 * v1beta1 ({@link v1alpha1ReadBack}).
 */
import type { Mutator } from '../../../api/admission/mutation.js';
import { goDefaultingMutator } from '../../../api/admission/templateDefaulting.js';
import { isJsonObject, type CloneSet, type JsonObject } from '../../../api/types.js';
import type { CloneSetV1beta1 } from '../../../api/v1beta1.js';
import { applyDefaults, applyV1beta1Defaults } from './defaults.js';
import { CLONESET_RESOURCE } from './resource.js';

/** Options of {@link cloneSetMutator}. */
export interface CloneSetMutatorOptions {
  /** Gate `TemplateNoDefaults` (default false): the pod and claim templates are never defaulted. */
  templateNoDefaults?: boolean;
}

/**
 * `spec` as OpenKruise answers a v1alpha1 read of what its webhook stored: it stores v1beta1, and converting back
 * (`convertInPlaceUpdateStrategyFromV1beta1` in `apis/apps/v1alpha1/cloneset_conversion.go`) drops an
 * `updateStrategy.inPlaceUpdateStrategy` without content (no `gracePeriodSeconds`, no image pre-download field) —
 * the `{}` `SetDefaultsCloneSet` gives the in-place types. The controller reads an absent one as `{}` (./defaults.ts).
 * @returns a new object when something is dropped, else `spec`
 */
export function v1alpha1ReadBack(spec: JsonObject): JsonObject {
  const strategy = spec.updateStrategy;
  if (!isJsonObject(strategy) || !isJsonObject(strategy.inPlaceUpdateStrategy)) return spec;
  const inPlace = strategy.inPlaceUpdateStrategy;
  const hasContent = Object.entries(inPlace).some(
    ([k, v]) => v !== null && (k !== 'gracePeriodSeconds' || v !== 0),
  );
  if (hasContent) return spec;
  const { inPlaceUpdateStrategy: _empty, ...rest } = strategy;
  return { ...spec, updateStrategy: rest };
}

/**
 * The CloneSet mutator under the deployment's gates.
 * @param options the gates that change the defaults (absent ones take OpenKruise v1.9.0's defaults)
 */
export function cloneSetMutator(options: CloneSetMutatorOptions = {}): Mutator {
  return goDefaultingMutator<CloneSet>(
    {
      group: CLONESET_RESOURCE.group,
      version: CLONESET_RESOURCE.version,
      resource: CLONESET_RESOURCE.plural,
      specType: 'v1alpha1.CloneSetSpec',
      specDefaults: (cs) => applyDefaults(cs, { templateNoDefaults: true }),
      templateDefaults: (cs) => applyDefaults(cs),
      clearsStatus: false,
      readBack: v1alpha1ReadBack,
    },
    options.templateNoDefaults,
  );
}

/**
 * The CloneSet mutator for requests in `v1beta1` (OpenKruise's `mcloneset.kb.io` takes both versions and defaults each
 * as its own: the `v1beta1` branch of `Handle`): {@link applyV1beta1Defaults} on the object as sent, the templates only
 * on a CREATE or a template change and never under gate `TemplateNoDefaults`, stored as the Go round trip of
 * `v1beta1.CloneSetSpec` writes it. Without it a `v1beta1` request reached only the `v1alpha1` mutator through the API
 * server's conversion, whose defaults the conversion marker then hid (`rollingUpdate` without `maxUnavailable`), and
 * the CRD's `v1beta1` rule refused the object.
 * @param options the gates that change the defaults (absent ones take OpenKruise v1.9.0's defaults)
 */
export function cloneSetV1beta1Mutator(options: CloneSetMutatorOptions = {}): Mutator {
  return goDefaultingMutator<CloneSetV1beta1>(
    {
      group: CLONESET_RESOURCE.group,
      version: 'v1beta1',
      resource: CLONESET_RESOURCE.plural,
      specType: 'v1beta1.CloneSetSpec',
      specDefaults: (cs) => applyV1beta1Defaults(cs, { templateNoDefaults: true }),
      templateDefaults: (cs) => applyV1beta1Defaults(cs),
      clearsStatus: false,
    },
    options.templateNoDefaults,
  );
}
