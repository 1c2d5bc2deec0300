/**
 * The Advanced StatefulSet controller's settings: the planner options OpenKruise's `--feature-gates` sets
 * (serverless.yml parameter `featureGates`, `kruiseless local --feature-gates`); absent fields take OpenKruise
 * v1.9.0's defaults (./plan/types.ts `DEFAULT_PLANNER_OPTIONS`). It reads no controller flag.
 */
import { parseGateList, type GateSpec } from '../../api/featureGates.js';
import type { ControllerSettingsParser, SettingsInput } from '../controller.js';
import type { StatefulSetPlannerOptions } from './plan/index.js';

/** The Advanced StatefulSet controller's settings: a partial of the planner's options. */
export type StatefulSetSettings = Readonly<Partial<StatefulSetPlannerOptions>>;

/** Gate name (OpenKruise v1.9.0 `pkg/features`) → the planner option it sets and its stage. */
const STATEFULSET_GATES: Readonly<Record<string, GateSpec<keyof StatefulSetPlannerOptions>>> = {
  StatefulSetStartOrdinal: { option: 'statefulSetStartOrdinal', stage: 'alpha' },
  PodIndexLabel: { option: 'podIndexLabel', stage: 'beta' },
  StatefulSetAutoDeletePVC: { option: 'statefulSetAutoDeletePVC', stage: 'beta' },
  TemplateNoDefaults: { option: 'templateNoDefaults', stage: 'alpha' },
  InPlaceUpdateEnvFromMetadata: { option: 'inPlaceUpdateEnvFromMetadata', stage: 'beta' },
  InPlaceWorkloadVerticalScaling: { option: 'inPlaceWorkloadVerticalScaling', stage: 'alpha' },
  StatefulSetAutoResizePVCGate: { option: 'statefulSetAutoResizePVCGate', stage: 'alpha' },
  PreDownloadImageForInPlaceUpdate: { option: 'preDownloadImageForInPlaceUpdate', stage: 'alpha' },
  KruiseDaemon: { option: 'kruiseDaemon', stage: 'beta' },
};

/** The gate names the Advanced StatefulSet controller acts on, sorted. */
export const STATEFULSET_GATE_NAMES: readonly string[] = Object.keys(STATEFULSET_GATES).sort();

/**
 * Planner options from a deployment's gates.
 * @returns the options, and the gates that do not concern Advanced StatefulSet
 * @throws InvalidFeatureGatesError for a malformed gate list
 */
export function parseStatefulSetSettings(input: SettingsInput): {
  settings: StatefulSetSettings;
  unknownGates: string[];
} {
  const { options, ignored } = parseGateList(input.featureGates, STATEFULSET_GATES);
  return { settings: options, unknownGates: ignored };
}

/** The Advanced StatefulSet settings parser of the registration. */
export const STATEFULSET_SETTINGS: ControllerSettingsParser<StatefulSetSettings> = {
  parse: parseStatefulSetSettings,
  defaults: {},
  flags: [],
};
