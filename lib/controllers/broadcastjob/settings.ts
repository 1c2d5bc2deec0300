/**
 * The BroadcastJob controller's settings: gate `TemplateNoDefaults` (OpenKruise v1.9.0 `pkg/features`, alpha, off),
 * which keeps the pod template's defaults out of the job (./api/defaults.ts). OpenKruise's
 * `--assign-bcj-pods-by-scheduler` is fixed at its default, true (pods pinned by node-name affinity for
 * kube-scheduler to bind).
 */
import type { ControllerSettingsParser, SettingsInput } from '../controller.js';
import { parseGateList, type GateSpec } from '../../api/featureGates.js';

/** The BroadcastJob controller's settings. */
export type BroadcastJobSettings = Readonly<{
  /** Gate `TemplateNoDefaults`: the pod template is used as stored, without OpenKruise's `SetDefaultPodSpec`. */
  templateNoDefaults?: boolean;
}>;

const BROADCASTJOB_GATES: Readonly<Record<string, GateSpec<'templateNoDefaults'>>> = {
  TemplateNoDefaults: { option: 'templateNoDefaults', stage: 'alpha' },
};

/**
 * The BroadcastJob settings parser of the registration: `TemplateNoDefaults`; every other gate is another
 * controller's.
 * @throws InvalidFeatureGatesError for a malformed gate list
 */
export const BROADCASTJOB_SETTINGS: ControllerSettingsParser<BroadcastJobSettings> = {
  parse(input: SettingsInput) {
    const { options, ignored } = parseGateList(input.featureGates, BROADCASTJOB_GATES);
    return { settings: options, unknownGates: ignored };
  },
  defaults: {},
  flags: [],
};
