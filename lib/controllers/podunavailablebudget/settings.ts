/**
 * The PodUnavailableBudget controller's settings: gates `PodUnavailableBudgetDeleteGate` (beta, on) and
 * `PodUnavailableBudgetUpdateGate` (alpha, off) of OpenKruise v1.9.0's `pkg/features`. Upstream runs the controller
 * when either is on; the pod webhook (./podWebhook.ts) checks deletions and evictions under the first and in-place
 * updates under the second.
 */
import type { ControllerSettingsParser, SettingsInput } from '../controller.js';
import { parseGateList, type GateSpec } from '../../api/featureGates.js';

/** The PodUnavailableBudget controller's settings: only the gates the deployment sets (absent: OpenKruise's default). */
export type PubSettings = Readonly<{
  /** Gate `PodUnavailableBudgetDeleteGate` (default true): deletions and evictions are checked. */
  deleteGate?: boolean;
  /** Gate `PodUnavailableBudgetUpdateGate` (default false): in-place updates are checked. */
  updateGate?: boolean;
}>;

const PUB_GATES: Readonly<Record<string, GateSpec<'deleteGate' | 'updateGate'>>> = {
  PodUnavailableBudgetDeleteGate: { option: 'deleteGate', stage: 'beta' },
  PodUnavailableBudgetUpdateGate: { option: 'updateGate', stage: 'alpha' },
};

/**
 * The PodUnavailableBudget settings parser of the registration: its two gates; every other gate is another
 * controller's.
 * @throws InvalidFeatureGatesError for a malformed gate list
 */
export const PUB_SETTINGS: ControllerSettingsParser<PubSettings> = {
  parse(input: SettingsInput) {
    const { options, ignored } = parseGateList(input.featureGates, PUB_GATES);
    return { settings: options, unknownGates: ignored };
  },
  defaults: {},
  flags: [],
};

/** Whether the controller runs: either gate on (upstream's `Add`). */
export function pubControllerEnabled(settings: PubSettings): boolean {
  return (settings.deleteGate ?? true) || (settings.updateGate ?? false);
}
