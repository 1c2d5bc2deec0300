/**
 * OpenKruise's validating webhook for WorkloadSpreads (`pkg/webhook/workloadspread/validating`,
 * `vworkloadspread.kb.io`, `WorkloadSpreadCreateUpdateHandler.Handle`, v1.9.0) as a {@link Validator} of v1beta1: a
 * CREATE or UPDATE refused with ./validation.ts `validateWorkloadSpread`'s errors, HTTP 400
 * (`admission.Errored(http.StatusBadRequest, …)`); with gate `WorkloadSpread` off every write is refused with 403. A
 * write through v1alpha1 reaches it converted to v1beta1 by Kruiseless's `/convert` (the configuration's
 * `matchPolicy: Equivalent`), as upstream converts it first. The other WorkloadSpreads of the namespace (the conflict
 * rule) and the target's pod template (the subset patch check) come from {@link WorkloadSpreadValidationReads};
 * without them those rules are skipped.
 */
import { verdictOf, withSpecObject, type Validator } from '../../../api/admission/validation.js';
import { apiErrorMessage } from '../../../kube/errors.js';
import { isNotFound, listAll, type KubeClient } from '../../../kube/index.js';
import { kruiseConfigurationEntry } from '../../kruiseConfiguration.js';
import {
  CUSTOM_WORKLOAD_WHITELIST_KEY,
  parseCustomWorkloadWhitelist,
  type CustomWorkload,
} from './customWorkloads.js';
import { workloadSpreadEnabled, type WorkloadSpreadSettings } from '../settings.js';
import { WORKLOADSPREAD_RESOURCE } from './resource.js';
import type { JsonObject } from '../../../api/types.js';
import type { Resource } from '../../../kube/resource.js';
import type { WorkloadSpread, WorkloadSpreadTargetReference } from './types.js';
import {
  isCustomTargetKind,
  validateWorkloadSpread,
  type CustomWorkloadsRead,
  type WorkloadSpreadTargetTemplate,
} from './validation.js';

/** What the WorkloadSpread validator reads from the cluster, as upstream's handler reads it. */
export interface WorkloadSpreadValidationReads {
  /** The WorkloadSpreads of `namespace`. @throws KubeApiError */
  workloadSpreads(namespace: string): Promise<WorkloadSpread[]>;
  /**
   * The pod template of the target `ref` names in `namespace`, for the subset patch check; undefined when it cannot
   * be read (upstream skips the check on any error of its GET). Never throws.
   */
  targetTemplate?(
    namespace: string,
    ref: WorkloadSpreadTargetReference,
  ): Promise<WorkloadSpreadTargetTemplate | undefined>;
  /**
   * The custom-workload whitelist of the `kruise-configuration` ConfigMap, for a target of another Kind; absent: none.
   * @throws KubeApiError when the ConfigMap cannot be read, CustomWorkloadWhitelistError when the entry is not JSON
   */
  customWorkloads?(): Promise<CustomWorkload[]>;
}

/** A workload as read for its template. */
interface TemplatedWorkload {
  metadata: { name?: string };
  spec?: { template?: JsonObject; volumeClaimTemplates?: { metadata?: { name?: string } }[] };
}

const templated = (group: string, version: string, plural: string, kind: string) =>
  ({ group, version, plural, namespaced: true, kind }) as Resource<TemplatedWorkload>;

/**
 * The object upstream's webhook GETs for each target Kind (by Kind alone: a `StatefulSet` of any group is read as the
 * `apps/v1` StatefulSet of that name, as upstream's `&appsv1.StatefulSet{}`), and whether it brings claim templates.
 */
const TEMPLATE_SOURCES: Readonly<Record<string, { resource: Resource<TemplatedWorkload>; claims: boolean }>> =
  {
    CloneSet: { resource: templated('apps.kruise.io', 'v1alpha1', 'clonesets', 'CloneSet'), claims: true },
    Deployment: { resource: templated('apps', 'v1', 'deployments', 'Deployment'), claims: false },
    ReplicaSet: { resource: templated('apps', 'v1', 'replicasets', 'ReplicaSet'), claims: false },
    StatefulSet: { resource: templated('apps', 'v1', 'statefulsets', 'StatefulSet'), claims: true },
    Job: { resource: templated('batch', 'v1', 'jobs', 'Job'), claims: false },
  };

/** {@link WorkloadSpreadValidationReads} over a cluster client; a missing CRD reads as none. */
export function kubeWorkloadSpreadValidationReads(
  kube: Pick<KubeClient, 'list' | 'get'>,
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
    customWorkloads: async () =>
      parseCustomWorkloadWhitelist(await kruiseConfigurationEntry(kube, CUSTOM_WORKLOAD_WHITELIST_KEY)),
    async targetTemplate(namespace, ref) {
      const source = TEMPLATE_SOURCES[ref.kind ?? ''];
      if (!source || !ref.name) return undefined;
      try {
        const found = await kube.get(source.resource, { namespace, name: ref.name });
        if (!found) return undefined;
        return {
          template: found.spec?.template ?? {},
          ...(source.claims && found.spec?.volumeClaimTemplates
            ? { volumeClaimTemplates: found.spec.volumeClaimTemplates }
            : {}),
        };
      } catch {
        return undefined;
      }
    },
  };
}

/** The whitelist through `reads`, or why it could not be had (upstream's webhook answers that as an internal error). */
async function readCustomWorkloads(
  reads: WorkloadSpreadValidationReads | undefined,
): Promise<CustomWorkloadsRead | undefined> {
  if (!reads?.customWorkloads) return undefined;
  try {
    return await reads.customWorkloads();
  } catch (e) {
    return { error: apiErrorMessage(e) };
  }
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
      const namespace = ws.metadata.namespace ?? '';
      const others = options.reads ? await options.reads.workloadSpreads(namespace) : undefined;
      const ref = ws.spec.targetRef;
      const target = ref ? await options.reads?.targetTemplate?.(namespace, ref) : undefined;
      // read only for a Kind outside the built-in ones (a missing Kind is refused without it)
      const customWorkloads =
        ref?.kind && isCustomTargetKind(ref.kind) ? await readCustomWorkloads(options.reads) : undefined;
      return verdictOf(
        validateWorkloadSpread(ws, {
          ...(old ? { old } : {}),
          ...(others ? { others } : {}),
          ...(target ? { target } : {}),
          ...(customWorkloads ? { customWorkloads } : {}),
        }),
        400,
      );
    },
  };
}
