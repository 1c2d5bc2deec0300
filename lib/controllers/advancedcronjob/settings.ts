/**
 * The AdvancedCronJob controller's settings: none. OpenKruise's `--advancedcronjob-workers` is a worker count, which
 * a Lambda invocation per object has no use for, and no feature gate concerns the controller.
 */
import type { ControllerSettingsParser, SettingsInput } from '../controller.js';
import { parseGateList } from '../../api/featureGates.js';

/** The AdvancedCronJob controller's settings (none). */
export type AdvancedCronJobSettings = Readonly<Record<string, never>>;

/** The AdvancedCronJob settings parser of the registration: every gate is another controller's. */
export const ADVANCEDCRONJOB_SETTINGS: ControllerSettingsParser<AdvancedCronJobSettings> = {
  parse(input: SettingsInput) {
    const { ignored } = parseGateList(input.featureGates, {});
    return { settings: {}, unknownGates: ignored };
  },
  defaults: {},
  flags: [],
};
