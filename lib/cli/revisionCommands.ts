/**
 * `rollout history` and `rollout undo` over a workload's template revisions (docs/cli.md#rollout-history-and-undo),
 * one implementation for every kind whose ControllerRevisions record `{"spec":{"template":{…,"$patch":"replace"}}}`
 * (CloneSet, Advanced StatefulSet, Advanced DaemonSet): kubectl-kruise's `printHistory` and its rollbackers'
 * skip-or-restore. Each kind supplies its revisions, the revision data of its live template and how it reads a
 * revision's template ({@link TemplateHistory}); the kind's own rules (OpenKruise's `ApplyRevision`, hashing) stay in
 * lib/controllers.
 */
import { stringify } from 'yaml';
import type { ControllerRevision, JsonValue, PodTemplateSpec } from '../api/types.js';
import type { KubeObject, Resource } from '../kube/types.js';
import { templateOf } from '../podset/inplace/spec.js';
import { patchWorkload } from './calls.js';
import type { Connection } from './connect.js';
import { findRevision, historyTable, sameRevisionData, templatePatchValue } from './history.js';
import { CliError, type CliIO } from './io.js';

/** One workload's revision history, as `rollout history` and `undo` read it. */
export interface TemplateHistory<T extends KubeObject> {
  /** The workload's resource (the undo patch goes there). */
  resource: Resource<T>;
  name: string;
  /** How the lines name it: kubectl's `<kind>.<group>/<name>`. */
  shown: string;
  /** Its resourceVersion when read: the undo patch's precondition. */
  resourceVersion: string;
  /** The revisions it controls, ascending by number (./history.ts `controlledRevisions`). */
  revisions: readonly ControllerRevision[];
  /** The revision `data` its live template would get: an undo to an equal revision is skipped. */
  liveData: JsonValue | undefined;
  /** The pod template `revision` records (the kind's `ApplyRevision`). */
  templateAt(revision: ControllerRevision): PodTemplateSpec;
}

/**
 * The template a template revision records, without its `$patch` marker; `current` when the data holds none (a
 * revision written by something else).
 */
export function recordedTemplate(revision: ControllerRevision, current: PodTemplateSpec): PodTemplateSpec {
  const tpl = templateOf(revision) as (PodTemplateSpec & { $patch?: string }) | undefined;
  if (!tpl) return current;
  delete tpl.$patch;
  return tpl;
}

/**
 * Prints the `REVISION  CHANGE-CAUSE` table under `<shown> `, or with `revision` > 0 `<shown> with revision #N` and
 * that revision's pod template as YAML.
 * @throws CliError `unable to find the specified revision` (kubectl-kruise's words) when `revision` is not listed
 */
export function printHistory<T extends KubeObject>(
  io: CliIO,
  history: TemplateHistory<T>,
  revision: number,
): void {
  if (revision > 0) {
    const found = history.revisions.find((r) => r.revision === revision);
    if (!found) throw new CliError('unable to find the specified revision');
    io.out(`${history.shown} with revision #${revision}\n`);
    io.out(stringify({ template: history.templateAt(found) }));
    return;
  }
  io.out(`${history.shown} \n${historyTable(history.revisions)}\n`);
}

/**
 * Rolls back to `toRevision` (0: the revision before the newest): replaces `spec.template` with the revision's
 * template by a JSON patch conditioned on the read resourceVersion, and prints `<shown> rolled back`; prints
 * `<shown> skipped rollback (current template already matches revision N)` when the live template already is
 * that revision. (kubectl-kruise merge-patches the revision's data instead, which keeps fields a newer template
 * added.)
 * @throws CliError from ./history.ts `findRevision` (`no last revision to roll back to`, `unable to find specified
 *   revision N in history`); KubeApiError (Invalid) when the workload changed since it was read
 */
export async function rollBack<T extends KubeObject>(
  io: CliIO,
  conn: Connection,
  history: TemplateHistory<T>,
  toRevision: number,
): Promise<void> {
  const target = findRevision(history.revisions, toRevision);
  if (sameRevisionData(history.liveData, target.data)) {
    io.out(`${history.shown} skipped rollback (current template already matches revision ${toRevision})\n`);
    return;
  }
  const template = templatePatchValue(history.templateAt(target));
  await patchWorkload(
    conn,
    history.resource,
    history.name,
    [{ op: 'replace', path: '/spec/template', value: template }],
    { resourceVersion: history.resourceVersion },
  );
  io.out(`${history.shown} rolled back\n`);
}
