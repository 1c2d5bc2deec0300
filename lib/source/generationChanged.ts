/**
 * controller-runtime's `GenerationChangedPredicate` on a `For` watch, as OpenKruise's SidecarSet controller sets it
 * (pkg/controller/sidecarset/sidecarset_controller.go `add`: an update passes when the generation moved), judged
 * from the new object alone: a watch event carries no old object, so "moved" reads as "not yet observed by a status
 * write".
 */
import type { JsonObject } from '../api/types.js';

/**
 * Whether `obj`'s spec changed since its status was last written: `metadata.generation` differs from
 * `status.observedGeneration`, or either is not a number. The API server raises the generation on every spec change
 * and when it marks an object with finalizers for deletion, so neither is missed; a status, label or annotation
 * write leaves it (OpenKruise's predicate skips those). An object whose last pass wrote no status passes on every
 * update, a superset whose extra passes write nothing.
 * @param obj the object as JSON (a watch event's)
 */
export function generationNotObserved(obj: JsonObject): boolean {
  const generation = (obj.metadata as JsonObject | undefined)?.generation;
  const observed = (obj.status as JsonObject | undefined)?.observedGeneration;
  return typeof generation !== 'number' || typeof observed !== 'number' || generation !== observed;
}
