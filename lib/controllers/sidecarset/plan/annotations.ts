/**
 * The pod annotations that record an injection (OpenKruise: `SidecarSetUpgradeSpec` and the end of `buildSidecars` in
 * `pkg/webhook/pod/mutating/sidecarset.go`): `kruise.io/sidecarset-hash` and `kruise.io/sidecarset-hash-without-image`
 * map each injected SidecarSet's name to `{updateTimestamp, hash, sidecarSetName, sidecarList, controllerRevision}`,
 * written as Go writes a `map[string]SidecarSetUpgradeSpec` (keys sorted, fields in struct order); and
 * `kruise.io/sidecarset-injected-list` names them, sorted, comma-separated. Pure.
 */
import { compareGoKeys, goJson, goJsonString } from '../../../api/goJson.js';
import { isJsonObject } from '../../../api/types.js';
import { SidecarInjectionError } from './errors.js';

/** One SidecarSet's entry of a hash annotation (`SidecarSetUpgradeSpec`). */
export interface SidecarSetUpgradeSpec {
  /** RFC 3339, seconds, UTC (`metav1.Time`); absent encodes as `null`, as Go's zero time. */
  updateTimestamp?: string;
  hash: string;
  sidecarSetName: string;
  /** The SidecarSet's containers and native-sidecar init containers, sorted; absent encodes as `null`. */
  sidecarList?: string[];
  /** The SidecarSet's `status.latestRevision`; omitted when empty. */
  controllerRevision?: string;
}

/**
 * Reads a hash annotation as OpenKruise does: the current map of specs, or the older `{name: hash}` form.
 * @throws SidecarInjectionError when it is neither (upstream refuses the pod too)
 */
export function parseHashAnnotation(
  key: string,
  value: string | undefined,
): Map<string, SidecarSetUpgradeSpec> {
  const out = new Map<string, SidecarSetUpgradeSpec>();
  if (!value) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new SidecarInjectionError(`pod annotation ${key} is not JSON: ${value}`);
  }
  if (!isJsonObject(parsed))
    throw new SidecarInjectionError(`pod annotation ${key} is not a JSON object: ${value}`);
  const values = Object.values(parsed);
  if (values.every((v) => typeof v === 'string')) {
    for (const [name, hash] of Object.entries(parsed))
      out.set(name, { hash: hash as string, sidecarSetName: name });
    return out;
  }
  for (const [name, v] of Object.entries(parsed)) {
    if (!isJsonObject(v))
      throw new SidecarInjectionError(`pod annotation ${key}: entry ${name} is not an object`);
    const str = (k: string): string | undefined => (typeof v[k] === 'string' ? v[k] : undefined);
    const list = Array.isArray(v.sidecarList)
      ? v.sidecarList.filter((s): s is string => typeof s === 'string')
      : undefined;
    out.set(name, {
      ...(str('updateTimestamp') ? { updateTimestamp: str('updateTimestamp') } : {}),
      hash: str('hash') ?? '',
      sidecarSetName: str('sidecarSetName') ?? '',
      ...(list ? { sidecarList: list } : {}),
      ...(str('controllerRevision') ? { controllerRevision: str('controllerRevision') } : {}),
    });
  }
  return out;
}

/** `metav1.Time` as Go marshals it: RFC 3339 in UTC, whole seconds. */
export function goTime(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function encodeSpec(s: SidecarSetUpgradeSpec): string {
  const members = [
    `"updateTimestamp":${s.updateTimestamp ? goJsonString(s.updateTimestamp) : 'null'}`,
    `"hash":${goJsonString(s.hash)}`,
    `"sidecarSetName":${goJsonString(s.sidecarSetName)}`,
    `"sidecarList":${s.sidecarList ? goJson(s.sidecarList) : 'null'}`,
  ];
  if (s.controllerRevision) members.push(`"controllerRevision":${goJsonString(s.controllerRevision)}`);
  return `{${members.join(',')}}`;
}

/** A hash annotation's value: Go's JSON of the map, keys in Go order. */
export function encodeHashAnnotation(specs: ReadonlyMap<string, SidecarSetUpgradeSpec>): string {
  const keys = [...specs.keys()].sort(compareGoKeys);
  return `{${keys.map((k) => `${goJsonString(k)}:${encodeSpec(specs.get(k)!)}`).join(',')}}`;
}

/** `kruise.io/sidecarset-injected-list`: the union of the listed and the injected names, sorted, comma-joined. */
export function injectedList(current: string | undefined, names: readonly string[]): string {
  const all = new Set([...(current ? current.split(',') : []), ...names]);
  return [...all].sort(compareGoKeys).join(',');
}
