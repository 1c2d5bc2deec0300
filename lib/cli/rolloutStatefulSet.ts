/**
 * `kruiseless rollout` on an Advanced StatefulSet (docs/cli.md#rollout): the set's GET, pause and resume
 * (`spec.updateStrategy.rollingUpdate.paused`, which the Advanced StatefulSet controller honours; kubectl-kruise v1.2.2
 * pauses Deployments, CloneSets and Rollouts only; ./pauseRollingUpdate.ts), history and undo over the set's
 * ControllerRevisions as kubectl-kruise reads them (`advancedstsHistory`, `AdvancedStatefulSetRollbacker`;
 * ./revisionCommands.ts), with the set's own revision rules (lib/controllers/statefulset/plan/revision.ts).
 */
import { readWorld } from '../controllers/statefulset/pass.js';
import { applyRevision, newRevision } from '../controllers/statefulset/plan/revision.js';
import { STATEFULSET_KIND, STATEFULSET_RESOURCE } from '../controllers/statefulset/api/resource.js';
import type { StatefulSet } from '../controllers/statefulset/api/types.js';
import type { Connection } from './connect.js';
import { controlledRevisions } from './history.js';
import { CliError, notFound, RESOURCE, type CliIO } from './io.js';
import { setRollingUpdatePaused } from './pauseRollingUpdate.js';
import { printHistory, rollBack, type TemplateHistory } from './revisionCommands.js';

/** How `rollout` names an Advanced StatefulSet in its lines (kubectl's `<kind>.<group>/<name>`). */
export const shownStatefulSet = (name: string): string => `statefulset.apps.kruise.io/${name}`;

/**
 * GET the Advanced StatefulSet `name` of the connection's namespace.
 * @throws CliError (kubectl's NotFound line) when it does not exist; KubeApiError for other failures
 */
export async function getStatefulSet(conn: Connection, name: string): Promise<StatefulSet> {
  const sts = await conn.kube.get(STATEFULSET_RESOURCE, { namespace: conn.namespace, name });
  if (!sts) throw notFound(RESOURCE.statefulset, name);
  return sts;
}

/**
 * Sets `spec.updateStrategy.rollingUpdate.paused` to `paused` and prints `statefulset.apps.kruise.io/<name> paused`
 * (or `resumed`).
 * @throws CliError as ./pauseRollingUpdate.ts `setRollingUpdatePaused` (not found, already in that state, OnDelete)
 */
export function setStatefulSetPaused(
  io: CliIO,
  conn: Connection,
  name: string,
  paused: boolean,
): Promise<void> {
  const target = {
    resource: STATEFULSET_RESOURCE,
    resourceName: RESOURCE.statefulset,
    shown: shownStatefulSet(name),
    name,
  };
  return setRollingUpdatePaused(io, conn, target, paused);
}

/**
 * The set `name`'s revision history: the ControllerRevisions it controls, read as a reconcile pass reads them.
 * @throws CliError (not found) when there is no such set
 */
async function statefulSetRevisions(conn: Connection, name: string): Promise<TemplateHistory<StatefulSet>> {
  const world = await readWorld(
    conn.kube,
    { cluster: '', kind: STATEFULSET_KIND, namespace: conn.namespace, name },
    'selector',
    false,
  );
  if (!world) throw notFound(RESOURCE.statefulset, name);
  const sts = world.statefulSet;
  return {
    resource: STATEFULSET_RESOURCE,
    name,
    shown: shownStatefulSet(name),
    resourceVersion: sts.metadata.resourceVersion ?? '',
    revisions: controlledRevisions(sts, world.revisions),
    liveData: newRevision(sts, 0, 0).data,
    templateAt: (r) => applyRevision(sts, r).spec.template,
  };
}

/** Lists the set's revisions, or with `revision` > 0 prints that revision's pod template as YAML. */
export async function statefulSetHistory(
  io: CliIO,
  conn: Connection,
  name: string,
  revision: number,
): Promise<void> {
  printHistory(io, await statefulSetRevisions(conn, name), revision);
}

/**
 * Rolls back to `toRevision` (0: the revision before the newest), as ./revisionCommands.ts `rollBack`.
 * @throws CliError `no latest revision to roll back to` (kubectl-kruise's words for a set with one revision), or
 *   what `rollBack` throws
 */
export async function undoStatefulSet(
  io: CliIO,
  conn: Connection,
  name: string,
  toRevision: number,
): Promise<void> {
  const history = await statefulSetRevisions(conn, name);
  if (toRevision === 0 && history.revisions.length <= 1)
    throw new CliError('no latest revision to roll back to');
  await rollBack(io, conn, history, toRevision);
}
