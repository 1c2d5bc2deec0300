/**
 * OpenKruise's mutating webhook for Advanced StatefulSets (`pkg/webhook/statefulset/mutating`, handler `Handle`) as
 * a {@link Mutator}: the v1beta1 object is stored with `SetDefaultsStatefulSet`'s defaults (./defaults.ts
 * `applyDefaults`), the pod-template and claim-template defaults only on a CREATE or an UPDATE that changes
 * `spec.template` (and never under gate `TemplateNoDefaults`), as the webhook decides. The controller applies the
 * same defaults in memory on every read, so an object stored while the webhook was not called plans the same.
 * Every CREATE and UPDATE also loses the zero-valued `omitempty` fields the webhook's Go round trip drops
 * ({@link withoutGoZeroValues}).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Mutator, MutationRequest } from '../../../api/admission/mutation.js';
import { lifecycleWithoutGoZero, withoutGoZero } from '../../../api/goZeroValues.js';
import { isJsonObject, type JsonObject } from '../../../api/types.js';
import { applyDefaults, type StatefulSetDefaultsOptions } from './defaults.js';
import { STATEFULSET_RESOURCE } from './resource.js';
import type { StatefulSet } from './types.js';

/**
 * `sts` as OpenKruise's webhook writes it back after its Go round trip (decode into `apis/apps/v1beta1`'s
 * StatefulSet, marshal again): the spec fields outside the pod template that are tagged `omitempty` without being
 * pointers are dropped when they hold Go's zero value — `serviceName` "", `volumeClaimTemplates` [],
 * `reserveOrdinals` [], `updateStrategy.rollingUpdate.paused` false, and in each lifecycle hook
 * (`apps/pub/lifecycle.go` `LifecycleHook`) `labelsHandler` {}, `finalizersHandler` [], `markPodNotReady` false.
 * So a user's explicit `paused: false` is not stored, as with OpenKruise. The pod template's own Go round trip is not
 * repeated (its `creationTimestamp: null` is a documented difference, docs/parity.md).
 * @returns a new object; `sts` is not modified
 */
export function withoutGoZeroValues(sts: JsonObject): JsonObject {
  if (!isJsonObject(sts.spec)) return sts;
  const spec = withoutGoZero(sts.spec, ['serviceName', 'volumeClaimTemplates', 'reserveOrdinals']);
  const strategy = spec.updateStrategy;
  if (isJsonObject(strategy) && isJsonObject(strategy.rollingUpdate))
    spec.updateStrategy = { ...strategy, rollingUpdate: withoutGoZero(strategy.rollingUpdate, ['paused']) };
  if (spec.lifecycle !== undefined) spec.lifecycle = lifecycleWithoutGoZero(spec.lifecycle);
  return { ...sts, spec };
}

/**
 * The Advanced StatefulSet mutator under the deployment's gates.
 * @param options the gates that change the defaults (absent ones take OpenKruise v1.9.0's defaults)
 */
export function statefulSetMutator(options: StatefulSetDefaultsOptions = {}): Mutator {
  return {
    group: STATEFULSET_RESOURCE.group,
    resource: STATEFULSET_RESOURCE.plural,
    version: STATEFULSET_RESOURCE.version,
    mutate({ operation, object, oldObject }: MutationRequest): JsonObject {
      const sts = object as unknown as StatefulSet;
      const templateChanged =
        operation === 'CREATE' ||
        !isDeepStrictEqual(
          sts.spec?.template,
          (oldObject as unknown as StatefulSet | undefined)?.spec?.template,
        );
      const withSpec: StatefulSet = sts.spec ? sts : { ...sts, spec: {} as StatefulSet['spec'] };
      const defaulted = applyDefaults(withSpec, {
        ...options,
        templateNoDefaults: (options.templateNoDefaults ?? false) || !templateChanged,
      });
      return withoutGoZeroValues(defaulted as unknown as JsonObject);
    },
  };
}
