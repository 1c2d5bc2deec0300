/**
 * SidecarSet injection at pod creation, as OpenKruise's pod mutating webhook does it (`sidecarsetMutatingPod` and
 * `buildSidecars` in `pkg/webhook/pod/mutating/sidecarset.go`, CREATE branch). Pure: the caller reads the SidecarSets
 * and the namespace and turns the result into the AdmissionReview's JSON Patch.
 */
import type { Container, EnvVar, Pod, Volume } from '../../../api/types.js';
import { isNativeSidecar } from '../api/hash.js';
import { mutateSidecarSet } from '../api/mutation.js';
import {
  ANNOTATION_SIDECARSET_HASH,
  ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE,
  ANNOTATION_SIDECARSET_INJECTED_LIST,
  ENV_IS_INJECTED,
} from '../api/keys.js';
import type { SidecarContainer, SidecarSet } from '../api/types.js';
import {
  encodeHashAnnotation,
  goTime,
  injectedList,
  parseHashAnnotation,
  type SidecarSetUpgradeSpec,
} from './annotations.js';
import {
  ANNOTATION_WORKING_HOT_UPGRADE_CONTAINER,
  encodeWorkingContainers,
  hotUpgradePair,
  parseWorkingContainers,
} from './hotUpgrade.js';
import { isActivePod, matchingSidecarSets } from './match.js';
import {
  mergeContainers,
  mergeEnv,
  mergeSecrets,
  mergeVolumeDevices,
  mergeVolumeMounts,
  mergeVolumes,
  type Injected,
} from './merge.js';
import { patchPodAnnotations } from './patchMetadata.js';
import { kruiseSidecarNames, resourcesFromPolicy } from './resourcesPolicy.js';
import { sharedVolumeDevices, sharedVolumeMounts, transferredEnvs } from './share.js';

/** What injection needs, all read before the call. */
export interface InjectionInput {
  /** The pod of the CREATE request, as sent (its namespace may be empty: the request's applies). */
  pod: Pod;
  /** The request's namespace, used when the pod names none (`default` when both are empty). */
  requestNamespace?: string;
  /** Labels of the pod's namespace; undefined when the namespace could not be read (namespace selectors then fail). */
  namespaceLabels: Record<string, string> | undefined;
  /** Every SidecarSet of the cluster, as stored (defaulted and hashed by the SidecarSet webhook). */
  sidecarSets: readonly SidecarSet[];
  /** The time written as each entry's `updateTimestamp`. */
  now: Date;
  /**
   * Gate `EnableSortSidecarContainerByName` (default false): the containers to inject (not the init containers,
   * which are always sorted) in name order, stably, before they are placed; else in SidecarSet then declaration order.
   */
  sortContainersByName?: boolean;
}

/** The pod to store and what happened. */
export interface InjectionResult {
  /** The pod with the sidecars, volumes, secrets and annotations; the input pod (same object) when nothing changed. */
  pod: Pod;
  changed: boolean;
  /** Names of the SidecarSets that matched, in injection order. */
  sidecarSets: string[];
}

/** The fields of a SidecarContainer that are not a `corev1.Container`'s. */
const SIDECAR_ONLY_FIELDS = [
  'podInjectPolicy',
  'upgradeStrategy',
  'shareVolumePolicy',
  'shareVolumeDevicePolicy',
  'transferEnv',
  'resourcesPolicy',
] as const;

function plainContainer(sidecar: SidecarContainer): Container {
  const c: Record<string, unknown> = structuredClone(sidecar);
  for (const k of SIDECAR_ONLY_FIELDS) delete c[k];
  return c as Container;
}

/**
 * One sidecar made ready for the pod: shared volumeMounts (and their subPathExpr env) merged after its own,
 * `IS_INJECTED=true` appended to its env, then transferred env merged by name, then shared volumeDevices.
 */
function prepareSidecar(sidecar: SidecarContainer, pod: Pod): Container {
  const { mounts, envs: subPathEnvs } = sharedVolumeMounts(sidecar, pod);
  const transfer = mergeEnv(transferredEnvs(sidecar, pod), subPathEnvs);
  const c = plainContainer(sidecar);
  const volumeMounts = mergeVolumeMounts(c, mounts);
  if (volumeMounts.length > 0) c.volumeMounts = volumeMounts;
  const env: EnvVar[] = [...(c.env ?? []), { name: ENV_IS_INJECTED, value: 'true' }];
  c.env = mergeEnv(env, transfer);
  const devices = mergeVolumeDevices(c, sharedVolumeDevices(sidecar, pod));
  if (devices.length > 0) c.volumeDevices = devices;
  return c;
}

/** Injected containers by name, as Go compares strings (a stable sort keeps equal names in their order). */
function byContainerName(a: Injected, b: Injected): number {
  return a.container.name < b.container.name ? -1 : a.container.name > b.container.name ? 1 : 0;
}

/** Volumes of `sidecarSet.spec.volumes` a container mounts or uses as a device, in mount order. */
function volumesUsed(sidecar: SidecarContainer, volumes: ReadonlyMap<string, Volume>): Volume[] {
  const names = [
    ...((sidecar.volumeMounts ?? []) as { name: string }[]).map((m) => m.name),
    ...((sidecar.volumeDevices ?? []) as { name: string }[]).map((d) => d.name),
  ];
  return names.flatMap((n) => {
    const v = volumes.get(n);
    return v ? [v] : [];
  });
}

/**
 * The pod OpenKruise's webhook stores for a CREATE: for each matching SidecarSet (see `matchingSidecarSets`), its
 * `patchPodMetadata`; then its init containers (all of them, native sidecars included) and its containers, each with
 * shared volumes, `IS_INJECTED` and transferred env, HotUpgrade ones as a `-1`/`-2` pair; the volumes they mount;
 * its imagePullSecrets. Init containers are sorted by name and, like containers, placed by `podInjectPolicy`
 * (`BeforeAppContainer` first, otherwise after the pod's own); a sidecar named like a pod container replaces it in
 * place. Volumes and imagePullSecrets are merged by name, the pod's first. The hash annotations gain an entry per
 * SidecarSet (its stored `kruise.io/sidecarset-hash{,-without-image}`, its container names, `status.latestRevision`)
 * and `kruise.io/sidecarset-injected-list` its name. A SidecarSet with no containers at all leaves only its metadata
 * patch (upstream's early return).
 *
 * A container or init container with a `resourcesPolicy` gets the `resources` it computes from the pod's own
 * containers (./resourcesPolicy.ts, upstream's `applyResourcesPolicy`), before anything else of it is injected.
 *
 * Under gate `EnableSortSidecarContainerByName` the containers too are sorted by name before they are placed (upstream's
 * stable sort in `sidecarsetMutatingPod`).
 *
 * Not done here: `injectionStrategy.revision` (the pod webhook reads the pinned revision and passes the SidecarSet as
 * it recorded it, ./pinnedRevision.ts); a canary's base is left out by `matchingSidecarSets`. A SidecarSet stored
 * without the hash annotations (Kruiseless's SidecarSet webhook was not called) is defaulted and hashed here first.
 * @throws SidecarInjectionError for what OpenKruise refuses: an invalid selector, unreadable hash annotations on the
 *   pod, a metadata merge patch that is not JSON
 * @throws ResourcesPolicyError when a resources policy matches none of the pod's containers or an expression fails
 */
export function injectSidecars(input: InjectionInput): InjectionResult {
  const namespace = input.pod.metadata.namespace || input.requestNamespace || 'default';
  const unchanged: InjectionResult = { pod: input.pod, changed: false, sidecarSets: [] };
  if (!isActivePod(input.pod)) return unchanged;
  const matched = matchingSidecarSets(
    input.pod,
    namespace,
    input.namespaceLabels,
    input.sidecarSets.map(asStored),
  );
  if (matched.length === 0) return unchanged;

  const pod = structuredClone(input.pod);
  let annotations = { ...(pod.metadata.annotations ?? {}) };
  for (const s of matched) annotations = patchPodAnnotations(annotations, s.spec.patchPodMetadata ?? []);

  const hashes = parseHashAnnotation(ANNOTATION_SIDECARSET_HASH, annotations[ANNOTATION_SIDECARSET_HASH]);
  const hashesWithoutImage = parseHashAnnotation(
    ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE,
    annotations[ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE],
  );
  const working = parseWorkingContainers(annotations[ANNOTATION_WORKING_HOT_UPGRADE_CONTAINER]);
  const injectedAnnotations: Record<string, string> = {};
  const containers: Injected[] = [];
  const initContainers: Injected[] = [];
  const volumes: Volume[] = [];
  const secrets: { name?: string }[] = [];
  const now = goTime(input.now);

  // shared mounts and transferred env read the pod as sent, with the metadata patches applied (upstream's order)
  const source: Pod = { ...input.pod, metadata: { ...input.pod.metadata, annotations } };
  const add = (sidecar: SidecarContainer, into: Injected[]): void => {
    const c = prepareSidecar(sidecar, source);
    if (sidecar.upgradeStrategy?.upgradeType === 'HotUpgrade') {
      const pair = hotUpgradePair(c, sidecar.upgradeStrategy.hotUpgradeEmptyImage);
      for (const p of pair.containers) into.push({ container: p, podInjectPolicy: sidecar.podInjectPolicy });
      Object.assign(injectedAnnotations, pair.annotations);
      working.set(sidecar.name, pair.containers[0].name);
      injectedAnnotations[ANNOTATION_WORKING_HOT_UPGRADE_CONTAINER] = encodeWorkingContainers(working);
    } else into.push({ container: c, podInjectPolicy: sidecar.podInjectPolicy });
  };

  // a resources policy reads the pod's own containers, never a sidecar of the SidecarSets matched here
  const sidecarNames = kruiseSidecarNames(matched);
  const withPolicy = (sidecar: SidecarContainer): SidecarContainer =>
    sidecar.resourcesPolicy
      ? { ...sidecar, resources: resourcesFromPolicy(input.pod, sidecar.resourcesPolicy, sidecarNames) }
      : sidecar;

  for (const s of matched) {
    const name = s.metadata.name ?? '';
    const declared = new Map((s.spec.volumes ?? []).map((v) => [v.name, v]));
    const sidecarList = new Set<string>();
    let injecting = false;
    for (const declaredInit of s.spec.initContainers ?? []) {
      if (isNativeSidecar(declaredInit)) sidecarList.add(declaredInit.name);
      const init = withPolicy(declaredInit);
      volumes.push(...volumesUsed(init, declared));
      // upstream pairs only native-sidecar init containers for HotUpgrade
      add(isNativeSidecar(init) ? init : { ...init, upgradeStrategy: undefined }, initContainers);
      injecting = true;
    }
    secrets.push(...(s.spec.imagePullSecrets ?? []));
    for (const declaredContainer of s.spec.containers ?? []) {
      sidecarList.add(declaredContainer.name);
      const c = withPolicy(declaredContainer);
      volumes.push(...volumesUsed(c, declared));
      add(c, containers);
      injecting = true;
    }
    if (!injecting) continue;
    const list = [...sidecarList].sort();
    const entry = (hash: string | undefined): SidecarSetUpgradeSpec => ({
      updateTimestamp: now,
      hash: hash ?? '',
      sidecarSetName: name,
      sidecarList: list,
    });
    const stored = s.metadata.annotations ?? {};
    hashes.set(name, {
      ...entry(stored[ANNOTATION_SIDECARSET_HASH]),
      ...(s.status?.latestRevision ? { controllerRevision: s.status.latestRevision } : {}),
    });
    hashesWithoutImage.set(name, entry(stored[ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE]));
  }

  const names = matched.map((s) => s.metadata.name ?? '');
  if (containers.length === 0 && initContainers.length === 0) {
    const patched = !sameMap(annotations, pod.metadata.annotations ?? {});
    if (!patched) return { ...unchanged, sidecarSets: names };
    pod.metadata.annotations = annotations;
    return { pod, changed: true, sidecarSets: names };
  }

  const sortedInit = [...initContainers].sort(byContainerName);
  const newInit = mergeContainers(pod.spec.initContainers ?? [], sortedInit);
  if (newInit.length > 0) pod.spec.initContainers = newInit;
  const ordered = input.sortContainersByName ? [...containers].sort(byContainerName) : containers;
  pod.spec.containers = mergeContainers(pod.spec.containers, ordered);
  const newVolumes = mergeVolumes(pod.spec.volumes ?? [], volumes);
  if (newVolumes.length > 0) pod.spec.volumes = newVolumes;
  const newSecrets = mergeSecrets((pod.spec.imagePullSecrets ?? []) as { name?: string }[], secrets);
  if (newSecrets.length > 0) pod.spec.imagePullSecrets = newSecrets;
  pod.metadata.annotations = {
    ...annotations,
    ...injectedAnnotations,
    [ANNOTATION_SIDECARSET_HASH]: encodeHashAnnotation(hashes),
    [ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE]: encodeHashAnnotation(hashesWithoutImage),
    [ANNOTATION_SIDECARSET_INJECTED_LIST]: injectedList(
      annotations[ANNOTATION_SIDECARSET_INJECTED_LIST],
      names,
    ),
  };
  return { pod, changed: true, sidecarSets: names };
}

/**
 * A SidecarSet as OpenKruise's SidecarSet webhook would have stored it: one without the hash annotations was written
 * while Kruiseless's `/mutate` was not called (its failurePolicy is Ignore), so it gets the defaults and hashes here.
 */
function asStored(sidecarSet: SidecarSet): SidecarSet {
  const a = sidecarSet.metadata.annotations ?? {};
  if (
    a[ANNOTATION_SIDECARSET_HASH] !== undefined &&
    a[ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE] !== undefined
  )
    return sidecarSet;
  return mutateSidecarSet(sidecarSet);
}

function sameMap(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => b[k] === a[k]);
}
