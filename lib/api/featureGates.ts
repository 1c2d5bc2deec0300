/**
 * OpenKruise: pkg/features/kruise_features.go (gate names, stages); Kubernetes `k8s.io/component-base/featuregate`
 * `Set`/`SetFromMap` (the `--feature-gates` syntax, `AllAlpha`/`AllBeta`).
 *
 * OpenKruise's `--feature-gates` value read into a controller's boolean options, given that controller's table of
 * the gates it acts on. Every controller's settings parse the one flag through this function.
 */

/** A gate's maturity in OpenKruise v1.9.0: `AllAlpha` / `AllBeta` switch every gate of that stage. */
export type GateStage = 'alpha' | 'beta';

/** One gate a controller acts on: the option it sets and its stage (undefined: not OpenKruise's, no stage switch). */
export interface GateSpec<K extends string> {
  option: K;
  stage: GateStage | undefined;
}

/** A `--feature-gates` value that is not `Name=true|false[,…]`. */
export class InvalidFeatureGatesError extends Error {
  constructor(message: string) {
    super(`invalid feature gates: ${message}`);
    this.name = 'InvalidFeatureGatesError';
  }
}

/** What {@link parseGateList} read. */
export interface ParsedGates<K extends string> {
  /** Only the options a gate in the input set; the rest keep their defaults. */
  options: Partial<Record<K, boolean>>;
  /** Gates named in the input that the table does not know (accepted, so an OpenKruise flag can be reused). */
  ignored: string[];
}

/**
 * OpenKruise v1.9.0's `SetDefaultFeatureGates` (pkg/features/kruise_features.go): with a prerequisite off, its
 * dependents are set off after the flag is read, whatever the flag said of them. The prerequisites' own stage and
 * default decide when the flag does not name them.
 */
const PREREQUISITES: readonly {
  gate: string;
  stage: GateStage;
  default: boolean;
  dependents: readonly string[];
}[] = [
  {
    gate: 'PodWebhook',
    stage: 'beta',
    default: true,
    dependents: [
      'KruisePodReadinessGate',
      'PodUnavailableBudgetDeleteGate',
      'PodUnavailableBudgetUpdateGate',
      'WorkloadSpread',
      'SidecarSetPatchPodMetadataDefaultsAllowed',
      'EnhancedLivenessProbeGate',
      'EnablePodProbeMarkerOnServerless',
    ],
  },
  {
    gate: 'KruiseDaemon',
    stage: 'beta',
    default: true,
    dependents: [
      'PreDownloadImageForInPlaceUpdate',
      'DaemonWatchingPod',
      'InPlaceUpdateEnvFromMetadata',
      'PreDownloadImageForDaemonSetUpdate',
      'PodProbeMarkerGate',
      'SidecarTerminator',
      'ImagePullJobGate',
      'EnhancedLivenessProbeGate',
    ],
  },
];

/** Kubernetes' switches of every gate of one stage that the list does not name itself. */
const ALL_STAGE: Readonly<Record<string, GateStage>> = { AllAlpha: 'alpha', AllBeta: 'beta' };

/**
 * Parses a feature-gate list as Kubernetes components take it: `Name=true,Other=false` (spaces around items
 * allowed, an empty string sets nothing; values are Go's `strconv.ParseBool` spellings). `AllAlpha=<b>` and
 * `AllBeta=<b>` set every gate of the table of that stage the list does not name itself, in any order (Kubernetes'
 * `featuregate.SetFromMap`: a gate named explicitly wins over the stage switch). Then, as OpenKruise's
 * `SetDefaultFeatureGates`, `PodWebhook` off turns its dependents off (`WorkloadSpread`, the PodUnavailableBudget
 * gates, …) and `KruiseDaemon` off turns off `InPlaceUpdateEnvFromMetadata`, the image pre-download gates and the
 * rest of what needs the node agent, even where the list names them `true`.
 * @param gates gate name (OpenKruise's spelling) → option and stage
 * @param aliases older names → the gate's name
 * @returns the options the table's gates set, and the other gates' names (`AllAlpha`/`AllBeta`, `PodWebhook` and
 *   `KruiseDaemon` are not listed: they act through their dependents)
 * @throws InvalidFeatureGatesError for an item without `=`, an empty name, a value that is not a boolean, or a
 *   gate named twice
 */
export function parseGateList<K extends string>(
  value: string,
  gates: Readonly<Record<string, GateSpec<K>>>,
  aliases: Readonly<Record<string, string>> = {},
): ParsedGates<K> {
  const options: Partial<Record<K, boolean>> = {};
  const ignored: string[] = [];
  const seen = new Set<string>();
  const named = new Map<string, boolean>();
  const stages = new Map<GateStage, boolean>();
  const gateOf = (name: string): GateSpec<K> | undefined =>
    Object.prototype.hasOwnProperty.call(gates, name) ? gates[name] : undefined;
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
    const canonical = aliases[name] ?? name;
    if (seen.has(canonical)) throw new InvalidFeatureGatesError(`${name} is set twice`);
    seen.add(canonical);
    named.set(canonical, enabled);
    const stage = ALL_STAGE[name];
    const gate = gateOf(canonical);
    if (stage) stages.set(stage, enabled);
    else if (gate) options[gate.option] = enabled;
    else if (!PREREQUISITES.some((p) => p.gate === canonical)) ignored.push(name);
  }
  for (const [name, gate] of Object.entries(gates)) {
    const all = gate.stage && stages.get(gate.stage);
    if (all !== undefined && !seen.has(name)) options[gate.option] = all;
  }
  for (const p of PREREQUISITES) {
    if ((named.get(p.gate) ?? stages.get(p.stage) ?? p.default) === true) continue;
    for (const dependent of p.dependents) {
      const gate = gateOf(dependent);
      if (gate) options[gate.option] = false;
    }
  }
  return { options, ignored };
}

/** Go's `strconv.ParseBool` spellings. */
function parseGoBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(s)) return false;
  return undefined;
}
