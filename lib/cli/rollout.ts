/**
 * `kruiseless rollout status|pause|resume|undo|history` (docs/cli.md#rollout) on a CloneSet, an Advanced
 * StatefulSet or an Advanced DaemonSet (./target.ts), with kubectl-kruise's semantics and words (kubectl's for a
 * DaemonSet, which kubectl-kruise has no status viewer for): pause and resume set the update strategy's `paused`;
 * undo copies a ControllerRevision's template into the workload; history lists the revisions with their
 * CHANGE-CAUSE; status follows the rollout until it is complete. Each kind's commands are one {@link KindCommands}
 * entry, from ./rolloutCloneSet.ts, ./rolloutStatefulSet.ts and ./rolloutDaemonSet.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import { connect, type Connection, type ConnectionOptions } from './connect.js';
import { parseDuration } from './duration.js';
import { CliError, runCommand, type CliIO } from './io.js';
import { addConnectionOptions } from './options.js';
import { daemonSetHistory, daemonSetStatus, setDaemonSetPaused, undoDaemonSet } from './rolloutDaemonSet.js';
import {
  getStatefulSet,
  setStatefulSetPaused,
  statefulSetHistory,
  undoStatefulSet,
} from './rolloutStatefulSet.js';
import { printHistory, rollBack } from './revisionCommands.js';
import { cloneSetRevisions, getCloneSet, setCloneSetPaused } from './rolloutCloneSet.js';
import { rolloutStatus, statefulSetRolloutStatus, type RolloutStatus } from './statusView.js';
import { rolloutTarget, type RolloutKind } from './target.js';

/** Options of `rollout status`. */
interface StatusOptions extends ConnectionOptions {
  timeout: string;
  watch: boolean;
  /** Poll interval, ms (hidden; tests). */
  interval: string;
}

/** What `rollout` does on one kind: each subcommand on the workload `name` of the connection's namespace. */
interface KindCommands {
  /** One look at the rollout: GET the workload and word its status. */
  status(conn: Connection, name: string): Promise<RolloutStatus>;
  setPaused(io: CliIO, conn: Connection, name: string, paused: boolean): Promise<void>;
  history(io: CliIO, conn: Connection, name: string, revision: number): Promise<void>;
  undo(io: CliIO, conn: Connection, name: string, toRevision: number): Promise<void>;
}

/** Each kind's `rollout` commands. */
const KINDS: Readonly<Record<RolloutKind, KindCommands>> = {
  cloneset: {
    status: async (conn, name) => rolloutStatus(await getCloneSet(conn, name)),
    setPaused: setCloneSetPaused,
    history: async (io, conn, name, revision) =>
      printHistory(io, await cloneSetRevisions(conn, name), revision),
    undo: async (io, conn, name, toRevision) =>
      rollBack(io, conn, await cloneSetRevisions(conn, name), toRevision),
  },
  statefulset: {
    status: async (conn, name) => statefulSetRolloutStatus(await getStatefulSet(conn, name)),
    setPaused: setStatefulSetPaused,
    history: statefulSetHistory,
    undo: undoStatefulSet,
  },
  daemonset: {
    status: daemonSetStatus,
    setPaused: setDaemonSetPaused,
    history: daemonSetHistory,
    undo: undoDaemonSet,
  },
};

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
  const { kind, name } = rolloutTarget(arg);
  const conn = connect(opts, io);
  const lookAt = () => KINDS[kind].status(conn, name);
  const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Infinity;
  let last = '';
  for (;;) {
    const s = await lookAt();
    if (s.message !== last) io.out(`${s.message}\n`);
    last = s.message;
    if (s.done || !opts.watch) return 0;
    if (Date.now() + intervalMs > deadline) {
      await sleep(Math.max(0, deadline - Date.now()));
      const final = await lookAt();
      if (final.done) {
        if (final.message !== last) io.out(`${final.message}\n`);
        return 0;
      }
      throw new CliError('timed out waiting for the condition');
    }
    await sleep(intervalMs);
  }
}

/** Sets the workload's `paused` to `paused`; fails like kubectl-kruise when it already has that value. */
async function setPaused(io: CliIO, arg: string, opts: ConnectionOptions, paused: boolean): Promise<void> {
  const { kind, name } = rolloutTarget(arg);
  await KINDS[kind].setPaused(io, connect(opts, io), name, paused);
}

/**
 * Rolls back to `--to-revision` (default: the revision before the newest): replaces `spec.template` with the
 * revision's template, conditioned on the workload's resourceVersion. Skipped when the live template already is
 * that revision.
 */
async function undo(io: CliIO, arg: string, opts: ConnectionOptions & { toRevision: string }): Promise<void> {
  const toRevision = Number(opts.toRevision);
  if (!Number.isInteger(toRevision)) throw new CliError(`invalid --to-revision "${opts.toRevision}"`);
  const { kind, name } = rolloutTarget(arg);
  await KINDS[kind].undo(io, connect(opts, io), name, toRevision);
}

/** Lists the revisions, or with `--revision N` prints that revision's pod template as YAML. */
async function history(
  io: CliIO,
  arg: string,
  opts: ConnectionOptions & { revision: string },
): Promise<void> {
  const { kind, name } = rolloutTarget(arg);
  await KINDS[kind].history(io, connect(opts, io), name, Number(opts.revision));
}

/** Registers `rollout` and its subcommands on `program`. */
export function registerRollout(program: Command, io: CliIO): void {
  const rollout = program
    .command('rollout')
    .description(
      'manage the rollout of a CloneSet, an Advanced StatefulSet or an Advanced DaemonSet (as kubectl-kruise rollout): NAME (a CloneSet) or TYPE/NAME, e.g. asts/web, ds/agent (ds and daemonset mean the Advanced DaemonSet here, apps.kruise.io/v1beta1, not apps/v1)',
    );

  addConnectionOptions(
    rollout
      .command('status <workload>')
      .description(
        'follow the rollout until it is complete; exit 1 on timeout or exceeded progress deadline. An Advanced DaemonSet (kubectl\'s DaemonSet lines) is complete once desiredNumberScheduled − partition pods are updated and all are available; a paused one is not complete: status keeps waiting, its line ending "(paused)..."',
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
        'pause the rollout (updateStrategy.paused; rollingUpdate.paused for an Advanced StatefulSet or DaemonSet)',
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
