/**
 * The pod annotation `kruise.io/sidecarset-inplace-update-state`: per SidecarSet, the imageID each container it
 * changed in place ran before the change, so that a new imageID tells the kubelet has restarted it (OpenKruise:
 * `UpdatePodAnnotationsInUpgrade` of `commonControl` in `pkg/control/sidecarcontrol/sidecarset_control.go`, called
 * for an image upgrade and for a hot-upgrade reset to the empty image alike). Pure.
 */
import { compareGoKeys, goJsonString } from '../../../api/goJson.js';
import type { Pod } from '../../../api/types.js';
import {
  parseInPlaceUpdateState,
  serializeInPlaceUpdateState,
  type InPlaceUpdateState,
} from '../../../podset/inplace/state.js';
import { ANNOTATION_SIDECARSET_INPLACE_UPDATE_STATE } from '../api/keys.js';
import type { SidecarSet } from '../api/types.js';
import { goTime } from './annotations.js';
import { sidecarSetRevision } from './podState.js';

/** The per-SidecarSet in-place states of the pod's annotation; an unreadable value starts afresh, as upstream. */
function readStates(annotations: Readonly<Record<string, string>>): Map<string, InPlaceUpdateState> {
  const out = new Map<string, InPlaceUpdateState>();
  const text = annotations[ANNOTATION_SIDECARSET_INPLACE_UPDATE_STATE];
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
 * `annotations` with the SidecarSet's in-place state recording `changed`: its entry is kept when present (else
 * revision = the SidecarSet's hash, timestamp `now`), and each changed container's imageID is taken from the pod's
 * container statuses ('' when it has none), replacing an earlier record of that container.
 * @param annotations the pod's annotations as they will be written (not modified)
 * @param pod the pod as read, for its container statuses
 * @param changed pod container names whose image this write changes
 * @returns a new annotations object
 */
export function recordInPlaceUpgrade(
  annotations: Readonly<Record<string, string>>,
  sidecarSet: SidecarSet,
  pod: Pod,
  changed: readonly string[],
  now: Date,
): Record<string, string> {
  const name = sidecarSet.metadata.name ?? '';
  const states = readStates(annotations);
  const state = states.get(name) ?? {
    revision: sidecarSetRevision(sidecarSet),
    updateTimestamp: goTime(now),
  };
  const imageIds = new Map((pod.status?.containerStatuses ?? []).map((s) => [s.name, s.imageID]));
  const last = { ...(state.lastContainerStatuses ?? {}) };
  for (const c of changed) last[c] = { imageID: imageIds.get(c) ?? '' };
  states.set(name, { ...state, lastContainerStatuses: last });
  return { ...annotations, [ANNOTATION_SIDECARSET_INPLACE_UPDATE_STATE]: encodeStates(states) };
}
