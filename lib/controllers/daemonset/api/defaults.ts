/**
 * OpenKruise: apis/apps/defaults/v1beta1.go `SetDefaultsDaemonSetV1beta1` (what the mutating webhook stores), and
 * the webhook's re-encoding of the typed object, which writes every quantity in Go's canonical text.
 *
 * Kruiseless's `/mutate` stores these defaults (./mutation.ts) where it is registered; the controller applies them in
 * memory on every read as well, so a DaemonSet stored without the webhook decides as one it defaulted. The canonical quantities
 * matter to the revision hash: Go hashes the decoded `resource.Quantity`, whose fields differ for `0.5` and `500m`.
 */
import { canonicalQuantity } from '../../../api/quantity.js';
import type { Container, PodTemplateSpec } from '../../../api/types.js';
import { DEFAULT_BURST_REPLICAS, DEFAULT_REVISION_HISTORY_LIMIT } from './keys.js';
import type { DaemonSet } from './types.js';

function canonicalList(list: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!list) return list;
  return Object.fromEntries(Object.entries(list).map(([k, v]) => [k, canonicalQuantity(String(v))]));
}

function canonicalContainers(containers: Container[] | undefined): Container[] | undefined {
  return containers?.map((c) =>
    c.resources
      ? {
          ...c,
          resources: {
            ...c.resources,
            ...(c.resources.limits ? { limits: canonicalList(c.resources.limits) } : {}),
            ...(c.resources.requests ? { requests: canonicalList(c.resources.requests) } : {}),
          },
        }
      : c,
  );
}

/** `template` with every container's and init container's resource quantities in Go's canonical text. */
export function canonicalTemplate(template: PodTemplateSpec): PodTemplateSpec {
  const spec = template.spec;
  const initContainers = canonicalContainers(spec.initContainers);
  return {
    ...template,
    spec: {
      ...spec,
      containers: canonicalContainers(spec.containers) ?? [],
      ...(initContainers ? { initContainers } : {}),
    },
  };
}

/**
 * `ds` with `SetDefaultsDaemonSetV1beta1`'s defaults — what OpenKruise's mutating webhook adds: `burstReplicas` 250,
 * `updateStrategy.type` `RollingUpdate`, and for `RollingUpdate` a `rollingUpdate` with `rollingUpdateType`
 * `Standard` and — when neither is set — `maxUnavailable` 1 and `maxSurge` 0; `revisionHistoryLimit` 10. The
 * template is left as it is. Returns a new object; `ds` is not modified.
 */
export function withSpecDefaults(ds: DaemonSet): DaemonSet {
  const spec = ds.spec;
  const type = spec.updateStrategy?.type || 'RollingUpdate';
  let rollingUpdate = spec.updateStrategy?.rollingUpdate;
  if (type === 'RollingUpdate') {
    const ru = { ...rollingUpdate };
    ru.rollingUpdateType = ru.rollingUpdateType || 'Standard';
    if (ru.maxUnavailable === undefined && ru.maxSurge === undefined) {
      ru.maxUnavailable = 1;
      ru.maxSurge = 0;
    }
    rollingUpdate = ru;
  }
  return {
    ...ds,
    spec: {
      ...spec,
      burstReplicas: spec.burstReplicas ?? DEFAULT_BURST_REPLICAS,
      updateStrategy: { ...spec.updateStrategy, type, ...(rollingUpdate ? { rollingUpdate } : {}) },
      revisionHistoryLimit: spec.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT,
    },
  };
}

/**
 * `ds` as the controller reads it: {@link withSpecDefaults} and canonical template quantities
 * ({@link canonicalTemplate}), so a DaemonSet stored without the webhook plans as one it defaulted. Returns a new
 * object; `ds` is not modified.
 */
export function withDefaults(ds: DaemonSet): DaemonSet {
  const defaulted = withSpecDefaults(ds);
  return { ...defaulted, spec: { ...defaulted.spec, template: canonicalTemplate(ds.spec.template) } };
}
