/**
 * A workload's rollout history from its ControllerRevisions (docs/cli.md#rollout-history-and-undo), as
 * kubectl-kruise reads a CloneSet's (`clonesetHistory`, `printHistory`, `findHistory`) and kubectl a DaemonSet's:
 * the revisions the workload controls, numbered by their `revision` field, with the `kubernetes.io/change-cause`
 * annotation each revision copied from the workload. The commands over them: ./revisionCommands.ts.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ControllerRevision, JsonValue, ObjectMeta, PodTemplateSpec } from '../api/types.js';
import { CliError } from './io.js';

/** Annotation kubectl reads as CHANGE-CAUSE. */
export const ANNOTATION_CHANGE_CAUSE = 'kubernetes.io/change-cause';

/** The revisions controlled by `owner` (a CloneSet, an Advanced StatefulSet or DaemonSet), ascending by revision number. */
export function controlledRevisions(
  owner: { metadata: ObjectMeta },
  listed: readonly ControllerRevision[],
): ControllerRevision[] {
  return listed
    .filter((r) =>
      (r.metadata.ownerReferences ?? []).some((o) => o.controller && o.uid === owner.metadata.uid),
    )
    .sort((a, b) => a.revision - b.revision);
}

/**
 * The `REVISION  CHANGE-CAUSE` table (kubectl's tabwriter: columns padded to the widest cell plus 2 spaces), or
 * `No rollout history found.` for none. Ends with a newline.
 */
export function historyTable(revisions: readonly ControllerRevision[]): string {
  if (revisions.length === 0) return 'No rollout history found.\n';
  const rows = [
    ['REVISION', 'CHANGE-CAUSE'],
    ...revisions.map((r) => [
      String(r.revision),
      r.metadata.annotations?.[ANNOTATION_CHANGE_CAUSE] || '<none>',
    ]),
  ];
  const width = Math.max(...rows.map((r) => (r[0] ?? '').length)) + 2;
  return rows.map(([rev, cause]) => `${(rev ?? '').padEnd(width)}${cause ?? ''}\n`).join('');
}

/**
 * The revision to roll back to: `toRevision` itself, or for 0 the one before the newest.
 * @throws CliError `no last revision to roll back to` (0 with fewer than two revisions) or
 *   `unable to find specified revision <n> in history`
 */
export function findRevision(
  revisions: readonly ControllerRevision[],
  toRevision: number,
): ControllerRevision {
  if (toRevision < 0) throw new CliError(`unable to find specified revision ${toRevision} in history`);
  if (toRevision === 0) {
    if (revisions.length <= 1) throw new CliError('no last revision to roll back to');
    return revisions[revisions.length - 2];
  }
  const found = revisions.find((r) => r.revision === toRevision);
  if (!found) throw new CliError(`unable to find specified revision ${toRevision} in history`);
  return found;
}

/**
 * A revision's pod template as the value of a JSON patch `replace` of `/spec/template`: without the
 * `metadata.creationTimestamp: null` a Go-encoded template carries (the API server would keep it as written).
 */
export function templatePatchValue(template: PodTemplateSpec): Record<string, JsonValue> {
  const value = structuredClone(template) as unknown as Record<string, JsonValue>;
  const metadata = value.metadata;
  if (
    metadata &&
    typeof metadata === 'object' &&
    !Array.isArray(metadata) &&
    metadata.creationTimestamp === null
  ) {
    delete metadata.creationTimestamp;
  }
  return value;
}

/** Whether two revisions' `data` are the same (a JSON round trip first: undefined fields dropped, as the API server sends). */
export function sameRevisionData(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v ?? null)) as unknown;
  return isDeepStrictEqual(plain(a), plain(b));
}
