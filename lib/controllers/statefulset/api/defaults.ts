/**
 * In-memory defaulting of a v1beta1 Advanced StatefulSet, as OpenKruise's mutating webhook stores it
 * (`SetDefaultsStatefulSet` in `apis/apps/defaults/v1beta1.go`, called from
 * `pkg/webhook/statefulset/mutating`). Kruiseless has no mutating webhook in the cluster, so the controller
 * applies these on every read; the defaulting is idempotent, so an object OpenKruise's webhook already defaulted
 * reads the same.
 */
import { defaultClaimTemplateInPlace, defaultPodTemplate } from '../../../api/podTemplateDefaults.js';
import type { StatefulSet } from './types.js';

/** `revisionHistoryLimit` default. */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/** The feature gates and switches that change the defaults (OpenKruise v1.9.0 `pkg/features`). */
export interface StatefulSetDefaultsOptions {
  /** Gate `TemplateNoDefaults` (alpha, off): keep the pod template and volumeClaimTemplates as stored. */
  templateNoDefaults?: boolean;
  /** Gate `StatefulSetAutoDeletePVC` (beta, on): default the PVC retention policy to Retain/Retain. */
  statefulSetAutoDeletePVC?: boolean;
  /** Gate `StatefulSetAutoResizePVCGate` (alpha, off): default `volumeClaimUpdateStrategy.type` to OnDelete. */
  statefulSetAutoResizePVC?: boolean;
}

/**
 * A NEW StatefulSet with the webhook's defaults; the input is not modified and set fields are kept:
 * `podManagementPolicy` OrderedReady; `updateStrategy.type` RollingUpdate, and for RollingUpdate a
 * `rollingUpdate` with `partition` 0, `maxUnavailable` 1, `podUpdatePolicy` ReCreate, `minReadySeconds` 0;
 * with `StatefulSetAutoDeletePVC` the retention policy Retain/Retain; with `StatefulSetAutoResizePVCGate`
 * `volumeClaimUpdateStrategy.type` OnDelete; `replicas` 1; `revisionHistoryLimit` 10. Unless
 * `templateNoDefaults`, the pod template gets Kubernetes' pod-spec defaults ({@link defaultPodTemplate}) and each
 * volumeClaimTemplate `status.phase: Pending` (the webhook also rounds resource quantities to milli-units,
 * which changes no valid quantity's JSON and is not done here).
 * @param sts the StatefulSet as stored
 * @param options the gates (absent ones take OpenKruise v1.9.0's defaults)
 */
export function applyDefaults(sts: StatefulSet, options: StatefulSetDefaultsOptions = {}): StatefulSet {
  const out = structuredClone(sts);
  const spec = out.spec;
  if (!spec.podManagementPolicy) spec.podManagementPolicy = 'OrderedReady';
  const us = (spec.updateStrategy ??= {});
  if (!us.type) us.type = 'RollingUpdate';
  if (us.type === 'RollingUpdate') {
    const ru = (us.rollingUpdate ??= {});
    ru.partition ??= 0;
    ru.maxUnavailable ??= 1;
    if (!ru.podUpdatePolicy) ru.podUpdatePolicy = 'ReCreate';
    ru.minReadySeconds ??= 0;
  }
  if (options.statefulSetAutoDeletePVC ?? true) {
    const policy = (spec.persistentVolumeClaimRetentionPolicy ??= {});
    if (!policy.whenDeleted) policy.whenDeleted = 'Retain';
    if (!policy.whenScaled) policy.whenScaled = 'Retain';
  }
  if (options.statefulSetAutoResizePVC ?? false) {
    const vcus = (spec.volumeClaimUpdateStrategy ??= {});
    if (!vcus.type) vcus.type = 'OnDelete';
  }
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= DEFAULT_REVISION_HISTORY_LIMIT;
  if (!options.templateNoDefaults) {
    spec.template = defaultPodTemplate(spec.template);
    for (const claim of spec.volumeClaimTemplates ?? []) defaultClaimTemplateInPlace(claim);
  }
  return out;
}
