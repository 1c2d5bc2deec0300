/**
 * A matched pod with the SidecarSet's new sidecar images, as OpenKruise's controller writes it
 * (`updatePodSidecarContainer` and `updatePodSidecarAndHash` in `pkg/controller/sidecarset/sidecarset_processor.go`,
 * `UpgradeSidecarContainer` and `UpdatePodAnnotationsInUpgrade` in `pkg/control/sidecarcontrol/sidecarset_control.go`,
 * `UpdatePodSidecarSetHash` in `util.go`). Cold sidecars only: the image of each pod container named after a
 * SidecarSet container changes, nothing else of the container. Pure.
 */
import type { Pod } from '../../../api/types.js';
import {
  parseInPlaceUpdateState,
  serializeInPlaceUpdateState,
  type InPlaceUpdateState,
} from '../../../podset/inplace/state.js';
import { ANNOTATION_SIDECARSET_HASH, ANNOTATION_SIDECARSET_INPLACE_UPDATE_STATE } from '../api/keys.js';
import { isNativeSidecar } from '../api/hash.js';
import type { SidecarSet } from '../api/types.js';
import { compareGoKeys, goJsonString } from '../../../api/goJson.js';
import { encodeHashAnnotation, goTime, parseHashAnnotation } from './annotations.js';
import { patchPodAnnotations } from './patchMetadata.js';
import { sidecarSetRevision } from './podState.js';

/** The per-SidecarSet in-place states of the pod's annotation; an unreadable value starts afresh, as upstream. */
function readStates(pod: Pod): Map<string, InPlaceUpdateState> {
  const out = new Map<string, InPlaceUpdateState>();
  const text = pod.metadata.annotations?.[ANNOTATION_SIDECARSET_INPLACE_UPDATE_STATE];
  if (!text) return out;
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    for (const [name, v] of Object.entries(parsed))
      if (v && typeof v === 'object') out.set(name, parseInPlaceUpdateState(JSON.stringify(v)));
  } catch {
    return new Map();
  }
  return out;
}

/** Go's JSON of `map[string]*InPlaceUpdateState`: keys sorted, each state in OpenKruise's field order. */
function encodeStates(states: ReadonlyMap<string, InPlaceUpdateState>): string {
  const keys = [...states.keys()].sort(compareGoKeys);
  return `{${keys.map((k) => `${goJsonString(k)}:${serializeInPlaceUpdateState(states.get(k)!)}`).join(',')}}`;
}

/**
 * The pod after this SidecarSet's in-place sidecar update, or undefined when no sidecar image differs and the hash
 * entry is current already. Changes: each changed sidecar container's `image`; `kruise.io/sidecarset-hash`'s entry
 * for the SidecarSet (now, its hash, its container names sorted, its `status.latestRevision`); in
 * `kruise.io/sidecarset-inplace-update-state` the SidecarSet's entry (kept when present, else revision = hash and
 * now) records each changed container's imageID from the pod status; `patchPodMetadata` applied to the annotations.
 * @param now the update timestamp (seconds precision in the annotations)
 * @throws SidecarInjectionError when a `MergePatchJson` metadata patch or the pod's value is not JSON
 */
export function upgradePodSidecars(sidecarSet: SidecarSet, pod: Pod, now: Date): Pod {
  const name = sidecarSet.metadata.name ?? '';
  const next = structuredClone(pod);
  const containers = next.spec.containers ?? [];
  const changed: string[] = [];
  for (const sidecar of sidecarSet.spec.containers ?? []) {
    const c = containers.find((x) => x.name === sidecar.name);
    if (!c || c.image === sidecar.image) continue;
    if (sidecar.image !== undefined) c.image = sidecar.image;
    else delete c.image;
    changed.push(c.name);
  }
  const annotations = { ...(next.metadata.annotations ?? {}) };
  let hashes: ReturnType<typeof parseHashAnnotation>;
  try {
    hashes = parseHashAnnotation(ANNOTATION_SIDECARSET_HASH, annotations[ANNOTATION_SIDECARSET_HASH]);
  } catch {
    hashes = new Map();
  }
  const sidecarList = [
    ...(sidecarSet.spec.containers ?? []).map((c) => c.name),
    ...(sidecarSet.spec.initContainers ?? []).filter(isNativeSidecar).map((c) => c.name),
  ].sort(compareGoKeys);
  const latest = sidecarSet.status?.latestRevision;
  hashes.set(name, {
    updateTimestamp: goTime(now),
    hash: sidecarSetRevision(sidecarSet),
    sidecarSetName: name,
    sidecarList: [...new Set(sidecarList)],
    ...(latest ? { controllerRevision: latest } : {}),
  });
  annotations[ANNOTATION_SIDECARSET_HASH] = encodeHashAnnotation(hashes);
  const states = readStates(next);
  const state = states.get(name) ?? {
    revision: sidecarSetRevision(sidecarSet),
    updateTimestamp: goTime(now),
  };
  const imageIds = new Map((next.status?.containerStatuses ?? []).map((s) => [s.name, s.imageID]));
  const last = { ...(state.lastContainerStatuses ?? {}) };
  for (const c of changed) last[c] = { imageID: imageIds.get(c) ?? '' };
  states.set(name, { ...state, lastContainerStatuses: last });
  annotations[ANNOTATION_SIDECARSET_INPLACE_UPDATE_STATE] = encodeStates(states);
  next.metadata.annotations = patchPodAnnotations(annotations, sidecarSet.spec.patchPodMetadata ?? []);
  return next;
}
