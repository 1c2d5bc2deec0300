/**
 * `kruiseless rollout` on an Advanced StatefulSet (docs/cli.md#rollout): the set's GET, pause and resume
 * (`spec.updateStrategy.rollingUpdate.paused`, which the Advanced StatefulSet controller honours; kubectl-kruise v1.2.2
 * pauses Deployments, CloneSets and Rollouts only), history and undo over the set's ControllerRevisions as
 * kubectl-kruise reads them (`advancedstsHistory`, `AdvancedStatefulSetRollbacker`), with the set's own revision
 * rules (lib/controllers/statefulset/plan/revision.ts).
 */
import { stringify } from 'yaml';
import { readWorld } from '../controllers/statefulset/pass.js';
import { applyRevision, newRevision } from '../controllers/statefulset/plan/revision.js';
import { STATEFULSET_KIND, STATEFULSET_RESOURCE } from '../controllers/statefulset/api/resource.js';
import type { StatefulSet } from '../controllers/statefulset/api/types.js';
import { patchWorkload } from './calls.js';
import type { Connection } from './connect.js';
import {
  controlledRevisions,
  findRevision,
  historyTable,
  sameRevisionData,
  templatePatchValue,
} from './history.js';
import { CliError, notFound, RESOURCE, type CliIO } from './io.js';

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
 * @throws CliError `… is already paused` / `… is not paused` (kubectl-kruise's words for a CloneSet) when it already
 *   has that value, or `… has updateStrategy OnDelete: there is no rollout to pause` for an OnDelete set
 */
export async function setStatefulSetPaused(
  io: CliIO,
  conn: Connection,
  name: string,
  paused: boolean,
): Promise<void> {
  const sts = await getStatefulSet(conn, name);
  if (sts.spec.updateStrategy?.type === 'OnDelete') {
    throw new CliError(
      `${RESOURCE.statefulset} "${name}" has updateStrategy OnDelete: there is no rollout to pause`,
    );
  }
  if (!!sts.spec.updateStrategy?.rollingUpdate?.paused === paused) {
    throw new CliError(`${RESOURCE.statefulset} "${name}" ${paused ? 'is already paused' : 'is not paused'}`);
  }
  await patchWorkload(conn, STATEFULSET_RESOURCE, name, {
    spec: { updateStrategy: { rollingUpdate: { paused } } },
  });
  io.out(`${shownStatefulSet(name)} ${paused ? 'paused' : 'resumed'}\n`);
}

/**
 * The set `name` and the ControllerRevisions it controls, ascending by revision number.
 * @throws CliError (not found) when there is no such set
 */
async function setWithRevisions(conn: Connection, name: string) {
  const world = await readWorld(
    conn.kube,
    { cluster: '', kind: STATEFULSET_KIND, namespace: conn.namespace, name },
    'selector',
    false,
  );
  if (!world) throw notFound(RESOURCE.statefulset, name);
  return { sts: world.statefulSet, revisions: controlledRevisions(world.statefulSet, world.revisions) };
}

/** Lists the set's revisions, or with `revision` > 0 prints that revision's pod template as YAML. */
export async function statefulSetHistory(
  io: CliIO,
  conn: Connection,
  name: string,
  revision: number,
): Promise<void> {
  const { sts, revisions } = await setWithRevisions(conn, name);
  if (revision > 0) {
    const found = revisions.find((r) => r.revision === revision);
    if (!found) throw new CliError('unable to find the specified revision');
    io.out(`${shownStatefulSet(name)} with revision #${revision}\n`);
    io.out(stringify({ template: applyRevision(sts, found).spec.template }));
    return;
  }
  io.out(`${shownStatefulSet(name)} \n${historyTable(revisions)}\n`);
}

/**
 * Rolls back to `toRevision` (0: the revision before the newest): replaces `spec.template` with the revision's
 * template, conditioned on the set's resourceVersion (kubectl-kruise merge-patches the revision's data instead, which
 * keeps fields the newer template added). Skipped when the live template already is that revision.
 * @throws CliError `no latest revision to roll back to` (kubectl-kruise's words for a set with one revision) or
 *   `unable to find specified revision <n> in history`; KubeApiError (Invalid) when the set changed meanwhile
 */
export async function undoStatefulSet(
  io: CliIO,
  conn: Connection,
  name: string,
  toRevision: number,
): Promise<void> {
  const { sts, revisions } = await setWithRevisions(conn, name);
  if (toRevision === 0 && revisions.length <= 1) throw new CliError('no latest revision to roll back to');
  const target = findRevision(revisions, toRevision);
  if (sameRevisionData(newRevision(sts, 0, 0), target)) {
    io.out(
      `${shownStatefulSet(name)} skipped rollback (current template already matches revision ${toRevision})\n`,
    );
    return;
  }
  const template = templatePatchValue(applyRevision(sts, target).spec.template);
  await patchWorkload(
    conn,
    STATEFULSET_RESOURCE,
    name,
    [{ op: 'replace', path: '/spec/template', value: template }],
    {
      resourceVersion: sts.metadata.resourceVersion ?? '',
    },
  );
  io.out(`${shownStatefulSet(name)} rolled back\n`);
}
