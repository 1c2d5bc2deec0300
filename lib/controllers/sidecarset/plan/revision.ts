/**
 * A SidecarSet's ControllerRevision, as OpenKruise builds it (`realControl.NewRevision` and `getPatch` in
 * `pkg/control/sidecarcontrol/history_control.go`, over Kubernetes' `history.NewControllerRevision`). Pure.
 *
 * The data is a strategic-merge patch that replaces the whole spec with the five fields injection uses:
 * `{"spec":{"$patch":"replace","containers":…,"imagePullSecrets":…,"initContainers":…,"patchPodMetadata":…,
 * "volumes":…}}`, each as Go's typed encoding of the v1beta1 SidecarSet writes it (omitempty fields gone, a
 * non-pointer struct always written) and then re-encoded as an untyped map (keys sorted at every level; an absent
 * field is `null`). Its name is `<SidecarSet name>-<hash>`, the hash FNV-1 32 of those bytes and the collision count
 * (lib/podset/revision/history.ts `hashRevision`), so that pods' `controllerRevision` and the SidecarSet's
 * `status.latestRevision` name the same revision on Kruiseless and on OpenKruise.
 */
import type { ControllerRevision, JsonObject, JsonValue } from '../../../api/types.js';
import { LABEL_REVISION_HASH } from '../../../api/keys.js';
import { goJson } from '../../../podset/revision/goJson.js';
import { hashRevision, revisionName } from '../../../podset/revision/history.js';
import { goSidecarContainersJson } from '../api/goTypedJson.js';
import {
  LABEL_SIDECARSET_CUSTOM_VERSION,
  LABEL_SIDECARSET_NAME,
  SIDECARSET_REVISION_NAMESPACE,
} from '../api/keys.js';
import { SIDECARSET_RESOURCE } from '../api/resource.js';
import type { SidecarContainer, SidecarSet } from '../api/types.js';

/** A sidecar list as Go's typed round trip leaves it: `null` when absent or empty (omitempty on a nil slice). */
function typedContainers(list: readonly SidecarContainer[] | undefined): JsonValue {
  if (!list || list.length === 0) return null;
  return JSON.parse(goSidecarContainersJson(list as unknown as JsonValue[])) as JsonValue;
}

/** `[]LocalObjectReference`: each entry's `name` only, dropped when empty. */
function typedSecrets(list: readonly { name?: string }[] | undefined): JsonValue {
  if (!list || list.length === 0) return null;
  return list.map((s): JsonObject => (s.name ? { name: s.name } : {}));
}

/** `[]SidecarSetPatchPodMetadata`: `annotations` when non-empty, `patchPolicy` when set. */
function typedPatchPodMetadata(list: SidecarSet['spec']['patchPodMetadata']): JsonValue {
  if (!list || list.length === 0) return null;
  return list.map((p) => ({
    ...(p.annotations && Object.keys(p.annotations).length > 0 ? { annotations: { ...p.annotations } } : {}),
    ...(p.patchPolicy ? { patchPolicy: p.patchPolicy } : {}),
  }));
}

/**
 * The revision's `data` (see the module doc). Caveat: volumes are recorded as stored, not through Go's typed
 * `corev1.Volume` (a volume with a field Go would drop or re-print gives another hash than OpenKruise's).
 * @param sidecarSet the SidecarSet as stored (defaulted by its webhook)
 * @returns a new object
 */
export function sidecarSetRevisionData(sidecarSet: SidecarSet): JsonObject {
  const spec = sidecarSet.spec;
  return {
    spec: {
      $patch: 'replace',
      containers: typedContainers(spec.containers),
      imagePullSecrets: typedSecrets(spec.imagePullSecrets),
      initContainers: typedContainers(spec.initContainers),
      patchPodMetadata: typedPatchPodMetadata(spec.patchPodMetadata),
      volumes: spec.volumes && spec.volumes.length > 0 ? (structuredClone(spec.volumes) as JsonValue) : null,
    },
  };
}

/**
 * The SidecarSet's custom version, as the v1beta1 object OpenKruise's controller reads carries it in
 * `spec.customVersion`: the v1alpha1 label `apps.kruise.io/sidecarset-custom-version`; '' when absent.
 */
export function sidecarSetCustomVersion(sidecarSet: SidecarSet): string {
  return sidecarSet.metadata.labels?.[LABEL_SIDECARSET_CUSTOM_VERSION] ?? '';
}

/**
 * A new ControllerRevision of the SidecarSet (`NewRevision`): in namespace `kruise-system`; named
 * `<name>-<hash of data and collisionCount>`; labels the SidecarSet's (without its custom-version label), then
 * `controller.kubernetes.io/hash`, the custom version when set, and `kruise.io/sidecarset-name`; annotations the
 * SidecarSet's (its two hash annotations among them); a controller owner reference to the SidecarSet.
 * Deliberate: the owner reference names `apps.kruise.io/v1alpha1` (the version Kruiseless's CRD serves, so the
 * garbage collector can resolve it), where OpenKruise's names the v1beta1 it reads.
 * @param revision the revision number (`NextRevision`: 1 + the highest listed)
 * @param collisionCount the SidecarSet's `status.collisionCount` (0 when unset)
 * @returns a new object; the SidecarSet is not modified
 */
export function newSidecarSetRevision(
  sidecarSet: SidecarSet,
  revision: number,
  collisionCount: number,
): ControllerRevision {
  const name = sidecarSet.metadata.name ?? '';
  const data = sidecarSetRevisionData(sidecarSet);
  const hash = hashRevision(goJson(data), collisionCount);
  const labels: Record<string, string> = { ...(sidecarSet.metadata.labels ?? {}) };
  delete labels[LABEL_SIDECARSET_CUSTOM_VERSION];
  labels[LABEL_REVISION_HASH] = hash;
  const customVersion = sidecarSetCustomVersion(sidecarSet);
  if (customVersion) labels[LABEL_SIDECARSET_CUSTOM_VERSION] = customVersion;
  labels[LABEL_SIDECARSET_NAME] = name;
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionName(name, hash),
      namespace: SIDECARSET_REVISION_NAMESPACE,
      labels,
      annotations: { ...(sidecarSet.metadata.annotations ?? {}) },
      ownerReferences: [
        {
          apiVersion: `${SIDECARSET_RESOURCE.group}/${SIDECARSET_RESOURCE.version}`,
          kind: SIDECARSET_RESOURCE.kind,
          name,
          uid: sidecarSet.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    data,
    revision,
  };
}

/**
 * The name a revision with `data` gets under collision count `collisionCount` (`CreateControllerRevision`'s
 * retry: only the name moves, the hash label keeps the first try's hash).
 */
export function sidecarSetRevisionName(
  sidecarSet: SidecarSet,
  data: JsonValue | undefined,
  collisionCount: number,
): string {
  return revisionName(sidecarSet.metadata.name ?? '', hashRevision(goJson(data ?? null), collisionCount));
}
