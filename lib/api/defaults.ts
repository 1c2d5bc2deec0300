/**
 * In-memory defaulting of a v1alpha1 CloneSet (docs/behaviour/cloneset.md#defaults;
 * docs/behaviour/cloneset.md#validation: the CRD carries the same values as structural-schema defaults, the
 * reconciler re-applies them so that objects created before the CRD defaults existed behave the same).
 */
import type { CloneSet, CloneSetUpdateStrategy } from './types.js';

/** `updateStrategy.maxUnavailable` default (docs/behaviour/cloneset.md#api-fields). */
export const DEFAULT_MAX_UNAVAILABLE = '20%';
/** `revisionHistoryLimit` default (docs/behaviour/cloneset.md#api-fields). */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/**
 * Returns a NEW CloneSet with the defaulting webhook's values filled in
 * (docs/behaviour/cloneset.md#defaults); the input is not modified and fields already set are kept:
 * `replicas` 1, `revisionHistoryLimit` 10, `updateStrategy.type` `ReCreate`, `inPlaceUpdateStrategy` `{}` for
 * the in-place types, `partition` 0, `maxUnavailable` `"20%"`, `maxSurge` 0. `scaleStrategy`, `lifecycle`,
 * `minReadySeconds` and `progressDeadlineSeconds` are untouched.
 *
 * Pod-template defaulting is deliberately NOT done (docs/behaviour/cloneset.md#pod-template-defaults).
 * Kruise's webhook injects Kubernetes pod-spec defaults (restartPolicy, dnsPolicy, schedulerName,
 * terminationGracePeriodSeconds, imagePullPolicy `Always`, …) into the stored template; Kruiseless has no
 * webhook, and the CRD cannot default inside the schemaless (`x-kubernetes-preserve-unknown-fields`)
 * template. So the template stays exactly as stored, revision hashes are computed from it as stored, and pods
 * get only the defaults the API server itself applies when they are created. Consequences: revision names
 * differ from Kruise's for the same YAML (they depend on the stored bytes), and an empty `imagePullPolicy`
 * follows Kubernetes' tag rule instead of Kruise's `Always`.
 */
export function applyDefaults(cs: CloneSet): CloneSet {
  const out: CloneSet = structuredClone(cs);
  const spec = out.spec;
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= DEFAULT_REVISION_HISTORY_LIMIT;
  const us: CloneSetUpdateStrategy = spec.updateStrategy ?? {};
  if (!us.type) us.type = 'ReCreate';
  if ((us.type === 'InPlaceIfPossible' || us.type === 'InPlaceOnly') && !us.inPlaceUpdateStrategy) {
    us.inPlaceUpdateStrategy = {};
  }
  us.partition ??= 0;
  us.maxUnavailable ??= DEFAULT_MAX_UNAVAILABLE;
  us.maxSurge ??= 0;
  spec.updateStrategy = us;
  return out;
}
