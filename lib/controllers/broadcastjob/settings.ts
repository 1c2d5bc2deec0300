/**
 * The BroadcastJob controller's settings: none. OpenKruise's `--assign-bcj-pods-by-scheduler` is fixed at its
 * default, true (pods pinned by node-name affinity for kube-scheduler to bind), and no feature gate concerns it.
 */
import type { ControllerSettingsParser, SettingsInput } from '../controller.js';
import { parseGateList } from '../../api/featureGates.js';

/** The BroadcastJob controller's settings (none yet). */
export type BroadcastJobSettings = Readonly<Record<string, never>>;

/** The BroadcastJob settings parser of the registration: every gate is another controller's. */
export const BROADCASTJOB_SETTINGS: ControllerSettingsParser<BroadcastJobSettings> = {
  parse(input: SettingsInput) {
    const { ignored } = parseGateList(input.featureGates, {});
    return { settings: {}, unknownGates: ignored };
  },
  defaults: {},
  flags: [],
};
