/**
 * OpenKruise: pkg/features/kruise_features.go (the gate names and defaults; Kubernetes' `featuregate.Set`).
 *
 * OpenKruise's `--feature-gates` flag, read into {@link PlannerOptions}; only the gates that change CloneSet
 * behaviour map to a planner option.
 */
import type { PlannerOptions } from './types.js';

/** The planner options that are on/off switches. */
type GateOption = {
  [K in keyof PlannerOptions]: PlannerOptions[K] extends boolean ? K : never;
}[keyof PlannerOptions];

/** Gate name → the planner option it sets. */
const CLONESET_GATES = {
  CloneSetPartitionRollback: 'cloneSetPartitionRollback',
  PreparingUpdateAsUpdate: 'preparingUpdateAsUpdate',
  CloneSetShortHash: 'cloneSetShortHash',
  InPlaceUpdateEnvFromMetadata: 'inPlaceUpdateEnvFromMetadata',
  InPlaceWorkloadVerticalScaling: 'inPlaceWorkloadVerticalScaling',
  RecreatePodWhenChangeVCTInCloneSet: 'recreatePodWhenChangeVCTInCloneSet',
  TemplateNoDefaults: 'templateNoDefaults',
  PreDownloadImageForInPlaceUpdate: 'preDownloadImageForInPlaceUpdate',
  KruiseDaemon: 'kruiseDaemon',
  PreDownloadImageWithPods: 'preDownloadImageWithPods',
} as const satisfies Record<string, GateOption>;

/** The gate names Kruiseless acts on, sorted. */
export const CLONESET_GATE_NAMES: readonly string[] = Object.keys(CLONESET_GATES).sort();

/** A `--feature-gates` value that is not `Name=true|false[,…]`. */
export class InvalidFeatureGatesError extends Error {
  constructor(message: string) {
    super(`invalid feature gates: ${message}`);
    this.name = 'InvalidFeatureGatesError';
  }
}

/** What {@link parseFeatureGates} read. */
export interface ParsedFeatureGates {
  /** Only the options a gate in the input set; the rest keep their defaults. */
  options: Partial<PlannerOptions>;
  /** Gates named in the input that do not concern CloneSet (accepted, so an OpenKruise flag can be reused). */
  ignored: string[];
}

/**
 * Parses a feature-gate list as Kubernetes components take it: `Name=true,Other=false` (spaces around items
 * allowed, an empty string sets nothing; values are Go's `strconv.ParseBool` spellings).
 * @param value the flag's value, e.g. `CloneSetShortHash=true,TemplateNoDefaults=false`
 * @returns the planner options the CloneSet gates set, and the other gates' names
 * @throws InvalidFeatureGatesError for an item without `=`, an empty name, a value that is not a boolean, or a
 *   gate named twice
 */
export function parseFeatureGates(value: string): ParsedFeatureGates {
  const options: Partial<Pick<PlannerOptions, GateOption>> = {};
  const ignored: string[] = [];
  const seen = new Set<string>();
  for (const raw of value.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    if (eq <= 0) throw new InvalidFeatureGatesError(`"${item}" is not Name=true|false`);
    const name = item.slice(0, eq).trim();
    const enabled = parseGoBool(item.slice(eq + 1).trim());
    if (enabled === undefined) {
      throw new InvalidFeatureGatesError(`${name}: "${item.slice(eq + 1).trim()}" is not a boolean`);
    }
    if (seen.has(name)) throw new InvalidFeatureGatesError(`${name} is set twice`);
    seen.add(name);
    const option = (CLONESET_GATES as Record<string, GateOption | undefined>)[name];
    if (option) options[option] = enabled;
    else ignored.push(name);
  }
  return { options, ignored };
}

/** Go's `strconv.ParseBool` spellings. */
function parseGoBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(s)) return false;
  return undefined;
}
