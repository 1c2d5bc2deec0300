/**
 * `rollout pause|resume` on a workload whose controller honours `spec.updateStrategy.rollingUpdate.paused` (Advanced
 * StatefulSet, Advanced DaemonSet; docs/cli.md#rollout-pause-resume). kubectl-kruise v1.2.2 pauses neither
 * (`defaultObjectPauser`: `pausing is not supported`); the field is the one OpenKruise's controllers read, and the
 * words are those kubectl-kruise uses for the kinds it does pause.
 */
import type { KubeObject, Resource } from '../kube/types.js';
import { patchWorkload } from './calls.js';
import type { Connection } from './connect.js';
import { CliError, notFound, type CliIO } from './io.js';

/** A workload with a rolling-update strategy that can be paused. */
export interface PausableWorkload extends KubeObject {
  spec: { updateStrategy?: { type?: string; rollingUpdate?: { paused?: boolean } } };
}

/** Which workload to pause: its resource, kubectl's resource name for messages and its `<kind>.<group>/` prefix. */
export interface PauseTarget<T extends PausableWorkload> {
  resource: Resource<T>;
  /** `statefulsets.apps.kruise.io`-style name for error lines (./io.ts `RESOURCE`). */
  resourceName: string;
  /** How success lines name it: `<kind>.<group>/<name>`. */
  shown: string;
  name: string;
}

/**
 * GETs the workload and sets `spec.updateStrategy.rollingUpdate.paused` to `paused` by a merge patch, printing
 * `<shown> paused` (or `resumed`).
 * @throws CliError kubectl's NotFound line when it does not exist; `<resource> "<name>" is already paused` / `… is
 *   not paused` (kubectl-kruise's words) when it already has that value; `… has updateStrategy OnDelete: there is
 *   no rollout to pause` for an OnDelete workload. KubeApiError for other failures
 */
export async function setRollingUpdatePaused<T extends PausableWorkload>(
  io: CliIO,
  conn: Connection,
  target: PauseTarget<T>,
  paused: boolean,
): Promise<void> {
  const { resource, resourceName, name } = target;
  const workload = await conn.kube.get(resource, { namespace: conn.namespace, name });
  if (!workload) throw notFound(resourceName, name);
  const strategy = workload.spec.updateStrategy;
  if (strategy?.type === 'OnDelete') {
    throw new CliError(`${resourceName} "${name}" has updateStrategy OnDelete: there is no rollout to pause`);
  }
  if (!!strategy?.rollingUpdate?.paused === paused) {
    throw new CliError(`${resourceName} "${name}" ${paused ? 'is already paused' : 'is not paused'}`);
  }
  await patchWorkload(conn, resource, name, { spec: { updateStrategy: { rollingUpdate: { paused } } } });
  io.out(`${target.shown} ${paused ? 'paused' : 'resumed'}\n`);
}
