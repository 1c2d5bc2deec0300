/**
 * `kruiseless why <pod>` (docs/cli.md#why): gathers the pod, its CloneSet, the CloneSet's Events naming the pod,
 * the pod's own Events and — when a state table is named — the scale-down ledger and expectations, and prints
 * {@link whyReport}. Works for a pod that is gone as long as its CloneSet or Events remain.
 */
import type { Command } from 'commander';
import { CLONESET_KIND } from '../controllers/cloneset/api/kinds.js';
import { KIND } from '../api/keys.js';
import { eventsOf, getPod } from './calls.js';
import { connect, openState, type ConnectionOptions, type StateOptions } from './connect.js';
import { CliError, RESOURCE, notFound, runCommand, type CliIO } from './io.js';
import { addConnectionOptions, addStateOptions } from './options.js';
import { namesPod, whyReport, type PodFacts } from './whyView.js';
import { CLONESET_RESOURCE } from '../controllers/cloneset/api/resource.js';

/** A pod name's CloneSet by the naming rule `<cloneset>-<instance id>` (for pods that are gone). */
function cloneSetOfName(pod: string): string {
  const dash = pod.lastIndexOf('-');
  return dash > 0 ? pod.slice(0, dash) : pod;
}

/** Prints why the pod is as it is. */
async function why(io: CliIO, podArg: string, opts: ConnectionOptions & StateOptions): Promise<void> {
  const slash = podArg.indexOf('/');
  if (slash >= 0 && !['pod', 'pods', 'po'].includes(podArg.slice(0, slash))) {
    throw new CliError(`"${podArg.slice(0, slash)}" is not a pod: why takes a pod name`);
  }
  const name = slash >= 0 ? podArg.slice(slash + 1) : podArg;
  const conn = connect(opts, io);
  const pod = await getPod(conn, name);
  let csName: string;
  if (pod) {
    const owner = (pod.metadata.ownerReferences ?? []).find((o) => o.controller);
    if (!owner || owner.kind !== KIND) {
      throw new CliError(
        `pod "${name}" is not controlled by a CloneSet${owner ? ` (its controller is ${owner.kind} ${owner.name})` : ''}`,
      );
    }
    csName = owner.name;
  } else {
    csName = cloneSetOfName(name);
  }
  const cloneSet = await conn.kube.get(CLONESET_RESOURCE, { namespace: conn.namespace, name: csName });
  const csEvents = cloneSet?.metadata.uid ? await eventsOf(conn, cloneSet.metadata.uid) : [];
  const podEvents = pod?.metadata.uid ? await eventsOf(conn, pod.metadata.uid) : [];
  const events = [...csEvents.filter((e) => namesPod(e.message, name)), ...podEvents];
  if (!pod && events.length === 0) throw notFound(RESOURCE.pod, name);

  const state = openState(opts, io.env);
  const facts: PodFacts = {
    namespace: conn.namespace,
    name,
    ...(pod ? { pod } : {}),
    ...(cloneSet ? { cloneSet } : {}),
    cloneSetName: csName,
    events,
    stateNote: state
      ? `scale-down ledger and expectations from table ${state.table} (cluster ${state.cluster})`
      : 'not read (no --table): scale-down ledger and expectations unknown',
  };
  if (state) {
    const key = { cluster: state.cluster, kind: CLONESET_KIND, namespace: conn.namespace, name: csName };
    const [intent, expectations] = await Promise.all([state.ledger.get(key), state.expectations.get(key)]);
    if (intent) facts.intent = intent;
    facts.expectations = expectations;
  }
  io.out(whyReport(facts));
}

/** Registers `why`. */
export function registerWhy(program: Command, io: CliIO): void {
  addStateOptions(
    addConnectionOptions(
      program
        .command('why <pod>')
        .description('why a pod was created, deleted, recreated or updated in place (labels, state, Events)'),
    ),
  ).action((arg: string, opts: ConnectionOptions & StateOptions) => runCommand(io, () => why(io, arg, opts)));
}
