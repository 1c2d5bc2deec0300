/**
 * `kruiseless why <pod>` (docs/cli.md#why): gathers the pod, its CloneSet, the CloneSet's Events naming the pod,
 * the pod's own Events and — when a state table is named — the scale-down ledger and expectations, and prints
 * {@link whyReport}; for a pod of an Advanced StatefulSet, the same of the set (./whyStatefulSet.ts); for a pod of an
 * Advanced DaemonSet, its node and the next pass's view of it (./whyDaemonSet.ts). Works for a pod that is gone as
 * long as its workload or Events remain: its name `<workload>-<suffix>` names a CloneSet, or when no such CloneSet
 * exists and the suffix is an ordinal, an Advanced StatefulSet, else an Advanced DaemonSet ({@link goneOwner}).
 * `--feature-gates` (Advanced StatefulSet and DaemonSet, as for `plan asts/<name>` and `plan ds/<name>`) repeats the
 * deployment's gates: with `StatefulSetStartOrdinal` on, ordinals count from `spec.ordinals.start`, as the planner
 * counts them.
 */
import { ownExpectations } from '../reconcile/pods/expectationsOwner.js';
import type { Command } from 'commander';
import { CLONESET_KIND } from '../controllers/cloneset/api/kinds.js';
import { GROUP, KIND } from '../api/keys.js';
import { getPod } from './calls.js';
import { connect, openState, type Connection, type ConnectionOptions, type StateOptions } from './connect.js';
import { CliError, RESOURCE, notFound, runCommand, type CliIO } from './io.js';
import { addConnectionOptions, addStateOptions } from './options.js';
import { whyReport, type PodFacts } from './whyView.js';
import { CLONESET_RESOURCE } from '../controllers/cloneset/api/resource.js';
import { STATEFULSET_KIND_NAME, STATEFULSET_RESOURCE } from '../controllers/statefulset/api/resource.js';
import type { StatefulSet } from '../controllers/statefulset/api/types.js';
import { parentAndOrdinal } from '../controllers/statefulset/plan/ordinals.js';
import type { CloneSet, Pod } from '../api/types.js';
import { podEvents, whyStatefulSetPod } from './whyStatefulSet.js';
import { whyDaemonSetPod } from './whyDaemonSet.js';
import { DAEMONSET_KIND_NAME, DAEMONSET_RESOURCE } from '../controllers/daemonset/api/resource.js';
import { gateSettings } from './planStatefulSet.js';

/** Options of `why`. */
interface WhyOptions extends ConnectionOptions, StateOptions {
  /** The deployment's feature gates (Advanced StatefulSet only), as `plan --feature-gates`. */
  featureGates?: string;
}

/** A pod name's CloneSet by the naming rule `<cloneset>-<instance id>` (for pods that are gone). */
function cloneSetOfName(pod: string): string {
  const dash = pod.lastIndexOf('-');
  return dash > 0 ? pod.slice(0, dash) : pod;
}

/** The workload a pod's report is about: its kind, name and, when already read, the object. */
type Owner =
  | { kind: 'cloneset'; name: string; cloneSet?: CloneSet }
  | { kind: 'statefulset'; name: string; statefulSet?: StatefulSet }
  | { kind: 'daemonset'; name: string };

/**
 * The controller of an existing pod: a CloneSet, an Advanced StatefulSet or an Advanced DaemonSet (`apps.kruise.io`
 * StatefulSet, DaemonSet).
 * @throws CliError when its controller is something else, or it has none
 */
function ownerOf(pod: Pod, name: string): Owner {
  const owner = (pod.metadata.ownerReferences ?? []).find((o) => o.controller);
  if (owner?.kind === KIND) return { kind: 'cloneset', name: owner.name };
  const kruise = owner?.apiVersion.startsWith(`${GROUP}/`) === true;
  if (owner?.kind === STATEFULSET_KIND_NAME && kruise) return { kind: 'statefulset', name: owner.name };
  if (owner?.kind === DAEMONSET_KIND_NAME && kruise) return { kind: 'daemonset', name: owner.name };
  throw new CliError(
    `pod "${name}" is not controlled by a CloneSet, an Advanced StatefulSet or an Advanced DaemonSet${owner ? ` (its controller is ${owner.apiVersion} ${owner.kind} ${owner.name})` : ''}`,
  );
}

/**
 * The workload of a pod that is gone, by the naming rules: a CloneSet's pods are `<cloneset>-<instance id>`, an
 * Advanced StatefulSet's `<set>-<ordinal>`, an Advanced DaemonSet's `<daemonset>-<5 characters>`. The CloneSet of
 * that prefix is tried first (an instance id may be all digits); when it does not exist and the suffix is an ordinal,
 * the Advanced StatefulSet; then the Advanced DaemonSet of the prefix; when none exists, the CloneSet (gone).
 * @throws KubeApiError when a read fails
 */
async function goneOwner(conn: Connection, name: string): Promise<Owner> {
  const csName = cloneSetOfName(name);
  const cloneSet = await conn.kube.get(CLONESET_RESOURCE, { namespace: conn.namespace, name: csName });
  if (cloneSet) return { kind: 'cloneset', name: csName, cloneSet };
  const { parent, ordinal } = parentAndOrdinal(name);
  if (ordinal >= 0) {
    const statefulSet = await conn.kube.get(STATEFULSET_RESOURCE, {
      namespace: conn.namespace,
      name: parent,
    });
    if (statefulSet) return { kind: 'statefulset', name: parent, statefulSet };
  }
  const daemonSet = await conn.kube.get(DAEMONSET_RESOURCE, { namespace: conn.namespace, name: csName });
  if (daemonSet) return { kind: 'daemonset', name: csName };
  return { kind: 'cloneset', name: csName };
}

/** Prints why the pod is as it is. */
async function why(io: CliIO, podArg: string, opts: WhyOptions): Promise<void> {
  const slash = podArg.indexOf('/');
  if (slash >= 0 && !['pod', 'pods', 'po'].includes(podArg.slice(0, slash))) {
    throw new CliError(`"${podArg.slice(0, slash)}" is not a pod: why takes a pod name`);
  }
  const name = slash >= 0 ? podArg.slice(slash + 1) : podArg;
  // a malformed list fails before anything is read
  const settings = opts.featureGates !== undefined ? gateSettings(opts.featureGates) : {};
  const conn = connect(opts, io);
  const pod = await getPod(conn, name);
  const owner = pod ? ownerOf(pod, name) : await goneOwner(conn, name);
  const state = openState(opts, io.env);
  if (owner.kind === 'statefulset') {
    io.out(await whyStatefulSetPod(conn, name, pod, owner.name, owner.statefulSet, state, settings));
    return;
  }
  if (owner.kind === 'daemonset') {
    io.out(await whyDaemonSetPod(conn, name, pod, owner.name, state, opts.featureGates));
    return;
  }
  if (opts.featureGates !== undefined)
    throw new CliError(
      `--feature-gates concerns an Advanced StatefulSet or DaemonSet only: pod "${name}" is a CloneSet's, which plans with its flags`,
    );
  const csName = owner.name;
  const cloneSet =
    owner.cloneSet ?? (await conn.kube.get(CLONESET_RESOURCE, { namespace: conn.namespace, name: csName }));
  const events = await podEvents(conn, cloneSet?.metadata.uid, name, pod);
  if (!pod && events.length === 0) throw notFound(RESOURCE.pod, name);

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
    // another CloneSet's of the same name (deleted and created again) are not this one's
    facts.expectations = cloneSet ? ownExpectations(expectations, cloneSet.metadata.uid ?? '') : expectations;
  }
  io.out(whyReport(facts));
}

/** Registers `why`. */
export function registerWhy(program: Command, io: CliIO): void {
  addStateOptions(
    addConnectionOptions(
      program
        .command('why <pod>')
        .description(
          'why a pod of a CloneSet, an Advanced StatefulSet or an Advanced DaemonSet was created, deleted, recreated or updated in place (labels, state, Events)',
        )
        .option(
          '--feature-gates <gates>',
          "Advanced StatefulSet or DaemonSet: the deployment's gates (Name=true,...), default OpenKruise v1.9.0's; StatefulSetStartOrdinal=true counts ordinals from spec.ordinals.start",
        ),
    ),
  ).action((arg: string, opts: WhyOptions) => runCommand(io, () => why(io, arg, opts)));
}
