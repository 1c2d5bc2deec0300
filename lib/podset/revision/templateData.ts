/**
 * OpenKruise: pkg/controller/cloneset/revision/cloneset_revision.go `getPatch` and
 * pkg/controller/statefulset/stateful_set_utils.go `getPatch` (the same data for both kinds).
 *
 * The revision data of a pod template: what CloneSet and Advanced StatefulSet ControllerRevisions hold and hash.
 */
import { LABEL_REVISION_HASH } from '../../api/keys.js';
import type {
  Container,
  ControllerRevision,
  JsonObject,
  OwnerReference,
  PodTemplateSpec,
} from '../../api/types.js';
import { goJson } from './goJson.js';
import { hashRevision, revisionName } from './history.js';

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

/** The workload a template revision belongs to: what {@link newTemplateRevision} copies from it. */
export interface RevisionOwner {
  metadata: { name?: string; namespace?: string; annotations?: Record<string, string> };
  spec: { template: PodTemplateSpec };
}

/**
 * A new ControllerRevision recording `owner`'s pod template, as CloneSet's `NewRevision` and Advanced
 * StatefulSet's `newRevision` build it (Kubernetes `history.NewControllerRevision`): data
 * {@link templateRevisionData}, name `<owner>-<hash>` with the hash of the data's Go JSON and `collisionCount`,
 * labels the template's plus `controller.kubernetes.io/hash`, annotations the owner's plus `extraAnnotations`.
 * @param controllerRef the owner's controller reference (the kind's apiVersion and kind)
 * @param revision the revision number (1 + the highest existing)
 * @param collisionCount the owner's `status.collisionCount` (0 when unset)
 * @param extraAnnotations added over the owner's annotations (CloneSet: its volumeClaimTemplates hash)
 * @returns a new object; the owner is not modified
 */
export function newTemplateRevision(
  owner: RevisionOwner,
  controllerRef: OwnerReference,
  revision: number,
  collisionCount: number,
  extraAnnotations: Record<string, string> = {},
): ControllerRevision {
  const data = templateRevisionData(owner.spec.template);
  const hash = hashRevision(goJson(data), collisionCount);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionName(owner.metadata.name ?? '', hash),
      namespace: owner.metadata.namespace,
      labels: { ...(owner.spec.template.metadata?.labels ?? {}), [LABEL_REVISION_HASH]: hash },
      annotations: { ...(owner.metadata.annotations ?? {}), ...extraAnnotations },
      ownerReferences: [controllerRef],
    },
    data,
    revision,
  };
}
