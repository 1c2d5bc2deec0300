/**
 * The WorkloadSpread controller's settings: gate `WorkloadSpread` of OpenKruise v1.9.0's `pkg/features` (beta, on).
 * Upstream runs the controller and the pod webhook's WorkloadSpread steps only with it on.
 */
import type { ControllerSettingsParser, SettingsInput } from '../controller.js';
import { parseGateList, type GateSpec } from '../../api/featureGates.js';

/** The WorkloadSpread controller's settings: only the gate the deployment sets (absent: OpenKruise's default). */
export type WorkloadSpreadSettings = Readonly<{
  /** Gate `WorkloadSpread` (default true). */
  gate?: boolean;
}>;

const WS_GATES: Readonly<Record<string, GateSpec<'gate'>>> = {
  WorkloadSpread: { option: 'gate', stage: 'beta' },
};

/**
 * The WorkloadSpread settings parser of the registration: its gate; every other gate is another controller's.
 * @throws InvalidFeatureGatesError for a malformed gate list
 */
export const WORKLOADSPREAD_SETTINGS: ControllerSettingsParser<WorkloadSpreadSettings> = {
  parse(input: SettingsInput) {
    const { options, ignored } = parseGateList(input.featureGates, WS_GATES);
    return { settings: options, unknownGates: ignored };
  },
  defaults: {},
  flags: [],
};

/** Whether the controller and the webhook steps run: the gate (default on). */
export function workloadSpreadEnabled(settings: WorkloadSpreadSettings): boolean {
  return settings.gate ?? true;
}
