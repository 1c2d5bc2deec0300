/**
 * What the next reconcile pass would do, without doing it (docs/architecture.md#lib-reconcile): the same reads as
 * `runPass` — the world through {@link readWorld}, the stored expectations observed against it
 * ({@link readObserved}), the scale-down ledger — and the same planning step ({@link planPass}), with no lease
 * taken and nothing written. The read side of `kruiseless plan` (docs/cli.md#plan).
 */
import type { Plan } from './plan/types.js';
import type { ObjectKey } from '../../core/objectKey.js';
import type { ScaleDownIntent } from '../../state/index.js';
import {
  isSatisfied,
  noExpectations,
  type ObservedExpectations,
} from '../../reconcile/pods/observeExpectations.js';
import { resizeWriteFor, type ResizeWrite } from '../../reconcile/pods/patchPod.js';
import { planPass, readObserved, readWorld, type PassDeps, type World } from './pass.js';

/** What a preview reads: a pass's reads, without the lease and the logger. */
export type PreviewDeps = Pick<
  PassDeps,
  'kube' | 'expectations' | 'ledger' | 'clock' | 'options' | 'newInstanceId'
>;

/** The inputs of the next pass and its plan. */
export interface PassPreview {
  world: World;
  /** The stored expectations as the next pass would observe them (nothing is written back). */
  observed: ObservedExpectations;
  /** A recorded scale-down: when present the next pass finishes it and plans nothing else. */
  intent?: ScaleDownIntent;
  /** Whether pending expectations hold the pass's writes back (then `effective` has no actions). */
  waiting: boolean;
  /** The planner's plan. */
  plan: Plan;
  /** The plan the pass would execute: `plan` emptied of writes while expectations are pending. */
  effective: Plan;
  /** How an in-place cpu/memory change is written on this API server (its version, as the pass reads it). */
  resizeWrite: ResizeWrite;
}

/**
 * Read the inputs of the next pass over `key` and plan it, read-only.
 * @returns undefined when the CloneSet does not exist
 * @throws KubeApiError when a read fails; StateStoreError when the state table cannot be read
 */
export async function previewPass(deps: PreviewDeps, key: ObjectKey): Promise<PassPreview | undefined> {
  // what the resync reads (every owned pod and PVC), so the preview misses no release or clean-up
  const world = await readWorld(deps.kube, key, 'full', noExpectations());
  if (!world) return undefined;
  const [observed, intent, version] = await Promise.all([
    readObserved(deps, key, world),
    deps.ledger.get(key),
    deps.kube.serverVersion(),
  ]);
  const waiting = !isSatisfied(observed.pending);
  const { plan, effective } = planPass(deps, world, waiting);
  const resizeWrite = resizeWriteFor(version);
  return { world, observed, ...(intent ? { intent } : {}), waiting, plan, effective, resizeWrite };
}
