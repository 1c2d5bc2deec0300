/**
 * `kruiseless plan ds/<name>` (docs/cli.md#plan): what the next Advanced DaemonSet pass would do and why, read-only.
 * The inputs are read by the pass's own read path ({@link previewDaemonSetPass}, orphans claimed in memory only);
 * the expectations (with the failed-pod delays stored beside them) only when a state table is named, else they
 * count as empty and the report says so. The planner runs with OpenKruise v1.9.0's gate defaults, or the
 * deployment's gates when `--feature-gates` repeats them.
 */
import { systemClock } from '../core/clock.js';
import { DAEMONSET_KIND } from '../controllers/daemonset/api/resource.js';
import { previewDaemonSetPass, type DaemonSetPassPreview } from '../controllers/daemonset/preview.js';
import { DAEMONSET_SETTINGS, type DaemonSetSettings } from '../controllers/daemonset/settings.js';
import { createMemoryStores } from '../state/index.js';
import type { Connection, StateReaders } from './connect.js';
import { RESOURCE, notFound, readFeatureGates, type CliIO } from './io.js';
import { daemonSetPlanReport } from './planDaemonSetView.js';
import { placeholderIds } from './planView.js';

/**
 * The next pass over the Advanced DaemonSet `name` of the connection's namespace, read-only (`plan ds/<name>` and
 * `why` on its pods): the expectations from the state table when one is named, else empty; the planner's options
 * from `featureGates`, else OpenKruise v1.9.0's defaults.
 * @returns undefined when the DaemonSet does not exist
 * @throws CliError for malformed gates; KubeApiError and StateStoreError when a read fails
 */
export async function previewDaemonSet(
  conn: Connection,
  name: string,
  state: StateReaders | undefined,
  featureGates: string | undefined,
): Promise<DaemonSetPassPreview | undefined> {
  const options: Partial<DaemonSetSettings> =
    featureGates !== undefined
      ? readFeatureGates(() => DAEMONSET_SETTINGS.parse({ featureGates, flags: {} }).settings)
      : {};
  // without a table: the memory stores hold nothing, so the expectations read as empty
  const expectations = state?.expectations ?? createMemoryStores().expectations;
  const key = { cluster: state?.cluster ?? 'local', kind: DAEMONSET_KIND, namespace: conn.namespace, name };
  return previewDaemonSetPass(
    { kube: conn.kube, expectations, clock: systemClock, options, newSuffix: placeholderIds() },
    key,
  );
}

/**
 * Prints the plan of the next pass over the Advanced DaemonSet `name` of the connection's namespace; pods it would
 * create are named `<name>-<new-1>`, `<name>-<new-2>`, … (their real suffixes are random).
 * @param state the state table's readers, or undefined when none is named
 * @param featureGates the deployment's `--feature-gates` list, or undefined for OpenKruise v1.9.0's defaults
 * @throws CliError (kubectl's NotFound line) when the DaemonSet does not exist or for malformed gates; KubeApiError
 *   and StateStoreError when a read fails
 */
export async function planDaemonSet(
  io: CliIO,
  conn: Connection,
  name: string,
  state: StateReaders | undefined,
  featureGates: string | undefined,
): Promise<void> {
  const preview = await previewDaemonSet(conn, name, state, featureGates);
  if (!preview) throw notFound(RESOURCE.daemonset, name);
  const stateNote = state
    ? `expectations from table ${state.table} (cluster ${state.cluster})`
    : 'not read (no --table): expectations and failed-pod delays taken as empty';
  io.out(daemonSetPlanReport(preview, stateNote));
}
