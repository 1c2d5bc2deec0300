/**
 * OpenKruise's mutating webhook for CloneSets (`mcloneset.kb.io`: `pkg/webhook/cloneset/mutating`, v1alpha1 branch of
 * `Handle`) as a {@link Mutator}: the CloneSet gets `SetDefaultsCloneSet`'s defaults (./defaults.ts
 * `applyDefaults`, the ones the controller also applies in memory on every read, so an object stored while the
 * webhook was not called plans the same), the pod-template and claim-template defaults only on a CREATE or an UPDATE
 * whose `spec.template` differs from the stored one, and never under gate `TemplateNoDefaults`. A CloneSet the
 * defaults leave as it is is allowed as sent (the webhook answers it without a patch); any other is stored as the
 * webhook's Go round trip writes it (lib/api/goRoundTrip.ts: `creationTimestamp: null`, `resources: {}`,
 * `scaleStrategy: {}`, a claim template's `status`, no empty `omitempty` field).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Mutator, MutationRequest } from '../../../api/admission/mutation.js';
import { withSpecObject } from '../../../api/admission/validation.js';
import { goRoundTrip } from '../../../api/goRoundTrip.js';
import { isJsonObject, type CloneSet, type JsonObject, type JsonValue } from '../../../api/types.js';
import { applyDefaults } from './defaults.js';
import { CLONESET_RESOURCE } from './resource.js';

/** Options of {@link cloneSetMutator}. */
export interface CloneSetMutatorOptions {
  /** Gate `TemplateNoDefaults` (default false): the pod and claim templates are never defaulted. */
  templateNoDefaults?: boolean;
}

/** Whether Go decodes `a` and `b` into equal values of `type` (its `reflect.DeepEqual` on the decoded structs). */
function goEqual(type: 'v1.PodTemplateSpec' | 'v1alpha1.CloneSetSpec', a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(
    goRoundTrip(type, (a ?? null) as JsonValue),
    goRoundTrip(type, (b ?? null) as JsonValue),
  );
}

/**
 * The CloneSet mutator under the deployment's gates.
 * @param options the gates that change the defaults (absent ones take OpenKruise v1.9.0's defaults)
 */
export function cloneSetMutator(options: CloneSetMutatorOptions = {}): Mutator {
  return {
    group: CLONESET_RESOURCE.group,
    resource: CLONESET_RESOURCE.plural,
    version: CLONESET_RESOURCE.version,
    mutate({ operation, object, oldObject }: MutationRequest): JsonObject {
      const cs = withSpecObject<CloneSet>(object);
      const oldSpec = oldObject?.spec;
      const injectTemplateDefaults =
        !(options.templateNoDefaults ?? false) &&
        (operation === 'CREATE' ||
          !goEqual(
            'v1.PodTemplateSpec',
            cs.spec.template,
            isJsonObject(oldSpec) ? oldSpec.template : undefined,
          ));
      const defaulted = applyDefaults(cs, { templateNoDefaults: !injectTemplateDefaults });
      if (goEqual('v1alpha1.CloneSetSpec', defaulted.spec, cs.spec)) return object;
      return {
        ...object,
        spec: goRoundTrip('v1alpha1.CloneSetSpec', defaulted.spec as unknown as JsonValue),
      };
    },
  };
}
