/**
 * `patchPodMetadata`: annotations a SidecarSet writes into the pods it matches (OpenKruise: `PatchPodMetadata` in
 * `pkg/control/sidecarcontrol/util.go`). Pure.
 */
import { goJson } from '../../../api/goJson.js';
import { isJsonObject, type JsonValue } from '../../../api/types.js';
import type { SidecarSetPatchPodMetadata } from '../api/types.js';
import { SidecarInjectionError } from './errors.js';

type Obj = { [key: string]: JsonValue };

/** RFC 7386 JSON merge patch of `patch` onto `target` (evanphx/json-patch `MergePatch`'s result, before encoding). */
function mergePatch(target: JsonValue, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return patch;
  const out: Obj = isJsonObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k] ?? null, v);
  }
  return out;
}

const parse = (text: string, what: string): JsonValue => {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    throw new SidecarInjectionError(`patchPodMetadata ${what} is not JSON`);
  }
};

/**
 * The pod's annotations after the patches, in order: `Retain` (or none) adds keys the pod lacks, `Overwrite` sets
 * every key, `MergePatchJson` merge-patches the pod's non-empty value with the SidecarSet's (and sets it when the pod
 * has none); other policies do nothing.
 * @returns a new map (the input is not modified)
 * @throws SidecarInjectionError when a `MergePatchJson` value or the pod's value it patches is not JSON
 */
export function patchPodAnnotations(
  annotations: Readonly<Record<string, string>>,
  patches: readonly SidecarSetPatchPodMetadata[],
): Record<string, string> {
  const out = { ...annotations };
  for (const patch of patches) {
    for (const [key, value] of Object.entries(patch.annotations ?? {})) {
      switch (patch.patchPolicy ?? 'Retain') {
        case '':
        case 'Retain':
          if (!(key in out)) out[key] = value;
          break;
        case 'Overwrite':
          out[key] = value;
          break;
        case 'MergePatchJson': {
          const origin = out[key];
          if (origin) {
            const patchValue = parse(value, `value of ${key}`);
            out[key] = goJson(mergePatch(parse(origin, `pod annotation ${key}`), patchValue));
          } else out[key] = value;
          break;
        }
      }
    }
  }
  return out;
}
