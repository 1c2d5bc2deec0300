/**
 * The SidecarSet controller's writes over the generic client (lib/kube): its ControllerRevisions (OpenKruise's
 * `CreateControllerRevision`, `UpdateControllerRevision`, `updateCustomVersionLabel`, `DeleteControllerRevision`),
 * the SidecarSet's status (`updateSidecarSetStatus`), a pod with new sidecar images (`updatePodSidecarAndHash`'s
 * `Update`) and the pod's `SidecarSetUpgradable` condition (`updatePodSidecarSetUpgradableCondition`'s status patch).
 */
import type { ControllerRevision, Pod, PodCondition } from '../../api/types.js';
import { isAlreadyExists, isNotFound } from '../../kube/errors.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import { goJson } from '../../podset/revision/goJson.js';
import { LABEL_SIDECARSET_CUSTOM_VERSION } from './api/keys.js';
import { SIDECARSET_RESOURCE } from './api/resource.js';
import type { SidecarSet, SidecarSetStatus } from './api/types.js';
import { sidecarSetRevisionName } from './plan/revision.js';

/** A created revision and the collision count its name was made with. */
export interface CreatedRevision {
  revision: ControllerRevision;
  collisionCount: number;
}

/**
 * Create `revision` (`CreateControllerRevision`): on AlreadyExists, GET the revision of that name; the same data
 * bytes make it the one to use, other data raise the collision count and the name is made again (the hash label
 * keeps the first try's hash, as upstream).
 * @param collisionCount the count `revision`'s name was made with
 * @returns the revision as stored and the final count
 * @throws KubeApiError (another create failure, or the GET after AlreadyExists failing or finding nothing)
 */
export async function createSidecarSetRevision(
  kube: Pick<KubeClient, 'create' | 'get'>,
  sidecarSet: SidecarSet,
  revision: ControllerRevision,
  collisionCount: number,
): Promise<CreatedRevision> {
  const raw = goJson(revision.data ?? null);
  const namespace = revision.metadata.namespace ?? '';
  for (let count = collisionCount; ; count++) {
    const name = sidecarSetRevisionName(sidecarSet, revision.data, count);
    try {
      const created = await kube.create(RESOURCES.controllerrevisions, {
        ...revision,
        metadata: { ...revision.metadata, name },
      });
      return { revision: created, collisionCount: count };
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
      const existing = await kube.get(RESOURCES.controllerrevisions, { namespace, name });
      if (!existing) throw e;
      if (goJson(existing.data ?? null) === raw) return { revision: existing, collisionCount: count };
    }
  }
}

/**
 * PUT a revision back with its new `revision` number (`UpdateControllerRevision`, a roll back to an older spec);
 * its read resourceVersion is the precondition.
 * @throws KubeApiError (Conflict, NotFound, ...)
 */
export function renumberSidecarSetRevision(
  kube: Pick<KubeClient, 'replace'>,
  revision: ControllerRevision,
): Promise<ControllerRevision> {
  return kube.replace(RESOURCES.controllerrevisions, revision);
}

/**
 * Strategic-merge `{"metadata":{"labels":{"apps.kruise.io/sidecarset-custom-version":<customVersion>}}}` into the
 * revision (`updateCustomVersionLabel`).
 * @returns the revision as stored
 * @throws KubeApiError
 */
export function labelCustomVersion(
  kube: Pick<KubeClient, 'patch'>,
  revision: ControllerRevision,
  customVersion: string,
): Promise<ControllerRevision> {
  return kube.patch(
    RESOURCES.controllerrevisions,
    { namespace: revision.metadata.namespace ?? '', name: revision.metadata.name ?? '' },
    {
      type: 'strategic-merge',
      body: { metadata: { labels: { [LABEL_SIDECARSET_CUSTOM_VERSION]: customVersion } } },
    },
  );
}

/**
 * DELETE a revision of the history (`truncateHistory`); one already gone is no error.
 * @throws KubeApiError other than NotFound
 */
export async function deleteSidecarSetRevision(
  kube: Pick<KubeClient, 'delete'>,
  revision: ControllerRevision,
): Promise<void> {
  try {
    await kube.delete(RESOURCES.controllerrevisions, {
      namespace: revision.metadata.namespace ?? '',
      name: revision.metadata.name ?? '',
    });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}

/**
 * Replace `.status` through the status subresource, `observedGeneration` the SidecarSet's generation: one PUT with
 * the read resourceVersion as precondition (409 Conflict if the SidecarSet changed since read).
 * @returns the SidecarSet as stored
 * @throws KubeApiError (Conflict, NotFound, ...)
 */
export async function updateSidecarSetStatus(
  kube: Pick<KubeClient, 'replace'>,
  sidecarSet: SidecarSet,
  status: SidecarSetStatus,
): Promise<SidecarSet> {
  const written = await kube.replace(
    SIDECARSET_RESOURCE,
    {
      ...sidecarSet,
      status: { ...status, observedGeneration: sidecarSet.metadata.generation ?? 0 },
    } as never,
    { subresource: 'status' },
  );
  return written as unknown as SidecarSet;
}

/**
 * PUT the pod with its new sidecar images and annotations; `next` carries the resourceVersion read, so a pod changed
 * since is a 409 (upstream re-reads and retries; here the next pass does).
 * @throws KubeApiError (Conflict, NotFound, Invalid, ...)
 */
export function updatePod(kube: Pick<KubeClient, 'replace'>, next: Pod): Promise<Pod> {
  return kube.replace(RESOURCES.pods, next);
}

/**
 * Strategic-merge `{"status":{"conditions":[condition]}}` into pods/status (conditions merge by type).
 * @throws KubeApiError
 */
export async function patchUpgradableCondition(
  kube: Pick<KubeClient, 'patch'>,
  pod: Pod,
  condition: PodCondition,
): Promise<void> {
  await kube.patch(
    RESOURCES.pods,
    { namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '' },
    { type: 'strategic-merge', body: { status: { conditions: [{ ...condition }] } } },
    { subresource: 'status' },
  );
}
