/**
 * The shape OpenKruise's mutating webhooks for workloads share (the `Handle` of `pkg/webhook/{cloneset,statefulset,
 * daemonset,broadcastjob,advancedcronjob}/mutating`): decode the object into its Go struct, apply the spec defaults
 * always and the template defaults only on a CREATE or an UPDATE whose `spec.template` decodes unlike the stored one
 * (never under gate `TemplateNoDefaults`), answer without a patch when the decoded object did not change, else the
 * JSON Patch to its `json.Marshal` — so the stored spec is the Go round trip's (lib/api/goRoundTrip.ts:
 * `creationTimestamp: null`, `resources: {}`, empty non-pointer structs, no empty `omitempty` field). Advanced
 * StatefulSet's, BroadcastJob's and AdvancedCronJob's handlers clear `status` before that comparison, so an UPDATE of
 * one that has a status — every one after its first reconcile — is always written back in the round trip's shape.
 */
import { isDeepStrictEqual } from 'node:util';
import { goRoundTrip, type GoRootType } from '../goRoundTrip.js';
import { isGoZeroValue } from '../goZeroValues.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../types.js';
import type { Mutator, MutationRequest } from './mutation.js';
import { withSpecObject } from './validation.js';

/** What one workload's defaulting is made of. */
export interface GoDefaulting<T extends { spec: unknown }> {
  group: string;
  version: string;
  /** The resource's plural. */
  resource: string;
  /** The Go type of the spec the webhook decodes into (one of lib/api/goTypeLayout.ts's roots). */
  specType: GoRootType;
  /** The spec defaults, on the object as sent (a missing spec read as `{}`); returns a new object. */
  specDefaults(object: T): T;
  /** The template defaults, on a spec already defaulted (a new object); absent: the webhook defaults no template. */
  templateDefaults?(object: T): T;
  /** The handler zeroes `status` before comparing (Advanced StatefulSet, BroadcastJob, AdvancedCronJob). */
  clearsStatus: boolean;
  /**
   * The stored spec as a reader of this version sees it on OpenKruise, when OpenKruise stores another version and
   * converts back (CloneSet); applied to the patched spec only. Default: as it is.
   */
  readBack?(spec: JsonObject): JsonObject;
}

/** `spec.template` as Go decodes it inside `specType` (a pod template, or AdvancedCronJob's `CronJobTemplate`). */
function decodedTemplate(specType: GoRootType, spec: unknown): JsonValue | undefined {
  const template = isJsonObject(spec) ? spec.template : undefined;
  const decoded = goRoundTrip(specType, { template: template ?? null });
  return isJsonObject(decoded) ? decoded.template : undefined;
}

/**
 * A {@link Mutator} of that shape.
 * @param templateNoDefaults gate `TemplateNoDefaults`: the template is never defaulted
 */
export function goDefaultingMutator<T extends { spec: unknown }>(
  d: GoDefaulting<T>,
  templateNoDefaults = false,
): Mutator {
  return {
    group: d.group,
    resource: d.resource,
    version: d.version,
    mutate({ operation, object, oldObject }: MutationRequest): JsonObject {
      const sent = withSpecObject<T>(object);
      const templateChanged =
        operation === 'CREATE' ||
        !isDeepStrictEqual(
          decodedTemplate(d.specType, sent.spec),
          decodedTemplate(d.specType, oldObject?.spec),
        );
      const specDefaulted = d.specDefaults(sent);
      const defaulted =
        d.templateDefaults && !templateNoDefaults && templateChanged
          ? d.templateDefaults(specDefaulted)
          : specDefaulted;
      const stored = goRoundTrip(d.specType, defaulted.spec as JsonValue);
      const status = object.status;
      const statusCleared =
        d.clearsStatus && isJsonObject(status) && Object.values(status).some((v) => !isGoZeroValue(v));
      if (!statusCleared && isDeepStrictEqual(stored, goRoundTrip(d.specType, sent.spec as JsonValue)))
        return object;
      return { ...object, spec: d.readBack && isJsonObject(stored) ? d.readBack(stored) : stored };
    },
  };
}
