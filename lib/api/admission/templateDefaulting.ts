/**
 * The shape OpenKruise's mutating webhooks for workloads with a pod template share (BroadcastJob's and
 * AdvancedCronJob's `Handle`): the spec's defaults always; the template's defaults only on a CREATE, or an UPDATE
 * whose `spec.template` differs from the stored one, and never under gate `TemplateNoDefaults`; no patch when the
 * defaults change nothing and the object carries no status; else the spec as the webhook's Go round trip writes it.
 * (Those handlers clear `status` before comparing, so an UPDATE of an object with a status — every one after its
 * first reconcile — is always written back in the round trip's shape, e.g. without a `paused: false`.)
 */
import { isDeepStrictEqual } from 'node:util';
import { isGoZeroValue } from '../goZeroValues.js';
import { isJsonObject, type JsonObject } from '../types.js';
import type { Mutator, MutationRequest } from './mutation.js';

/** What one workload's defaulting is made of. */
export interface TemplateDefaulting<T extends { spec?: unknown }> {
  group: string;
  version: string;
  /** The resource's plural. */
  resource: string;
  /** The spec defaults (a new object). */
  specDefaults(object: T): T;
  /** The pod-template defaults, on a spec already defaulted (a new object). */
  templateDefaults(object: T): T;
  /** The spec as Go's marshal writes it back (default: as it is). */
  asGoStores?(spec: JsonObject): JsonObject;
}

/**
 * A {@link Mutator} of that shape.
 * @param templateNoDefaults gate `TemplateNoDefaults`: the template is never defaulted
 */
export function templateDefaultingMutator<T extends { spec?: unknown }>(
  d: TemplateDefaulting<T>,
  templateNoDefaults = false,
): Mutator {
  return {
    group: d.group,
    resource: d.resource,
    version: d.version,
    mutate({ operation, object, oldObject }: MutationRequest): JsonObject {
      const spec = object.spec;
      if (!isJsonObject(spec)) return object; // the CRD's schema refuses it, in its own words
      const oldSpec = oldObject?.spec;
      const templateChanged =
        operation === 'CREATE' ||
        !isDeepStrictEqual(spec.template, isJsonObject(oldSpec) ? oldSpec.template : undefined);
      const specDefaulted = d.specDefaults(object as unknown as T);
      const defaulted =
        !templateNoDefaults && templateChanged && isJsonObject(spec.template)
          ? d.templateDefaults(specDefaulted)
          : specDefaulted;
      const out = defaulted.spec as JsonObject;
      const status = object.status;
      const hasStatus = isJsonObject(status) && Object.values(status).some((v) => !isGoZeroValue(v));
      if (isDeepStrictEqual(out, spec) && !hasStatus) return object;
      return { ...object, spec: d.asGoStores ? d.asGoStores(out) : out };
    },
  };
}
