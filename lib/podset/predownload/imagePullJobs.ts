/**
 * OpenKruise: pkg/util/imagejob/utilfunction/imagejob_util.go `CreateJobForWorkload`,
 * `CreateJobForWorkloadWithStrategy` (the job they build; the API call is the reconciler's);
 * pkg/controller/cloneset/cloneset_predownload_image.go `diffImagesBetweenRevisions`.
 *
 * The parts of image pre-download (docs/behaviour/cloneset.md#image-pre-download) that do not depend on the
 * workload kind: which images a revision change brings, and the ImagePullJob that pulls one of them on the nodes
 * of the workload's pods. When to pre-download is the workload's decision (for CloneSet:
 * lib/controllers/cloneset/plan/predownload/jobs.ts). Pure.
 */
import {
  IMAGE_PULL_JOB_API_VERSION,
  IMAGE_PULL_JOB_KIND,
  LABEL_IMAGE_PREDOWNLOAD_CREATED,
  LABEL_IMAGE_PREDOWNLOAD_IGNORED,
  type ImagePullJob,
} from '../../api/imagePullJob.js';
import { LABEL_CONTROLLER_REVISION_HASH, LABEL_REVISION_HASH } from '../../api/keys.js';
import type {
  ControllerRevision,
  LabelSelector,
  ObjectMeta,
  OwnerReference,
  PodTemplateSpec,
} from '../../api/types.js';
import { templateOf } from '../inplace/spec.js';
import { controllerRef } from '../ownership.js';
import type { PreDownloadSettings } from './settings.js';

/** The ImagePullJob writes of one pass (lib/reconcile/pods/writeImagePullJobs.ts makes them, in this order). */
export interface ImagePullJobPlan {
  /** ImagePullJobs to create (one per container whose image changed), in container order. */
  createJobs: ImagePullJob[];
  /** A label to set to `"true"` on the update revision, recording the decision (created or ignored). */
  revisionLabel?: { revision: string; key: string };
  /** Why the revision needs no pre-download, when `revisionLabel` is the ignored label. */
  ignoredBecause?: string;
  /** ImagePullJobs the workload controls, to delete now that every pod is at one revision. */
  deleteJobs: { name: string; uid: string }[];
}

/**
 * Whether the update revision already records a pre-download decision (OpenKruise's labels
 * `apps.kruise.io/pre-predownload-created` / `-ignored`): then nothing more is done for it.
 */
export function preDownloadDecided(update: ControllerRevision): boolean {
  const labels = update.metadata.labels ?? {};
  return LABEL_IMAGE_PREDOWNLOAD_CREATED in labels || LABEL_IMAGE_PREDOWNLOAD_IGNORED in labels;
}

/**
 * The jobs of `jobs` whose controller reference names `ownerUid` (OpenKruise's `DeleteJobsForWorkload`: every job
 * of the namespace the workload controls), as the name and uid a delete needs.
 */
export function jobsControlledBy(
  jobs: readonly ImagePullJob[],
  ownerUid: string | undefined,
): { name: string; uid: string }[] {
  return jobs
    .filter((j) => !!ownerUid && controllerRef(j.metadata.ownerReferences)?.uid === ownerUid)
    .map((j) => ({ name: j.metadata.name ?? '', uid: j.metadata.uid ?? '' }));
}

/** `pullPolicy.backoffLimit` of the jobs. */
const JOB_BACKOFF_LIMIT = 1;
/** `completionPolicy.ttlSecondsAfterFinished` of the jobs, seconds. */
const JOB_TTL_SECONDS = 600;

/**
 * Container name → image of the update revision's containers whose image differs from the current revision's,
 * or that the current revision lacks (OpenKruise's `diffImagesBetweenRevisions`), in the update template's
 * container order; empty when either revision has no template.
 */
export function changedImages(current: ControllerRevision, update: ControllerRevision): [string, string][] {
  return changedImagesFromAny([current], update);
}

/**
 * The containers of `update` whose image some revision of `olds` has otherwise, or that none of them has, with the
 * image — OpenKruise's DaemonSet `diffImagesBetweenRevisions`, which compares the update revision with every old one.
 * An unreadable template (in `update` or any of `olds`) gives none, as upstream returns nothing then.
 * @returns `[container name, image]` pairs in the update template's container order
 */
export function changedImagesFromAny(
  olds: readonly ControllerRevision[],
  update: ControllerRevision,
): [string, string][] {
  const oldTpls = olds.map(templateOf);
  const newTpl = templateOf(update);
  if (!newTpl || oldTpls.some((t) => !t)) return [];
  const out: [string, string][] = [];
  for (const c of newTpl.spec?.containers ?? []) {
    const sameName = oldTpls.map((t) => (t?.spec?.containers ?? []).find((o) => o.name === c.name));
    if (sameName.every((o) => !o) || sameName.some((o) => o && o.image !== c.image))
      out.push([c.name, c.image ?? '']);
  }
  return out;
}

/** What {@link imagePullJobForWorkload} builds a job from (the arguments of OpenKruise's `CreateJobForWorkload`). */
export interface WorkloadImagePullJob {
  /** The workload's namespace, which the job is created in. */
  namespace: string;
  /** The job's name (OpenKruise: `<update revision>-<container>`). */
  name: string;
  image: string;
  /** The workload's controller reference: the job is garbage-collected with the workload. */
  controllerRef: OwnerReference;
  /** The job's labels, also given to its sandbox. */
  labels: Record<string, string>;
  /** The sandbox's annotations (OpenKruise: the pod template's). */
  annotations: Record<string, string>;
  /** The pods whose nodes pull the image. */
  podSelector: LabelSelector;
  /** Names of the pull secrets (OpenKruise: the pod template's `imagePullSecrets`). */
  pullSecrets: string[];
  /** The workload's parallelism and pull timeout ({@link PreDownloadSettings}). */
  settings: PreDownloadSettings;
}

/**
 * The ImagePullJob OpenKruise's `CreateJobForWorkload` creates: controlled by the workload, pulling on the nodes of
 * `podSelector`'s pods with the settings' parallelism and timeout, one retry, always completing and kept 600 s
 * after it finishes, `imagePullPolicy` `IfNotPresent` as OpenKruise's ImagePullJob webhook defaults it; `pullSecrets` only when there are some, the sandbox's annotations only when there are some.
 * @returns a new object (the inputs are copied, not shared)
 */
export function imagePullJobForWorkload(job: WorkloadImagePullJob): ImagePullJob {
  const labels = { ...job.labels };
  const sandbox = {
    ...(Object.keys(job.annotations).length ? { annotations: { ...job.annotations } } : {}),
    labels: { ...labels },
  };
  return {
    apiVersion: IMAGE_PULL_JOB_API_VERSION,
    kind: IMAGE_PULL_JOB_KIND,
    metadata: {
      namespace: job.namespace,
      name: job.name,
      ownerReferences: [job.controllerRef],
      labels,
    },
    spec: {
      image: job.image,
      ...(job.pullSecrets.length ? { pullSecrets: [...job.pullSecrets] } : {}),
      podSelector: structuredClone(job.podSelector),
      parallelism: job.settings.parallelism,
      pullPolicy: { backoffLimit: JOB_BACKOFF_LIMIT, timeoutSeconds: job.settings.timeoutSeconds },
      completionPolicy: { type: 'Always', ttlSecondsAfterFinished: JOB_TTL_SECONDS },
      sandboxConfig: sandbox,
      // what OpenKruise's ImagePullJob webhook (`SetDefaultsImagePullJob`) stores for a job that names none; the
      // other defaults it sets are given above
      imagePullPolicy: 'IfNotPresent',
    },
  };
}

/** The workload fields {@link revisionImagePullJob} reads: a CloneSet or an Advanced StatefulSet. */
export interface PreDownloadWorkload {
  metadata: ObjectMeta;
  spec: { selector?: LabelSelector; template: PodTemplateSpec };
}

/**
 * The ImagePullJob a workload controller creates for one changed container of its update revision (OpenKruise's
 * `createImagePullJobsForInPlaceUpdate` of CloneSet and of Advanced StatefulSet, the same in both): named
 * `<update revision>-<container>`, controlled by `controllerRef`, labelled with the template's labels plus the
 * revision's hash (`controller.kubernetes.io/hash`), its sandbox given the template's annotations, pulling with the
 * template's pull secrets on the nodes of the workload's pods not yet at the update revision (the selector plus
 * `controller-revision-hash NotIn [revision name, hash]`), with `settings`' parallelism and timeout.
 * @returns a new object (the inputs are copied, not shared)
 */
export function revisionImagePullJob(
  workload: PreDownloadWorkload,
  update: ControllerRevision,
  container: string,
  image: string,
  controllerRef: OwnerReference,
  settings: PreDownloadSettings,
): ImagePullJob {
  const template = workload.spec.template;
  const hash = update.metadata.labels?.[LABEL_REVISION_HASH] ?? '';
  const selector: LabelSelector = structuredClone(workload.spec.selector ?? {});
  selector.matchExpressions = [
    ...(selector.matchExpressions ?? []),
    { key: LABEL_CONTROLLER_REVISION_HASH, operator: 'NotIn', values: [update.metadata.name ?? '', hash] },
  ];
  return imagePullJobForWorkload({
    namespace: workload.metadata.namespace ?? '',
    name: `${update.metadata.name ?? ''}-${container}`,
    image,
    controllerRef,
    labels: { ...(template.metadata?.labels ?? {}), [LABEL_REVISION_HASH]: hash },
    annotations: template.metadata?.annotations ?? {},
    podSelector: selector,
    pullSecrets: ((template.spec.imagePullSecrets ?? []) as { name?: string }[]).map((s) => s.name ?? ''),
    settings,
  });
}
