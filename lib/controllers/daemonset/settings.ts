/**
 * The Advanced DaemonSet controller's settings: the in-place update gates OpenKruise's `--feature-gates` sets
 * (serverless.yml parameter `featureGates`, `kruiseless local --feature-gates`); absent fields take OpenKruise
 * v1.9.0's defaults (./plan/types.ts `DEFAULT_DAEMONSET_OPTIONS`), image pre-download's
 * (`PreDownloadImageForDaemonSetUpdate`, `KruiseDaemon`) among them. `DaemonSetPruneIneligibleNodes` is not
 * implemented; `scheduleDaemonSetPods` is fixed at true (pods pinned by
 * node-name affinity for kube-scheduler to bind).
 */
import { parseGateList, type GateSpec } from '../../api/featureGates.js';
import type { ControllerSettingsParser, SettingsInput } from '../controller.js';
import type { DaemonSetPlannerOptions } from './plan/types.js';

/** The DaemonSet controller's settings: a partial of the planner's options. */
export type DaemonSetSettings = Readonly<Partial<DaemonSetPlannerOptions>>;

/** Gate name (OpenKruise v1.9.0 `pkg/features`) → the planner option it sets and its stage. */
const DAEMONSET_GATES: Readonly<Record<string, GateSpec<keyof DaemonSetPlannerOptions>>> = {
  InPlaceUpdateEnvFromMetadata: { option: 'inPlaceUpdateEnvFromMetadata', stage: 'beta' },
  InPlaceWorkloadVerticalScaling: { option: 'inPlaceWorkloadVerticalScaling', stage: 'alpha' },
  PreDownloadImageForDaemonSetUpdate: { option: 'preDownloadImageForDaemonSetUpdate', stage: 'alpha' },
  KruiseDaemon: { option: 'kruiseDaemon', stage: 'beta' },
};

/** The DaemonSet settings parser of the registration. */
export const DAEMONSET_SETTINGS: ControllerSettingsParser<DaemonSetSettings> = {
  parse(input: SettingsInput) {
    const { options, ignored } = parseGateList(input.featureGates, DAEMONSET_GATES);
    return { settings: options, unknownGates: ignored };
  },
  defaults: {},
  flags: [],
};
