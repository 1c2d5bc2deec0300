/**
 * `kruiseless why <pod>` for a pod of an Advanced DaemonSet (docs/cli.md#why): reads the next pass's inputs and plan
 * as `plan ds/<name>` does (./planDaemonSet.ts `previewDaemonSet`: the DaemonSet, its pods and revisions, the Nodes,
 * the expectations when a state table is named), the DaemonSet's Events naming the pod and the pod's own Events, for
 * {@link daemonSetWhyReport}. `--feature-gates` repeats the deployment's gates, as for `plan ds/<name>`.
 */
import type { Pod } from '../api/types.js';
import type { Connection, StateReaders } from './connect.js';
import { RESOURCE, notFound } from './io.js';
import { previewDaemonSet } from './planDaemonSet.js';
import { daemonSetWhyReport } from './whyDaemonSetView.js';
import { podEvents } from './whyStatefulSet.js';

/**
 * The `why` report of pod `name` of the Advanced DaemonSet `dsName`.
 * @param featureGates the deployment's `--feature-gates` list, or undefined for OpenKruise v1.9.0's defaults
 * @throws CliError (kubectl's NotFound line for the pod) when neither the pod nor an Event naming it is left, or for
 *   malformed gates; KubeApiError and StateStoreError when a read fails
 */
export async function whyDaemonSetPod(
  conn: Connection,
  name: string,
  pod: Pod | undefined,
  dsName: string,
  state: StateReaders | undefined,
  featureGates: string | undefined,
): Promise<string> {
  const preview = await previewDaemonSet(conn, dsName, state, featureGates);
  const events = await podEvents(conn, preview?.ds.metadata.uid, name, pod);
  if (!pod && events.length === 0) throw notFound(RESOURCE.pod, name);
  return daemonSetWhyReport({
    namespace: conn.namespace,
    name,
    ...(pod ? { pod } : {}),
    daemonSetName: dsName,
    ...(preview ? { preview } : {}),
    stateRead: state !== undefined,
    events,
    stateNote: state
      ? `expectations from table ${state.table} (cluster ${state.cluster})`
      : 'not read (no --table): expectations unknown',
  });
}
