/**
 * The Advanced DaemonSet controller's settings: none yet. The gates that concern it
 * (`PreDownloadImageForDaemonSetUpdate`, `DaemonSetPruneIneligibleNodes`) are not implemented; OpenKruise's
 * `scheduleDaemonSetPods` is fixed at true (pods pinned by node-name affinity for kube-scheduler to bind).
 */
import type { ControllerSettingsParser, SettingsInput } from '../controller.js';
import { parseGateList } from '../../api/featureGates.js';

/** The DaemonSet controller's settings (none yet). */
export type DaemonSetSettings = Readonly<Record<string, never>>;

/** The DaemonSet settings parser of the registration: every gate is another controller's. */
export const DAEMONSET_SETTINGS: ControllerSettingsParser<DaemonSetSettings> = {
  parse(input: SettingsInput) {
    const { ignored } = parseGateList(input.featureGates, {});
    return { settings: {}, unknownGates: ignored };
  },
  defaults: {},
  flags: [],
};
