/**
 * A controller whose CRD a cluster does not serve is idle there, not failing (OpenKruise's `SetupWithManager`
 * skips a kind whose CRD is missing, `pkg/controller/controllers.go`): the watch of its resource or the resync's
 * list answers 404, the source logs it once per cluster, resource and container, skips it, and the other
 * controllers go on.
 */
import type { Logger } from '../core/logger.js';

/** `<cluster>/<resource>` pairs already logged as idle by this container. */
const logged = new Set<string>();

/**
 * Log, once per container, that `resource` is not served in `cluster` and what is idle because of it.
 * @param resource the resource's plural (and group), e.g. `clonesets.apps.kruise.io`
 * @param what the controllers or stream left idle, for the log line
 * @returns true when this call logged (the first time for the pair)
 */
export function noteIdle(log: Logger, cluster: string, resource: string, what: string): boolean {
  const key = `${cluster}/${resource}`;
  if (logged.has(key)) return false;
  logged.add(key);
  log.warn('resource not served in this cluster (no CRD?); idle there', { cluster, resource, idle: what });
  return true;
}

/** Forget what was logged (tests that check the one log line). */
export function resetIdleLog(): void {
  logged.clear();
}
