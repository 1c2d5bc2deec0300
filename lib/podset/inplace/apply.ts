/**
 * OpenKruise: pkg/util/inplaceupdate/inplace_update_defaults.go `defaultPatchUpdateSpecToPod`,
 * `defaultCheckContainersInPlaceUpdateCompleted`; pkg/util/inplaceupdate/inplace_update.go `updateNextBatch`;
 * pkg/util/containerlaunchpriority (launch-priority env).
 *
 * pkg/util/inplaceupdate/inplace_update_vertical.go `GenerateResourcePatch`, `IsUpdateCompleted`.
 *
 * Applying an in-place update spec to a pod, one container batch at a time
 * (docs/behaviour/cloneset.md#in-place-update, scenario 57), and the completion check
 * (docs/behaviour/cloneset.md#in-place-update, scenario 56). Pure functions: the result is a strategic-merge
 * patch fragment, the `pods/resize` patch of the batch's cpu/memory changes, and the new `InPlaceUpdateState`.
 */
import { ANNOTATION_INPLACE_UPDATE_STATE, ANNOTATION_RUNTIME_CONTAINERS_META } from '../../api/keys.js';
import type { JsonObject, Pod } from '../../api/types.js';
import { metaTime } from '../../api/time.js';
import {
  graceAnnotation,
  mergeInto,
  parseInPlaceUpdateState,
  serializeInPlaceUpdateState,
  stateAnnotation,
  type InPlaceUpdateState,
  type ResourceRequirements,
  type UpdateSpec,
} from './state.js';
import { parseQuantity } from './spec.js';
import { containerPriority } from '../launchPriority.js';
import type { InPlaceUpdateGates } from './options.js';

export { CONTAINER_BARRIER_ENV, containerPriority } from '../launchPriority.js';

const sorted = (names: Iterable<string>): string[] => [...new Set(names)].sort();
const nonEmpty = (m: object | undefined): boolean => !!m && Object.keys(m).length > 0;

/** Containers of this batch: unprioritised affected ones, the highest-priority ones, and metadata-sharers. */
function selectBatch(pod: Pod, spec: UpdateSpec): Set<string> {
  const selected = new Set<string>();
  let highest: number | undefined;
  let top: string[] = [];
  for (const c of pod.spec.containers) {
    const affected =
      c.name in spec.containerImages ||
      c.name in spec.containerRefMetadata ||
      c.name in spec.containerResources;
    if (!affected) continue;
    const p = containerPriority(c);
    if (p === undefined) selected.add(c.name);
    else if (highest === undefined || p > highest) [highest, top] = [p, [c.name]];
    else if (p === highest) top.push(c.name);
  }
  top.forEach((n) => selected.add(n));
  // Pull in containers that read a label/annotation that a selected container's metadata change touches.
  for (let grew = true; grew;) {
    grew = false;
    const labels = new Set<string>();
    const annotations = new Set<string>();
    for (const n of selected) {
      Object.keys(spec.containerRefMetadata[n]?.labels ?? {}).forEach((k) => labels.add(k));
      Object.keys(spec.containerRefMetadata[n]?.annotations ?? {}).forEach((k) => annotations.add(k));
    }
    for (const [name, meta] of Object.entries(spec.containerRefMetadata)) {
      if (selected.has(name)) continue;
      const shares =
        Object.keys(meta.labels ?? {}).some((k) => labels.has(k)) ||
        Object.keys(meta.annotations ?? {}).some((k) => annotations.has(k));
      if (shares) {
        selected.add(name);
        grew = true;
      }
    }
  }
  return selected;
}

/** Quantities of `want` (cpu/memory only) that differ from `have`, or undefined when none does. */
function changedQuantities(
  want: Record<string, string> | undefined,
  have: Record<string, string> | undefined,
): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(want ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (k !== 'cpu' && k !== 'memory') continue;
    const cur = have?.[k];
    if (cur !== undefined && parseQuantity(cur) === parseQuantity(v)) continue;
    out[k] = v;
  }
  return nonEmpty(out) ? out : undefined;
}

/**
 * The strategic-merge patch for a pod's `pods/resize` subresource that brings the listed containers to their
 * target cpu/memory: per container in pod spec order, only the limits/requests whose quantity differs from the
 * pod's current spec; undefined when nothing differs (no resize is sent). OpenKruise's
 * `NativeVerticalUpdate.GenerateResourcePatch` (pkg/util/inplaceupdate/inplace_update_vertical.go).
 */
export function resizePatch(
  pod: Pod,
  targets: Readonly<Record<string, ResourceRequirements>>,
): JsonObject | undefined {
  const containers: JsonObject[] = [];
  for (const c of pod.spec.containers) {
    const target = targets[c.name];
    if (!target) continue;
    const current = c.resources ?? {};
    const limits = changedQuantities(target.limits, current.limits);
    const requests = changedQuantities(target.requests, current.requests);
    if (!limits && !requests) continue;
    containers.push({
      name: c.name,
      resources: { ...(limits ? { limits } : {}), ...(requests ? { requests } : {}) },
    });
  }
  return containers.length > 0 ? { spec: { containers } } : undefined;
}

/**
 * `patch` with the container resources of `resize` (a {@link resizePatch}) merged into its `spec.containers`, by
 * container name: the pod patch of a server older than Kubernetes 1.32, which has no `pods/resize` and takes the
 * resources in the pod update itself (OpenKruise's `NativeVerticalUpdate.UpdateResource`, called from
 * `defaultPatchUpdateSpecToPod` in pkg/util/inplaceupdate/inplace_update_defaults.go when
 * `ShouldUpdateResourceByResize` is false). A container the patch already names (its image) keeps its entry, the
 * resources added; the others are appended in `resize`'s order. Inputs are not modified.
 */
export function withResourcesInPodPatch(patch: JsonObject, resize: JsonObject): JsonObject {
  const out = structuredClone(patch);
  const resized = (resize.spec as { containers?: JsonObject[] } | undefined)?.containers ?? [];
  if (resized.length === 0) return out;
  const spec = (out.spec ??= {}) as JsonObject;
  const containers = (spec.containers ??= []) as JsonObject[];
  for (const entry of resized) {
    const same = containers.find((c) => c.name === entry.name);
    if (same) same.resources = structuredClone(entry.resources ?? {});
    else containers.push(structuredClone(entry));
  }
  return out;
}

/**
 * Applies one batch of `spec` to `pod` (docs/behaviour/cloneset.md#in-place-update): the metadata patch;
 * images of the selected containers (recording their current `imageID` in `lastContainerStatuses` unless
 * already recorded); labels/annotations read by the selected containers' env. The selected containers' cpu/memory
 * (vertical gate) are not part of the pod patch: they go to `resize`, the patch of the `pods/resize` subresource
 * (Kubernetes ≥ 1.32; the pod spec's resources are not mutable through a pod update there), which the executor sends
 * before the pod patch, as OpenKruise's `updatePodInPlace` sends `PatchPodResource` before `UpdatePod` (the
 * `ShouldUpdateResourceByResize` path of `defaultPatchUpdateSpecToPod`). Everything else goes to `next*`;
 * `preCheckBeforeNext` lists the selected containers when something remains; the batch is recorded.
 * OpenKruise: `defaultPatchUpdateSpecToPod` (pkg/util/inplaceupdate/inplace_update_defaults.go).
 * @param state the state to continue (a copy is returned; the argument is not modified)
 * @returns a strategic-merge patch fragment (including the new state annotation), the new state, and the resize
 * patch ({@link resizePatch}) when a selected container's cpu/memory differs from the pod's
 */
export function applyUpdateSpec(
  pod: Pod,
  spec: UpdateSpec,
  state: InPlaceUpdateState,
  now: Date,
  gates: Pick<InPlaceUpdateGates, 'inPlaceWorkloadVerticalScaling'>,
): { patch: JsonObject; state: InPlaceUpdateState; resize?: JsonObject } {
  const next: InPlaceUpdateState = structuredClone(state);
  next.nextContainerImages = {};
  next.nextContainerRefMetadata = {};
  next.nextContainerResources = {};
  const patch: JsonObject = spec.metaDataPatch ? (JSON.parse(spec.metaDataPatch) as JsonObject) : {};
  const selected = selectBatch(pod, spec);

  const containerPatches: JsonObject[] = [];
  const resources: Record<string, ResourceRequirements> = {};
  for (const c of pod.spec.containers) {
    const entry: JsonObject = { name: c.name };
    const image = spec.containerImages[c.name];
    if (image !== undefined) {
      if (selected.has(c.name)) entry.image = image;
      else next.nextContainerImages[c.name] = image;
    }
    const res = spec.containerResources[c.name];
    if (res !== undefined && gates.inPlaceWorkloadVerticalScaling) {
      if (selected.has(c.name)) resources[c.name] = res;
      else next.nextContainerResources[c.name] = res;
    }
    if (Object.keys(entry).length > 1) containerPatches.push(entry);
  }
  for (const cs of pod.status?.containerStatuses ?? []) {
    if (!selected.has(cs.name) || spec.containerImages[cs.name] === undefined) continue;
    next.lastContainerStatuses ??= {};
    next.lastContainerStatuses[cs.name] ??= { imageID: cs.imageID };
  }

  const labels: JsonObject = {};
  const annotations: JsonObject = {};
  for (const [name, meta] of Object.entries(spec.containerRefMetadata)) {
    if (!selected.has(name)) {
      next.nextContainerRefMetadata[name] = meta;
      continue;
    }
    Object.assign(labels, meta.labels ?? {});
    Object.assign(annotations, meta.annotations ?? {});
  }

  const remaining =
    nonEmpty(next.nextContainerImages) ||
    nonEmpty(next.nextContainerRefMetadata) ||
    nonEmpty(next.nextContainerResources);
  if (remaining) next.preCheckBeforeNext = { containersRequiredReady: sorted(selected) };
  else delete next.preCheckBeforeNext;
  next.containerBatchesRecord = [
    ...(next.containerBatchesRecord ?? []),
    { timestamp: metaTime(now), containers: sorted(selected) },
  ];
  annotations[ANNOTATION_INPLACE_UPDATE_STATE] = serializeInPlaceUpdateState(next);

  const extra: JsonObject = { metadata: { annotations } };
  if (nonEmpty(labels)) (extra.metadata as JsonObject).labels = labels;
  if (containerPatches.length > 0) extra.spec = { containers: containerPatches };
  const resize = resizePatch(pod, resources);
  return { patch: mergeInto(patch, extra), state: next, ...(resize ? { resize } : {}) };
}

interface RuntimeMeta {
  containers?: { name?: string; containerID?: string }[];
}

/**
 * Whether the containers changed by an in-place update run the new spec
 * (docs/behaviour/cloneset.md#in-place-update, without the grace/next-batch part; scenario 56):
 * - `updateEnvFromMetadata` needs kruise-daemon's `apps.kruise.io/runtime-containers-meta` and its
 *   extracted-env hashes. Kruiseless cannot recompute those hashes, so such an update is never complete — the
 *   same outcome as upstream without kruise-daemon (docs/behaviour/cloneset.md#edge-env-from-metadata);
 * - `updateResources` (vertical gate): every container status reports the spec's cpu/memory;
 * - otherwise every container recorded in `lastContainerStatuses` must have a status whose `imageID` changed,
 *   or
 *   whose `image` equals the spec image (`:latest` appended when the spec image has no `:`). `restartCount`
 * is   not consulted. (Upstream's shortcut "runtime meta plain hashes all match" is not evaluated: it needs
 * the   kubelet's container hash; the imageID rule decides instead.)
 */
export function areContainersUpdated(
  pod: Pod,
  state: InPlaceUpdateState,
  gates: Pick<InPlaceUpdateGates, 'inPlaceWorkloadVerticalScaling'>,
): boolean {
  const metaText = pod.metadata.annotations?.[ANNOTATION_RUNTIME_CONTAINERS_META];
  if (metaText !== undefined) {
    try {
      JSON.parse(metaText) as RuntimeMeta;
    } catch {
      return false;
    }
  }
  if (state.updateEnvFromMetadata) return false;
  const statuses = pod.status?.containerStatuses ?? [];
  if (gates.inPlaceWorkloadVerticalScaling && state.updateResources) {
    if (statuses.length !== pod.spec.containers.length) return false;
    for (const s of statuses) {
      const c = pod.spec.containers.find((x) => x.name === s.name);
      if (!c || !s.resources) return false;
      if (!sameResources(c.resources?.limits, s.resources.limits)) return false;
      if (!sameResources(c.resources?.requests, s.resources.requests)) return false;
    }
  }
  const pending = new Map(Object.entries(state.lastContainerStatuses ?? {}));
  for (const s of statuses) {
    const last = pending.get(s.name);
    if (!last) continue;
    if ((last.imageID ?? '') === s.imageID) {
      const image = pod.spec.containers.find((c) => c.name === s.name)?.image ?? '';
      const expected = image.includes(':') ? image : `${image}:latest`;
      if (expected !== s.image) return false;
    }
    pending.delete(s.name);
  }
  return pending.size === 0;
}

function sameResources(
  a: Record<string, string> | undefined,
  b: Record<string, string> | undefined,
): boolean {
  const ka = Object.keys(a ?? {});
  const kb = Object.keys(b ?? {});
  if (ka.length !== kb.length) return false;
  return ka.every((k) => b?.[k] !== undefined && parseQuantity(a?.[k] ?? '') === parseQuantity(b[k]));
}

/**
 * Whole-pod completion (docs/behaviour/cloneset.md#in-place-update): not complete while a grace annotation
 * exists or any `next*` map is non-empty (or the state is unparsable); complete without a state annotation;
 * otherwise {@link areContainersUpdated}.
 */
export function isInPlaceUpdateCompleted(
  pod: Pod,
  gates: Pick<InPlaceUpdateGates, 'inPlaceWorkloadVerticalScaling'>,
): boolean {
  if (graceAnnotation(pod) !== undefined) return false;
  const text = stateAnnotation(pod);
  if (text === undefined) return true;
  let state: InPlaceUpdateState;
  try {
    state = parseInPlaceUpdateState(text);
  } catch {
    return false;
  }
  if (hasNextBatch(state)) return false;
  return areContainersUpdated(pod, state, gates);
}

/** Whether containers remain for a later batch (`next*` non-empty). */
export function hasNextBatch(state: InPlaceUpdateState): boolean {
  return (
    nonEmpty(state.nextContainerImages) ||
    nonEmpty(state.nextContainerRefMetadata) ||
    nonEmpty(state.nextContainerResources)
  );
}
