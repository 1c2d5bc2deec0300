/**
 * The API-server port the reconciler uses (docs/architecture.md#lib-kube): typed reads and writes of CloneSets, pods,
 * PVCs, ControllerRevisions and Events in one cluster. One real implementation (`@kubernetes/client-node`) lives
 * beside this file; tests run it against a real kube-apiserver.
 */
import type {
  CloneSet,
  CloneSetStatus,
  ControllerRevision,
  JsonObject,
  PersistentVolumeClaim,
  Pod,
} from '../api/types.js';
import type { ImagePullJob } from '../api/imagePullJob.js';

/**
 * A list result with the collection's resourceVersion (for watches and read-your-writes checks). Items carry
 * `apiVersion` and `kind` (filled in: the API server omits them on list items of built-in types).
 */
export interface Listed<T> {
  items: T[];
  resourceVersion: string;
}

/** A Kubernetes Event to record on a CloneSet (docs/behaviour/cloneset.md#events). */
export interface CloneSetEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/**
 * Typed access to one cluster's API server. Every method throws {@link KubeApiError} on an API error (and on a
 * network failure: statusCode 0, reason `NetworkError`), after retrying 429/5xx/network errors; 409/404/422 are
 * never retried. Objects returned are the API server's JSON (RFC 3339 strings, unknown fields kept).
 */
export interface KubeClient {
  /** GET a CloneSet; undefined when it does not exist (404). */
  getCloneSet(namespace: string, name: string): Promise<CloneSet | undefined>;
  /** LIST CloneSets (all namespaces when `namespace` is undefined). */
  listCloneSets(namespace?: string): Promise<Listed<CloneSet>>;
  /** LIST pods of a namespace carrying `labelSelector` (e.g. `apps.kruise.io/cloneset-instance-id`). */
  listPods(namespace: string, labelSelector?: string): Promise<Listed<Pod>>;
  /** LIST PVCs of a namespace carrying `labelSelector`. */
  listPVCs(namespace: string, labelSelector?: string): Promise<Listed<PersistentVolumeClaim>>;
  /** LIST ControllerRevisions of a namespace matching `labelSelector`. */
  listControllerRevisions(namespace: string, labelSelector?: string): Promise<Listed<ControllerRevision>>;

  createControllerRevision(revision: ControllerRevision): Promise<ControllerRevision>;
  /** PUT a ControllerRevision (resourceVersion precondition from the object). */
  replaceControllerRevision(revision: ControllerRevision): Promise<ControllerRevision>;
  /** DELETE a ControllerRevision; NotFound when it is already gone. */
  deleteControllerRevision(namespace: string, name: string): Promise<void>;
  /**
   * Merge PATCH setting `labels` on a ControllerRevision (the image pre-download record,
   * docs/behaviour/cloneset.md#image-pre-download).
   */
  patchControllerRevisionLabels(
    namespace: string,
    name: string,
    labels: Record<string, string>,
  ): Promise<ControllerRevision>;

  /** LIST the ImagePullJobs of a namespace; undefined when the API server does not serve them (404: no CRD). */
  listImagePullJobs(namespace: string): Promise<Listed<ImagePullJob> | undefined>;
  /** POST an ImagePullJob (AlreadyExists when one of that name exists). */
  createImagePullJob(job: ImagePullJob): Promise<ImagePullJob>;
  /** DELETE an ImagePullJob with a UID precondition; NotFound when it is already gone. */
  deleteImagePullJob(namespace: string, name: string, uid: string): Promise<void>;
  /**
   * Whether any NodeImage exists (one LIST with `limit=1`; false when the resource is not served): kruise-daemon
   * keeps one per node it runs on, so none means no node agent acts on ImagePullJobs.
   */
  anyNodeImage(): Promise<boolean>;

  /**
   * POST a pod. A create retried after a lost response may report AlreadyExists for the pod it created itself
   * (pod names are deterministic, so callers treat AlreadyExists like an unobserved create).
   */
  createPod(pod: Pod): Promise<Pod>;
  /**
   * DELETE a pod with a UID precondition (never deletes a same-named successor: Conflict) and the pod's default
   * grace period. NotFound when it is already gone.
   */
  deletePod(namespace: string, name: string, uid: string): Promise<void>;
  /**
   * Strategic-merge PATCH of a pod. When `resourceVersion` is given it is sent in the patch, so the API server
   * rejects the write with 409 if the pod changed since it was read.
   */
  patchPod(namespace: string, name: string, patch: JsonObject, resourceVersion?: string): Promise<Pod>;
  /** Strategic-merge PATCH of `pods/status` (same precondition rule as {@link patchPod}). */
  patchPodStatus(namespace: string, name: string, patch: JsonObject, resourceVersion?: string): Promise<Pod>;

  createPVC(pvc: PersistentVolumeClaim): Promise<PersistentVolumeClaim>;
  /** DELETE a PVC with a UID precondition. */
  deletePVC(namespace: string, name: string, uid: string): Promise<void>;
  /**
   * Merge PATCH replacing a PVC's owner references. `uid` goes into the patch: a PVC with another UID rejects it
   * with 422 Invalid (`metadata.uid: field is immutable`), not 409 — PATCH has no UID precondition of its own.
   */
  patchPVCOwnerReferences(
    namespace: string,
    name: string,
    uid: string,
    ownerReferences: NonNullable<PersistentVolumeClaim['metadata']['ownerReferences']>,
  ): Promise<void>;

  /** Replace `.status` through the status subresource (resourceVersion precondition from `cloneSet`). */
  updateCloneSetStatus(cloneSet: CloneSet, status: CloneSetStatus): Promise<CloneSet>;
  /**
   * Merge PATCH of `spec.scaleStrategy.podsToDelete` (docs/behaviour/cloneset.md#after-status), resourceVersion
   * precondition; an empty list removes the field (OpenKruise's `truncatePodsToDelete` stores none).
   */
  patchCloneSetPodsToDelete(cloneSet: CloneSet, podsToDelete: string[]): Promise<CloneSet>;

  /**
   * Record a core/v1 Event on the CloneSet, folded into the stored Event of the same type, reason and message if
   * there is one (a count increment, lib/kube/eventFolding.ts). Best effort: never throws.
   */
  recordEvent(cloneSet: CloneSet, event: CloneSetEvent): Promise<void>;
}
