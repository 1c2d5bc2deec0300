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

/** A gate's maturity in OpenKruise v1.9.0: `AllAlpha` / `AllBeta` switch every gate of that stage. */
type Stage = 'alpha' | 'beta';

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
  // Kruiseless's own gate: not OpenKruise's, so AllAlpha/AllBeta leave it alone
  PreDownloadImageWithPods: { option: 'preDownloadImageWithPods', stage: undefined },
} as const satisfies Record<string, { option: GateOption; stage: Stage | undefined }>;

/** Names Kruiseless accepted before it followed OpenKruise's spelling → OpenKruise's name. */
const ALIASES: Readonly<Record<string, keyof typeof CLONESET_GATES>> = {
  RecreatePodWhenChangeVCTInCloneSet: 'RecreatePodWhenChangeVCTInCloneSetGate',
};

/** Kubernetes' switches of every gate of one stage that the list does not name itself. */
const ALL_STAGE: Readonly<Record<string, Stage>> = { AllAlpha: 'alpha', AllBeta: 'beta' };

/** The gate names Kruiseless acts on (OpenKruise's spelling), sorted. */
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
 * allowed, an empty string sets nothing; values are Go's `strconv.ParseBool` spellings). `AllAlpha=<b>` and
 * `AllBeta=<b>` set every CloneSet gate of that stage the list does not name itself, in any order (Kubernetes'
 * `featuregate.SetFromMap`: a gate named explicitly wins over the stage switch).
 * @param value the flag's value, e.g. `CloneSetShortHash=true,TemplateNoDefaults=false` or `AllAlpha=true,AllBeta=true`
 * @returns the planner options the CloneSet gates set, and the other gates' names (`AllAlpha`/`AllBeta` are not
 *   listed there)
 * @throws InvalidFeatureGatesError for an item without `=`, an empty name, a value that is not a boolean, or a
 *   gate named twice
 */
export function parseFeatureGates(value: string): ParsedFeatureGates {
  const options: Partial<Pick<PlannerOptions, GateOption>> = {};
  const ignored: string[] = [];
  const seen = new Set<string>();
  const stages = new Map<Stage, boolean>();
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
    const canonical = ALIASES[name] ?? name;
    if (seen.has(canonical)) throw new InvalidFeatureGatesError(`${name} is set twice`);
    seen.add(canonical);
    const stage = ALL_STAGE[name];
    const gate = (CLONESET_GATES as Record<string, { option: GateOption } | undefined>)[canonical];
    if (stage) stages.set(stage, enabled);
    else if (gate) options[gate.option] = enabled;
    else ignored.push(name);
  }
  for (const [name, gate] of Object.entries(CLONESET_GATES)) {
    const all = gate.stage && stages.get(gate.stage);
    if (all !== undefined && !seen.has(name)) options[gate.option] = all;
  }
  return { options, ignored };
}

/** Go's `strconv.ParseBool` spellings. */
function parseGoBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(s)) return false;
  return undefined;
}
