/**
 * OpenKruise's mutating webhook for Advanced StatefulSets (`pkg/webhook/statefulset/mutating`, handler `Handle`) as
 * a {@link Mutator}: the v1beta1 object is stored with `SetDefaultsStatefulSet`'s defaults (./defaults.ts
 * `applyDefaults`), the pod-template and claim-template defaults only on a CREATE or an UPDATE that changes
 * `spec.template` (and never under gate `TemplateNoDefaults`), as the webhook decides. The controller applies the
 * same defaults in memory on every read, so an object stored while the webhook was not called plans the same.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Mutator, MutationRequest } from '../../../api/admission/mutation.js';
import type { JsonObject } from '../../../api/types.js';
import { applyDefaults, type StatefulSetDefaultsOptions } from './defaults.js';
import { STATEFULSET_RESOURCE } from './resource.js';
import type { StatefulSet } from './types.js';

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
      return defaulted as unknown as JsonObject;
    },
  };
}
