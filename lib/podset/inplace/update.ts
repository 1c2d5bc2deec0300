/**
 * OpenKruise: pkg/util/inplaceupdate/inplace_update.go `Update`, `updatePodInPlace`, `Refresh`,
 * `finishGracePeriod`, `updateNextBatch`, `updateCondition`;
 * pkg/util/inplaceupdate/inplace_update_defaults.go `defaultCheckPodNeedsBeUnready`.
 *
 * In-place update actions (docs/behaviour/cloneset.md#in-place-update): starting an update on a pod
 * ("Performing it"), and the per-pod refresh run at the start of every update phase (grace periods, next
 * container batches, `InPlaceUpdateReady=True`). Pure: the results are {@link Action}s for the executor,
 * planned against the listed pod.
 */
import {
  ANNOTATION_INPLACE_UPDATE_GRACE,
  ANNOTATION_INPLACE_UPDATE_STATE,
  ANNOTATION_INPLACE_UPDATE_STATE_LEGACY,
  CONDITION_INPLACE_UPDATE_READY,
  LifecycleState,
  REASON_START_INPLACE_UPDATE,
} from '../../api/keys.js';
import type { JsonObject, Pod, PodCondition } from '../../api/types.js';
import { applyUpdateSpec, areContainersUpdated, hasNextBatch } from './apply.js';
import {
  graceAnnotation,
  mergeInto,
  parseInPlaceUpdateState,
  parseUpdateSpec,
  removeGraceAnnotations,
  serializeInPlaceUpdateState,
  serializeUpdateSpec,
  stateAnnotation,
  type InPlaceUpdateState,
  type UpdateSpec,
} from './state.js';
import { lifecycleStatePatch } from '../lifecycle/patch.js';
import { getPodCondition, podMatchesRevision, podRef, timeMillis } from '../pods.js';
import { hasReadinessGate, readinessFromGates } from '../readiness.js';
import { metaTime } from '../../api/time.js';
import type { Action } from '../actions.js';
import type { InPlaceUpdateGates, InPlaceUpdateOptions } from './options.js';
import { errorMessage } from '../../core/errors.js';

/**
 * JSON of a condition that replaces `old` entirely under a strategic merge (fields `old` had become `null`).
 */
function replacingCondition(next: PodCondition, old: PodCondition | undefined): JsonObject {
  const out: JsonObject = { type: next.type, status: next.status };
  for (const f of ['reason', 'message', 'lastTransitionTime'] as const) {
    const v = next[f];
    if (v !== undefined && v !== null && v !== '') out[f] = v;
    else if (old?.[f]) out[f] = null;
  }
  return out;
}

/**
 * Sets a condition the way OpenKruise's `SetPodCondition` does (replace only when the status differs, append
 * when missing) and, when `recomputeReady`, recomputes `Ready` from the readiness gates if `Ready` exists and
 * `ContainersReady` is True (docs/behaviour/cloneset.md#readiness). Returns the pods/status patch, or
 * undefined when nothing changes.
 */
function conditionPatch(
  pod: Pod,
  next: PodCondition,
  recomputeReady: boolean,
  now: Date,
): JsonObject | undefined {
  const conditions = [...(pod.status?.conditions ?? [])];
  const changed: JsonObject[] = [];
  const set = (c: PodCondition) => {
    const i = conditions.findIndex((x) => x.type === c.type);
    if (i >= 0 && conditions[i].status === c.status) return;
    changed.push(replacingCondition(c, i >= 0 ? conditions[i] : undefined));
    if (i >= 0) conditions[i] = c;
    else conditions.push(c);
  };
  set(next);
  const ready = recomputeReady ? readinessFromGates(pod, conditions, now) : undefined;
  if (ready) set(ready);
  return changed.length > 0 ? { status: { conditions: changed } } : undefined;
}

/**
 * Whether starting `spec` must take the pod out of service first
 * (docs/behaviour/cloneset.md#in-place-update): it has the `InPlaceUpdateReady` gate, except that with
 * vertical scaling a resources-only update keeps the pod ready unless a changed cpu/memory has a container
 * `resizePolicy` of `RestartContainer`.
 */
export function podNeedsUnready(
  pod: Pod,
  spec: UpdateSpec,
  gates: Pick<InPlaceUpdateGates, 'inPlaceWorkloadVerticalScaling'>,
): boolean {
  const verticalOnly =
    Object.keys(spec.containerResources).length > 0 &&
    Object.keys(spec.containerImages).length === 0 &&
    !spec.updateEnvFromMetadata;
  if (!gates.inPlaceWorkloadVerticalScaling || !verticalOnly)
    return hasReadinessGate(pod, CONDITION_INPLACE_UPDATE_READY);
  const restart = pod.spec.containers.some((c) => {
    const r = spec.containerResources[c.name];
    if (!r) return false;
    const policies = (c.resizePolicy ?? []) as { resourceName?: string; restartPolicy?: string }[];
    return policies.some(
      (p) =>
        p.restartPolicy === 'RestartContainer' &&
        p.resourceName !== undefined &&
        (r.limits?.[p.resourceName] !== undefined || r.requests?.[p.resourceName] !== undefined),
    );
  });
  return restart && hasReadinessGate(pod, CONDITION_INPLACE_UPDATE_READY);
}

/**
 * The actions that start an in-place update of `pod` to `spec.revision`
 * (docs/behaviour/cloneset.md#in-place-update):
 * 1. when {@link podNeedsUnready}: `PatchPodStatus` (reason `StartInPlaceUpdate`) setting
 *    `InPlaceUpdateReady`
 *    False/StartInPlaceUpdate and recomputing `Ready` (omitted when neither changes);
 * 2. one `PatchPod` (reason `InPlaceUpdate`): the revision labels, lifecycle `Updating` + timestamp (unless
 *    `lifecycleUpdating` is false), the state
 *    annotation (legacy key set to `null`), then either the applied first batch (graceSeconds ≤ 0) or the
 * grace    annotation holding the whole spec (images untouched). A first batch that changes cpu/memory carries
 *    them as the action's `resize` (the `pods/resize` patch the executor sends before the pod patch, as
 *    OpenKruise's `updatePodInPlace`).
 * @param options `revisionLabels` writes the target revision on the pod; the vertical-scaling gate
 */
export function startInPlaceUpdate(
  pod: Pod,
  spec: UpdateSpec,
  now: Date,
  options: InPlaceUpdateOptions,
): Action[] {
  const actions: Action[] = [];
  if (podNeedsUnready(pod, spec, options)) {
    const patch = conditionPatch(
      pod,
      {
        type: CONDITION_INPLACE_UPDATE_READY,
        status: 'False',
        reason: REASON_START_INPLACE_UPDATE,
        lastTransitionTime: metaTime(now),
      },
      true,
      now,
    );
    if (patch)
      actions.push({ type: 'PatchPodStatus', pod: podRef(pod), reason: 'StartInPlaceUpdate', patch });
  }
  const state: InPlaceUpdateState = {
    revision: spec.revision,
    updateTimestamp: metaTime(now),
    ...(spec.updateEnvFromMetadata ? { updateEnvFromMetadata: true } : {}),
    ...(Object.keys(spec.containerResources).length > 0 ? { updateResources: true } : {}),
    ...(Object.keys(spec.containerImages).length > 0 ? { updateImages: true } : {}),
  };
  const patch: JsonObject = {
    metadata: {
      labels: options.revisionLabels(spec.revision),
      annotations: {
        [ANNOTATION_INPLACE_UPDATE_STATE]: serializeInPlaceUpdateState(state),
        [ANNOTATION_INPLACE_UPDATE_STATE_LEGACY]: null,
      },
    },
  };
  if (options.lifecycleUpdating !== false)
    mergeInto(patch, lifecycleStatePatch(LifecycleState.Updating, now));
  let resize: JsonObject | undefined;
  if (spec.graceSeconds <= 0) {
    const applied = applyUpdateSpec(pod, spec, state, now, options);
    mergeInto(patch, applied.patch);
    mergeInto(patch, { metadata: { annotations: removeGraceAnnotations(pod) } });
    resize = applied.resize;
  } else {
    mergeInto(patch, {
      metadata: { annotations: { [ANNOTATION_INPLACE_UPDATE_GRACE]: serializeUpdateSpec(spec) } },
    });
  }
  actions.push({
    type: 'PatchPod',
    pod: podRef(pod),
    reason: 'InPlaceUpdate',
    patch,
    ...(resize ? { resize } : {}),
    revision: spec.revision,
  });
  return actions;
}

/** Outcome of {@link refreshInPlace}. */
export interface InPlaceRefreshResult {
  actions: Action[];
  /** Remaining grace period, whole seconds rounded up, when the pod must be looked at again. */
  requeueAfterSeconds?: number;
  /** A malformed annotation; aborts the update phase (docs/behaviour/cloneset.md#update-phase). */
  error?: string;
}

/**
 * The in-place refresh of one listed pod (docs/behaviour/cloneset.md#in-place-update; scenarios 33, 37–39,
 * 58):
 * - grace annotation present: drop it when the pod's revision no longer matches its spec; else request a
 *   requeue
 *   for the remaining time; else apply the first batch and drop it (`PatchPod` `InPlaceUpdateGraceExpired`).
 * Stop.
 * - state annotation present: stop while containers are not updated; with containers left for later, stop
 *   unless
 *   every `preCheckBeforeNext` container is ready, then apply the next batch (`InPlaceUpdateNextBatch`) and
 * stop.
 * - finally, with the `InPlaceUpdateReady` gate, set the condition True (`PatchPodStatus`
 *   `InPlaceUpdateReady`)
 *   unless it is already True (like upstream, an existing True condition with a reason is left as it is).
 * Errors: an unparsable grace or state annotation, or a grace annotation without a state annotation.
 */
export function refreshInPlace(
  pod: Pod,
  now: Date,
  gates: Pick<InPlaceUpdateGates, 'inPlaceWorkloadVerticalScaling'>,
): InPlaceRefreshResult {
  const graceText = graceAnnotation(pod);
  if (graceText !== undefined) return finishGracePeriod(pod, graceText, now, gates);

  const stateText = stateAnnotation(pod);
  if (stateText !== undefined) {
    let state: InPlaceUpdateState;
    try {
      state = parseInPlaceUpdateState(stateText);
    } catch (e) {
      return { actions: [], error: errorMessage(e) };
    }
    if (!areContainersUpdated(pod, state, gates)) return { actions: [] };
    if (hasNextBatch(state)) {
      const statuses = pod.status?.containerStatuses ?? [];
      const ready = (state.preCheckBeforeNext?.containersRequiredReady ?? []).every(
        (n) => statuses.find((s) => s.name === n)?.ready === true,
      );
      if (!ready) return { actions: [] };
      const images = state.nextContainerImages ?? {};
      const refMetadata = state.nextContainerRefMetadata ?? {};
      if (Object.keys(images).length > 0 || Object.keys(refMetadata).length > 0) {
        const spec: UpdateSpec = {
          revision: state.revision,
          containerImages: images,
          containerRefMetadata: refMetadata,
          containerResources: state.nextContainerResources ?? {},
          updateEnvFromMetadata: !!state.updateEnvFromMetadata,
          graceSeconds: 0,
        };
        const { patch, resize } = applyUpdateSpec(pod, spec, state, now, gates);
        return {
          actions: [
            {
              type: 'PatchPod',
              pod: podRef(pod),
              reason: 'InPlaceUpdateNextBatch',
              patch,
              ...(resize ? { resize } : {}),
            },
          ],
        };
      }
    }
  }

  if (!hasReadinessGate(pod, CONDITION_INPLACE_UPDATE_READY)) return { actions: [] };
  if (getPodCondition(pod, CONDITION_INPLACE_UPDATE_READY)?.status === 'True') return { actions: [] };
  const patch = conditionPatch(
    pod,
    { type: CONDITION_INPLACE_UPDATE_READY, status: 'True', lastTransitionTime: metaTime(now) },
    false,
    now,
  );
  return patch
    ? { actions: [{ type: 'PatchPodStatus', pod: podRef(pod), reason: 'InPlaceUpdateReady', patch }] }
    : { actions: [] };
}

function finishGracePeriod(
  pod: Pod,
  graceText: string,
  now: Date,
  gates: Pick<InPlaceUpdateGates, 'inPlaceWorkloadVerticalScaling'>,
): InPlaceRefreshResult {
  let spec: UpdateSpec;
  try {
    spec = parseUpdateSpec(graceText);
  } catch (e) {
    return { actions: [], error: errorMessage(e) };
  }
  const stateText = stateAnnotation(pod);
  if (stateText === undefined) {
    return {
      actions: [],
      error: `pod has ${ANNOTATION_INPLACE_UPDATE_GRACE} but ${ANNOTATION_INPLACE_UPDATE_STATE} not found`,
    };
  }
  let state: InPlaceUpdateState;
  try {
    state = parseInPlaceUpdateState(stateText);
  } catch {
    return { actions: [] };
  }
  const drop: JsonObject = { metadata: { annotations: removeGraceAnnotations(pod) } };
  if (!podMatchesRevision(pod, spec.revision)) {
    return {
      actions: [{ type: 'PatchPod', pod: podRef(pod), reason: 'InPlaceUpdateGraceExpired', patch: drop }],
    };
  }
  const remainingMs = spec.graceSeconds * 1000 - (now.getTime() - timeMillis(state.updateTimestamp));
  if (remainingMs > 0) return { actions: [], requeueAfterSeconds: Math.ceil(remainingMs / 1000) };
  const applied = applyUpdateSpec(pod, spec, state, now, gates);
  const patch = mergeInto(applied.patch, drop);
  const resize = applied.resize ? { resize: applied.resize } : {};
  return {
    actions: [{ type: 'PatchPod', pod: podRef(pod), reason: 'InPlaceUpdateGraceExpired', patch, ...resize }],
  };
}
