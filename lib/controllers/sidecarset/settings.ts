/**
 * The SidecarSet controller's settings: gate `SidecarSetPatchPodMetadataDefaultsAllowed` (OpenKruise v1.9.0
 * `pkg/features`, alpha, off), which lets `patchPodMetadata` through validation without the whitelist of
 * `kruise-configuration` (./api/validation.ts), and gate `EnableSortSidecarContainerByName` (alpha, off), under which
 * the pod webhook injects a pod's sidecar containers in name order (./plan/inject.ts). No OpenKruise flag concerns
 * it, and its other gates (`SidecarTerminator`, …) concern features Kruiseless does not serve.
 */
import type { ControllerSettingsParser, SettingsInput } from '../controller.js';
import { parseGateList, type GateSpec } from '../../api/featureGates.js';

/** The SidecarSet controller's settings. */
export type SidecarSetSettings = Readonly<{
  /** Gate `SidecarSetPatchPodMetadataDefaultsAllowed`: `patchPodMetadata` needs no whitelist entry. */
  patchMetadataDefaultsAllowed?: boolean;
  /** Gate `EnableSortSidecarContainerByName`: injected sidecar containers in name order. */
  sortSidecarContainersByName?: boolean;
}>;

const SIDECARSET_GATES: Readonly<
  Record<string, GateSpec<'patchMetadataDefaultsAllowed' | 'sortSidecarContainersByName'>>
> = {
  SidecarSetPatchPodMetadataDefaultsAllowed: { option: 'patchMetadataDefaultsAllowed', stage: 'alpha' },
  EnableSortSidecarContainerByName: { option: 'sortSidecarContainersByName', stage: 'alpha' },
};

/**
 * The SidecarSet settings parser of the registration: `SidecarSetPatchPodMetadataDefaultsAllowed` and
 * `EnableSortSidecarContainerByName`; every other gate is another controller's.
 * @throws InvalidFeatureGatesError for a malformed gate list
 */
export const SIDECARSET_SETTINGS: ControllerSettingsParser<SidecarSetSettings> = {
  parse(input: SettingsInput) {
    const { options, ignored } = parseGateList(input.featureGates, SIDECARSET_GATES);
    return { settings: options, unknownGates: ignored };
  },
  defaults: {},
  flags: [],
};
