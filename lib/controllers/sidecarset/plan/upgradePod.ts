/**
 * A matched pod with the SidecarSet's new sidecar images, as OpenKruise's controller writes it
 * (`updatePodSidecarContainer` and `updatePodSidecarAndHash` in `pkg/controller/sidecarset/sidecarset_processor.go`,
 * `UpgradeSidecarContainer` and `UpdatePodAnnotationsInUpgrade` in `pkg/control/sidecarcontrol/sidecarset_control.go`,
 * `UpdatePodSidecarSetHash` in `util.go`, ./podHashUpdate.ts). Only images change: a cold sidecar's container of the same name, a
 * hot-upgrade sidecar's idle container of its pair (./hotUpgradeTarget.ts), which then becomes the working one.
 * Pure.
 */
import type { Pod } from '../../../api/types.js';
import type { SidecarSet } from '../api/types.js';
import {
  ANNOTATION_WORKING_HOT_UPGRADE_CONTAINER,
  encodeWorkingContainers,
  isHotUpgradeContainer,
  parseWorkingContainers,
  versionAltAnnotation,
  versionAnnotation,
} from './hotUpgrade.js';
import { hotUpgradeTarget } from './hotUpgradeTarget.js';
import { recordInPlaceUpgrade } from './inPlaceState.js';
import { patchPodAnnotations } from './patchMetadata.js';
import { updatePodSidecarSetHash } from './podHashUpdate.js';

/**
 * Hot-upgrade bookkeeping for `sidecar` whose container `upgraded` took the new image: the working-container entry
 * names it; its `version.sidecarset.kruise.io/` annotation and the older container's `versionalt.` one become the
 * SidecarSet's resourceVersion, and its own `versionalt.` the older container's version ('' when none).
 */
function recordHotUpgrade(
  annotations: Record<string, string>,
  sidecarSet: SidecarSet,
  sidecar: string,
  upgraded: string,
  older: string,
): void {
  const working = parseWorkingContainers(annotations[ANNOTATION_WORKING_HOT_UPGRADE_CONTAINER]);
  working.set(sidecar, upgraded);
  annotations[ANNOTATION_WORKING_HOT_UPGRADE_CONTAINER] = encodeWorkingContainers(working);
  const version = sidecarSet.metadata.resourceVersion ?? '';
  annotations[versionAnnotation(upgraded)] = version;
  annotations[versionAltAnnotation(upgraded)] = annotations[versionAnnotation(older)] ?? '';
  annotations[versionAltAnnotation(older)] = version;
}

/**
 * The pod after this SidecarSet's in-place sidecar update. Changes: each sidecar whose image differs from what the
 * pod runs (a hot-upgrade one: from its working container's image) gets it in its container (a hot-upgrade one:
 * in the target of the pair, with the working-container and version annotations); `kruise.io/sidecarset-hash`'s
 * entry for the SidecarSet (now, its hash, its container names sorted, its `status.latestRevision`); in
 * `kruise.io/sidecarset-inplace-update-state` the changed containers' imageIDs from the pod status
 * (./inPlaceState.ts); `patchPodMetadata` applied to the annotations. The hash entry and state are written even
 * when no image changed.
 * @param now the update timestamp (seconds precision in the annotations)
 * @throws SidecarInjectionError when a `MergePatchJson` metadata patch or the pod's value is not JSON
 */
export function upgradePodSidecars(sidecarSet: SidecarSet, pod: Pod, now: Date): Pod {
  const next = structuredClone(pod);
  const containers = next.spec.containers ?? [];
  const annotations = { ...(next.metadata.annotations ?? {}) };
  const changed: string[] = [];
  for (const sidecar of sidecarSet.spec.containers ?? []) {
    const hot = isHotUpgradeContainer(sidecar);
    const target = hot ? hotUpgradeTarget(sidecarSet, sidecar, pod) : undefined;
    const c = containers.find((x) => x.name === (target?.upgrade ?? sidecar.name));
    const running = target ? containers.find((x) => x.name === target.other)?.image : c?.image;
    if (!c || running === sidecar.image) continue;
    if (sidecar.image !== undefined) c.image = sidecar.image;
    else delete c.image;
    changed.push(c.name);
    if (target) recordHotUpgrade(annotations, sidecarSet, sidecar.name, target.upgrade, target.other);
  }
  const hashed = updatePodSidecarSetHash(annotations, sidecarSet, now);
  const recorded = recordInPlaceUpgrade(hashed, sidecarSet, pod, changed, now);
  next.metadata.annotations = patchPodAnnotations(recorded, sidecarSet.spec.patchPodMetadata ?? []);
  return next;
}
