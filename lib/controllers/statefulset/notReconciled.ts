/**
 * What an Advanced StatefulSet may ask for that Kruiseless does not reconcile yet, said as a Warning Event instead
 * of being ignored in silence (README.md "What is not done yet"): image pre-download
 * (`statefulset_predownload_image.go`, gate `PreDownloadImageForInPlaceUpdate`, asked for by the
 * `apps.kruise.io/image-predownload-parallelism` annotation). (`volumeClaimUpdateStrategy` OnPodRollingUpdate is
 * reconciled: ./plan/resize.ts.)
 */
import type { KubeEvent } from '../../kube/types.js';
import type { StatefulSet } from './api/types.js';

/** Reason of the Warning Event naming a field the controller does not act on yet (Kruiseless's own). */
export const REASON_NOT_RECONCILED = 'NotReconciled';

/** OpenKruise's annotation that turns on image pre-download for a workload's in-place updates. */
const ANNOTATION_PREDOWNLOAD_PARALLELISM = 'apps.kruise.io/image-predownload-parallelism';

/** One Warning Event per field of `sts` that is set and not reconciled; none for a set that asks for nothing of it. */
export function notReconciledEvents(sts: StatefulSet): KubeEvent[] {
  const out: KubeEvent[] = [];
  if (sts.metadata.annotations?.[ANNOTATION_PREDOWNLOAD_PARALLELISM] !== undefined)
    out.push({
      type: 'Warning',
      reason: REASON_NOT_RECONCILED,
      message: `metadata.annotations[${ANNOTATION_PREDOWNLOAD_PARALLELISM}] is not reconciled by Kruiseless yet: images are not pre-downloaded`,
    });
  return out;
}
