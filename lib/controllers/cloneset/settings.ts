/**
 * The CloneSet controller's settings: the planner options OpenKruise's `--feature-gates` and
 * `--cloneset-scaling-exclude-preparing-delete` set (serverless.yml parameters `featureGates` and
 * `scalingExcludePreparingDelete`, `kruiseless local --feature-gates`); absent fields take OpenKruise's defaults.
 */
import { parseFeatureGates, type PlannerOptions } from './plan/index.js';
import type { ControllerSettingsParser, SettingsInput } from '../controller.js';

/** The CloneSet controller's settings: a partial of the planner's options. */
export type CloneSetSettings = Readonly<Partial<PlannerOptions>>;

/** OpenKruise's flag that makes scaling ignore pods being deleted in PreparingDelete. */
export const FLAG_SCALING_EXCLUDE_PREPARING_DELETE = 'cloneset-scaling-exclude-preparing-delete';

/**
 * Planner options from a deployment's gates and flags.
 * @returns the options, and the gates that do not concern CloneSet
 * @throws InvalidFeatureGatesError for a malformed gate list
 */
export function parseCloneSetSettings(input: SettingsInput): {
  settings: CloneSetSettings;
  unknownGates: string[];
} {
  const { options, ignored } = parseFeatureGates(input.featureGates);
  const exclude = input.flags[FLAG_SCALING_EXCLUDE_PREPARING_DELETE] === true;
  return {
    settings: { ...options, ...(exclude ? { scalingExcludePreparingDelete: true } : {}) },
    unknownGates: ignored,
  };
}

/** The CloneSet settings parser of the registration. */
export const CLONESET_SETTINGS: ControllerSettingsParser<CloneSetSettings> = {
  parse: parseCloneSetSettings,
  defaults: {},
  flags: [
    { name: FLAG_SCALING_EXCLUDE_PREPARING_DELETE, env: 'KRUISELESS_SCALING_EXCLUDE_PREPARING_DELETE' },
  ],
};
