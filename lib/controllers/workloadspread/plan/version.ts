/**
 * OpenKruise: pkg/util/workloadspread/workloadspread.go `GetPodVersion` / `enableVersionedStatus` (v1.9.0, with the
 * default `--ws-enabled-versioned-status=deployment,replicaset`).
 *
 * The version a pod counts under in `status.versionedSubsetStatuses`: a pod whose controller is a ReplicaSet or a
 * Deployment counts under its `pod-template-hash` label; every other pod under `versionIgnored`.
 */
import type { Pod } from '../../../api/types.js';
import { controllerRef } from '../../../podset/ownership.js';
import { shortHash } from '../../../podset/pods.js';
import { LABEL_CONTROLLER_REVISION_HASH } from '../../../api/keys.js';
import { LABEL_POD_TEMPLATE_HASH, VERSION_IGNORED } from '../api/keys.js';

const VERSIONED_OWNER_KINDS = new Set(['replicaset', 'deployment']);

/** Whether the pod's versions are kept apart: its controller's Kind is ReplicaSet or Deployment. */
export function hasVersionedStatus(pod: Pod): boolean {
  const owner = controllerRef(pod.metadata.ownerReferences);
  return owner !== undefined && VERSIONED_OWNER_KINDS.has(owner.kind.toLowerCase());
}

/** The pod's version (see the module doc). */
export function podVersion(pod: Pod): string {
  if (!hasVersionedStatus(pod)) return VERSION_IGNORED;
  const labels = pod.metadata.labels ?? {};
  if (labels[LABEL_POD_TEMPLATE_HASH] !== undefined) return labels[LABEL_POD_TEMPLATE_HASH];
  const revision = labels[LABEL_CONTROLLER_REVISION_HASH];
  return revision !== undefined ? shortHash(revision) : VERSION_IGNORED;
}
