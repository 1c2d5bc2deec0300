/**
 * The end of a hot upgrade: once the newly upgraded container of a pair runs its image and is ready, the older one
 * goes back to the empty image (OpenKruise: step 5 of `Processor.UpdateSidecarSet` in
 * `pkg/controller/sidecarset/sidecarset_processor.go`; `flipPodSidecarContainerDo`, `isPodSidecarInHotUpgrading`
 * and `isHotUpgradingReady` in `sidecarset_hotupgrade.go`). Pure.
 */
import type { Pod } from '../../../api/types.js';
import { isRunningReady } from '../../../podset/pods.js';
import type { SidecarSet } from '../api/types.js';
import {
  isHotUpgradeContainer,
  podHotUpgradeContainers,
  versionAltAnnotation,
  versionAnnotation,
} from './hotUpgrade.js';
import { recordInPlaceUpgrade } from './inPlaceState.js';
import { idleHotUpgradeContainers, isPodStateConsistent, sidecarContainerNames } from './podState.js';

/**
 * Whether a hot upgrade of the pod waits for its reset (`isPodSidecarInHotUpgrading`): some hot-upgrade sidecar's
 * idle container is not on the empty image.
 */
export function isPodInHotUpgrading(sidecarSet: SidecarSet, pod: Pod): boolean {
  const images = new Map((pod.spec.containers ?? []).map((c) => [c.name, c.image]));
  for (const [name, empty] of idleHotUpgradeContainers(sidecarSet, pod))
    if (images.get(name) !== empty) return true;
  return false;
}

/**
 * `isHotUpgradingReady`: the pod is running and ready, or every container but the idle ones reports Ready (the
 * older container may be failing already).
 */
function isHotUpgradingReady(sidecarSet: SidecarSet, pod: Pod): boolean {
  if (isRunningReady(pod) && !pod.metadata.deletionTimestamp) return true;
  const idle = idleHotUpgradeContainers(sidecarSet, pod);
  return (pod.status?.containerStatuses ?? []).every((s) => idle.has(s.name) || s.ready);
}

/**
 * The matched pods whose older containers are reset now, in the given order: mid hot upgrade
 * ({@link isPodInHotUpgrading}), every sidecar container but the idle ones running its spec image
 * (`IsPodStateConsistent`), and {@link isHotUpgradingReady}. Neither the strategy's partition nor maxUnavailable
 * applies: the new container already works.
 */
export function podsToResetHotUpgrade(sidecarSet: SidecarSet, pods: readonly Pod[]): Pod[] {
  if (!(sidecarSet.spec.containers ?? []).some(isHotUpgradeContainer)) return [];
  return pods.filter((pod) => {
    const working = sidecarContainerNames(sidecarSet);
    for (const name of idleHotUpgradeContainers(sidecarSet, pod).keys()) working.delete(name);
    return (
      isPodInHotUpgrading(sidecarSet, pod) &&
      isPodStateConsistent(sidecarSet, pod, working) &&
      isHotUpgradingReady(sidecarSet, pod)
    );
  });
}

/**
 * The pod after the reset (`flipPodSidecarContainerDo`): each hot-upgrade sidecar's idle container not on the
 * empty image gets it, its `version.sidecarset.kruise.io/` annotation and the working container's `versionalt.`
 * one become "0", and the in-place state records the reset containers' imageIDs (./inPlaceState.ts). The hash
 * annotations and `patchPodMetadata` are left alone.
 */
export function resetHotUpgradeContainers(sidecarSet: SidecarSet, pod: Pod, now: Date): Pod {
  const next = structuredClone(pod);
  const annotations = { ...(next.metadata.annotations ?? {}) };
  const changed: string[] = [];
  for (const sidecar of sidecarSet.spec.containers ?? []) {
    if (!isHotUpgradeContainer(sidecar)) continue;
    const { working, other } = podHotUpgradeContainers(sidecar.name, pod);
    const empty = sidecar.upgradeStrategy?.hotUpgradeEmptyImage;
    const c = (next.spec.containers ?? []).find((x) => x.name === other);
    if (!c || c.image === empty) continue;
    if (empty !== undefined) c.image = empty;
    else delete c.image;
    changed.push(other);
    annotations[versionAnnotation(other)] = '0';
    annotations[versionAltAnnotation(working)] = '0';
  }
  next.metadata.annotations = recordInPlaceUpgrade(annotations, sidecarSet, pod, changed, now);
  return next;
}
