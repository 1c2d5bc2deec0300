/**
 * `kruiseless why <pod>` for a pod of an Advanced StatefulSet (docs/cli.md#why): gathers the set, its Events naming
 * the pod, the pod's own Events and — when a state table is named — the set's expectations, for
 * {@link statefulSetWhyReport}. (An Advanced StatefulSet has no scale-down ledger: it deletes one ordinal at a time.)
 * The ordinal range is read under the deployment's gates when `--feature-gates` repeats them (as `plan asts/<name>`),
 * else under OpenKruise v1.9.0's defaults.
 */
import { ownExpectations } from '../reconcile/pods/expectationsOwner.js';
import type { Pod } from '../api/types.js';
import { STATEFULSET_KIND, STATEFULSET_RESOURCE } from '../controllers/statefulset/api/resource.js';
import type { StatefulSet } from '../controllers/statefulset/api/types.js';
import { eventsOf } from './calls.js';
import type { Connection, StateReaders } from './connect.js';
import { RESOURCE, notFound } from './io.js';
import { namesPod } from './whyView.js';
import { statefulSetWhyReport, type StatefulSetPodFacts } from './whyStatefulSetView.js';
import type { CoreEvent } from '../kube/event.js';
import type { StatefulSetSettings } from '../controllers/statefulset/settings.js';
import { DEFAULT_PLANNER_OPTIONS } from '../controllers/statefulset/plan/types.js';

/**
 * The Events of a workload (by its UID) that name pod `name`, then the pod's own Events.
 * @throws KubeApiError when a list fails
 */
export async function podEvents(
  conn: Connection,
  workloadUid: string | undefined,
  name: string,
  pod: Pod | undefined,
): Promise<CoreEvent[]> {
  const [ofWorkload, ofPod] = await Promise.all([
    workloadUid ? eventsOf(conn, workloadUid) : [],
    pod?.metadata.uid ? eventsOf(conn, pod.metadata.uid) : [],
  ]);
  return [...ofWorkload.filter((e) => namesPod(e.message, name)), ...ofPod];
}

/**
 * The `why` report of pod `name` of the Advanced StatefulSet `setName` (`set`: as already read, or undefined to
 * read it here).
 * @param settings the deployment's gates (./planStatefulSet.ts `gateSettings`); absent or partial: OpenKruise
 *   v1.9.0's defaults (`StatefulSetStartOrdinal` off)
 * @throws CliError (kubectl's NotFound line for the pod) when neither the pod nor an Event naming it is left;
 *   KubeApiError and StateStoreError when a read fails
 */
export async function whyStatefulSetPod(
  conn: Connection,
  name: string,
  pod: Pod | undefined,
  setName: string,
  set: StatefulSet | undefined,
  state: StateReaders | undefined,
  settings: StatefulSetSettings = {},
): Promise<string> {
  const sts =
    set ?? (await conn.kube.get(STATEFULSET_RESOURCE, { namespace: conn.namespace, name: setName }));
  const events = await podEvents(conn, sts?.metadata.uid, name, pod);
  if (!pod && events.length === 0) throw notFound(RESOURCE.pod, name);
  const facts: StatefulSetPodFacts = {
    namespace: conn.namespace,
    name,
    ...(pod ? { pod } : {}),
    ...(sts ? { statefulSet: sts } : {}),
    statefulSetName: setName,
    events,
    stateNote: state
      ? `expectations from table ${state.table} (cluster ${state.cluster})`
      : 'not read (no --table): expectations unknown',
    startOrdinalGate: settings.statefulSetStartOrdinal ?? DEFAULT_PLANNER_OPTIONS.statefulSetStartOrdinal,
  };
  if (state) {
    const stored = await state.expectations.get({
      cluster: state.cluster,
      kind: STATEFULSET_KIND,
      namespace: conn.namespace,
      name: setName,
    });
    // another set's of the same name (deleted and created again) are not this one's
    facts.expectations = sts ? ownExpectations(stored, sts.metadata.uid ?? '') : stored;
  }
  return statefulSetWhyReport(facts);
}
