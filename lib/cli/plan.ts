/**
 * `kruiseless plan <cloneset>` (docs/cli.md#plan): what the next reconcile pass would do and why, read-only. The
 * inputs are read by the reconciler's own read path ({@link previewPass}); the state table (expectations,
 * scale-down ledger) only when named, else they count as empty and the report says so.
 */
import type { Command } from 'commander';
import { CLONESET_KIND } from '../controllers/cloneset/api/kinds.js';
import { systemClock } from '../core/clock.js';
import { previewPass } from '../controllers/cloneset/preview.js';
import { createMemoryStores } from '../state/index.js';
import { connect, openState, type ConnectionOptions, type StateOptions } from './connect.js';
import { cloneSetName } from './target.js';
import { RESOURCE, notFound, runCommand, type CliIO } from './io.js';
import { addConnectionOptions, addStateOptions } from './options.js';
import { placeholderIds, planReport } from './planView.js';

/** Prints the plan of the next pass over the CloneSet. */
async function plan(io: CliIO, arg: string, opts: ConnectionOptions & StateOptions): Promise<void> {
  const conn = connect(opts, io);
  const name = cloneSetName(arg);
  const state = openState(opts, io.env);
  // without a table: the memory stores hold nothing, so expectations and ledger read as empty
  const stores = state ?? { ...createMemoryStores(), cluster: 'local', table: '' };
  const key = { cluster: stores.cluster, kind: CLONESET_KIND, namespace: conn.namespace, name };
  const preview = await previewPass(
    {
      kube: conn.kube,
      expectations: stores.expectations,
      ledger: stores.ledger,
      clock: systemClock,
      newInstanceId: placeholderIds(),
    },
    key,
  );
  if (!preview) throw notFound(RESOURCE.cloneset, name);
  const note = state
    ? `expectations and scale-down ledger from table ${state.table} (cluster ${state.cluster})`
    : 'not read (no --table): expectations and scale-down ledger taken as empty';
  io.out(planReport(preview, note));
}

/** Registers `plan`. */
export function registerPlan(program: Command, io: CliIO): void {
  addStateOptions(
    addConnectionOptions(
      program
        .command('plan <cloneset>')
        .description(
          "what the next reconcile would do and why (read-only: the reconciler's reads, then plan())",
        ),
    ),
  ).action((arg: string, opts: ConnectionOptions & StateOptions) =>
    runCommand(io, () => plan(io, arg, opts)),
  );
}
