/**
 * Advanced DaemonSet between `apps.kruise.io/v1alpha1` and `v1beta1` (the stored version), as OpenKruise's
 * `ConvertTo`/`ConvertFrom` in `apis/apps/v1alpha1/daemonset_conversion.go` map them:
 * - v1alpha1's `status.daemonSetHash` is v1beta1's `status.updateRevision`;
 * - v1alpha1's annotation {@link ANNOTATION_PROGRESSIVE_CREATE_POD} `"true"` is v1beta1's
 *   `spec.scaleStrategy.partitionedScaling: true` (the annotation stays on the object either way, as upstream copies
 *   the metadata; a v1beta1 `scaleStrategy` without `partitionedScaling` has no v1alpha1 form and is dropped);
 * - v1alpha1's deprecated `rollingUpdateType: Surging` becomes `Standard` (its alias; the way back keeps `Standard`).
 * Everything else is the same field in both. The JSON is copied as it is, without Go's zero values added or dropped.
 */
import type { CrdConverter } from '../../../api/conversion/converter.js';
import { isJsonObject, type JsonObject } from '../../../api/types.js';

/** The group of both versions. */
const GROUP = 'apps.kruise.io';

/** v1alpha1's way of asking for partitioned scaling (v1beta1 `spec.scaleStrategy.partitionedScaling`). */
export const ANNOTATION_PROGRESSIVE_CREATE_POD = 'daemonset.kruise.io/progressive-create-pod';

/** `o[key]` as an object copy, or undefined when it is not one. */
const copyOf = (o: JsonObject, key: string): JsonObject | undefined =>
  isJsonObject(o[key]) ? { ...o[key] } : undefined;

/** `status` with the hash moved from `from` to `to` (absent stays absent). */
function movedHash(status: JsonObject, from: string, to: string): JsonObject {
  if (!(from in status)) return status;
  const { [from]: hash, ...rest } = status;
  return hash === undefined ? rest : { ...rest, [to]: hash };
}

/**
 * A v1alpha1 DaemonSet as v1beta1.
 * @param alpha a v1alpha1 DaemonSet; not modified
 */
export function daemonSetToV1beta1(alpha: JsonObject): JsonObject {
  const out: JsonObject = { ...alpha, apiVersion: `${GROUP}/v1beta1` };
  const spec = copyOf(alpha, 'spec');
  const annotations = isJsonObject(alpha.metadata) ? alpha.metadata.annotations : undefined;
  if (spec) {
    const strategy = copyOf(spec, 'updateStrategy');
    const rolling = strategy && copyOf(strategy, 'rollingUpdate');
    if (strategy && rolling?.rollingUpdateType === 'Surging') {
      spec.updateStrategy = { ...strategy, rollingUpdate: { ...rolling, rollingUpdateType: 'Standard' } };
    }
    if (isJsonObject(annotations) && annotations[ANNOTATION_PROGRESSIVE_CREATE_POD] === 'true')
      spec.scaleStrategy = { partitionedScaling: true };
    out.spec = spec;
  }
  const status = copyOf(alpha, 'status');
  if (status) out.status = movedHash(status, 'daemonSetHash', 'updateRevision');
  return out;
}

/**
 * A v1beta1 DaemonSet as v1alpha1.
 * @param beta a v1beta1 DaemonSet as the API server stores it; not modified
 */
export function daemonSetToV1alpha1(beta: JsonObject): JsonObject {
  const out: JsonObject = { ...beta, apiVersion: `${GROUP}/v1alpha1` };
  const spec = copyOf(beta, 'spec');
  if (spec) {
    const scale = spec.scaleStrategy;
    delete spec.scaleStrategy;
    out.spec = spec;
    if (isJsonObject(scale) && scale.partitionedScaling === true) {
      const metadata = isJsonObject(beta.metadata) ? beta.metadata : {};
      const annotations = isJsonObject(metadata.annotations) ? metadata.annotations : {};
      out.metadata = {
        ...metadata,
        annotations: { ...annotations, [ANNOTATION_PROGRESSIVE_CREATE_POD]: 'true' },
      };
    }
  }
  const status = copyOf(beta, 'status');
  if (status) out.status = movedHash(status, 'updateRevision', 'daemonSetHash');
  return out;
}

/** The Advanced DaemonSet converter of lib/controllers/conversions.ts. */
export const daemonSetConverter: CrdConverter = {
  group: GROUP,
  kind: 'DaemonSet',
  plural: 'daemonsets',
  versions: ['v1beta1', 'v1alpha1'],
  convert(object, _from, to) {
    return to === 'v1alpha1' ? daemonSetToV1alpha1(object) : daemonSetToV1beta1(object);
  },
};
