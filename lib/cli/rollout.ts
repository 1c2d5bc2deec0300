/**
 * `kruiseless rollout status|pause|resume|undo|history` (docs/cli.md#rollout) on a CloneSet or an Advanced
 * StatefulSet (./target.ts), with kubectl-kruise's semantics and words: pause and resume set the update strategy's
 * `paused`; undo copies a ControllerRevision's template into the workload; history lists the revisions with their
 * CHANGE-CAUSE; status follows the rollout until it is complete. The Advanced StatefulSet's side: ./rolloutStatefulSet.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import { stringify } from 'yaml';
import { checkCloneSet } from '../controllers/cloneset/api/check.js';
import { CLONESET_KIND } from '../controllers/cloneset/api/kinds.js';
import type { CloneSet } from '../api/types.js';
import { applyRevision, newRevision } from '../controllers/cloneset/plan/index.js';
import { noExpectations } from '../reconcile/pods/observeExpectations.js';
import { readWorld } from '../controllers/cloneset/pass.js';
import { patchCloneSet } from './calls.js';
import { connect, type Connection, type ConnectionOptions } from './connect.js';
import { parseDuration } from './duration.js';
import {
  controlledRevisions,
  findRevision,
  historyTable,
  sameRevisionData,
  templatePatchValue,
} from './history.js';
import { CliError, RESOURCE, notFound, runCommand, type CliIO } from './io.js';
import { addConnectionOptions } from './options.js';
import {
  getStatefulSet,
  setStatefulSetPaused,
  statefulSetHistory,
  undoStatefulSet,
} from './rolloutStatefulSet.js';
import { rolloutStatus, statefulSetRolloutStatus, type RolloutStatus } from './statusView.js';
import { rolloutTarget, type RolloutTarget } from './target.js';
import { CLONESET_RESOURCE } from '../controllers/cloneset/api/resource.js';

/** How `rollout` names a CloneSet in its success lines (kubectl's `<kind>.<group>/<name>`). */
const shown = (name: string): string => `cloneset.apps.kruise.io/${name}`;

/** Options of `rollout status`. */
interface StatusOptions extends ConnectionOptions {
  timeout: string;
  watch: boolean;
  /** Poll interval, ms (hidden; tests). */
  interval: string;
}

/**
 * GET the CloneSet `name`.
 * @throws CliError when it does not exist
 */
async function getCloneSet(conn: Connection, name: string): Promise<CloneSet> {
  const cs = await conn.kube.get(CLONESET_RESOURCE, { namespace: conn.namespace, name });
  if (!cs) throw notFound(RESOURCE.cloneset, name);
  return cs;
}

/** One look at the rollout of `target`: GET it and word its status. */
async function lookAt(conn: Connection, target: RolloutTarget): Promise<RolloutStatus> {
  return target.kind === 'cloneset'
    ? rolloutStatus(await getCloneSet(conn, target.name))
    : statefulSetRolloutStatus(await getStatefulSet(conn, target.name));
}

/** `true`/`false` of a `--watch=<bool>` flag (kubectl's boolean syntax). */
function parseBool(value: string): boolean {
  if (['true', '1', 't', 'TRUE', 'True'].includes(value)) return true;
  if (['false', '0', 'f', 'FALSE', 'False'].includes(value)) return false;
  throw new CliError(`invalid boolean "${value}"`);
}

/**
 * Follows the rollout: prints the status line whenever it changes, until it is complete (exit 0), the timeout
 * passes (`timed out waiting for the condition`, exit 1) or the deadline is exceeded (exit 1). Without watching,
 * prints the line once and exits 0.
 */
async function status(io: CliIO, arg: string, opts: StatusOptions): Promise<number> {
  const timeoutMs = parseDuration(opts.timeout);
  const intervalMs = Number(opts.interval);
  const target = rolloutTarget(arg);
  const conn = connect(opts, io);
  const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Infinity;
  let last = '';
  for (;;) {
    const s = await lookAt(conn, target);
    if (s.message !== last) io.out(`${s.message}\n`);
    last = s.message;
    if (s.done || !opts.watch) return 0;
    if (Date.now() + intervalMs > deadline) {
      await sleep(Math.max(0, deadline - Date.now()));
      const final = await lookAt(conn, target);
      if (final.done) {
        if (final.message !== last) io.out(`${final.message}\n`);
        return 0;
      }
      throw new CliError('timed out waiting for the condition');
    }
    await sleep(intervalMs);
  }
}

/** Sets `spec.updateStrategy.paused` to `paused`; fails like kubectl-kruise when it already has that value. */
async function setPaused(io: CliIO, arg: string, opts: ConnectionOptions, paused: boolean): Promise<void> {
  const target = rolloutTarget(arg);
  const conn = connect(opts, io);
  if (target.kind === 'statefulset') return setStatefulSetPaused(io, conn, target.name, paused);
  const cs = await getCloneSet(conn, target.name);
  const name = cs.metadata.name ?? '';
  if (!!cs.spec.updateStrategy?.paused === paused) {
    throw new CliError(`${RESOURCE.cloneset} "${name}" ${paused ? 'is already paused' : 'is not paused'}`);
  }
  await patchCloneSet(conn, name, { spec: { updateStrategy: { paused } } });
  io.out(`${shown(name)} ${paused ? 'paused' : 'resumed'}\n`);
}

/**
 * The CloneSet `name` with its pods (by selector) and revisions, read as a timer pass of the reconciler reads them.
 * @throws CliError (not found) when there is no such CloneSet
 */
async function readCloneSetWorld(conn: ReturnType<typeof connect>, name: string) {
  const world = await readWorld(
    conn.kube,
    { cluster: '', kind: CLONESET_KIND, namespace: conn.namespace, name },
    'selector',
    noExpectations(),
  );
  if (!world) throw notFound(RESOURCE.cloneset, name);
  return world;
}

/**
 * Rolls back to `--to-revision` (default: the revision before the newest): replaces `spec.template` with the
 * revision's template, conditioned on the CloneSet's resourceVersion. Skipped when the live template already is
 * that revision.
 */
async function undo(io: CliIO, arg: string, opts: ConnectionOptions & { toRevision: string }): Promise<void> {
  const toRevision = Number(opts.toRevision);
  if (!Number.isInteger(toRevision)) throw new CliError(`invalid --to-revision "${opts.toRevision}"`);
  const { kind, name } = rolloutTarget(arg);
  const conn = connect(opts, io);
  if (kind === 'statefulset') return undoStatefulSet(io, conn, name, toRevision);
  const world = await readCloneSetWorld(conn, name);
  const target = findRevision(controlledRevisions(world.cloneSet, world.revisions), toRevision);
  const live = newRevision(checkCloneSet(world.cloneSet).cloneSet, 0, 0);
  if (sameRevisionData(live, target)) {
    io.out(`${shown(name)} skipped rollback (current template already matches revision ${toRevision})\n`);
    return;
  }
  const template = templatePatchValue(applyRevision(world.cloneSet, target).spec.template);
  await patchCloneSet(conn, name, [{ op: 'replace', path: '/spec/template', value: template }], {
    resourceVersion: world.cloneSet.metadata.resourceVersion ?? '',
  });
  io.out(`${shown(name)} rolled back\n`);
}

/** Lists the revisions, or with `--revision N` prints that revision's pod template as YAML. */
async function history(
  io: CliIO,
  arg: string,
  opts: ConnectionOptions & { revision: string },
): Promise<void> {
  const { kind, name } = rolloutTarget(arg);
  const conn = connect(opts, io);
  const revision = Number(opts.revision);
  if (kind === 'statefulset') return statefulSetHistory(io, conn, name, revision);
  const world = await readCloneSetWorld(conn, name);
  const revisions = controlledRevisions(world.cloneSet, world.revisions);
  if (revision > 0) {
    const found = revisions.find((r) => r.revision === revision);
    if (!found) throw new CliError('unable to find the specified revision');
    io.out(`${shown(name)} with revision #${revision}\n`);
    io.out(stringify({ template: applyRevision(world.cloneSet, found).spec.template }));
    return;
  }
  io.out(`${shown(name)} \n${historyTable(revisions)}\n`);
}

/** Registers `rollout` and its subcommands on `program`. */
export function registerRollout(program: Command, io: CliIO): void {
  const rollout = program
    .command('rollout')
    .description(
      'manage the rollout of a CloneSet or an Advanced StatefulSet (as kubectl-kruise rollout): NAME (a CloneSet) or TYPE/NAME, e.g. asts/web',
    );

  addConnectionOptions(
    rollout
      .command('status <workload>')
      .description(
        'follow the rollout until it is complete; exit 1 on timeout or exceeded progress deadline',
      ),
  )
    .option('--timeout <duration>', 'give up after this long (Go duration: 30s, 5m, 1h; 0 = never)', '0')
    .option(
      '--watch [bool]',
      'keep watching until the rollout is complete (--watch=false: print once)',
      parseBool,
      true,
    )
    .option('--interval <ms>', 'poll interval in ms', '1000')
    .action((arg: string, opts: StatusOptions) => runCommand(io, () => status(io, arg, opts)));

  addConnectionOptions(
    rollout
      .command('pause <workload>')
      .description(
        'pause the rollout (updateStrategy.paused, rollingUpdate.paused for an Advanced StatefulSet)',
      ),
  ).action((arg: string, opts: ConnectionOptions) => runCommand(io, () => setPaused(io, arg, opts, true)));

  addConnectionOptions(rollout.command('resume <workload>').description('resume a paused rollout')).action(
    (arg: string, opts: ConnectionOptions) => runCommand(io, () => setPaused(io, arg, opts, false)),
  );

  addConnectionOptions(
    rollout.command('undo <workload>').description("roll back to a previous revision's pod template"),
  )
    .option('--to-revision <n>', 'the revision to roll back to (0 = the previous one)', '0')
    .action((arg: string, opts: ConnectionOptions & { toRevision: string }) =>
      runCommand(io, () => undo(io, arg, opts)),
    );

  addConnectionOptions(
    rollout.command('history <workload>').description('list the revisions with their CHANGE-CAUSE'),
  )
    .option('--revision <n>', "print this revision's pod template", '0')
    .action((arg: string, opts: ConnectionOptions & { revision: string }) =>
      runCommand(io, () => history(io, arg, opts)),
    );
}
