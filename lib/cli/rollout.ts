/**
 * `kruiseless rollout status|pause|resume|undo|history` (docs/cli.md#rollout), with kubectl-kruise's semantics and
 * words: pause and resume set `spec.updateStrategy.paused`; undo copies a ControllerRevision's template into the
 * CloneSet; history lists the revisions with their CHANGE-CAUSE; status follows the rollout until it is complete.
 */
import { isDeepStrictEqual } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import { stringify } from 'yaml';
import { checkCloneSet } from '../controllers/cloneset/api/check.js';
import { CLONESET_KIND } from '../controllers/cloneset/api/kinds.js';
import type { CloneSet, JsonValue } from '../api/types.js';
import { applyRevision, newRevision } from '../controllers/cloneset/plan/index.js';
import { noExpectations } from '../reconcile/pods/observeExpectations.js';
import { readWorld } from '../controllers/cloneset/pass.js';
import { patchCloneSet } from './calls.js';
import { cloneSetName, connect, type Connection, type ConnectionOptions } from './connect.js';
import { parseDuration } from './duration.js';
import { controlledRevisions, findRevision, historyTable } from './history.js';
import { CliError, RESOURCE, notFound, runCommand, type CliIO } from './io.js';
import { addConnectionOptions } from './options.js';
import { rolloutStatus } from './statusView.js';
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
 * GET the CloneSet named by a `NAME` or `TYPE/NAME` argument.
 * @throws CliError for another type or when it does not exist
 */
async function getCloneSet(conn: Connection, arg: string): Promise<CloneSet> {
  const name = cloneSetName(arg);
  const cs = await conn.kube.get(CLONESET_RESOURCE, { namespace: conn.namespace, name });
  if (!cs) throw notFound(RESOURCE.cloneset, name);
  return cs;
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
  const conn = connect(opts, io);
  const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Infinity;
  let last = '';
  for (;;) {
    const s = rolloutStatus(await getCloneSet(conn, arg));
    if (s.message !== last) io.out(`${s.message}\n`);
    last = s.message;
    if (s.done || !opts.watch) return 0;
    if (Date.now() + intervalMs > deadline) {
      await sleep(Math.max(0, deadline - Date.now()));
      const final = rolloutStatus(await getCloneSet(conn, arg));
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
  const conn = connect(opts, io);
  const cs = await getCloneSet(conn, arg);
  const name = cs.metadata.name ?? '';
  if (!!cs.spec.updateStrategy?.paused === paused) {
    throw new CliError(`${RESOURCE.cloneset} "${name}" ${paused ? 'is already paused' : 'is not paused'}`);
  }
  await patchCloneSet(conn, name, { spec: { updateStrategy: { paused } } });
  io.out(`${shown(name)} ${paused ? 'paused' : 'resumed'}\n`);
}

/** A JSON round trip (drops undefined fields), for comparing what we build with what the API server sent. */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

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
  const conn = connect(opts, io);
  const name = cloneSetName(arg);
  const world = await readCloneSetWorld(conn, name);
  const target = findRevision(controlledRevisions(world.cloneSet, world.revisions), toRevision);
  const live = newRevision(checkCloneSet(world.cloneSet).cloneSet, 0, 0);
  if (isDeepStrictEqual(plain(live.data), plain(target.data))) {
    io.out(`${shown(name)} skipped rollback (current template already matches revision ${toRevision})\n`);
    return;
  }
  const template = applyRevision(world.cloneSet, target).spec.template as unknown as Record<
    string,
    JsonValue
  >;
  const metadata = template.metadata;
  if (
    metadata &&
    typeof metadata === 'object' &&
    !Array.isArray(metadata) &&
    metadata.creationTimestamp === null
  ) {
    delete metadata.creationTimestamp;
  }
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
  const conn = connect(opts, io);
  const name = cloneSetName(arg);
  const world = await readCloneSetWorld(conn, name);
  const revisions = controlledRevisions(world.cloneSet, world.revisions);
  const revision = Number(opts.revision);
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
    .description('manage the rollout of a CloneSet (as kubectl-kruise rollout)');

  addConnectionOptions(
    rollout
      .command('status <cloneset>')
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
    rollout.command('pause <cloneset>').description('pause the rollout (spec.updateStrategy.paused=true)'),
  ).action((arg: string, opts: ConnectionOptions) => runCommand(io, () => setPaused(io, arg, opts, true)));

  addConnectionOptions(rollout.command('resume <cloneset>').description('resume a paused rollout')).action(
    (arg: string, opts: ConnectionOptions) => runCommand(io, () => setPaused(io, arg, opts, false)),
  );

  addConnectionOptions(
    rollout.command('undo <cloneset>').description("roll back to a previous revision's pod template"),
  )
    .option('--to-revision <n>', 'the revision to roll back to (0 = the previous one)', '0')
    .action((arg: string, opts: ConnectionOptions & { toRevision: string }) =>
      runCommand(io, () => undo(io, arg, opts)),
    );

  addConnectionOptions(
    rollout.command('history <cloneset>').description('list the revisions with their CHANGE-CAUSE'),
  )
    .option('--revision <n>', "print this revision's pod template", '0')
    .action((arg: string, opts: ConnectionOptions & { revision: string }) =>
      runCommand(io, () => history(io, arg, opts)),
    );
}
