/**
 * The AdvancedCronJob controller's settings: gate `TemplateNoDefaults` (OpenKruise v1.9.0 `pkg/features`, alpha,
 * off), which keeps the pod-template defaults out of the Job and BroadcastJob templates (./api/defaults.ts).
 * OpenKruise's `--advancedcronjob-workers` is a worker count, which a Lambda invocation per object has no use for.
 */
import type { ControllerSettingsParser, SettingsInput } from '../controller.js';
import { parseGateList, type GateSpec } from '../../api/featureGates.js';

/** The AdvancedCronJob controller's settings. */
export type AdvancedCronJobSettings = Readonly<{
  /** Gate `TemplateNoDefaults`: the templates are used as stored, without OpenKruise's `SetDefaultPodSpec`. */
  templateNoDefaults?: boolean;
}>;

const ADVANCEDCRONJOB_GATES: Readonly<Record<string, GateSpec<'templateNoDefaults'>>> = {
  TemplateNoDefaults: { option: 'templateNoDefaults', stage: 'alpha' },
};

/**
 * The AdvancedCronJob settings parser of the registration: `TemplateNoDefaults`; every other gate is another
 * controller's.
 * @throws InvalidFeatureGatesError for a malformed gate list
 */
export const ADVANCEDCRONJOB_SETTINGS: ControllerSettingsParser<AdvancedCronJobSettings> = {
  parse(input: SettingsInput) {
    const { options, ignored } = parseGateList(input.featureGates, ADVANCEDCRONJOB_GATES);
    return { settings: options, unknownGates: ignored };
  },
  defaults: {},
  flags: [],
};
