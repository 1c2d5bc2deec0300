/**
 * OpenKruise: pkg/features/kruise_features.go (the gate names and defaults; Kubernetes' `featuregate.Set`).
 *
 * OpenKruise's `--feature-gates` flag, read into {@link PlannerOptions}; only the gates that change CloneSet
 * behaviour map to a planner option.
 */
import { parseGateList, type GateSpec } from '../../../api/featureGates.js';
import type { PlannerOptions } from './types.js';

export { InvalidFeatureGatesError } from '../../../api/featureGates.js';

/** The planner options that are on/off switches. */
type GateOption = {
  [K in keyof PlannerOptions]: PlannerOptions[K] extends boolean ? K : never;
}[keyof PlannerOptions];

/** Gate name (OpenKruise's spelling) → the planner option it sets and its stage. */
const CLONESET_GATES = {
  CloneSetPartitionRollback: { option: 'cloneSetPartitionRollback', stage: 'alpha' },
  PreparingUpdateAsUpdate: { option: 'preparingUpdateAsUpdate', stage: 'alpha' },
  CloneSetShortHash: { option: 'cloneSetShortHash', stage: 'alpha' },
  InPlaceUpdateEnvFromMetadata: { option: 'inPlaceUpdateEnvFromMetadata', stage: 'beta' },
  InPlaceWorkloadVerticalScaling: { option: 'inPlaceWorkloadVerticalScaling', stage: 'alpha' },
  RecreatePodWhenChangeVCTInCloneSetGate: { option: 'recreatePodWhenChangeVCTInCloneSet', stage: 'alpha' },
  TemplateNoDefaults: { option: 'templateNoDefaults', stage: 'alpha' },
  PreDownloadImageForInPlaceUpdate: { option: 'preDownloadImageForInPlaceUpdate', stage: 'alpha' },
  KruiseDaemon: { option: 'kruiseDaemon', stage: 'beta' },
  // also the PodUnavailableBudget controller's (its pod webhook checks pod UPDATEs under it)
  PodUnavailableBudgetUpdateGate: { option: 'pubUpdateGate', stage: 'alpha' },
  // Kruiseless's own gate: not OpenKruise's, so AllAlpha/AllBeta leave it alone
  PreDownloadImageWithPods: { option: 'preDownloadImageWithPods', stage: undefined },
} as const satisfies Record<string, GateSpec<GateOption>>;

/** Names Kruiseless accepted before it followed OpenKruise's spelling → OpenKruise's name. */
const ALIASES: Readonly<Record<string, keyof typeof CLONESET_GATES>> = {
  RecreatePodWhenChangeVCTInCloneSet: 'RecreatePodWhenChangeVCTInCloneSetGate',
};

/** The gate names Kruiseless acts on (OpenKruise's spelling), sorted. */
export const CLONESET_GATE_NAMES: readonly string[] = Object.keys(CLONESET_GATES).sort();

/** What {@link parseFeatureGates} read. */
export interface ParsedFeatureGates {
  /** Only the options a gate in the input set; the rest keep their defaults. */
  options: Partial<PlannerOptions>;
  /** Gates named in the input that do not concern CloneSet (accepted, so an OpenKruise flag can be reused). */
  ignored: string[];
}

/**
 * The CloneSet gates of a `--feature-gates` value (lib/api/featureGates.ts `parseGateList` over the table above):
 * `Name=true,Other=false`, with `AllAlpha`/`AllBeta` switching every CloneSet gate of that stage not named itself.
 * @param value the flag's value, e.g. `CloneSetShortHash=true,TemplateNoDefaults=false` or `AllAlpha=true,AllBeta=true`
 * @returns the planner options the CloneSet gates set, and the other gates' names
 * @throws InvalidFeatureGatesError for an item without `=`, an empty name, a value that is not a boolean, or a
 *   gate named twice
 */
export function parseFeatureGates(value: string): ParsedFeatureGates {
  return parseGateList<GateOption>(value, CLONESET_GATES, ALIASES);
}
