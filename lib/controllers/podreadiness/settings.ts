/**
 * The pod registration's settings (lib/controllers/podKind.ts): gate `KruisePodReadinessGate` of OpenKruise v1.9.0's
 * `pkg/features` (alpha, off; off as well when `PodWebhook` is off). Upstream reads it in its pod webhook only
 * (`injectPodReadinessGate`: with it on every new pod gets the `KruisePodReady` readiness gate); its pod-readiness and
 * container-launch-priority controllers read no gate, and neither do the pod registration's concerns.
 */
import type { ControllerSettingsParser, SettingsInput } from '../controller.js';
import { parseGateList, type GateSpec } from '../../api/featureGates.js';

/** The pod registration's settings: only the gate the deployment sets (absent: OpenKruise's default, off). */
export type PodReadinessSettings = Readonly<{
  /** Gate `KruisePodReadinessGate` (default false). */
  kruisePodReadinessGate?: boolean;
}>;

const POD_READINESS_GATES: Readonly<Record<string, GateSpec<'kruisePodReadinessGate'>>> = {
  KruisePodReadinessGate: { option: 'kruisePodReadinessGate', stage: 'alpha' },
};

/**
 * The settings parser of the pod registration: its gate; every other gate is another controller's.
 * @throws InvalidFeatureGatesError for a malformed gate list
 */
export const POD_READINESS_SETTINGS: ControllerSettingsParser<PodReadinessSettings> = {
  parse(input: SettingsInput) {
    const { options, ignored } = parseGateList(input.featureGates, POD_READINESS_GATES);
    return { settings: options, unknownGates: ignored };
  },
  defaults: {},
  flags: [],
};

/** Whether every new pod gets the readiness gate: `KruisePodReadinessGate` (default off). */
export function kruisePodReadinessGateOn(settings: PodReadinessSettings): boolean {
  return settings.kruisePodReadinessGate ?? false;
}
