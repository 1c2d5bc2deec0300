/**
 * OpenKruise's mutating webhook for SidecarSets (`pkg/webhook/sidecarset/mutating`, v1alpha1 branch of `Handle`) as a
 * {@link Mutator}: on CREATE and UPDATE the SidecarSet is stored defaulted (./defaults.ts), its containers and init
 * containers as Go writes them back (./goTypedJson.ts: zero `omitempty` fields and unknown fields gone), and with the
 * two hash annotations (./hash.ts) the pod webhook copies into every pod it injects; and `spec.namespace` as
 * OpenKruise v1.9.0 keeps it, a namespaceSelector (./conversion.ts {@link namespaceAsSelector}).
 */
import type { Mutator, MutationRequest } from '../../../api/admission/mutation.js';
import type { JsonObject, JsonValue } from '../../../api/types.js';
import { dropFalsePaused, namespaceAsSelector } from './conversion.js';
import { defaultSidecarSet } from './defaults.js';
import { goSidecarContainersJson } from './goTypedJson.js';
import { sidecarSetHash, sidecarSetHashWithoutImage } from './hash.js';
import { ANNOTATION_SIDECARSET_HASH, ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE } from './keys.js';
import { SIDECARSET_RESOURCE } from './resource.js';
import type { SidecarSet } from './types.js';

/** A container list after Go's decode and encode (`null` for an empty list, which Go's `omitempty` drops). */
function goRoundTrip(list: unknown): JsonValue[] | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  return JSON.parse(goSidecarContainersJson(list as JsonValue[])) as JsonValue[];
}

/**
 * `sidecarSet` as OpenKruise's SidecarSet webhook stores it: defaults, Go's round trip of the containers, and the
 * annotations `kruise.io/sidecarset-hash` and `kruise.io/sidecarset-hash-without-image` over the result; then
 * `spec.namespace` and the `paused` flags as its v1beta1 storage keeps them ({@link namespaceAsSelector},
 * {@link dropFalsePaused}).
 * Pure: the input is not modified.
 */
export function mutateSidecarSet(sidecarSet: SidecarSet): SidecarSet {
  const out = defaultSidecarSet(sidecarSet);
  namespaceAsSelector(out.spec);
  dropFalsePaused(out.spec);
  for (const key of ['containers', 'initContainers'] as const) {
    const list = goRoundTrip(out.spec[key]);
    if (list) out.spec[key] = list as unknown as SidecarSet['spec'][typeof key];
    else delete out.spec[key];
  }
  out.metadata = {
    ...out.metadata,
    annotations: {
      ...out.metadata.annotations,
      [ANNOTATION_SIDECARSET_HASH]: sidecarSetHash(out.spec),
      [ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE]: sidecarSetHashWithoutImage(out.spec),
    },
  };
  return out;
}

/** The `/mutate` registration of {@link mutateSidecarSet} for `apps.kruise.io/v1alpha1` sidecarsets. */
export const sidecarSetMutator: Mutator = {
  group: SIDECARSET_RESOURCE.group,
  resource: SIDECARSET_RESOURCE.plural,
  version: SIDECARSET_RESOURCE.version,
  namespaced: false,
  mutate(request: MutationRequest): JsonObject {
    const object = request.object as unknown as SidecarSet;
    if (typeof object.metadata !== 'object' || object.metadata === null) return request.object;
    return mutateSidecarSet(object) as unknown as JsonObject;
  },
};
