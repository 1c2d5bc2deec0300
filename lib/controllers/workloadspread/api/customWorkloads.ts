/**
 * OpenKruise: pkg/util/configuration `WSCustomWorkloadWhiteList` and `GetWSWatchCustomWorkloadWhiteList` (v1.9.0),
 * and the three places that consult it. Pure.
 *
 * The `WorkloadSpread_Watch_Custom_Workload_WhiteList` entry of the `kruise-configuration` ConfigMap lets a
 * WorkloadSpread target a workload Kind of another project (a TFJob, an Advanced DaemonSet):
 *
 * ```json
 * {"workloads": [{"Group": "kubeflow.org", "Version": "v1", "Kind": "TFJob",
 *                 "ReplicasPath": "spec.tfReplicaSpecs.MASTER.replicas",
 *                 "SubResources": [{"Group": "...", "Version": "...", "Kind": "..."}]}]}
 * ```
 *
 * The document is decoded as Go's `encoding/json` decodes it into that struct: key names matched without regard to
 * case (`Group`, `group`), the last of two spellings winning, unknown keys ignored, `null` as absent. A workload's
 * group and Kind (and those of its sub-resources, the objects between it and its pods) make its pods ones the pod
 * webhook looks at; its group and Kind let a WorkloadSpread name it as `targetRef`; its `ReplicasPath` (matched on
 * group, version and Kind) is where the controller reads its replicas when the WorkloadSpread's `targetFilter` gives
 * no paths — an entry without one counts 0 replicas.
 */
import { parseGroupVersion } from '../../../api/groupVersion.js';
import { isJsonObject } from '../../../api/types.js';
import { UnresolvedReferenceError } from '../../../kube/errors.js';
import { groupOf } from './resource.js';

/** The ConfigMap key of the whitelist (upstream's `WSWatchCustomWorkloadWhiteList`). */
export const CUSTOM_WORKLOAD_WHITELIST_KEY = 'WorkloadSpread_Watch_Custom_Workload_WhiteList';

/** A group, version and Kind, as Go's `schema.GroupVersionKind` (its fields have no JSON names). */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** One whitelisted workload (upstream's `CustomWorkload`). */
export interface CustomWorkload extends GroupVersionKind {
  /** The Kinds between the workload and its pods (their owners are followed up to it). */
  subResources: GroupVersionKind[];
  /** Dotted path of its replicas, e.g. `spec.replicas`; `''` when not given. */
  replicasPath: string;
}

/**
 * The whitelist entry is not the JSON upstream decodes; the message says where. A pass that meets it fails and is
 * backed off (an {@link UnresolvedReferenceError}), as upstream's sync returns the decoder's error.
 */
export class CustomWorkloadWhitelistError extends UnresolvedReferenceError {
  constructor(message: string) {
    super(`${CUSTOM_WORKLOAD_WHITELIST_KEY}: ${message}`);
    this.name = 'CustomWorkloadWhitelistError';
  }
}

/** The value of the key matching `name` regardless of case, the last such key winning (Go's decoder). */
function field(obj: Record<string, unknown>, name: string): unknown {
  let value: unknown;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(obj)) if (k.toLowerCase() === lower) value = v;
  return value;
}

/** A string field (absent or null: ''). @throws CustomWorkloadWhitelistError for another type */
function stringField(obj: Record<string, unknown>, name: string, where: string): string {
  const v = field(obj, name);
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new CustomWorkloadWhitelistError(`${where}.${name} is not a string`);
  return v;
}

/** A list field (absent or null: none). @throws CustomWorkloadWhitelistError for another type */
function listField(obj: Record<string, unknown>, name: string, where: string): unknown[] {
  const v = field(obj, name);
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new CustomWorkloadWhitelistError(`${where}.${name} is not a list`);
  return v;
}

/** A `GroupVersionKind` object (null: all empty). @throws CustomWorkloadWhitelistError for another type */
function groupVersionKind(v: unknown, where: string): GroupVersionKind {
  if (v === null) return { group: '', version: '', kind: '' };
  if (!isJsonObject(v)) throw new CustomWorkloadWhitelistError(`${where} is not an object`);
  return {
    group: stringField(v, 'Group', where),
    version: stringField(v, 'Version', where),
    kind: stringField(v, 'Kind', where),
  };
}

/**
 * The whitelist in `text` (see the module doc); none when `text` is undefined (no ConfigMap, no entry) or `null`.
 * @throws CustomWorkloadWhitelistError when `text` is not JSON or a field has the wrong type (upstream's
 *   `json.Unmarshal` error: its webhook then refuses with an internal error and its sync fails)
 */
export function parseCustomWorkloadWhitelist(text: string | undefined): CustomWorkload[] {
  if (text === undefined) return [];
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new CustomWorkloadWhitelistError(`not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (doc === null) return [];
  if (!isJsonObject(doc)) throw new CustomWorkloadWhitelistError('is not a JSON object');
  return listField(doc, 'workloads', 'workloads').map((w, i) => {
    const where = `workloads[${i}]`;
    const gvk = groupVersionKind(w, where);
    const obj = isJsonObject(w) ? w : {};
    return {
      ...gvk,
      subResources: listField(obj, 'SubResources', where).map((s, j) =>
        groupVersionKind(s, `${where}.SubResources[${j}]`),
      ),
      replicasPath: stringField(obj, 'ReplicasPath', where),
    };
  });
}

/**
 * Whether a reference of `apiVersion` and `kind` is a whitelisted workload or one of their sub-resources (group and
 * Kind compared, as upstream's `matchReference` over the list `initializeWorkloadsInWhiteList` extends).
 */
export function isWhitelistedOwner(
  whitelist: readonly CustomWorkload[],
  ref: { apiVersion?: string; kind?: string },
): boolean {
  const group = groupOf(ref.apiVersion);
  const is = (g: GroupVersionKind) => g.kind === ref.kind && g.group === group;
  return whitelist.some((w) => is(w) || w.subResources.some(is));
}

/**
 * Whether a WorkloadSpread may name a target of `kind` in `group` (upstream's validating webhook: group and Kind of a
 * whitelisted workload; sub-resources do not count).
 */
export function isWhitelistedTarget(
  whitelist: readonly CustomWorkload[],
  group: string,
  kind: string,
): boolean {
  return whitelist.some((w) => w.group === group && w.kind === kind);
}

/**
 * The whitelisted replicas path of the target `ref` names (group, version and Kind all equal, as upstream's
 * `getReplicasPathList`), `''` for an entry without one; undefined when no entry matches or the apiVersion does not
 * parse.
 */
export function whitelistedReplicasPath(
  whitelist: readonly CustomWorkload[],
  ref: { apiVersion?: string; kind?: string },
): string | undefined {
  const gv = parseGroupVersion(ref.apiVersion ?? '');
  if ('error' in gv) return undefined;
  return whitelist.find((w) => w.group === gv.group && w.version === gv.version && w.kind === ref.kind)
    ?.replicasPath;
}

/**
 * The whitelisted replicas path of a workload of `apiVersion`/`kind`, group and Kind compared (upstream's
 * `GetReplicasFromCustomWorkload`, which the pod webhook uses); undefined when no entry matches.
 */
export function whitelistedReplicasPathByGroupKind(
  whitelist: readonly CustomWorkload[],
  ref: { apiVersion?: string; kind?: string },
): string | undefined {
  const group = groupOf(ref.apiVersion);
  return whitelist.find((w) => w.group === group && w.kind === ref.kind)?.replicasPath;
}
