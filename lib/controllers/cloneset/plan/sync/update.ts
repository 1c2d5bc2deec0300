/**
 * OpenKruise: pkg/controller/cloneset/sync/cloneset_update.go `Update`, `refreshPodState`, `updatePod`,
 * `limitUpdateIndexes`.
 *
 * The update phase (docs/behaviour/cloneset.md#update-phase): refresh every pod, then move up to the allowed
 * number of pods to the target revision — in place when possible (honouring the `inPlaceUpdate` lifecycle
 * hook), else by marking them `specified-delete` for the scale phase to recreate. Pure: returns the actions
 * for the executor.
 */
import { LABEL_POD_TEMPLATE_HASH, LABEL_SPECIFIED_DELETE, LifecycleState } from '../../../../api/keys.js';
import type { ControllerRevision, Pod } from '../../../../api/types.js';
import type { InPlaceUpdateOptions } from '../../../../podset/inplace/options.js';
import { inPlaceUpdateOptions } from '../inPlaceOptions.js';
import { calculateDiff } from './diff.js';
import { refreshInPlace, startInPlaceUpdate } from '../../../../podset/inplace/update.js';
import { calculateInPlaceUpdateSpec, type InPlaceSpecOptions } from '../../../../podset/inplace/spec.js';
import { graceAnnotation, type UpdateSpec } from '../../../../podset/inplace/state.js';
import {
  reenterPreparingUpdate,
  refreshLifecycle,
  transitionLifecycle,
} from '../../../../podset/lifecycle/lifecycle.js';
import {
  isHookedBy,
  isPodAvailable,
  lifecycleState,
  podMatchesRevision,
  podRef,
  podRevision,
  shortHash,
} from '../../../../podset/pods.js';
import type { DiffRecord, PhaseContext, PhaseResult } from '../types.js';
import type { Action } from '../../../../podset/actions.js';
import { sortUpdateIndexes } from './updateSort.js';

/** Smallest positive of two optional delays, seconds. */
function minDelay(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined || a <= 0) return b !== undefined && b > 0 ? b : undefined;
  return b !== undefined && b > 0 ? Math.min(a, b) : a;
}

/**
 * Keeps the candidates that may be updated now (docs/behaviour/cloneset.md#update-phase; scenario 49): at
 * most `|updateNum|`, and no more than `updateMaxUnavailable` unavailable pods overall nor on the target
 * revision (updating an already unavailable pod does not consume the overall budget).
 * @param indexes sorted candidate indexes into `pods`
 * @param minReadySeconds seconds
 * @returns a prefix of `indexes`
 */
export function limitUpdateIndexes(
  pods: Pod[],
  indexes: number[],
  diff: Pick<DiffRecord, 'updateNum' | 'updateMaxUnavailable'>,
  targetRevision: string,
  minReadySeconds: number,
  now: Date,
): number[] {
  const candidates = indexes.slice(0, Math.abs(diff.updateNum));
  let unavailable = 0;
  let targetUnavailable = 0;
  for (const p of pods) {
    if (isPodAvailable(p, minReadySeconds, now)) continue;
    unavailable++;
    if (podMatchesRevision(p, targetRevision)) targetUnavailable++;
  }
  let canUpdate = 0;
  for (const i of candidates) {
    if (targetUnavailable + canUpdate >= diff.updateMaxUnavailable) break;
    if (isPodAvailable(pods[i], minReadySeconds, now)) {
      if (unavailable >= diff.updateMaxUnavailable) break;
      unavailable++;
    }
    canUpdate++;
  }
  return candidates.slice(0, canUpdate);
}

/** Step 1: in-place refresh, lifecycle refresh and pod-template-hash back-fill of every pod. */
function refreshPods(ctx: PhaseContext, inPlace: InPlaceUpdateOptions, result: PhaseResult): boolean {
  const updateRevision = ctx.updateRevision.metadata.name ?? '';
  let modified = false;
  for (const pod of ctx.pods) {
    const refreshed = refreshInPlace(pod, ctx.now, inPlace);
    if (refreshed.error) {
      result.error = refreshed.error;
      return true;
    }
    result.actions.push(...refreshed.actions);
    result.requeueAfterSeconds = minDelay(result.requeueAfterSeconds, refreshed.requeueAfterSeconds);
    const lc = refreshLifecycle(ctx.cloneSet.spec.lifecycle, pod, updateRevision, ctx.now, inPlace);
    result.actions.push(...lc.actions);
    if (lc.labelPatched) modified = true;
    if (pod.metadata.labels?.[LABEL_POD_TEMPLATE_HASH] === undefined) {
      result.actions.push({
        type: 'PatchPod',
        pod: podRef(pod),
        reason: 'BackfillPodTemplateHash',
        patch: { metadata: { labels: { [LABEL_POD_TEMPLATE_HASH]: shortHash(podRevision(pod)) } } },
      });
      modified = true;
    }
  }
  return modified;
}

/** Step 5: indexes of pods that wait for the target revision and may be updated. */
function candidates(ctx: PhaseContext, updateNum: number): number[] {
  const updateRevision = ctx.updateRevision.metadata.name ?? '';
  const out: number[] = [];
  ctx.pods.forEach((pod, i) => {
    if (podMatchesRevision(pod, updateRevision) !== updateNum < 0) return;
    const state = lifecycleState(pod);
    if (state === LifecycleState.PreparingDelete) return;
    if (state !== LifecycleState.Updated && graceAnnotation(pod) !== undefined) return;
    out.push(i);
  });
  return out;
}

/**
 * Outcome of updating one pod: actions, an optional requeue (grace period), or an error that stops the phase.
 */
interface PodUpdate {
  actions: Action[];
  requeueAfterSeconds?: number;
  error?: string;
}

/**
 * In-place update specs to one target revision, by pod revision label: the spec depends only on the revision
 * the pod is at and the target, so it is computed once per label within one update phase and shared
 * (read-only) by the pods carrying that label.
 */
type InPlaceSpecs = Map<string, UpdateSpec | undefined>;

/**
 * The in-place update spec from the pod's own revision to `target`
 * (docs/behaviour/cloneset.md#in-place-update), computed once per label.
 */
function inPlaceSpecOf(
  ctx: PhaseContext,
  inPlace: InPlaceUpdateOptions,
  pod: Pod,
  target: ControllerRevision,
  specs: InPlaceSpecs,
): UpdateSpec | undefined {
  const label = podRevision(pod);
  if (specs.has(label)) return specs.get(label);
  const type = ctx.strategy.updateType;
  const own = ctx.revisions.find((r) => podMatchesRevision(pod, r.metadata.name ?? ''));
  const options: InPlaceSpecOptions = {
    gracePeriodSeconds: ctx.cloneSet.spec.updateStrategy?.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0,
    ignoreVolumeClaimTemplatesHashDiff: type === 'InPlaceOnly',
    gates: inPlace,
  };
  const spec = calculateInPlaceUpdateSpec(own, target, options);
  specs.set(label, spec);
  return spec;
}

/** Step 8 for one pod (docs/behaviour/cloneset.md#update-phase). */
function updatePod(
  ctx: PhaseContext,
  inPlace: InPlaceUpdateOptions,
  pod: Pod,
  target: ControllerRevision,
  specs: InPlaceSpecs,
): PodUpdate {
  const type = ctx.strategy.updateType;
  const name = pod.metadata.name ?? '';
  if (type === 'InPlaceIfPossible' || type === 'InPlaceOnly') {
    const spec = inPlaceSpecOf(ctx, inPlace, pod, target, specs);
    if (spec) {
      const hook = ctx.cloneSet.spec.lifecycle?.inPlaceUpdate;
      const state = lifecycleState(pod);
      switch (state) {
        case '':
        case LifecycleState.PreparingNormal:
        case LifecycleState.Normal:
          if (hook && isHookedBy(pod, hook)) {
            return {
              actions: transitionLifecycle(
                pod,
                LifecycleState.PreparingUpdate,
                !!hook.markPodNotReady,
                ctx.now,
              ).actions,
            };
          }
          break;
        case LifecycleState.Updated:
          return { actions: reenterPreparingUpdate(pod, hook, ctx.now).actions };
        case LifecycleState.PreparingUpdate:
          if (isHookedBy(pod, hook)) return { actions: [] };
          break;
        case LifecycleState.Updating:
          break;
        default:
          return { actions: [], error: `not allowed to in-place update pod ${name} in state ${state}` };
      }
      const grace = spec.graceSeconds > 0 ? spec.graceSeconds : undefined;
      return { actions: startInPlaceUpdate(pod, spec, ctx.now, inPlace), requeueAfterSeconds: grace };
    }
    if (type === 'InPlaceOnly') {
      return {
        actions: [],
        error: `find Pod ${name} update strategy is InPlaceOnly but can not update in-place`,
      };
    }
  }
  if (pod.metadata.labels && LABEL_SPECIFIED_DELETE in pod.metadata.labels) return { actions: [] };
  const patch = { metadata: { labels: { [LABEL_SPECIFIED_DELETE]: 'true' } } };
  const revision = target.metadata.name ?? '';
  return { actions: [{ type: 'PatchPod', pod: podRef(pod), reason: 'RecreateUpdate', patch, revision }] };
}

/**
 * The update phase (docs/behaviour/cloneset.md#update-phase; scenarios 32–49, 50e/f):
 * 1. refresh every pod in list order ({@link refreshInPlace}, {@link refreshLifecycle}, `pod-template-hash`
 *    back-fill with the suffix of `controller-revision-hash`); return after this step when any lifecycle or
 * hash    label was patched, or with `error` when a refresh failed;
 * 2. return for OnDelete or paused;
 * 3. diff (docs/behaviour/cloneset.md#diff, plain revision matching); `updateNum == 0` → return;
 * 4–7. target = update revision (`updateNum > 0`) or current revision (rollback); candidates; sort; limit;
 * 8. per pod, in place when possible (by lifecycle state and hook) with a requeue after `gracePeriodSeconds`;
 *    else `InPlaceOnly` → `error`; else a `PatchPod` `RecreateUpdate` labelling
 * `apps.kruise.io/specified-delete:    "true"` (skipped when the label is already there). The first error
 * stops the loop; a pod whose update starts here keeps `InPlaceUpdateReady` False (no step-1 refresh to True).
 * Events `SuccessfulUpdatePodInPlace` / `SuccessfulUpdatePodReCreate` are recorded by the
 * executor after the writes succeed, so none are returned here. `changed` is always false (it is meaningful
 * for the scale phase).
 *
 * Unsettled upstream, decided here (case C14 (docs/behaviour/scenarios.md#c14)): `maxSurge` is honoured even
 * when every changed field could be updated in place — surge pods are created and then old pods are both
 * updated in place and scaled in, exactly as OpenKruise does today; Kruiseless keeps that parity rather than
 * skipping surge for in-place-eligible changes.
 */
export function planUpdate(ctx: PhaseContext): PhaseResult {
  const result: PhaseResult = { changed: false, actions: [], events: [] };
  const inPlace = inPlaceUpdateOptions(ctx.options);
  if (refreshPods(ctx, inPlace, result)) return result;
  if (ctx.strategy.updateType === 'OnDelete' || ctx.strategy.paused) return result;

  const updateRevision = ctx.updateRevision.metadata.name ?? '';
  const diff = calculateDiff(ctx, (p) => podMatchesRevision(p, updateRevision));
  if (diff.updateNum === 0) return result;
  const target = diff.updateNum > 0 ? ctx.updateRevision : ctx.currentRevision;

  const sorted = sortUpdateIndexes(
    ctx.pods,
    candidates(ctx, diff.updateNum),
    ctx.cloneSet.spec.updateStrategy,
  );
  const kept = limitUpdateIndexes(
    ctx.pods,
    sorted,
    diff,
    target.metadata.name ?? '',
    ctx.strategy.minReadySeconds,
    ctx.now,
  );
  const specs: InPlaceSpecs = new Map();
  for (const i of kept) {
    const res = updatePod(ctx, inPlace, ctx.pods[i], target, specs);
    result.actions.push(...res.actions);
    result.requeueAfterSeconds = minDelay(result.requeueAfterSeconds, res.requeueAfterSeconds);
    if (res.error) {
      result.error = res.error;
      break;
    }
  }
  result.actions = withoutReadyWhileStarting(result.actions);
  return result;
}

/**
 * `actions` without the step-1 `InPlaceUpdateReady=True` refresh of a pod whose in-place update starts in the
 * same plan (docs/behaviour/cloneset.md#in-place-update): such a pod is one whose last start was cut short
 * (its `StartInPlaceUpdate` status patch landed, the pod patch did not, e.g. a 409), so it stays not ready
 * instead of flapping Ready until the update is done.
 */
function withoutReadyWhileStarting(actions: Action[]): Action[] {
  const starting = new Set(
    actions.flatMap((a) => (a.type === 'PatchPod' && a.reason === 'InPlaceUpdate' ? [a.pod.name] : [])),
  );
  return actions.filter(
    (a) => !(a.type === 'PatchPodStatus' && a.reason === 'InPlaceUpdateReady' && starting.has(a.pod.name)),
  );
}
