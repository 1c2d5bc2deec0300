/**
 * OpenKruise: apis/apps/defaults/v1beta1.go `SetDefaultsDaemonSetV1beta1` (what the mutating webhook stores), and
 * the webhook's re-encoding of the typed object, which writes every quantity in Go's canonical text.
 *
 * Kruiseless answers no DaemonSet admission yet, so the controller reads the DaemonSet with these defaults applied
 * in memory and decides as OpenKruise's controller does on one its webhook defaulted. The canonical quantities
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
 * `ds` with OpenKruise's webhook defaults: `burstReplicas` 250, `updateStrategy.type` `RollingUpdate`, and for
 * `RollingUpdate` a `rollingUpdate` with `rollingUpdateType` `Standard` and — when neither is set —
 * `maxUnavailable` 1 and `maxSurge` 0; `revisionHistoryLimit` 10; canonical template quantities
 * ({@link canonicalTemplate}). Returns a new object; `ds` is not modified.
 */
export function withDefaults(ds: DaemonSet): DaemonSet {
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
      template: canonicalTemplate(spec.template),
      burstReplicas: spec.burstReplicas ?? DEFAULT_BURST_REPLICAS,
      updateStrategy: { ...spec.updateStrategy, type, ...(rollingUpdate ? { rollingUpdate } : {}) },
      revisionHistoryLimit: spec.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT,
    },
  };
}
