/**
 * `kruiseless plan asts/<name>` (docs/cli.md#plan): what the next Advanced StatefulSet pass would do and why,
 * read-only. The inputs are read by the pass's own read path ({@link previewStatefulSetPass}); the expectations
 * only when a state table is named, else they count as empty and the report says so. The planner runs with
 * OpenKruise v1.9.0's gate defaults, or the deployment's gates when `--feature-gates` repeats them.
 */
import { systemClock } from '../core/clock.js';
import { STATEFULSET_KIND } from '../controllers/statefulset/api/resource.js';
import { previewStatefulSetPass } from '../controllers/statefulset/preview.js';
import { parseStatefulSetSettings, type StatefulSetSettings } from '../controllers/statefulset/settings.js';
import { createMemoryStores } from '../state/index.js';
import type { Connection, StateReaders } from './connect.js';
import { RESOURCE, notFound, readFeatureGates, type CliIO } from './io.js';
import { statefulSetPlanReport } from './planStatefulSetView.js';

/**
 * The planner's options from a `--feature-gates` list (`Name=true,…`, OpenKruise's syntax, as the deployment's
 * serverless.yml parameter; lib/controllers/statefulset/settings.ts), for `plan` and `why`.
 * @throws CliError for a malformed list
 */
export function gateSettings(featureGates: string): StatefulSetSettings {
  return readFeatureGates(() => parseStatefulSetSettings({ featureGates, flags: {} }).settings);
}

/**
 * Prints the plan of the next pass over the Advanced StatefulSet `name` of the connection's namespace.
 * @param state the state table's readers, or undefined when none is named
 * @param featureGates the deployment's `--feature-gates` list, or undefined for OpenKruise v1.9.0's defaults
 * @throws CliError (kubectl's NotFound line) when the set does not exist or for malformed gates; KubeApiError
 *   and StateStoreError when a read fails
 */
export async function planStatefulSet(
  io: CliIO,
  conn: Connection,
  name: string,
  state: StateReaders | undefined,
  featureGates: string | undefined,
): Promise<void> {
  const options = featureGates !== undefined ? gateSettings(featureGates) : {};
  // without a table: the memory stores hold nothing, so the expectations read as empty
  const expectations = state?.expectations ?? createMemoryStores().expectations;
  const key = { cluster: state?.cluster ?? 'local', kind: STATEFULSET_KIND, namespace: conn.namespace, name };
  const preview = await previewStatefulSetPass(
    { kube: conn.kube, expectations, clock: systemClock, options },
    key,
  );
  if (!preview) throw notFound(RESOURCE.statefulset, name);
  const stateNote = state
    ? `expectations from table ${state.table} (cluster ${state.cluster})`
    : 'not read (no --table): expectations taken as empty';
  const gatesNote = featureGates
    ? `OpenKruise v1.9.0 defaults with ${featureGates}`
    : 'OpenKruise v1.9.0 defaults';
  io.out(statefulSetPlanReport(preview, stateNote, gatesNote));
}
