/**
 * In-memory defaulting of a v1alpha1 CloneSet (docs/behaviour/cloneset.md#defaults;
 * docs/behaviour/cloneset.md#validation: the CRD carries the same values as structural-schema defaults, the
 * reconciler re-applies them so that objects created before the CRD defaults existed behave the same).
 */
import { defaultClaimTemplateInPlace, defaultPodTemplate } from '../../../api/podTemplateDefaults.js';
import type { CloneSet, CloneSetUpdateStrategy, IntOrString } from '../../../api/types.js';
import type { CloneSetV1beta1, RollingUpdateCloneSetStrategy } from '../../../api/v1beta1.js';

/** `updateStrategy.maxUnavailable` default (docs/behaviour/cloneset.md#api-fields). */
export const DEFAULT_MAX_UNAVAILABLE = '20%';
/** `revisionHistoryLimit` default (docs/behaviour/cloneset.md#api-fields). */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/**
 * What both versions' defaults give alike, in place on `spec`: the templates' defaults (unless
 * `templateNoDefaults`), `replicas` 1 and `revisionHistoryLimit` 10.
 */
function defaultSharedFields(
  spec: CloneSet['spec'] | CloneSetV1beta1['spec'],
  templateNoDefaults: boolean | undefined,
): void {
  if (!templateNoDefaults) {
    if (spec.template) spec.template = defaultPodTemplate(spec.template);
    for (const claim of spec.volumeClaimTemplates ?? []) defaultClaimTemplateInPlace(claim);
  }
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= DEFAULT_REVISION_HISTORY_LIMIT;
}

/**
 * The rolling fields both versions default alike, in place on the block that holds them (v1alpha1's
 * `updateStrategy`, v1beta1's `rollingUpdate`): `inPlaceUpdateStrategy` `{}` for an in-place `policy`, `partition` 0,
 * `maxUnavailable` `"20%"`, `maxSurge` 0.
 */
function defaultRollingFields(
  block: {
    partition?: IntOrString;
    maxUnavailable?: IntOrString;
    maxSurge?: IntOrString;
    inPlaceUpdateStrategy?: object;
  },
  policy: string,
): void {
  if ((policy === 'InPlaceIfPossible' || policy === 'InPlaceOnly') && !block.inPlaceUpdateStrategy)
    block.inPlaceUpdateStrategy = {};
  block.partition ??= 0;
  block.maxUnavailable ??= DEFAULT_MAX_UNAVAILABLE;
  block.maxSurge ??= 0;
}

/**
 * Returns a NEW CloneSet with the defaulting webhook's values filled in
 * (docs/behaviour/cloneset.md#defaults); the input is not modified and fields already set are kept:
 * `replicas` 1, `revisionHistoryLimit` 10, `updateStrategy.type` `ReCreate`, `inPlaceUpdateStrategy` `{}` for
 * the in-place types, `partition` 0, `maxUnavailable` `"20%"`, `maxSurge` 0. `scaleStrategy`, `lifecycle`,
 * `minReadySeconds` and `progressDeadlineSeconds` are untouched.
 *
 * The pod template gets the defaults OpenKruise's webhook stores in it ({@link defaultPodTemplate}:
 * `dnsPolicy`, `restartPolicy`, `securityContext`, `terminationGracePeriodSeconds`, `schedulerName`, container
 * `imagePullPolicy` `Always`, termination-message fields, probe/port/volume defaults), so revision names and
 * pods match OpenKruise's for the same YAML (docs/behaviour/cloneset.md#pod-template-defaults), and each
 * volumeClaimTemplate `status.phase: Pending` ({@link defaultClaimTemplateInPlace}; neither its hash nor the PVCs
 * made from it read the status). With `templateNoDefaults` (OpenKruise's `TemplateNoDefaults` gate) the templates
 * are kept exactly as stored. Kruise injects them only when the template is created or changed (the mutating
 * webhook, ./mutation.ts, decides as it does); doing it on every read gives the same template because the
 * defaulting is idempotent. OpenKruise: `SetDefaultsCloneSet` in `apis/apps/defaults/v1alpha1.go`.
 * @param options.templateNoDefaults skip the pod-template defaults (default false)
 */
export function applyDefaults(cs: CloneSet, options: { templateNoDefaults?: boolean } = {}): CloneSet {
  const out: CloneSet = structuredClone(cs);
  const spec = out.spec;
  defaultSharedFields(spec, options.templateNoDefaults);
  const us: CloneSetUpdateStrategy = spec.updateStrategy ?? {};
  if (!us.type) us.type = 'ReCreate';
  defaultRollingFields(us, us.type);
  spec.updateStrategy = us;
  return out;
}

/**
 * Returns a NEW v1beta1 CloneSet with the values OpenKruise v1.9.0's defaulting webhook stores for a v1beta1 request
 * (`SetDefaultsCloneSetV1beta1` in `apis/apps/defaults/v1beta1.go`); the input is not modified and fields already set
 * are kept: `replicas` 1, `revisionHistoryLimit` 10, `updateStrategy.type` `RollingUpdate`, and for that type a
 * `rollingUpdate` with `podUpdatePolicy` `ReCreate`, `inPlaceUpdateStrategy` `{}` for the in-place policies,
 * `partition` 0, `maxUnavailable` `"20%"`, `maxSurge` 0 (an `OnDelete` strategy gets none of these). The templates
 * get the same defaults as {@link applyDefaults} gives a v1alpha1 CloneSet, unless `templateNoDefaults`.
 * `scaleStrategy.enablePVCReuse` is left to the CRD's own default, as upstream leaves it.
 * @param options.templateNoDefaults skip the pod-template and claim-template defaults (default false)
 */
export function applyV1beta1Defaults(
  cs: CloneSetV1beta1,
  options: { templateNoDefaults?: boolean } = {},
): CloneSetV1beta1 {
  const out: CloneSetV1beta1 = structuredClone(cs);
  const spec = out.spec;
  defaultSharedFields(spec, options.templateNoDefaults);
  const us = spec.updateStrategy ?? {};
  if (!us.type) us.type = 'RollingUpdate';
  if (us.type === 'RollingUpdate') {
    const ru: RollingUpdateCloneSetStrategy = us.rollingUpdate ?? {};
    if (!ru.podUpdatePolicy) ru.podUpdatePolicy = 'ReCreate';
    defaultRollingFields(ru, ru.podUpdatePolicy);
    us.rollingUpdate = ru;
  }
  spec.updateStrategy = us;
  return out;
}
