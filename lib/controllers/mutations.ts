/**
 * The mutators the admission webhook's `/mutate` answers with (lib/api/admission/mutation.ts): the defaulting
 * OpenKruise's mutating webhooks store, one per resource (CloneSet's two: one per served version), under the
 * deployment's gates: CloneSet's, Advanced
 * StatefulSet's, SidecarSet's (defaults and the hash annotations pods are injected with), Advanced DaemonSet's,
 * BroadcastJob's and AdvancedCronJob's.
 */
import type { Mutator } from '../api/admission/mutation.js';
import { advancedCronJobMutator } from './advancedcronjob/api/mutation.js';
import type { AdvancedCronJobSettings } from './advancedcronjob/settings.js';
import { broadcastJobMutator } from './broadcastjob/api/mutation.js';
import type { BroadcastJobSettings } from './broadcastjob/settings.js';
import { cloneSetMutator, cloneSetV1beta1Mutator } from './cloneset/api/mutation.js';
import type { CloneSetSettings } from './cloneset/settings.js';
import { daemonSetMutator } from './daemonset/api/mutation.js';
import { sidecarSetMutator } from './sidecarset/api/mutation.js';
import { statefulSetMutator } from './statefulset/api/mutation.js';
import type { StatefulSetSettings } from './statefulset/settings.js';

/**
 * Every mutator under the controllers' settings (lib/runtime/config.ts `controllerSettings`, by controller name).
 * @param settings controller name → its parsed settings; the CloneSet's under `cloneset`, the Advanced StatefulSet's
 *   under `statefulset`, the BroadcastJob's under `broadcastjob`, the AdvancedCronJob's under `advancedcronjob`
 */
export function admissionMutators(settings: Readonly<Record<string, unknown>> = {}): Mutator[] {
  const cs = (settings.cloneset ?? {}) as CloneSetSettings;
  const sts = (settings.statefulset ?? {}) as StatefulSetSettings;
  const bcj = (settings.broadcastjob ?? {}) as BroadcastJobSettings;
  const acj = (settings.advancedcronjob ?? {}) as AdvancedCronJobSettings;
  return [
    cloneSetMutator(cs.templateNoDefaults !== undefined ? { templateNoDefaults: cs.templateNoDefaults } : {}),
    cloneSetV1beta1Mutator(
      cs.templateNoDefaults !== undefined ? { templateNoDefaults: cs.templateNoDefaults } : {},
    ),
    statefulSetMutator({
      ...(sts.templateNoDefaults !== undefined ? { templateNoDefaults: sts.templateNoDefaults } : {}),
      ...(sts.statefulSetAutoDeletePVC !== undefined
        ? { statefulSetAutoDeletePVC: sts.statefulSetAutoDeletePVC }
        : {}),
      ...(sts.statefulSetAutoResizePVCGate !== undefined
        ? { statefulSetAutoResizePVC: sts.statefulSetAutoResizePVCGate }
        : {}),
    }),
    sidecarSetMutator,
    daemonSetMutator,
    broadcastJobMutator(
      bcj.templateNoDefaults !== undefined ? { templateNoDefaults: bcj.templateNoDefaults } : {},
    ),
    advancedCronJobMutator(
      acj.templateNoDefaults !== undefined ? { templateNoDefaults: acj.templateNoDefaults } : {},
    ),
  ];
}
