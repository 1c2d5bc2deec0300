/**
 * Which of a hot-upgrade sidecar's two pod containers takes a new image (OpenKruise: `findContainerToHotUpgrade` in
 * `pkg/control/sidecarcontrol/util_hotupgrade.go`, as `commonControl.UpgradeSidecarContainer` uses it). Pure.
 */
import type { Pod } from '../../../api/types.js';
import type { SidecarContainer, SidecarSet } from '../api/types.js';
import { podHotUpgradeContainers, type HotUpgradeContainers } from './hotUpgrade.js';
import { isPodStateConsistent } from './podState.js';

/** The container to upgrade and the other one of the pair, which keeps running until the upgraded one is ready. */
export interface HotUpgradeTarget {
  upgrade: string;
  other: string;
}

const toTarget = (c: HotUpgradeContainers): HotUpgradeTarget => ({ upgrade: c.other, other: c.working });

/**
 * The target for `sidecar` in `pod`: first the container on the sidecar's empty image (`<name>-1` before
 * `<name>-2`); else the one not ready (not Ready, or its image change not yet run) while the other is; else the
 * one the working-container annotation does not name.
 */
export function hotUpgradeTarget(
  sidecarSet: SidecarSet,
  sidecar: SidecarContainer,
  pod: Pod,
): HotUpgradeTarget {
  const first = `${sidecar.name}-1`;
  const second = `${sidecar.name}-2`;
  const empty = sidecar.upgradeStrategy?.hotUpgradeEmptyImage;
  const image = (name: string): string | undefined =>
    (pod.spec.containers ?? []).find((c) => c.name === name)?.image;
  if (image(first) === empty) return { upgrade: first, other: second };
  if (image(second) === empty) return { upgrade: second, other: first };
  const ready = (name: string): boolean =>
    (pod.status?.containerStatuses ?? []).find((s) => s.name === name)?.ready === true &&
    isPodStateConsistent(sidecarSet, pod, new Set([name]));
  const firstReady = ready(first);
  const secondReady = ready(second);
  if (firstReady && !secondReady) return { upgrade: second, other: first };
  if (!firstReady && secondReady) return { upgrade: first, other: second };
  return toTarget(podHotUpgradeContainers(sidecar.name, pod));
}
