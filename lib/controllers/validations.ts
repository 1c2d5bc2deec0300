/**
 * The validators the admission webhook's `/validate` answers with (lib/api/admission/validation.ts): OpenKruise's
 * validating webhooks for the workloads, one per resource, under the deployment's gates — CloneSet's, Advanced
 * StatefulSet's, Advanced DaemonSet's, BroadcastJob's, AdvancedCronJob's, SidecarSet's, PodUnavailableBudget's and
 * WorkloadSpread's. Each workload's controller
 * runs the same rules before every pass and reports what they refuse as `FailedValidation`, so an object stored while
 * the webhook was not called is left alone rather than acted on.
 */
import type { Validator } from '../api/admission/validation.js';
import { advancedCronJobValidator } from './advancedcronjob/api/validating.js';
import { broadcastJobValidator } from './broadcastjob/api/validating.js';
import type { KubeClient } from '../kube/types.js';
import { RESOURCES } from '../kube/resources.js';
import { cloneSetValidator, type CloneSetValidationReads } from './cloneset/api/validating.js';
import type { CloneSetSettings } from './cloneset/settings.js';
import { daemonSetValidator } from './daemonset/api/validating.js';
import {
  kubePubValidationReads,
  pubValidator,
  type PubValidationReads,
} from './podunavailablebudget/api/validating.js';
import type { PubSettings } from './podunavailablebudget/settings.js';
import {
  kubeSidecarSetValidationReads,
  sidecarSetValidator,
  type SidecarSetValidationReads,
} from './sidecarset/api/validating.js';
import type { SidecarSetSettings } from './sidecarset/settings.js';
import { statefulSetValidator } from './statefulset/api/validating.js';
import {
  kubeWorkloadSpreadValidationReads,
  workloadSpreadValidator,
  type WorkloadSpreadValidationReads,
} from './workloadspread/api/validating.js';
import type { WorkloadSpreadSettings } from './workloadspread/settings.js';
import type { StatefulSetSettings } from './statefulset/settings.js';

/** The cluster reads of the validators that need them; each absent one's rules are skipped. */
export interface ValidationReads {
  sidecarSet?: SidecarSetValidationReads;
  cloneSet?: CloneSetValidationReads;
  pub?: PubValidationReads;
  workloadSpread?: WorkloadSpreadValidationReads;
}

/**
 * The reads of every validator over one cluster client, as OpenKruise's webhooks read their informers: the SidecarSets
 * and `kruise-system` revisions (SidecarSet conflicts and pins), the pods `podsToDelete` names (CloneSet), the
 * namespace's PodUnavailableBudgets and WorkloadSpreads (their conflict rules), and the `kruise-configuration`
 * ConfigMap's whitelists (SidecarSet `patchPodMetadata`, WorkloadSpread custom workloads; every identity that
 * validates may read that one ConfigMap by name: ./kruiseConfiguration.ts).
 */
export function clusterValidationReads(kube: Pick<KubeClient, 'list' | 'get'>): ValidationReads {
  return {
    sidecarSet: kubeSidecarSetValidationReads(kube),
    cloneSet: { getPod: (namespace, name) => kube.get(RESOURCES.pods, { namespace, name }) },
    pub: kubePubValidationReads(kube),
    workloadSpread: kubeWorkloadSpreadValidationReads(kube),
  };
}

/**
 * Every validator under the controllers' settings (lib/runtime/config.ts `controllerSettings`, by controller name).
 * @param settings controller name → its parsed settings (CloneSet's under `cloneset`, the Advanced StatefulSet's
 *   under `statefulset`, the SidecarSet's under `sidecarset`, the PodUnavailableBudget's under `podunavailablebudget`)
 * @param reads the cluster reads of the validators that need them (SidecarSet's, CloneSet's, PodUnavailableBudget's,
 *   WorkloadSpread's);
 *   absent: those rules are skipped
 */
export function admissionValidators(
  settings: Readonly<Record<string, unknown>> = {},
  reads: ValidationReads = {},
): Validator[] {
  const cs = (settings.cloneset ?? {}) as Partial<CloneSetSettings>;
  const sc = (settings.sidecarset ?? {}) as SidecarSetSettings;
  const sts = (settings.statefulset ?? {}) as StatefulSetSettings;
  const pub = (settings.podunavailablebudget ?? {}) as PubSettings;
  const ws = (settings.workloadspread ?? {}) as WorkloadSpreadSettings;
  return [
    cloneSetValidator({
      ...(cs.templateNoDefaults !== undefined ? { templateNoDefaults: cs.templateNoDefaults } : {}),
      ...(reads.cloneSet ? { reads: reads.cloneSet } : {}),
    }),
    statefulSetValidator({
      ...(sts.templateNoDefaults !== undefined ? { templateNoDefaults: sts.templateNoDefaults } : {}),
      ...(sts.statefulSetAutoDeletePVC !== undefined
        ? { statefulSetAutoDeletePVC: sts.statefulSetAutoDeletePVC }
        : {}),
      ...(sts.statefulSetAutoResizePVCGate !== undefined
        ? { statefulSetAutoResizePVC: sts.statefulSetAutoResizePVCGate }
        : {}),
    }),
    daemonSetValidator,
    broadcastJobValidator,
    advancedCronJobValidator,
    sidecarSetValidator({
      ...(sc.patchMetadataDefaultsAllowed !== undefined
        ? { patchMetadataDefaultsAllowed: sc.patchMetadataDefaultsAllowed }
        : {}),
      ...(reads.sidecarSet ? { reads: reads.sidecarSet } : {}),
    }),
    pubValidator({ settings: pub, ...(reads.pub ? { reads: reads.pub } : {}) }),
    workloadSpreadValidator({
      settings: ws,
      ...(reads.workloadSpread ? { reads: reads.workloadSpread } : {}),
    }),
  ];
}
