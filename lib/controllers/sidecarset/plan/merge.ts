/**
 * The list merges injection uses, each keeping the pod's own entries first and in place (OpenKruise: `MergeVolumes`,
 * `MergeVolumeMounts`, `MergeVolumeDevices`, `MergeEnvVar` in `pkg/util/pods.go`; `mergeSidecarSecrets` and
 * `mergeSidecarContainers` in `pkg/webhook/pod/mutating/sidecarset.go`). Pure: new arrays, inputs untouched.
 */
import type { Container, EnvVar, Volume } from '../../../api/types.js';

/** A `corev1.VolumeMount`. */
export interface VolumeMount {
  name: string;
  mountPath: string;
  subPathExpr?: string;
  [key: string]: unknown;
}

/** A `corev1.VolumeDevice`. */
export interface VolumeDevice {
  name: string;
  devicePath: string;
}

/** A container to inject and where it goes (`BeforeAppContainer` before the pod's containers, anything else after). */
export interface Injected {
  container: Container;
  podInjectPolicy?: string;
}

/** Entries of `original`, then those of `additional` whose key is not yet present (the first of a key wins). */
function mergeByKey<T>(original: readonly T[], additional: readonly T[], key: (t: T) => string): T[] {
  const seen = new Set(original.map(key));
  const out = [...original];
  for (const item of additional) {
    if (seen.has(key(item))) continue;
    seen.add(key(item));
    out.push(item);
  }
  return out;
}

/** `MergeVolumes`: by name. */
export function mergeVolumes(original: readonly Volume[], additional: readonly Volume[]): Volume[] {
  return mergeByKey(original, additional, (v) => v.name);
}

/** `MergeEnvVar`: by name. */
export function mergeEnv(original: readonly EnvVar[], additional: readonly EnvVar[]): EnvVar[] {
  return mergeByKey(original, additional, (e) => e.name);
}

/** `mergeSidecarSecrets`: imagePullSecrets by name, the pod's first (duplicates in the pod's own list dropped too). */
export function mergeSecrets(
  original: readonly { name?: string }[],
  additional: readonly { name?: string }[],
): { name?: string }[] {
  return mergeByKey([], [...original, ...additional], (s) => s.name ?? '');
}

/**
 * `MergeVolumeMounts`: the container's mounts, then each of `additional` whose mountPath is neither a mountPath nor a
 * devicePath of the container (nor added before).
 */
export function mergeVolumeMounts(container: Container, additional: readonly VolumeMount[]): VolumeMount[] {
  const own = (container.volumeMounts ?? []) as VolumeMount[];
  const taken = new Set([
    ...own.map((m) => m.mountPath),
    ...((container.volumeDevices ?? []) as VolumeDevice[]).map((d) => d.devicePath),
  ]);
  const out = [...own];
  for (const m of additional) {
    if (taken.has(m.mountPath)) continue;
    taken.add(m.mountPath);
    out.push(m);
  }
  return out;
}

/** `MergeVolumeDevices`: as {@link mergeVolumeMounts} for devices, keyed by devicePath. */
export function mergeVolumeDevices(
  container: Container,
  additional: readonly VolumeDevice[],
): VolumeDevice[] {
  const own = (container.volumeDevices ?? []) as VolumeDevice[];
  const taken = new Set([
    ...own.map((d) => d.devicePath),
    ...((container.volumeMounts ?? []) as VolumeMount[]).map((m) => m.mountPath),
  ]);
  const out = [...own];
  for (const d of additional) {
    if (taken.has(d.devicePath)) continue;
    taken.add(d.devicePath);
    out.push(d);
  }
  return out;
}

/**
 * `mergeSidecarContainers`: a sidecar named like one of the pod's containers replaces it where it stands; the others
 * go before the pod's containers (`BeforeAppContainer`) or after them (any other policy), each group in `injected`
 * order.
 */
export function mergeContainers(pod: readonly Container[], injected: readonly Injected[]): Container[] {
  const index = new Map(pod.map((c, i) => [c.name, i]));
  const middle = [...pod];
  const before: Container[] = [];
  const after: Container[] = [];
  for (const s of injected) {
    const at = index.get(s.container.name);
    if (at !== undefined) middle[at] = s.container;
    else if (s.podInjectPolicy === 'BeforeAppContainer') before.push(s.container);
    else after.push(s.container);
  }
  return [...before, ...middle, ...after];
}
