/**
 * `kruiseless rollout` on an Advanced DaemonSet (`apps.kruise.io/v1beta1`; docs/cli.md#rollout): the DaemonSet's
 * GET, pause and resume (`spec.updateStrategy.rollingUpdate.paused`, which OpenKruise's `isDaemonSetPaused` reads;
 * kubectl-kruise v1.2.2 pauses no DaemonSet; ./pauseRollingUpdate.ts), and history and undo over the
 * ControllerRevisions the DaemonSet controls, as kubectl-kruise v1.2.2 reads them (`advancedDaemonSetHistory`,
 * `AdvancedDaemonSetRollbacker`, on v1alpha1) and kubectl a DaemonSet's (./revisionCommands.ts), with the
 * controller's revision data
 * (lib/controllers/daemonset/plan/revision.ts). The status line: ./statusDaemonSetView.ts, with the nodes and the
 * DaemonSet's pods read for it under `rollingUpdate.selector`.
 */
import { withDefaults } from '../controllers/daemonset/api/defaults.js';
import { DAEMONSET_RESOURCE } from '../controllers/daemonset/api/resource.js';
import type { DaemonSet } from '../controllers/daemonset/api/types.js';
import { listAll, LIST_PAGE_SIZE } from '../kube/list.js';
import { RESOURCES } from '../kube/resources.js';
import { controllerRef } from '../podset/ownership.js';
import { templateRevisionData } from '../podset/revision/templateData.js';
import type { Connection } from './connect.js';
import { controlledRevisions } from './history.js';
import { notFound, RESOURCE, type CliIO } from './io.js';
import { setRollingUpdatePaused } from './pauseRollingUpdate.js';
import { printHistory, recordedTemplate, rollBack, type TemplateHistory } from './revisionCommands.js';
import type { RolloutStatus } from './statusView.js';
import { daemonSetRolloutStatus, needsNodeScope } from './statusDaemonSetView.js';

/** How `rollout` names an Advanced DaemonSet in its lines (kubectl's `<kind>.<group>/<name>`). */
export const shownDaemonSet = (name: string): string => `daemonset.apps.kruise.io/${name}`;

/**
 * GET the Advanced DaemonSet `name` of the connection's namespace.
 * @throws CliError (kubectl's NotFound line) when it does not exist; KubeApiError for other failures
 */
export async function getDaemonSet(conn: Connection, name: string): Promise<DaemonSet> {
  const ds = await conn.kube.get(DAEMONSET_RESOURCE, { namespace: conn.namespace, name });
  if (!ds) throw notFound(RESOURCE.daemonset, name);
  return ds;
}

/**
 * The status line of the DaemonSet `name` (./statusDaemonSetView.ts): one GET, and under `rollingUpdate.selector`
 * also a LIST of the nodes and of the namespace's pods (those the DaemonSet controls kept), in pages of 500.
 * @throws CliError (not found, OnDelete); KubeApiError when a read fails
 */
export async function daemonSetStatus(conn: Connection, name: string): Promise<RolloutStatus> {
  const ds = await getDaemonSet(conn, name);
  if (!needsNodeScope(ds)) return daemonSetRolloutStatus(ds);
  const uid = ds.metadata.uid ?? '';
  const [nodes, pods] = await Promise.all([
    listAll(conn.kube, RESOURCES.nodes, { limit: LIST_PAGE_SIZE }),
    listAll(
      conn.kube,
      RESOURCES.pods,
      { namespace: conn.namespace, limit: LIST_PAGE_SIZE },
      (p) => controllerRef(p.metadata.ownerReferences)?.uid === uid,
    ),
  ]);
  return daemonSetRolloutStatus(ds, { nodes: nodes.items, pods: pods.items });
}

/**
 * Sets `spec.updateStrategy.rollingUpdate.paused` to `paused` and prints `daemonset.apps.kruise.io/<name> paused`
 * (or `resumed`).
 * @throws CliError as ./pauseRollingUpdate.ts `setRollingUpdatePaused` (not found, already in that state, OnDelete)
 */
export function setDaemonSetPaused(
  io: CliIO,
  conn: Connection,
  name: string,
  paused: boolean,
): Promise<void> {
  const target = {
    resource: DAEMONSET_RESOURCE,
    resourceName: RESOURCE.daemonset,
    shown: shownDaemonSet(name),
    name,
  };
  return setRollingUpdatePaused(io, conn, target, paused);
}

/**
 * The DaemonSet `name`'s revision history: the namespace's ControllerRevisions it controls (by owner reference, as
 * kubectl's `controlledHistory`), and the data its live template's revision would hold — the controller's
 * `{"spec":{"template":…}}` of the template with OpenKruise's webhook defaults, which decides which revision is
 * current.
 * @throws CliError (not found) when there is no such DaemonSet; KubeApiError when a read fails
 */
async function daemonSetRevisions(conn: Connection, name: string): Promise<TemplateHistory<DaemonSet>> {
  const ds = await getDaemonSet(conn, name);
  const listed = await listAll(conn.kube, RESOURCES.controllerrevisions, {
    namespace: conn.namespace,
    limit: LIST_PAGE_SIZE,
  });
  return {
    resource: DAEMONSET_RESOURCE,
    name,
    shown: shownDaemonSet(name),
    resourceVersion: ds.metadata.resourceVersion ?? '',
    revisions: controlledRevisions(ds, listed.items),
    liveData: templateRevisionData(withDefaults(ds).spec.template),
    templateAt: (r) => recordedTemplate(r, ds.spec.template),
  };
}

/**
 * Lists the DaemonSet's revisions, or with `revision` > 0 prints that revision's pod template as YAML.
 * @throws CliError not found, or `unable to find the specified revision`
 */
export async function daemonSetHistory(
  io: CliIO,
  conn: Connection,
  name: string,
  revision: number,
): Promise<void> {
  printHistory(io, await daemonSetRevisions(conn, name), revision);
}

/**
 * Rolls back to `toRevision` (0: the revision before the newest), as ./revisionCommands.ts `rollBack`; the
 * controller then renumbers the revision that came back, as for kubectl's DaemonSets.
 * @throws CliError not found, `no last revision to roll back to` (kubectl's words for a DaemonSet), `unable to find
 *   specified revision N in history`; KubeApiError when the DaemonSet changed since it was read
 */
export async function undoDaemonSet(
  io: CliIO,
  conn: Connection,
  name: string,
  toRevision: number,
): Promise<void> {
  await rollBack(io, conn, await daemonSetRevisions(conn, name), toRevision);
}
