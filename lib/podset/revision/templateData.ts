/**
 * OpenKruise: pkg/controller/cloneset/revision/cloneset_revision.go `getPatch` and
 * pkg/controller/statefulset/stateful_set_utils.go `getPatch` (the same data for both kinds).
 *
 * The revision data of a pod template: what CloneSet and Advanced StatefulSet ControllerRevisions hold and hash.
 */
import type { Container, JsonObject, PodTemplateSpec } from '../../api/types.js';

function withResources(containers: Container[] | undefined): Container[] | undefined {
  return containers?.map((c) =>
    c.resources === undefined || c.resources === null ? { ...c, resources: {} } : c,
  );
}

/**
 * The `data` of a workload's ControllerRevision that records its pod template (CloneSet's `getPatch` in
 * pkg/controller/cloneset/revision, Advanced StatefulSet's `getPatch` in pkg/controller/statefulset: both keep the
 * typed object's `spec.template` only; docs/behaviour/cloneset.md#revisions):
 * `{"spec":{"template":{…template, "$patch":"replace"}}}`, with the artefacts Go's typed `PodTemplateSpec`
 * adds when Kruise re-serialises it: `metadata.creationTimestamp: null` always, and `resources: {}` on every
 * container and init container that has none.
 *
 * Caveat: other Go zero-value artefacts are not reproduced (e.g. non-omitempty fields of nested structs such
 * as a volume's `emptyDir: {}` members, numbers Go would re-print, unknown fields Go's typed decoding would
 * drop). Templates written by hand normally have none of these, but a revision name can then differ from
 * Kruise's.
 * @returns a new object; the template is not modified
 */
export function templateRevisionData(template: PodTemplateSpec): JsonObject {
  const t = structuredClone(template);
  const metadata = { ...(t.metadata ?? {}) };
  if (metadata.creationTimestamp === undefined) metadata.creationTimestamp = null;
  const spec = { ...t.spec, containers: withResources(t.spec?.containers) ?? [] };
  const init = withResources(t.spec?.initContainers);
  if (init) spec.initContainers = init;
  const tpl = { ...t, metadata, spec, $patch: 'replace' } as unknown as JsonObject;
  return { spec: { template: tpl } };
}
