/**
 * What the SidecarSet controller reads off one matched pod (OpenKruise: `IsPodSidecarUpdated`,
 * `IsPodInjectedSidecarSet`, `IsPodConsistentWithSidecarSet`, `GetSidecarContainersInPod` in
 * `pkg/control/sidecarcontrol/util.go`; `IsPodReady`, `IsPodStateConsistent`, `IsSidecarSetUpgradable` and
 * `IsSidecarContainerUpdateCompleted` of `commonControl` in `sidecarset_control.go`). Pure.
 */
import type { Pod } from '../../../api/types.js';
import { isRunningReady } from '../../../podset/pods.js';
import { parseInPlaceUpdateState } from '../../../podset/inplace/state.js';
import {
  ANNOTATION_SIDECARSET_HASH,
  ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE,
  ANNOTATION_SIDECARSET_INJECTED_LIST,
  ANNOTATION_SIDECARSET_INPLACE_UPDATE_STATE,
} from '../api/keys.js';
import type { SidecarSet } from '../api/types.js';
import { parseHashAnnotation } from './annotations.js';
import {
  ANNOTATION_WORKING_HOT_UPGRADE_CONTAINER,
  isHotUpgradeContainer,
  parseWorkingContainers,
  podHotUpgradeContainers,
} from './hotUpgrade.js';

/** The SidecarSet's hash (`kruise.io/sidecarset-hash` annotation, set by its defaulting webhook); '' when absent. */
export function sidecarSetRevision(sidecarSet: SidecarSet): string {
  return sidecarSet.metadata.annotations?.[ANNOTATION_SIDECARSET_HASH] ?? '';
}

/** The SidecarSet's hash without images (`kruise.io/sidecarset-hash-without-image`); '' when absent. */
export function sidecarSetRevisionWithoutImage(sidecarSet: SidecarSet): string {
  return sidecarSet.metadata.annotations?.[ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE] ?? '';
}

/** A pod's entry for `name` in a hash annotation, '' when absent or unreadable (upstream logs and treats it so). */
function podHash(pod: Pod, key: string, name: string): string {
  try {
    return parseHashAnnotation(key, pod.metadata.annotations?.[key]).get(name)?.hash ?? '';
  } catch {
    return '';
  }
}

/** The SidecarSet hash the pod records for `name` (`GetPodSidecarSetRevision`). */
export function podSidecarSetRevision(pod: Pod, name: string): string {
  return podHash(pod, ANNOTATION_SIDECARSET_HASH, name);
}

/** Whether the pod's sidecars are the SidecarSet's current ones by hash (`IsPodSidecarUpdated`). */
export function isPodSidecarUpdated(sidecarSet: SidecarSet, pod: Pod): boolean {
  return sidecarSetRevision(sidecarSet) === podSidecarSetRevision(pod, sidecarSet.metadata.name ?? '');
}

/** Whether `kruise.io/sidecarset-injected-list` names the SidecarSet (`IsPodInjectedSidecarSet`). */
export function isPodInjected(pod: Pod, sidecarSet: SidecarSet): boolean {
  const list = pod.metadata.annotations?.[ANNOTATION_SIDECARSET_INJECTED_LIST];
  return !!list && list.split(',').includes(sidecarSet.metadata.name ?? '');
}

/** Whether the SidecarSet has a hot-upgrade container (`isSidecarSetHasHotUpgradeContainer`). */
export function hasHotUpgradeContainer(sidecarSet: SidecarSet): boolean {
  return (sidecarSet.spec.containers ?? []).some(isHotUpgradeContainer);
}

/**
 * The pod container names of the SidecarSet's sidecars (`GetSidecarContainersInPod`): each container's name, a
 * hot-upgrade one's two names `<name>-1` and `<name>-2`.
 */
export function sidecarContainerNames(sidecarSet: SidecarSet): Set<string> {
  const names = new Set<string>();
  for (const c of sidecarSet.spec.containers ?? []) {
    if (isHotUpgradeContainer(c)) {
      names.add(`${c.name}-1`);
      names.add(`${c.name}-2`);
    } else names.add(c.name);
  }
  return names;
}

const hasContainer = (pod: Pod, name: string): boolean =>
  (pod.spec.containers ?? []).some((c) => c.name === name);

/**
 * Whether every sidecar container of the SidecarSet is in the pod (`IsPodConsistentWithSidecarSet`): a cold one by
 * name; a hot-upgrade one by its working-container entry and both its containers.
 */
export function isPodConsistentWithSidecarSet(pod: Pod, sidecarSet: SidecarSet): boolean {
  const working = parseWorkingContainers(
    pod.metadata.annotations?.[ANNOTATION_WORKING_HOT_UPGRADE_CONTAINER],
  );
  return (sidecarSet.spec.containers ?? []).every((c) =>
    isHotUpgradeContainer(c)
      ? working.has(c.name) && hasContainer(pod, `${c.name}-1`) && hasContainer(pod, `${c.name}-2`)
      : hasContainer(pod, c.name),
  );
}

/** An image reference split as Docker's normalizer does: repository with registry, tag, digest. */
function parseImage(image: string): { repo: string; tag: string; digest: string } {
  const at = image.indexOf('@');
  const digest = at >= 0 ? image.slice(at + 1) : '';
  let rest = at >= 0 ? image.slice(0, at) : image;
  let tag = '';
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const first = rest.split('/')[0];
  const hasRegistry =
    rest.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (!hasRegistry) rest = `docker.io/${rest.includes('/') ? rest : `library/${rest}`}`;
  return { repo: rest, tag: tag || (digest ? '' : 'latest'), digest };
}

/** `IsContainerImageEqual`: same repository and digest when both are digests, else same repository and tag. */
function imagesEqual(a: string, b: string): boolean {
  const x = parseImage(a);
  const y = parseImage(b);
  if (x.digest && y.digest) return x.repo === y.repo && x.digest === y.digest;
  return x.repo === y.repo && x.tag === y.tag;
}

/**
 * `IsSidecarContainerUpdateCompleted` for one SidecarSet: false when a sidecar container's status still shows the
 * imageID recorded before its in-place update while its spec image differs from the status image (the kubelet has
 * not restarted it yet); true without the state annotation. An unreadable annotation is not completed.
 */
function isSidecarUpdateCompleted(
  pod: Pod,
  sidecarSetName: string,
  containers: ReadonlySet<string>,
): boolean {
  const text = pod.metadata.annotations?.[ANNOTATION_SIDECARSET_INPLACE_UPDATE_STATE];
  if (text === undefined) return true;
  let last: Record<string, { imageID?: string }> = {};
  try {
    const states = JSON.parse(text) as Record<string, unknown>;
    const mine = states[sidecarSetName];
    if (mine !== undefined && mine !== null)
      last = parseInPlaceUpdateState(JSON.stringify(mine)).lastContainerStatuses ?? {};
  } catch {
    return false;
  }
  const images = new Map((pod.spec.containers ?? []).map((c) => [c.name, c.image ?? '']));
  return (pod.status?.containerStatuses ?? []).every((cs) => {
    if (!containers.has(cs.name)) return true;
    const before = last[cs.name];
    return !(before && (before.imageID ?? '') === cs.imageID && images.get(cs.name) !== cs.image);
  });
}

/**
 * `IsPodStateConsistent`: the pod reports a status for each container, and the given sidecar containers (default:
 * all of the SidecarSet's) run their spec image — by imageID when every such image is a digest, otherwise by the
 * in-place update state ({@link isSidecarUpdateCompleted}).
 */
export function isPodStateConsistent(
  sidecarSet: SidecarSet,
  pod: Pod,
  containers: ReadonlySet<string> = sidecarContainerNames(sidecarSet),
): boolean {
  const statuses = pod.status?.containerStatuses ?? [];
  if ((pod.spec.containers ?? []).length !== statuses.length) return false;
  const names = containers.size > 0 ? containers : sidecarContainerNames(sidecarSet);
  const imageIds = new Map(statuses.map((s) => [s.name, s.imageID]));
  let allDigest = true;
  for (const c of pod.spec.containers ?? []) {
    if (!names.has(c.name)) continue;
    if (!parseImage(c.image ?? '').digest) {
      allDigest = false;
      break;
    }
    const id = imageIds.get(c.name);
    if (id === undefined || !imagesEqual(c.image ?? '', id)) return false;
  }
  if (allDigest) return true;
  return isSidecarUpdateCompleted(pod, sidecarSet.metadata.name ?? '', names);
}

/**
 * The pod container each hot-upgrade sidecar of the SidecarSet keeps idle (the other of its pair), with the empty
 * image it should run.
 */
export function idleHotUpgradeContainers(sidecarSet: SidecarSet, pod: Pod): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of sidecarSet.spec.containers ?? [])
    if (isHotUpgradeContainer(c))
      out.set(podHotUpgradeContainers(c.name, pod).other, c.upgradeStrategy?.hotUpgradeEmptyImage ?? '');
  return out;
}

/**
 * `commonControl.IsPodReady`: running and ready and not being deleted, and every hot-upgrade sidecar's idle
 * container on its empty image (a pod mid hot upgrade, before the older container is reset, is not ready).
 */
export function isSidecarPodReady(sidecarSet: SidecarSet, pod: Pod): boolean {
  const idle = idleHotUpgradeContainers(sidecarSet, pod);
  for (const c of pod.spec.containers ?? []) {
    const empty = idle.get(c.name);
    if (empty && c.image !== empty) return false;
  }
  return isRunningReady(pod) && !pod.metadata.deletionTimestamp;
}

/**
 * `IsSidecarSetUpgradable`: `canUpgrade` when the pod's hash-without-image entry is the SidecarSet's (only images
 * changed, so an in-place update can do it); `consistent` unless a ready sidecar container is mid-update.
 */
export function sidecarSetUpgradable(
  sidecarSet: SidecarSet,
  pod: Pod,
): { canUpgrade: boolean; consistent: boolean } {
  const name = sidecarSet.metadata.name ?? '';
  if (
    podHash(pod, ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE, name) !==
    sidecarSetRevisionWithoutImage(sidecarSet)
  )
    return { canUpgrade: false, consistent: false };
  const ready = new Map((pod.status?.containerStatuses ?? []).map((s) => [s.name, s.ready]));
  for (const c of [...sidecarContainerNames(sidecarSet)].sort())
    if (ready.get(c) === true && !isPodStateConsistent(sidecarSet, pod, new Set([c])))
      return { canUpgrade: true, consistent: false };
  return { canUpgrade: true, consistent: true };
}
