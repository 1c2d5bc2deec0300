/**
 * The container launch priority controller's settings: none. OpenKruise v1.9.0 runs it whatever the gates (its `Add`
 * reads none); the pod webhook step that starts it needs the pod webhook (gate `PodWebhook`, on by default), which in
 * Kruiseless is the deployment's choice of registering `/mutate-pod`.
 */
import type { ControllerSettingsParser, SettingsInput } from '../controller.js';
import { parseGateList } from '../../api/featureGates.js';

/** No settings. */
export type LaunchPrioritySettings = Readonly<Record<string, never>>;

/**
 * The settings parser of the registration: every gate is another controller's.
 * @throws InvalidFeatureGatesError for a malformed gate list
 */
export const LAUNCH_PRIORITY_SETTINGS: ControllerSettingsParser<LaunchPrioritySettings> = {
  parse(input: SettingsInput) {
    const { ignored } = parseGateList(input.featureGates, {});
    return { settings: {}, unknownGates: ignored };
  },
  defaults: {},
  flags: [],
};
