/**
 * OpenKruise's mutating webhook for Advanced DaemonSets (`pkg/webhook/daemonset/mutating`, `Handle`) as a
 * {@link Mutator}: a v1beta1 DaemonSet (a v1alpha1 request reaches it converted, the API server's `Equivalent` match)
 * that `SetDefaultsDaemonSetV1beta1` changes is stored with those defaults and in the shape of the webhook's Go round
 * trip — canonical template quantities, and the non-pointer `omitempty` fields at their zero value dropped. One the
 * defaults leave unchanged is allowed as sent, zeros and all, as the webhook answers it without a patch. Unlike the
 * Advanced StatefulSet's, this webhook does not default the pod template.
 */
import { isDeepStrictEqual } from 'node:util';
import { lifecycleWithoutGoZero, withoutGoZero } from '../../../api/goZeroValues.js';
import type { Mutator, MutationRequest } from '../../../api/admission/mutation.js';
import { withSpecObject } from '../../../api/admission/validation.js';
import { isJsonObject, type JsonObject } from '../../../api/types.js';
import { canonicalTemplate, withSpecDefaults } from './defaults.js';
import { DAEMONSET_RESOURCE } from './resource.js';
import type { DaemonSet } from './types.js';

/**
 * `ds` as Go marshals `apis/apps/v1beta1`'s DaemonSet: `minReadySeconds` 0, `scaleStrategy.partitionedScaling`
 * false and the lifecycle hooks' zero fields dropped, the template's quantities in Go's canonical text. The template's
 * own re-encoding (`creationTimestamp: null`, `resources: {}`) is not repeated (a documented difference,
 * test/parity/kinds/daemonset/deliberate.yaml).
 * @returns a new object; `ds` is not modified
 */
export function daemonSetAsGoStores(ds: DaemonSet): JsonObject {
  const template: unknown = ds.spec.template;
  // an object without a pod spec is left for the CRD's schema to refuse, with its own message
  const canonical =
    isJsonObject(template) && isJsonObject(template.spec) ? canonicalTemplate(ds.spec.template) : template;
  const spec = withoutGoZero({ ...(ds.spec as unknown as JsonObject), template: canonical as JsonObject }, [
    'minReadySeconds',
  ]);
  if (isJsonObject(spec.scaleStrategy))
    spec.scaleStrategy = withoutGoZero(spec.scaleStrategy, ['partitionedScaling']);
  if (spec.lifecycle !== undefined) spec.lifecycle = lifecycleWithoutGoZero(spec.lifecycle);
  return { ...(ds as unknown as JsonObject), spec };
}

/** The Advanced DaemonSet mutator (no gate changes its defaults in OpenKruise v1.9.0). */
export const daemonSetMutator: Mutator = {
  group: DAEMONSET_RESOURCE.group,
  resource: DAEMONSET_RESOURCE.plural,
  version: DAEMONSET_RESOURCE.version,
  mutate({ object }: MutationRequest): JsonObject {
    const withSpec = withSpecObject<DaemonSet>(object);
    const defaulted = withSpecDefaults(withSpec);
    if (isDeepStrictEqual(defaulted, withSpec)) return object;
    return daemonSetAsGoStores(defaulted);
  },
};
