/**
 * The SidecarSet controller's settings: none. No OpenKruise flag concerns it, and its feature gates
 * (`SidecarSetPatchPodMetadataDefaultsAllowed`, `SidecarTerminator`, …) concern the webhook or features Kruiseless
 * does not serve.
 */
import type { ControllerSettingsParser, SettingsInput } from '../controller.js';
import { parseGateList } from '../../api/featureGates.js';

/** The SidecarSet controller's settings (none yet). */
export type SidecarSetSettings = Readonly<Record<string, never>>;

/** The SidecarSet settings parser of the registration: every gate is another controller's. */
export const SIDECARSET_SETTINGS: ControllerSettingsParser<SidecarSetSettings> = {
  parse(input: SettingsInput) {
    const { ignored } = parseGateList(input.featureGates, {});
    return { settings: {}, unknownGates: ignored };
  },
  defaults: {},
  flags: [],
};
