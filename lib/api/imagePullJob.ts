/**
 * OpenKruise's `ImagePullJob` (apps.kruise.io, served as v1alpha1 and v1beta1 with one schema; the CRD is in
 * infra/crds) and the ControllerRevision labels that record a pre-download decision
 * (docs/behaviour/cloneset.md#image-pre-download). Only the fields Kruiseless writes are typed; the rest passes
 * through.
 */
import type { IntOrString, KnownOrOther, LabelSelector, ObjectMeta } from './types.js';

/** apiVersion Kruiseless writes ImagePullJobs as (the version every OpenKruise release serves). */
export const IMAGE_PULL_JOB_API_VERSION = 'apps.kruise.io/v1alpha1';
/** Kind. */
export const IMAGE_PULL_JOB_KIND = 'ImagePullJob';

/**
 * Update-revision label: ImagePullJobs were created for this revision (OpenKruise's
 * `ImagePreDownloadCreatedKey`; the doubled "pre-" is upstream's spelling, kept so both controllers read it).
 */
export const LABEL_IMAGE_PREDOWNLOAD_CREATED = 'apps.kruise.io/pre-predownload-created';
/** Update-revision label: this revision needs no pre-download (OpenKruise's `ImagePreDownloadIgnoredKey`). */
export const LABEL_IMAGE_PREDOWNLOAD_IGNORED = 'apps.kruise.io/image-predownload-ignored';

/** `ImagePullJob.spec` as the CloneSet controller fills it in. */
export interface ImagePullJobSpec {
  image: string;
  pullSecrets?: string[];
  podSelector?: LabelSelector;
  parallelism?: IntOrString;
  pullPolicy?: { backoffLimit?: number; timeoutSeconds?: number };
  completionPolicy: { type?: KnownOrOther<'Always' | 'Never'>; ttlSecondsAfterFinished?: number };
  sandboxConfig?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  /** Whether a node pulls an image it has already (OpenKruise's webhook default: `IfNotPresent`). */
  imagePullPolicy?: KnownOrOther<'Always' | 'IfNotPresent'>;
  [key: string]: unknown;
}

/** `ImagePullJob` status counters a node agent (kruise-daemon's controller) fills in. */
export interface ImagePullJobStatus {
  desired?: number;
  active?: number;
  succeeded?: number;
  failed?: number;
  [key: string]: unknown;
}

/** An ImagePullJob object. */
export interface ImagePullJob {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: ImagePullJobSpec;
  status?: ImagePullJobStatus;
}
