/**
 * OpenKruise: apis/apps/v1alpha1/cloneset_conversion.go `convertInPlaceUpdateStrategyToV1beta1` (the v1alpha1
 * annotations read into the v1beta1 fields) and pkg/util/imagejob/utilfunction `CreateJobForWorkloadWithStrategy`
 * (their defaults).
 *
 * The three `apps.kruise.io/image-predownload-*` workload annotations (CloneSet's today), read as OpenKruise reads
 * them (docs/behaviour/cloneset.md#image-pre-download).
 */
import {
  ANNOTATION_IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS,
  ANNOTATION_IMAGE_PREDOWNLOAD_PARALLELISM,
  ANNOTATION_IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS,
} from '../../api/v1beta1.js';
import { parseGoInt, parseInt32 } from '../../api/int32.js';
import type { IntOrString, ObjectMeta } from '../../api/types.js';

/** Pull timeout per node when the annotation is absent or unreadable, seconds. */
export const DEFAULT_PREDOWNLOAD_TIMEOUT_SECONDS = 300;
/** Nodes pulling at once when the annotation is absent. */
export const DEFAULT_PREDOWNLOAD_PARALLELISM = 1;

/** The pre-download settings of one workload. */
export interface PreDownloadSettings {
  /** Nodes pulling at once: a count, or a string (e.g. `"50%"`) passed on as OpenKruise passes it. */
  parallelism: IntOrString;
  /** Pull timeout per node, seconds. */
  timeoutSeconds: number;
  /** Updated ready pods needed before the jobs are created (0 when absent or unreadable). */
  minUpdatedReadyPods: number;
}

/**
 * A workload's pre-download settings from its annotations (OpenKruise's
 * `convertInPlaceUpdateStrategyToV1beta1`): an empty annotation counts as absent; parallelism is an integer when
 * it parses as one (Go's `intstr.Parse`), else kept as the string; timeout and min-updated-ready-pods must parse
 * as int32, else they take their defaults (300 s, 0).
 * @returns the settings; never throws
 */
export function preDownloadSettings(workload: { metadata: ObjectMeta }): PreDownloadSettings {
  const a = workload.metadata.annotations ?? {};
  const parallelismText = a[ANNOTATION_IMAGE_PREDOWNLOAD_PARALLELISM] ?? '';
  const parallelismInt = parseInt32(parallelismText);
  return {
    parallelism:
      parallelismText === ''
        ? DEFAULT_PREDOWNLOAD_PARALLELISM
        : parallelismInt !== undefined
          ? parallelismInt
          : parallelismText,
    timeoutSeconds:
      parseInt32(a[ANNOTATION_IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS] ?? '') ??
      DEFAULT_PREDOWNLOAD_TIMEOUT_SECONDS,
    minUpdatedReadyPods: parseInt32(a[ANNOTATION_IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS] ?? '') ?? 0,
  };
}

/**
 * The job settings OpenKruise's `CreateJobForWorkload` (pkg/util/imagejob/utilfunction, used by Advanced StatefulSet
 * and Advanced DaemonSet) reads from the workload's annotations: parallelism only as an integer (Go's `strconv.Atoi`;
 * else 1), the pull timeout as an int32 (else 300 s).
 * @returns the settings; never throws
 */
export function createJobForWorkloadSettings(workload: {
  metadata: ObjectMeta;
}): Omit<PreDownloadSettings, 'minUpdatedReadyPods'> {
  const a = workload.metadata.annotations ?? {};
  return {
    parallelism:
      parseGoInt(a[ANNOTATION_IMAGE_PREDOWNLOAD_PARALLELISM] ?? '') ?? DEFAULT_PREDOWNLOAD_PARALLELISM,
    timeoutSeconds:
      parseInt32(a[ANNOTATION_IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS] ?? '') ??
      DEFAULT_PREDOWNLOAD_TIMEOUT_SECONDS,
  };
}
