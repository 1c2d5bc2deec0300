/**
 * OpenKruise: pkg/util/inplaceupdate/inplace_update_defaults.go `defaultCalculateInPlaceUpdateSpec`;
 * pkg/util/inplaceupdate/inplace_update_vertical.go `IsPodQoSChanged`, `CanResourcesResizeInPlace`.
 *
 * "Can this revision change be done in place, and what does it change?"
 * (docs/behaviour/cloneset.md#in-place-update): an RFC 6902 diff between two ControllerRevisions' raw data,
 * classified into image replacements, cpu/memory replacements (vertical-scaling gate), env-from-metadata
 * changes and a metadata strategic-merge patch.
 */
import jsonpatch from 'fast-json-patch';
import { ANNOTATION_VCT_HASH } from '../../api/keys.js';
import type {
  Container,
  ControllerRevision,
  JsonObject,
  JsonValue,
  ObjectMeta,
  PodSpec,
} from '../../api/types.js';
import { goJson } from '../revision/goJson.js';
import type { RefMetadata, UpdateSpec } from './state.js';
import type { InPlaceUpdateGates } from './options.js';

/** Inputs of {@link calculateInPlaceUpdateSpec} besides the two revisions. */
export interface InPlaceSpecOptions {
  /** `inPlaceUpdateStrategy.gracePeriodSeconds`, seconds (copied into the spec). */
  gracePeriodSeconds: number;
  /**
   * True for `InPlaceOnly`: the VCT-hash rule does not apply (docs/behaviour/cloneset.md#in-place-update).
   */
  ignoreVolumeClaimTemplatesHashDiff: boolean;
  /** Feature gates read here: env-from-metadata, vertical scaling, VCT recreate. */
  gates: InPlaceUpdateGates;
}

/** A revision's pod template, as far as the in-place rules read it. */
export interface Template {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

const IMAGE_PATH = /^\/spec\/containers\/(\d+)\/image$/;
const RESOURCES_PATH = /^\/spec\/containers\/(\d+)\/resources\/.*$/;
const RESIZABLE = new Set(['cpu', 'memory']);
const EXCLUDED_ENVS = new Set(['SIDECARSET_VERSION', 'SIDECARSET_VERSION_ALT']);

/**
 * A copy of the pod template stored in a revision's `data.spec.template` (OpenKruise's
 * `GetTemplateFromRevision`), or undefined when the data has none.
 */
export function templateOf(rev: ControllerRevision): Template | undefined {
  const data = rev.data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const spec = data.spec;
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return undefined;
  const tpl = spec.template;
  if (!tpl || typeof tpl !== 'object' || Array.isArray(tpl)) return undefined;
  return structuredClone(tpl);
}

function decodePointer(s: string): string {
  return s.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/**
 * The `['key']` subscript of an env fieldRef `metadata.labels['key']` whose path is `path`, else undefined.
 */
function fieldRefKey(fieldPath: string, path: string): string | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const body = fieldPath.slice(0, -2);
  const at = body.indexOf("['");
  if (at <= 0) return undefined;
  return body.slice(0, at) === path ? body.slice(at + 2) : undefined;
}

/**
 * Whether a container's env reads `path['key']` through a fieldRef (plain-valued and sidecar envs ignored).
 */
export function containerReferencesMetadata(c: Container, path: string, key: string): boolean {
  return (c.env ?? []).some(
    (e) =>
      !e.value &&
      !!e.valueFrom?.fieldRef &&
      !EXCLUDED_ENVS.has(e.name) &&
      fieldRefKey(e.valueFrom.fieldRef.fieldPath, path) === key,
  );
}

/**
 * A Kubernetes quantity string as a number (e.g. `500m` → 0.5, `1Gi` → 1073741824), or undefined when
 * invalid. Precision is that of a double, enough to compare requests with limits.
 */
export function parseQuantity(q: string): number | undefined {
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?\d+))?$/.exec(
    q.trim(),
  );
  if (!m) return undefined;
  const n = Number(m[1]);
  if (m[3] !== undefined) return n * 10 ** Number(m[3]);
  const bin: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
  const dec: Record<string, number> = { n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
  const s = m[2];
  if (!s) return n;
  return s in bin ? n * 1024 ** bin[s] : n * 10 ** dec[s];
}

/** Kubernetes pod QoS class of a pod spec (`BestEffort`, `Burstable`, `Guaranteed`), cpu and memory only. */
export function podQosClass(spec: PodSpec | undefined): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const requests: Record<string, number> = {};
  const limits: Record<string, number> = {};
  let guaranteed = true;
  for (const c of [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])]) {
    for (const [name, q] of Object.entries(c.resources?.requests ?? {})) {
      const v = parseQuantity(q);
      if (RESIZABLE.has(name) && v !== undefined && v > 0) requests[name] = (requests[name] ?? 0) + v;
    }
    const found = new Set<string>();
    for (const [name, q] of Object.entries(c.resources?.limits ?? {})) {
      const v = parseQuantity(q);
      if (RESIZABLE.has(name) && v !== undefined && v > 0) {
        found.add(name);
        limits[name] = (limits[name] ?? 0) + v;
      }
    }
    if (!found.has('cpu') || !found.has('memory')) guaranteed = false;
  }
  if (Object.keys(requests).length === 0 && Object.keys(limits).length === 0) return 'BestEffort';
  if (guaranteed && Object.entries(requests).every(([k, v]) => limits[k] === v)) {
    if (Object.keys(requests).length === Object.keys(limits).length) return 'Guaranteed';
  }
  return 'Burstable';
}

/** Handles one `/spec/containers/<i>/resources/...` op; false when it cannot be done in place. */
function addResourceChange(op: jsonpatch.Operation, oldTpl: Template, spec: UpdateSpec): boolean {
  const words = op.path.split('/');
  if (words.length !== 7) return false;
  const container = oldTpl.spec?.containers?.[Number(words[3])];
  if (!container || op.op !== 'replace') return false;
  const value = (op as { value?: unknown }).value;
  if (typeof value !== 'string' || parseQuantity(value) === undefined) return false;
  if (!RESIZABLE.has(words[6]) || (words[5] !== 'limits' && words[5] !== 'requests')) return false;
  const entry = (spec.containerResources[container.name] ??= {});
  (entry[words[5]] ??= {})[words[6]] = value;
  return true;
}

/**
 * Strategic-merge two-way patch between two template `metadata` objects, as Kubernetes computes it for a Pod
 * (docs/behaviour/cloneset.md#in-place-update, scenario 55f): maps (labels, annotations) diff per key with
 * `null` for removed keys, also when the whole map is gone (Kubernetes would write the map as `null`, wiping what
 * other writers put on the pod; docs/behaviour/cloneset.md#template-keys-removed); the `finalizers` primitive list gets the added items,
 * `$deleteFromPrimitiveList/finalizers` and `$setElementOrder/finalizers`; other fields replace (or `null`
 * when removed).
 * @returns `{"metadata":{…}}`, or `{}` when nothing differs
 */
export function metadataTwoWayPatch(oldMeta: ObjectMeta, newMeta: ObjectMeta): JsonObject {
  const out: JsonObject = {};
  const keys = new Set([...Object.keys(oldMeta), ...Object.keys(newMeta)]);
  for (const key of keys) {
    const o = normalise(oldMeta[key]);
    const n = normalise(newMeta[key]);
    if (goJson(o) === goJson(n)) continue;
    if (n === undefined && isMap(o) && (key === 'labels' || key === 'annotations')) {
      // only the keys the old template set (docs/behaviour/cloneset.md#template-keys-removed)
      out[key] = Object.fromEntries(Object.keys(o).map((k) => [k, null]));
    } else if (n === undefined) {
      out[key] = null;
    } else if (o === undefined) {
      out[key] = n;
    } else if (key === 'finalizers' && Array.isArray(o) && Array.isArray(n)) {
      const added = n.filter((f) => !o.includes(f));
      const deleted = o.filter((f) => !n.includes(f));
      if (added.length > 0) out.finalizers = added;
      if (deleted.length > 0) out['$deleteFromPrimitiveList/finalizers'] = deleted;
      out['$setElementOrder/finalizers'] = n;
    } else if (isMap(o) && isMap(n)) {
      const diff: JsonObject = {};
      for (const k of new Set([...Object.keys(o), ...Object.keys(n)])) {
        if (!(k in n)) diff[k] = null;
        else if (goJson(o[k]) !== goJson(n[k])) diff[k] = n[k];
      }
      out[key] = diff;
    } else {
      out[key] = n;
    }
  }
  return Object.keys(out).length === 0 ? {} : { metadata: out };
}

/** Go's `omitempty` view of a metadata field: empty maps/lists/strings are absent. */
function normalise(v: unknown): JsonValue | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (Array.isArray(v) && v.length === 0) return undefined;
  if (isMap(v) && Object.keys(v).length === 0) return undefined;
  return v as JsonValue;
}

function isMap(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The in-place update spec from `oldRevision` to `newRevision`, or undefined when the change cannot be done
 * in place (docs/behaviour/cloneset.md#in-place-update; scenario 55). Undefined when: either revision is
 * missing or its data has no template; the VCT-hash rule applies (gate on, not InPlaceOnly, both revisions
 * carry the annotation and they differ); any diff operation outside `/metadata/…` is not an image replace
 * (or, with the vertical gate, a cpu/memory replace with a valid quantity, and the QoS class unchanged).
 * With the env-from-metadata gate, label/annotation adds/replaces read by a container's env fieldRef go to
 * `containerRefMetadata` (and out of the metadata patch). Any other metadata change yields `metaDataPatch`
 * (JSON text with Go key order; `{}` when only env-referenced keys changed, as upstream).
 */
export function calculateInPlaceUpdateSpec(
  oldRevision: ControllerRevision | undefined,
  newRevision: ControllerRevision | undefined,
  options: InPlaceSpecOptions,
): UpdateSpec | undefined {
  if (!oldRevision || !newRevision) return undefined;
  const oldData = oldRevision.data;
  const newData = newRevision.data;
  if (!isMap(oldData) || !isMap(newData)) return undefined;
  const ops = jsonpatch.compare(oldData, newData);

  if (options.gates.recreatePodWhenChangeVCTInCloneSet && !options.ignoreVolumeClaimTemplatesHashDiff) {
    const oldHash = oldRevision.metadata.annotations?.[ANNOTATION_VCT_HASH];
    const newHash = newRevision.metadata.annotations?.[ANNOTATION_VCT_HASH];
    if (oldHash !== undefined && newHash !== undefined && oldHash !== newHash) return undefined;
  }
  const oldTpl = templateOf(oldRevision);
  const newTpl = templateOf(newRevision);
  if (!oldTpl || !newTpl) return undefined;

  const spec: UpdateSpec = {
    revision: newRevision.metadata.name ?? '',
    containerImages: {},
    containerRefMetadata: {},
    containerResources: {},
    updateEnvFromMetadata: false,
    graceSeconds: options.gracePeriodSeconds,
  };
  const metadataOps: jsonpatch.Operation[] = [];
  for (const raw of ops) {
    const op = { ...raw, path: raw.path.replace('/spec/template', '') };
    if (!op.path.startsWith('/spec/')) {
      if (!op.path.startsWith('/metadata/')) return undefined;
      metadataOps.push(op);
      continue;
    }
    if (op.op !== 'replace') return undefined;
    const image = IMAGE_PATH.exec(op.path);
    if (image) {
      const container = oldTpl.spec?.containers?.[Number(image[1])];
      const value = (op as { value?: unknown }).value;
      if (!container || typeof value !== 'string') return undefined;
      spec.containerImages[container.name] = value;
      continue;
    }
    if (options.gates.inPlaceWorkloadVerticalScaling && RESOURCES_PATH.test(op.path)) {
      if (!addResourceChange(op, oldTpl, spec)) return undefined;
      continue;
    }
    return undefined;
  }
  if (
    options.gates.inPlaceWorkloadVerticalScaling &&
    Object.keys(spec.containerResources).length > 0 &&
    podQosClass(oldTpl.spec) !== podQosClass(newTpl.spec)
  ) {
    return undefined;
  }

  if (metadataOps.length > 0) {
    if (options.gates.inPlaceUpdateEnvFromMetadata) extractEnvFromMetadata(metadataOps, oldTpl, newTpl, spec);
    const patch = metadataTwoWayPatch(oldTpl.metadata ?? {}, newTpl.metadata ?? {});
    spec.metaDataPatch = goJson(patch);
  }
  return spec;
}

function extractEnvFromMetadata(
  ops: jsonpatch.Operation[],
  oldTpl: Template,
  newTpl: Template,
  spec: UpdateSpec,
) {
  for (const op of ops) {
    if (op.op !== 'replace' && op.op !== 'add') continue;
    const words = op.path.split('/');
    if (words.length < 4 || (words[2] !== 'labels' && words[2] !== 'annotations')) continue;
    const field = words[2];
    const key = decodePointer(words.slice(3).join('/'));
    const value = (op as { value?: unknown }).value;
    for (const c of newTpl.spec?.containers ?? []) {
      if (!containerReferencesMetadata(c, `metadata.${field}`, key)) continue;
      const ref: RefMetadata = (spec.containerRefMetadata[c.name] ??= {});
      (ref[field] ??= {})[key] = typeof value === 'string' ? value : String(value);
      delete oldTpl.metadata?.[field]?.[key];
      delete newTpl.metadata?.[field]?.[key];
      spec.updateEnvFromMetadata = true;
    }
  }
}
