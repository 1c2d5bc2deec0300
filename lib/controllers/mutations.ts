/**
 * The mutators the admission webhook's `/mutate` answers with (lib/api/admission/mutation.ts): the defaulting
 * OpenKruise's mutating webhooks store, one per resource, under the deployment's gates. Today Advanced
 * StatefulSet's, SidecarSet's (defaults and the hash annotations pods are injected with) and Advanced DaemonSet's;
 * CloneSet's spec is stored as written (README, "How it differs").
 */
import type { Mutator } from '../api/admission/mutation.js';
import { daemonSetMutator } from './daemonset/api/mutation.js';
import { sidecarSetMutator } from './sidecarset/api/mutation.js';
import { statefulSetMutator } from './statefulset/api/mutation.js';
import type { StatefulSetSettings } from './statefulset/settings.js';

/**
 * Every mutator under the controllers' settings (lib/runtime/config.ts `controllerSettings`, by controller name).
 * @param settings controller name → its parsed settings; the Advanced StatefulSet's under `statefulset`
 */
export function admissionMutators(settings: Readonly<Record<string, unknown>> = {}): Mutator[] {
  const sts = (settings.statefulset ?? {}) as StatefulSetSettings;
  return [
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
  ];
}
