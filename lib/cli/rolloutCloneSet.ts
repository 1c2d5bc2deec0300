/**
 * `kruiseless rollout` on a CloneSet (docs/cli.md#rollout), as kubectl-kruise v1.2.2 does it: the CloneSet's GET,
 * pause and resume (`spec.updateStrategy.paused`, `defaultObjectPauser`), and its revision history as
 * kubectl-kruise reads it (`clonesetHistory`) for ./revisionCommands.ts, with the CloneSet's own revision rules
 * (lib/controllers/cloneset/plan). The status line: ./statusView.ts.
 */
import { checkCloneSet } from '../controllers/cloneset/api/check.js';
import { CLONESET_KIND } from '../controllers/cloneset/api/kinds.js';
import { CLONESET_RESOURCE } from '../controllers/cloneset/api/resource.js';
import type { CloneSet } from '../api/types.js';
import { applyRevision, newRevision } from '../controllers/cloneset/plan/index.js';
import { readWorld } from '../controllers/cloneset/pass.js';
import { noExpectations } from '../reconcile/pods/observeExpectations.js';
import { patchCloneSet } from './calls.js';
import type { Connection } from './connect.js';
import { controlledRevisions } from './history.js';
import { CliError, RESOURCE, notFound, type CliIO } from './io.js';
import type { TemplateHistory } from './revisionCommands.js';

/** How `rollout` names a CloneSet in its success lines (kubectl's `<kind>.<group>/<name>`). */
export const shownCloneSet = (name: string): string => `cloneset.apps.kruise.io/${name}`;

/**
 * GET the CloneSet `name` of the connection's namespace.
 * @throws CliError (kubectl's NotFound line) when it does not exist; KubeApiError for other failures
 */
export async function getCloneSet(conn: Connection, name: string): Promise<CloneSet> {
  const cs = await conn.kube.get(CLONESET_RESOURCE, { namespace: conn.namespace, name });
  if (!cs) throw notFound(RESOURCE.cloneset, name);
  return cs;
}

/**
 * Sets a CloneSet's `spec.updateStrategy.paused` to `paused` and prints `cloneset.apps.kruise.io/<name> paused` (or
 * `resumed`).
 * @throws CliError not found, or `clonesets.apps.kruise.io "<name>" is already paused` / `… is not paused`
 *   (kubectl-kruise's words) when it already has that value
 */
export async function setCloneSetPaused(
  io: CliIO,
  conn: Connection,
  name: string,
  paused: boolean,
): Promise<void> {
  const cs = await getCloneSet(conn, name);
  if (!!cs.spec.updateStrategy?.paused === paused) {
    throw new CliError(`${RESOURCE.cloneset} "${name}" ${paused ? 'is already paused' : 'is not paused'}`);
  }
  await patchCloneSet(conn, name, { spec: { updateStrategy: { paused } } });
  io.out(`${shownCloneSet(name)} ${paused ? 'paused' : 'resumed'}\n`);
}

/**
 * The CloneSet `name`'s revision history: its revisions read as a timer pass of the reconciler reads them (by
 * selector), and the data of its live template's revision.
 * @throws CliError (not found) when there is no such CloneSet
 */
export async function cloneSetRevisions(conn: Connection, name: string): Promise<TemplateHistory<CloneSet>> {
  const world = await readWorld(
    conn.kube,
    { cluster: '', kind: CLONESET_KIND, namespace: conn.namespace, name },
    'selector',
    noExpectations(),
  );
  if (!world) throw notFound(RESOURCE.cloneset, name);
  const cs = world.cloneSet;
  return {
    resource: CLONESET_RESOURCE,
    name,
    shown: shownCloneSet(name),
    resourceVersion: cs.metadata.resourceVersion ?? '',
    revisions: controlledRevisions(cs, world.revisions),
    liveData: newRevision(checkCloneSet(cs).cloneSet, 0, 0).data,
    templateAt: (r) => applyRevision(cs, r).spec.template,
  };
}
