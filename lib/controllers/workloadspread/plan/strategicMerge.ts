/**
 * OpenKruise: pkg/util/workloadspread/workloadspread.go `injectWorkloadSpreadIntoPod` applies a subset's `patch` with
 * apimachinery's `strategicpatch.StrategicMergePatch(pod, patch, &corev1.Pod{})` (v1.9.0).
 *
 * That merge for a Pod, over the fields a subset patch touches in practice: objects merge key by key (`null`
 * deletes), lists with a Kubernetes merge key merge element by element (`containers` by `name`, a container's `env`
 * by `name`, `ports` by `containerPort`, `volumeMounts` by `mountPath`, `volumes` by `name`, …; `finalizers` as a set),
 * every other list and scalar is replaced. Merged lists are ordered as apimachinery's `normalizeElementOrder` orders
 * them: the patch's elements in patch order, the pod's others interleaved in the pod's order. Directives: `$patch:
 * replace` / `delete` on an object and `$patch: delete` on a list element; the others (`$retainKeys`,
 * `$setElementOrder`, `$deleteFromPrimitiveList`) are not read.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../../api/types.js';

/** A struct's list fields that merge, by field name: the merge key (`''` for a set of scalars) and the element type. */
type ListFields = Record<string, { key: string; element?: StructName }>;
type StructName = 'Pod' | 'ObjectMeta' | 'PodSpec' | 'Container';

/** The object fields of a struct whose own fields are typed (others merge with no list merging below them). */
const OBJECT_FIELDS: Record<StructName, Record<string, StructName>> = {
  Pod: { metadata: 'ObjectMeta', spec: 'PodSpec' },
  ObjectMeta: {},
  PodSpec: {},
  Container: {},
};

const CONTAINER_LIST = { key: 'name', element: 'Container' } as const;

/** The `patchMergeKey` tags of k8s.io/api core/v1 and meta/v1 (v0.32, OpenKruise v1.9.0's) for the structs above. */
const LIST_FIELDS: Record<StructName, ListFields> = {
  Pod: {},
  ObjectMeta: { finalizers: { key: '' }, ownerReferences: { key: 'uid' } },
  PodSpec: {
    containers: CONTAINER_LIST,
    initContainers: CONTAINER_LIST,
    ephemeralContainers: CONTAINER_LIST,
    volumes: { key: 'name' },
    imagePullSecrets: { key: 'name' },
    hostAliases: { key: 'ip' },
    topologySpreadConstraints: { key: 'topologyKey' },
    schedulingGates: { key: 'name' },
    resourceClaims: { key: 'name' },
  },
  Container: {
    env: { key: 'name' },
    ports: { key: 'containerPort' },
    volumeMounts: { key: 'mountPath' },
    volumeDevices: { key: 'devicePath' },
    // `resizePolicy` has no merge key in k8s.io/api v0.32 (`+listType=atomic`): a patch replaces it
  },
};

const DIRECTIVE = '$patch';

/**
 * `pod` with `patch` applied (see the module doc).
 * @param pod a Pod as JSON; not modified
 * @param patch a strategic-merge patch of a Pod; not modified
 * @returns a new object
 */
export function strategicMergePod(pod: JsonObject, patch: JsonObject): JsonObject {
  return mergeObject(pod, patch, 'Pod');
}

function mergeObject(original: JsonObject, patch: JsonObject, type: StructName | undefined): JsonObject {
  if (patch[DIRECTIVE] === 'replace') {
    const { [DIRECTIVE]: _d, ...rest } = patch;
    return rest;
  }
  const out: JsonObject = { ...original };
  for (const [key, value] of Object.entries(patch)) {
    if (key === DIRECTIVE) continue;
    if (value === null) {
      delete out[key];
      continue;
    }
    const current = out[key];
    if (isJsonObject(value)) {
      if (value[DIRECTIVE] === 'delete') {
        delete out[key];
        continue;
      }
      out[key] = mergeObject(isJsonObject(current) ? current : {}, value, type && OBJECT_FIELDS[type][key]);
      continue;
    }
    const list = type ? LIST_FIELDS[type][key] : undefined;
    if (Array.isArray(value) && list)
      out[key] = mergeList(Array.isArray(current) ? current : [], value, list.key, list.element);
    else out[key] = value;
  }
  return out;
}

/** The merge key's value of an element, as a comparable string; undefined for an element without one. */
function keyOf(item: JsonValue, key: string): string | undefined {
  if (key === '') return JSON.stringify(item);
  if (!isJsonObject(item) || item[key] === undefined) return undefined;
  return JSON.stringify(item[key]);
}

function mergeList(
  original: JsonValue[],
  patch: JsonValue[],
  key: string,
  element: StructName | undefined,
): JsonValue[] {
  let base = [...original];
  const items: JsonValue[] = [];
  for (const p of patch) {
    if (key !== '' && isJsonObject(p) && p[DIRECTIVE] === 'delete') {
      const k = keyOf(p, key);
      base = base.filter((o) => keyOf(o, key) !== k);
    } else items.push(p);
  }
  const merged = [...base];
  for (const p of items) {
    const k = keyOf(p, key);
    const at = k === undefined ? -1 : merged.findIndex((o) => keyOf(o, key) === k);
    if (at < 0) merged.push(p);
    else if (key !== '' && isJsonObject(p) && isJsonObject(merged[at]))
      merged[at] = mergeObject(merged[at], p, element);
  }
  const patchKeys = items.map((p) => keyOf(p, key));
  const serverKeys = original.map((o) => keyOf(o, key));
  const inPatch = (v: JsonValue) => {
    const k = keyOf(v, key);
    return k !== undefined && patchKeys.includes(k);
  };
  const byOrder = (order: (string | undefined)[]) => (a: JsonValue, b: JsonValue) =>
    order.indexOf(keyOf(a, key)) - order.indexOf(keyOf(b, key));
  const patchItems = merged.filter(inPatch).sort(byOrder(patchKeys));
  const serverOnly = merged.filter((v) => !inPatch(v)).sort(byOrder(serverKeys));
  return interleave(serverOnly, patchItems, serverKeys, key);
}

/** apimachinery's `mergeSortedSlice`: `left` inserted into `right`, both kept in order, by their place in `server`. */
function interleave(
  left: JsonValue[],
  right: JsonValue[],
  server: (string | undefined)[],
  key: string,
): JsonValue[] {
  const out: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (j >= right.length) out.push(left[i++]);
    else if (i >= left.length) out.push(right[j++]);
    else {
      const li = server.indexOf(keyOf(left[i], key));
      const ri = server.indexOf(keyOf(right[j], key));
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}
