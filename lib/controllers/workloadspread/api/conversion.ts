/**
 * WorkloadSpread between `apps.kruise.io/v1alpha1` and `v1beta1` (the stored version), as OpenKruise v1.9.0's
 * `apis/apps/v1alpha1/workloadspread_conversion.go` maps them:
 * - a subset's v1alpha1 `requiredNodeSelectorTerm` is v1beta1's `requiredNodeSelector`, its
 *   `preferredNodeSelectorTerms` v1beta1's `preferredNodeSelector`;
 * - a subset status condition is v1beta1's `metav1.Condition`, whose `reason` and `message` are required: towards
 *   v1beta1 an empty or absent reason becomes `Unknown` and an absent message `""` (the way back keeps both).
 * The subset statuses of `status.subsetStatuses` and of each version in `status.versionedSubsetStatuses` are
 * converted alike. Everything else is the same field in both; the JSON is copied as it is.
 */
import type { CrdConverter } from '../../../api/conversion/converter.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../../api/types.js';

/** The group of both versions. */
const GROUP = 'apps.kruise.io';

/** Subset field names, v1alpha1 → v1beta1. */
const SUBSET_FIELDS: readonly (readonly [string, string])[] = [
  ['requiredNodeSelectorTerm', 'requiredNodeSelector'],
  ['preferredNodeSelectorTerms', 'preferredNodeSelector'],
];

type Direction = 'toBeta' | 'toAlpha';

/** `subset` with its node selector fields renamed for `direction`. */
function renamedSubset(subset: JsonValue, direction: Direction): JsonValue {
  if (!isJsonObject(subset)) return subset;
  const out: JsonObject = { ...subset };
  for (const [alpha, beta] of SUBSET_FIELDS) {
    const [from, to] = direction === 'toBeta' ? [alpha, beta] : [beta, alpha];
    if (!(from in out)) continue;
    const value = out[from];
    delete out[from];
    if (value !== undefined) out[to] = value;
  }
  return out;
}

/** A v1alpha1 subset condition as a `metav1.Condition` (reason `Unknown` when empty, message `""` when absent). */
function betaCondition(condition: JsonValue): JsonValue {
  if (!isJsonObject(condition)) return condition;
  const reason =
    typeof condition.reason === 'string' && condition.reason !== '' ? condition.reason : 'Unknown';
  return { ...condition, reason, message: condition.message ?? '' };
}

/** One subset status list with its conditions converted for `direction` (v1alpha1 takes them as they are). */
function convertedSubsetStatuses(list: JsonValue, direction: Direction): JsonValue {
  if (!Array.isArray(list) || direction === 'toAlpha') return list;
  return list.map((s) =>
    isJsonObject(s) && Array.isArray(s.conditions)
      ? { ...s, conditions: s.conditions.map(betaCondition) }
      : s,
  );
}

/** `status` with every subset status list converted. */
function convertedStatus(status: JsonObject, direction: Direction): JsonObject {
  const out: JsonObject = { ...status };
  if ('subsetStatuses' in out) out.subsetStatuses = convertedSubsetStatuses(out.subsetStatuses, direction);
  const versioned = out.versionedSubsetStatuses;
  if (isJsonObject(versioned)) {
    out.versionedSubsetStatuses = Object.fromEntries(
      Object.entries(versioned).map(([v, list]) => [v, convertedSubsetStatuses(list, direction)]),
    );
  }
  return out;
}

/** `ws` as `version`, its subsets and status converted for `direction`. */
function converted(ws: JsonObject, version: string, direction: Direction): JsonObject {
  const out: JsonObject = { ...ws, apiVersion: `${GROUP}/${version}` };
  if (isJsonObject(ws.spec)) {
    const spec: JsonObject = { ...ws.spec };
    if (Array.isArray(spec.subsets)) spec.subsets = spec.subsets.map((s) => renamedSubset(s, direction));
    out.spec = spec;
  }
  if (isJsonObject(ws.status)) out.status = convertedStatus(ws.status, direction);
  return out;
}

/**
 * A v1alpha1 WorkloadSpread as v1beta1.
 * @param alpha a v1alpha1 WorkloadSpread; not modified
 */
export function workloadSpreadToV1beta1(alpha: JsonObject): JsonObject {
  return converted(alpha, 'v1beta1', 'toBeta');
}

/**
 * A v1beta1 WorkloadSpread as v1alpha1.
 * @param beta a v1beta1 WorkloadSpread as the API server stores it; not modified
 */
export function workloadSpreadToV1alpha1(beta: JsonObject): JsonObject {
  return converted(beta, 'v1alpha1', 'toAlpha');
}

/** The WorkloadSpread converter of lib/controllers/conversions.ts. */
export const workloadSpreadConverter: CrdConverter = {
  group: GROUP,
  kind: 'WorkloadSpread',
  plural: 'workloadspreads',
  versions: ['v1beta1', 'v1alpha1'],
  convert(object, _from, to) {
    return to === 'v1alpha1' ? workloadSpreadToV1alpha1(object) : workloadSpreadToV1beta1(object);
  },
};
