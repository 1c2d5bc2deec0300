/**
 * OpenKruise: pkg/controller/sidecarset/sidecarset_processor.go `registerLatestRevision` (with
 * `updateCustomVersionLabel` and `truncateHistory`).
 *
 * The SidecarSet's ControllerRevisions, brought up to date at the start of a pass: list its history in
 * `kruise-system`, write what ./plan/history.ts decides (create the spec's revision, or renumber an older equal one,
 * or nothing), label it with the custom version, delete history beyond `revisionHistoryLimit`. Every write goes
 * through the pass's client (the lease guard's).
 */
import type { ControllerRevision, Pod } from '../../api/types.js';
import type { Logger } from '../../core/logger.js';
import { classifyWriteError } from '../../kube/errors.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import { historyAfter } from '../../podset/revision/latest.js';
import { LABEL_SIDECARSET_NAME, SIDECARSET_REVISION_NAMESPACE } from './api/keys.js';
import type { SidecarSet } from './api/types.js';
import {
  customVersionToLabel,
  planSidecarSetRevision,
  revisionsToTruncate,
  type LatestRevision,
} from './plan/index.js';
import {
  createSidecarSetRevision,
  deleteSidecarSetRevision,
  labelCustomVersion,
  renumberSidecarSetRevision,
} from './write.js';

/** What registering the latest revision did. */
export interface RegisteredRevision {
  /** The name and collision count the status records. */
  latest: LatestRevision;
  /** API writes that succeeded (create or renumber, the label patch, deletions). */
  writes: number;
}

/**
 * The SidecarSet's revisions: a paged LIST of `kruise-system` by `kruise.io/sidecarset-name=<name>`.
 * @throws KubeApiError when the list fails
 */
export async function listSidecarSetRevisions(
  kube: Pick<KubeClient, 'list'>,
  sidecarSet: SidecarSet,
): Promise<ControllerRevision[]> {
  const listed = await listAll(kube, RESOURCES.controllerrevisions, {
    namespace: SIDECARSET_REVISION_NAMESPACE,
    labelSelector: `${LABEL_SIDECARSET_NAME}=${sidecarSet.metadata.name ?? ''}`,
    limit: LIST_PAGE_SIZE,
  });
  return listed.items;
}

/**
 * Register the SidecarSet's spec as its latest revision (see the module doc). A failed history deletion is logged
 * and the pass goes on, as upstream's.
 * @param pods the matched pods (their `controllerRevision` keeps a revision from deletion)
 * @throws KubeApiError when the list, the create, the renumber or the label patch fails (upstream returns before
 *   the status then); non-API errors
 */
export async function registerLatestRevision(
  kube: Pick<KubeClient, 'list' | 'create' | 'get' | 'replace' | 'patch' | 'delete'>,
  log: Logger,
  sidecarSet: SidecarSet,
  pods: readonly Pod[],
): Promise<RegisteredRevision> {
  const plan = planSidecarSetRevision(sidecarSet, await listSidecarSetRevisions(kube, sidecarSet));
  let writes = 0;
  let latest: ControllerRevision;
  let collisionCount = plan.collisionCount;
  switch (plan.choice.action) {
    case 'reuse':
      latest = plan.choice.revision;
      break;
    case 'renumber':
      latest = await renumberSidecarSetRevision(kube, plan.choice.revision);
      writes++;
      break;
    case 'create': {
      const created = await createSidecarSetRevision(kube, sidecarSet, plan.choice.revision, collisionCount);
      latest = created.revision;
      collisionCount = created.collisionCount;
      writes++;
      break;
    }
  }
  const customVersion = customVersionToLabel(sidecarSet, latest);
  if (customVersion !== undefined) {
    await labelCustomVersion(kube, latest, customVersion);
    writes++;
  }
  for (const old of revisionsToTruncate(sidecarSet, historyAfter(plan.sorted, plan.choice, latest), pods)) {
    try {
      await deleteSidecarSetRevision(kube, old);
      writes++;
    } catch (e) {
      if (classifyWriteError(e) === 'notApi') throw e;
      log.warn('SidecarSet history truncation failed', {
        sidecarSet: sidecarSet.metadata.name ?? '',
        revision: old.metadata.name ?? '',
        error: (e as Error).message,
      });
      break;
    }
  }
  return { latest: { name: latest.metadata.name ?? '', collisionCount }, writes };
}
