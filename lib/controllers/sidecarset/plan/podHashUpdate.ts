/**
 * The hash annotations of a pod the controller updates in place (OpenKruise: `UpdatePodSidecarSetHash` in
 * `pkg/control/sidecarcontrol/util.go`): the SidecarSet's entry of `kruise.io/sidecarset-hash` is rewritten; when that
 * annotation is not a map of specs (absent, unreadable, or the older `{name: hash}` form), the older form's entries
 * are carried over as specs stamped now and named after this SidecarSet, and an older-form
 * `kruise.io/sidecarset-hash-without-image` is converted the same way. Pure.
 */
import { compareGoKeys } from '../../../api/goJson.js';
import { isJsonObject } from '../../../api/types.js';
import { isNativeSidecar } from '../api/hash.js';
import { ANNOTATION_SIDECARSET_HASH, ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE } from '../api/keys.js';
import type { SidecarSet } from '../api/types.js';
import {
  encodeHashAnnotation,
  goTime,
  parseHashAnnotation,
  type SidecarSetUpgradeSpec,
} from './annotations.js';
import { sidecarSetRevision } from './podState.js';

const parse = (value: string | undefined): unknown => {
  try {
    return value === undefined ? undefined : JSON.parse(value);
  } catch {
    return undefined;
  }
};

const isStringOrNull = (v: unknown): boolean => v === null || v === undefined || typeof v === 'string';

/** Whether Go's `json.Unmarshal` into `map[string]SidecarSetUpgradeSpec` succeeds on the value. */
function readableAsSpecs(value: string | undefined): boolean {
  const parsed = parse(value);
  if (!isJsonObject(parsed)) return false;
  return Object.values(parsed).every(
    (v) =>
      v === null ||
      (isJsonObject(v) &&
        ['updateTimestamp', 'hash', 'sidecarSetName', 'controllerRevision'].every((k) =>
          isStringOrNull(v[k]),
        ) &&
        (v.sidecarList === null ||
          v.sidecarList === undefined ||
          (Array.isArray(v.sidecarList) && v.sidecarList.every(isStringOrNull)))),
  );
}

/** The value read as Go's `map[string]string` (null entries as ''), or undefined when that unmarshal fails. */
function olderForm(value: string | undefined): Map<string, string> | undefined {
  const parsed = parse(value);
  if (!isJsonObject(parsed) || !Object.values(parsed).every(isStringOrNull)) return undefined;
  return new Map(Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : '']));
}

/**
 * `annotations` with the SidecarSet's hash entry set to now, its hash, its container and native-sidecar init
 * container names (sorted) and its `status.latestRevision`; see the file comment for older-form annotations.
 * @returns a new annotations object
 */
export function updatePodSidecarSetHash(
  annotations: Readonly<Record<string, string>>,
  sidecarSet: SidecarSet,
  now: Date,
): Record<string, string> {
  const name = sidecarSet.metadata.name ?? '';
  const out = { ...annotations };
  let hashes = new Map<string, SidecarSetUpgradeSpec>();
  if (readableAsSpecs(annotations[ANNOTATION_SIDECARSET_HASH])) {
    try {
      hashes = parseHashAnnotation(ANNOTATION_SIDECARSET_HASH, annotations[ANNOTATION_SIDECARSET_HASH]);
    } catch {
      // a null entry: Go keeps a zero spec for it, this drops it
    }
  } else {
    const asSpec = (hash: string): SidecarSetUpgradeSpec => ({
      updateTimestamp: goTime(now),
      hash,
      sidecarSetName: name,
    });
    // upstream reads both older forms into one map, the without-image entries last
    const older = olderForm(annotations[ANNOTATION_SIDECARSET_HASH]) ?? new Map<string, string>();
    for (const [k, v] of older) hashes.set(k, asSpec(v));
    const olderWithoutImage = olderForm(annotations[ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE]);
    if (olderWithoutImage) {
      const merged = new Map([...older, ...olderWithoutImage]);
      out[ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE] = encodeHashAnnotation(
        new Map([...merged].map(([k, v]) => [k, asSpec(v)])),
      );
    }
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
  out[ANNOTATION_SIDECARSET_HASH] = encodeHashAnnotation(hashes);
  return out;
}
