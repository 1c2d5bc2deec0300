/**
 * OpenKruise: pkg/control/pubcontrol/pub_control.go `IsPodReady`, `IsPodStateConsistent` and
 * pub_control_utils.go `GetPodRelatedPubName` / `isPodNoProtection` (v1.9.0).
 *
 * What the budget asks of one pod: is it available (running, Ready=True, not terminating, no
 * `unavailable-pod.kruise.io/` label), is its spec carried out (images by digest, in-place update finished), and
 * which PUB it is marked with.
 */
import type { Pod } from '../../../api/types.js';
import { isRunningReady } from '../../../podset/pods.js';
import { isInPlaceUpdateCompleted } from '../../../podset/inplace/apply.js';
import {
  ANNOTATION_POD_NO_PROTECT,
  ANNOTATION_RELATED_PUB,
  ANNOTATION_RELATED_PUB_DEPRECATED,
  LABEL_PREFIX_UNAVAILABLE_POD,
} from '../api/keys.js';

/** Whether `labels` carry a label of the `unavailable-pod.kruise.io/` prefix (any value). */
export function hasUnavailableLabel(labels: Record<string, string> | undefined): boolean {
  return Object.keys(labels ?? {}).some((k) => k.startsWith(LABEL_PREFIX_UNAVAILABLE_POD));
}

/**
 * Ready for the budget: phase Running, condition Ready=True, not terminating, and no unavailable label — upstream's
 * `IsPodReady` is `util.IsRunningAndReady`, which asks for no deletionTimestamp. So any operation on a terminating
 * pod (the kubelet's final delete among them) is admitted without budget.
 */
export function isPodReadyForPub(pod: Pod): boolean {
  return isRunningReady(pod) && !pod.metadata.deletionTimestamp && !hasUnavailableLabel(pod.metadata.labels);
}

/** The digest of an image reference (`repo@sha256:…` → `sha256:…`), or undefined when it names a tag. */
export function imageDigest(image: string): string | undefined {
  const at = image.lastIndexOf('@');
  return at >= 0 && at < image.length - 1 ? image.slice(at + 1) : undefined;
}

/**
 * Whether the pod runs what its spec says: when every container's image is a digest, each container's status
 * `imageID` carries that digest; otherwise (or as well) the in-place update recorded on the pod has finished
 * (lib/podset/inplace/apply.ts `isInPlaceUpdateCompleted`, gate `InPlaceWorkloadVerticalScaling` off as in v1.9.0's
 * defaults). A digest container whose status is missing or differs makes the pod inconsistent at once.
 * Not checked (Kruiseless gap): the sidecar-upgrade completion of SidecarSet-injected containers.
 */
export function isPodStateConsistent(pod: Pod): boolean {
  let allDigest = true;
  const statuses = pod.status?.containerStatuses ?? [];
  for (const c of pod.spec.containers) {
    const digest = imageDigest(c.image ?? '');
    if (!digest) {
      allDigest = false;
      continue;
    }
    const status = statuses.find((s) => s.name === c.name);
    if (!status || imageDigest(status.imageID) !== digest) return false;
  }
  if (allDigest) return true;
  return isInPlaceUpdateCompleted(pod, { inPlaceWorkloadVerticalScaling: false });
}

/** Available for the budget: ready ({@link isPodReadyForPub}) and consistent ({@link isPodStateConsistent}). */
export function isPodAvailableForPub(pod: Pod): boolean {
  return isPodReadyForPub(pod) && isPodStateConsistent(pod);
}

/** The PUB the pod is marked with: `pub.kruise.io/related-pub`, else `kruise.io/related-pub`, else `''`. */
export function relatedPubName(pod: Pod): string {
  const a = pod.metadata.annotations ?? {};
  return a[ANNOTATION_RELATED_PUB] || a[ANNOTATION_RELATED_PUB_DEPRECATED] || '';
}

/** Go `strconv.ParseBool`'s true spellings. */
const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** Whether the pod is exempt from every PUB (`pub.kruise.io/no-protect` parses as true). */
export function isPodNoProtection(pod: Pod): boolean {
  return GO_TRUE.has(pod.metadata.annotations?.[ANNOTATION_POD_NO_PROTECT] ?? '');
}
