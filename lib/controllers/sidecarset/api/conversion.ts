/**
 * SidecarSet between `apps.kruise.io/v1alpha1` and `v1beta1` (OpenKruise v1.9.0's stored version), as OpenKruise's
 * `apis/apps/v1alpha1/sidecarset_conversion.go` (`ConvertTo` / `ConvertFrom`) maps them. The two versions differ in
 * two fields:
 * - v1alpha1's `spec.namespace` has no v1beta1 field: towards v1beta1 a non-empty one becomes a `namespaceSelector`
 *   on the `kubernetes.io/metadata.name` label (replacing a selector given beside it), and the way back keeps the
 *   selector ({@link namespaceAsSelector}). The pods taken are the same; a v1alpha1 client reads the selector back.
 * - v1beta1's `spec.customVersion` is v1alpha1's label `apps.kruise.io/sidecarset-custom-version`: towards v1beta1
 *   the label (when present) moves into the spec, towards v1alpha1 a non-empty `customVersion` becomes the label.
 * Both directions go through Go structs, so a `paused: false` (Go `bool`, `omitempty`) is not written
 * ({@link dropFalsePaused}). Everything else, the status included, is the same field in both and copied as it is.
 *
 * Round trips: a SidecarSet as Kruiseless's `/mutate` stores it (no `namespace`, no `paused: false`; OpenKruise's
 * SidecarSet webhook stores the same) converts there and back unchanged in either direction; the two one-way
 * mappings above are OpenKruise's and kept as they are (the pods matched do not change).
 */
import type { CrdConverter } from '../../../api/conversion/converter.js';
import { isJsonObject, type JsonObject } from '../../../api/types.js';
import { LABEL_METADATA_NAME, LABEL_SIDECARSET_CUSTOM_VERSION } from './keys.js';
import { SIDECARSET_RESOURCE } from './resource.js';
import type { SidecarSet } from './types.js';

/** The two served versions. */
export type SidecarSetVersion = 'v1alpha1' | 'v1beta1';

/**
 * In place: a v1alpha1 `spec.namespace` as OpenKruise v1.9.0's `ConvertTo` writes it into its v1beta1 storage, which
 * has no such field: a non-empty one becomes `namespaceSelector: {matchLabels: {kubernetes.io/metadata.name:
 * <namespace>}}` (replacing any selector given beside it; upstream: "Namespace > NamespaceSelector"), and
 * `ConvertFrom` does not restore it, so a v1alpha1 client reads the selector and no `namespace`. The pods it takes
 * are the same ones. An empty `namespace` is dropped (Go's `omitempty`).
 */
export function namespaceAsSelector(spec: SidecarSet['spec']): void {
  const namespace = spec.namespace;
  delete spec.namespace;
  if (typeof namespace === 'string' && namespace !== '')
    spec.namespaceSelector = { matchLabels: { [LABEL_METADATA_NAME]: namespace } };
}

/**
 * In place: `updateStrategy.paused` and `injectionStrategy.paused` when `false` are dropped, as OpenKruise v1.9.0's
 * conversions write them (Go `bool` fields with `omitempty`), so no client reads `paused: false` back.
 */
export function dropFalsePaused(spec: SidecarSet['spec']): void {
  for (const strategy of [spec.updateStrategy, spec.injectionStrategy])
    if (strategy && strategy.paused === false) delete strategy.paused;
}

/** A spec of either version: v1beta1 adds `customVersion`. */
type EitherSpec = SidecarSet['spec'] & { customVersion?: string };

/** A shallow copy of `spec` with copies of the two strategies, so that the in-place rules leave the input alone. */
function specCopy(spec: JsonObject): EitherSpec {
  const out: JsonObject = { ...spec };
  for (const k of ['updateStrategy', 'injectionStrategy'] as const) {
    const v = out[k];
    if (isJsonObject(v)) out[k] = { ...v };
  }
  return out;
}

/** `metadata` with `labels` replaced (dropped when empty, as Go's `omitempty` map). */
function withLabels(metadata: JsonObject, labels: Record<string, string>): JsonObject {
  const out: JsonObject = { ...metadata };
  if (Object.keys(labels).length > 0) out.labels = labels;
  else delete out.labels;
  return out;
}

function labelsOf(metadata: JsonObject): Record<string, string> {
  return isJsonObject(metadata.labels) ? ({ ...metadata.labels } as Record<string, string>) : {};
}

/**
 * A v1alpha1 SidecarSet as v1beta1 (OpenKruise's `ConvertTo`).
 * @param alpha a v1alpha1 SidecarSet; not modified
 */
export function sidecarSetToV1beta1(alpha: JsonObject): JsonObject {
  const out: JsonObject = { ...alpha, apiVersion: `${SIDECARSET_RESOURCE.group}/v1beta1` };
  const metadata = isJsonObject(alpha.metadata) ? alpha.metadata : {};
  const spec = specCopy(isJsonObject(alpha.spec) ? alpha.spec : {});
  namespaceAsSelector(spec);
  dropFalsePaused(spec);
  delete spec.customVersion;
  const labels = labelsOf(metadata);
  if (LABEL_SIDECARSET_CUSTOM_VERSION in labels) {
    const customVersion = labels[LABEL_SIDECARSET_CUSTOM_VERSION];
    delete labels[LABEL_SIDECARSET_CUSTOM_VERSION];
    if (typeof customVersion === 'string' && customVersion !== '') spec.customVersion = customVersion;
    out.metadata = withLabels(metadata, labels);
  }
  if (isJsonObject(alpha.spec)) out.spec = spec as unknown as JsonObject;
  return out;
}

/**
 * A v1beta1 SidecarSet as v1alpha1 (OpenKruise's `ConvertFrom`).
 * @param beta a v1beta1 SidecarSet as the API server stores it; not modified
 */
export function sidecarSetToV1alpha1(beta: JsonObject): JsonObject {
  const out: JsonObject = { ...beta, apiVersion: `${SIDECARSET_RESOURCE.group}/v1alpha1` };
  const metadata = isJsonObject(beta.metadata) ? beta.metadata : {};
  const spec = specCopy(isJsonObject(beta.spec) ? beta.spec : {});
  dropFalsePaused(spec);
  delete spec.namespace;
  const customVersion = spec.customVersion;
  delete spec.customVersion;
  if (typeof customVersion === 'string' && customVersion !== '')
    out.metadata = withLabels(metadata, {
      ...labelsOf(metadata),
      [LABEL_SIDECARSET_CUSTOM_VERSION]: customVersion,
    });
  if (isJsonObject(beta.spec)) out.spec = spec as unknown as JsonObject;
  return out;
}

/** The SidecarSet converter of lib/controllers/conversions.ts. */
export const sidecarSetConverter: CrdConverter = {
  group: SIDECARSET_RESOURCE.group,
  kind: SIDECARSET_RESOURCE.kind,
  plural: SIDECARSET_RESOURCE.plural,
  versions: ['v1beta1', 'v1alpha1'],
  convert(object, _from, to) {
    return to === 'v1alpha1' ? sidecarSetToV1alpha1(object) : sidecarSetToV1beta1(object);
  },
};
