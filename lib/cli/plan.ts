/**
 * `kruiseless plan <workload>` (docs/cli.md#plan): what the next reconcile pass would do and why, read-only. The
 * workload is named as for `rollout` (./target.ts): a bare name or `cloneset/<name>` is a CloneSet, `asts/<name>`
 * or `statefulset.apps.kruise.io/<name>` an Advanced StatefulSet (./planStatefulSet.ts), `ds/<name>` an Advanced
 * DaemonSet (./planDaemonSet.ts). The inputs are read by
 * the reconciler's own read path ({@link previewPass}); the state table (expectations, scale-down ledger) only
 * when named, else they count as empty and the report says so.
 */
import type { Command } from 'commander';
import { CLONESET_KIND } from '../controllers/cloneset/api/kinds.js';
import { systemClock } from '../core/clock.js';
import { previewPass } from '../controllers/cloneset/preview.js';
import { createMemoryStores } from '../state/index.js';
import { connect, openState, type ConnectionOptions, type StateOptions } from './connect.js';
import { rolloutTarget } from './target.js';
import { planStatefulSet } from './planStatefulSet.js';
import { planDaemonSet } from './planDaemonSet.js';
import { CliError, RESOURCE, notFound, runCommand, type CliIO } from './io.js';
import { addConnectionOptions, addStateOptions } from './options.js';
import { placeholderIds, planReport } from './planView.js';

/** Options of `plan`. */
interface PlanOptions extends ConnectionOptions, StateOptions {
  /** The deployment's feature gates (Advanced StatefulSet and Advanced DaemonSet only). */
  featureGates?: string;
}

/** Prints the plan of the next pass over the workload. */
async function plan(io: CliIO, arg: string, opts: PlanOptions): Promise<void> {
  const target = rolloutTarget(arg);
  const conn = connect(opts, io);
  const state = openState(opts, io.env);
  if (target.kind === 'daemonset') {
    await planDaemonSet(io, conn, target.name, state, opts.featureGates);
    return;
  }
  if (target.kind === 'statefulset') {
    await planStatefulSet(io, conn, target.name, state, opts.featureGates);
    return;
  }
  if (opts.featureGates !== undefined)
    throw new CliError(
      '--feature-gates concerns an Advanced StatefulSet or DaemonSet only: a CloneSet plans with its flags',
    );
  const name = target.name;
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
        .command('plan <workload>')
        .description(
          "what the next reconcile of a CloneSet, an Advanced StatefulSet (asts/<name>) or an Advanced DaemonSet (ds/<name>) would do and why (read-only: the reconciler's reads, then its planner)",
        )
        .option(
          '--feature-gates <gates>',
          "Advanced StatefulSet or DaemonSet: the deployment's gates (Name=true,...), default OpenKruise v1.9.0's",
        ),
    ),
  ).action((arg: string, opts: PlanOptions) => runCommand(io, () => plan(io, arg, opts)));
}
