/**
 * What the next Advanced StatefulSet pass would do, without doing it: the pass's own reads ({@link readPass}: the
 * stored expectations, the set and what it owns, the expectations observed against them) and its own planning step
 * ({@link planPass}), with no lease taken and nothing written. The read side of `kruiseless plan asts/<name>`
 * (docs/cli.md#plan).
 */
import type { ObjectKey } from '../../core/objectKey.js';
import type { ObservedExpectations } from '../../reconcile/pods/observeExpectations.js';
import { resizeWriteFor, type ResizeWrite } from '../../reconcile/pods/patchPod.js';
import { planPass, readPass, withoutFailedValidation, type PassDeps, type World } from './pass.js';
import type { StatefulSetPlan } from './plan/index.js';

/** What a preview reads: a pass's reads and planner options, without the lease and the logger. */
export type StatefulSetPreviewDeps = Pick<
  PassDeps,
  'kube' | 'expectations' | 'clock' | 'options' | 'expectationTimeoutSeconds'
>;

/** The inputs of the next pass and its plan. */
export interface StatefulSetPassPreview {
  world: World;
  /** The stored expectations as the next pass would observe them (nothing is written back). */
  observed: ObservedExpectations;
  /** Whether pending expectations hold the pass's writes back (then `effective` has no actions). */
  waiting: boolean;
  /** The planner's plan. */
  plan: StatefulSetPlan;
  /**
   * The plan the pass would execute: `plan` emptied of writes while expectations are pending, its status written
   * when the stored one still has a `FailedValidation` condition.
   */
  effective: StatefulSetPlan;
  /** How an in-place cpu/memory change is written on this API server (its version, as the pass reads it). */
  resizeWrite: ResizeWrite;
}

/**
 * Read the inputs of the next pass over `key` and plan it, read-only. Reads every owned pod (the `owned` scope of
 * a pass after a change), so the preview misses no release or clean-up.
 * @returns undefined when the StatefulSet does not exist
 * @throws KubeApiError when a read fails; StateStoreError when the state table cannot be read
 */
export async function previewStatefulSetPass(
  deps: StatefulSetPreviewDeps,
  key: ObjectKey,
): Promise<StatefulSetPassPreview | undefined> {
  const [read, version] = await Promise.all([readPass(deps, key, 'owned'), deps.kube.serverVersion()]);
  if (!read) return undefined;
  const { plan, effective, waiting } = planPass(deps, read.world, read.observed);
  return {
    ...read,
    waiting,
    plan,
    effective: withoutFailedValidation(effective, read.world.statefulSet),
    resizeWrite: resizeWriteFor(version),
  };
}
