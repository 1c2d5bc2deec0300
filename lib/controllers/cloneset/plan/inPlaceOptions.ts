/**
 * OpenKruise: pkg/controller/cloneset/sync/cloneset_update.go (the `inplaceupdate.UpdateOptions` CloneSet passes);
 * pkg/controller/cloneset/utils/cloneset_utils.go `revisionAdapterImpl.WriteRevisionHash` (CloneSet's revision
 * adapter).
 *
 * What the CloneSet planner gives the pod-set toolkit's in-place rules (lib/podset/inplace/options.ts): the three
 * gates from its {@link PlannerOptions}, and CloneSet's revision labels, which new pods carry too.
 */
import { LABEL_CONTROLLER_REVISION_HASH, LABEL_POD_TEMPLATE_HASH } from '../../../api/keys.js';
import type { InPlaceUpdateGates, InPlaceUpdateOptions } from '../../../podset/inplace/options.js';
import { shortHash } from '../../../podset/pods.js';
import type { PlannerOptions } from './types.js';

/**
 * The revision labels of a CloneSet pod at `revision` (docs/behaviour/cloneset.md#new-pods):
 * `controller-revision-hash` = the revision name (its hash suffix only with gate `CloneSetShortHash`),
 * `pod-template-hash` = the hash suffix.
 * @param revision a ControllerRevision name `<cloneset>-<hash>`
 * @param shortHashLabel gate `CloneSetShortHash`
 * @returns a new object, keys in that order
 */
export function cloneSetRevisionLabels(revision: string, shortHashLabel: boolean): Record<string, string> {
  const hash = shortHash(revision);
  return {
    [LABEL_CONTROLLER_REVISION_HASH]: shortHashLabel ? hash : revision,
    [LABEL_POD_TEMPLATE_HASH]: hash,
  };
}

/** The in-place gates among the planner's options. */
export function inPlaceUpdateGates(options: PlannerOptions): InPlaceUpdateGates {
  return {
    inPlaceUpdateEnvFromMetadata: options.inPlaceUpdateEnvFromMetadata,
    inPlaceWorkloadVerticalScaling: options.inPlaceWorkloadVerticalScaling,
    recreatePodWhenChangeVCTInCloneSet: options.recreatePodWhenChangeVCTInCloneSet,
  };
}

/** The in-place update options of a CloneSet planned with `options`: its gates, {@link cloneSetRevisionLabels}. */
export function inPlaceUpdateOptions(options: PlannerOptions): InPlaceUpdateOptions {
  const shortHashLabel = options.cloneSetShortHash;
  return {
    ...inPlaceUpdateGates(options),
    revisionLabels: (revision) => cloneSetRevisionLabels(revision, shortHashLabel),
  };
}
