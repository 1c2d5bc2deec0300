/**
 * OpenKruise's validating webhook for WorkloadSpreads (`pkg/webhook/workloadspread/validating`,
 * `vworkloadspread.kb.io`, `WorkloadSpreadCreateUpdateHandler.Handle`, v1.9.0) as a {@link Validator} of v1beta1: a
 * CREATE or UPDATE refused with ./validation.ts `validateWorkloadSpread`'s errors, HTTP 400
 * (`admission.Errored(http.StatusBadRequest, …)`); with gate `WorkloadSpread` off every write is refused with 403. A
 * write through v1alpha1 reaches it converted to v1beta1 by Kruiseless's `/convert` (the configuration's
 * `matchPolicy: Equivalent`), as upstream converts it first. The other WorkloadSpreads of the namespace (the conflict
 * rule) come from {@link WorkloadSpreadValidationReads}; without them that rule is skipped.
 */
import { verdictOf, withSpecObject, type Validator } from '../../../api/admission/validation.js';
import { isNotFound, listAll, type KubeClient } from '../../../kube/index.js';
import { workloadSpreadEnabled, type WorkloadSpreadSettings } from '../settings.js';
import { WORKLOADSPREAD_RESOURCE } from './resource.js';
import type { WorkloadSpread } from './types.js';
import { validateWorkloadSpread } from './validation.js';

/** What the WorkloadSpread validator reads from the cluster, as upstream's handler reads it. */
export interface WorkloadSpreadValidationReads {
  /** The WorkloadSpreads of `namespace`. @throws KubeApiError */
  workloadSpreads(namespace: string): Promise<WorkloadSpread[]>;
}

/** {@link WorkloadSpreadValidationReads} over a cluster client; a missing CRD reads as none. */
export function kubeWorkloadSpreadValidationReads(
  kube: Pick<KubeClient, 'list'>,
): WorkloadSpreadValidationReads {
  return {
    workloadSpreads: (namespace) =>
      listAll(kube, WORKLOADSPREAD_RESOURCE, { namespace }).then(
        (l) => l.items,
        (e: unknown) => {
          if (isNotFound(e)) return [];
          throw e;
        },
      ),
  };
}

/** The WorkloadSpread validator (CREATE and UPDATE of v1beta1 `workloadspreads`). */
export function workloadSpreadValidator(
  options: { settings?: WorkloadSpreadSettings; reads?: WorkloadSpreadValidationReads } = {},
): Validator {
  return {
    webhookName: 'vworkloadspread.kb.io',
    group: WORKLOADSPREAD_RESOURCE.group,
    resource: WORKLOADSPREAD_RESOURCE.plural,
    version: WORKLOADSPREAD_RESOURCE.version,
    operations: ['CREATE', 'UPDATE'],
    async validate({ operation, object, oldObject }) {
      if (!workloadSpreadEnabled(options.settings ?? {}))
        return { allowed: false, code: 403, message: 'feature-gate WorkloadSpread is not enabled' };
      const read = (o: unknown): WorkloadSpread => {
        const ws = withSpecObject<WorkloadSpread>(o);
        return { ...ws, metadata: ws.metadata ?? {}, spec: { ...ws.spec, subsets: ws.spec.subsets ?? [] } };
      };
      const ws = read(object);
      const old = operation === 'UPDATE' && oldObject ? read(oldObject) : undefined;
      const others = options.reads
        ? await options.reads.workloadSpreads(ws.metadata.namespace ?? '')
        : undefined;
      return verdictOf(
        validateWorkloadSpread(ws, { ...(old ? { old } : {}), ...(others ? { others } : {}) }),
        400,
      );
    },
  };
}
