/**
 * Injection of a pinned SidecarSet revision at pod CREATE (OpenKruise: `getSuitableRevisionSidecarSet` and
 * `selectRevisionRandomly` in `pkg/webhook/pod/mutating/sidecarset.go`; `GetHistorySidecarSet`,
 * `getControllerRevision` and `restoreRevisionInfo` in `pkg/control/sidecarcontrol/history_control.go`). Pure: the
 * pod webhook reads the pinned revision (./podWebhook.ts) and asks here which SidecarSet to inject.
 */
import { selectorMatches } from '../../../api/selector.js';
import type { ControllerRevision, JsonValue } from '../../../api/types.js';
import { isJsonObject } from '../../../api/types.js';
import { sidecarSetHash, sidecarSetHashWithoutImage } from '../api/hash.js';
import { ANNOTATION_SIDECARSET_HASH, ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE } from '../api/keys.js';
import type { SidecarSet, SidecarSetSpec } from '../api/types.js';
import { SidecarInjectionError } from './errors.js';

/** The revision `injectionStrategy.revision` names: by name, or the newest labelled with a custom version. */
export type RevisionPin = { revisionName: string } | { customVersion: string };

/** The pin of the SidecarSet (`revisionName` wins over `customVersion`, as upstream checks it first); undefined when none. */
export function revisionPin(sidecarSet: SidecarSet): RevisionPin | undefined {
  const r = sidecarSet.spec.injectionStrategy?.revision;
  if (r?.revisionName !== undefined && r.revisionName !== null) return { revisionName: r.revisionName };
  if (r?.customVersion !== undefined && r.customVersion !== null) return { customVersion: r.customVersion };
  return undefined;
}

/** The five spec fields a revision records (./revision.ts). */
const RECORDED = ['containers', 'initContainers', 'volumes', 'imagePullSecrets', 'patchPodMetadata'] as const;

/**
 * The SidecarSet as `revision` recorded it (`GetHistorySidecarSet`): its containers, init containers, volumes,
 * imagePullSecrets and patchPodMetadata those of the revision's data (absent when the data has none); its two hash
 * annotations the revision's, or computed from the restored spec when the revision has none; `status.latestRevision`
 * the revision's name. The other fields stay the live SidecarSet's. (Upstream's strategic merge replaces the whole
 * spec, so its restored object has no selector; only these fields are read after matching, which used the live one.)
 * @returns a new object
 */
export function restoreSidecarSet(sidecarSet: SidecarSet, revision: ControllerRevision): SidecarSet {
  const data = revision.data;
  const recorded = isJsonObject(data) && isJsonObject(data.spec) ? data.spec : {};
  const spec: Record<string, unknown> = { ...structuredClone(sidecarSet.spec) };
  for (const field of RECORDED) {
    const value: JsonValue | undefined = recorded[field];
    if (value === undefined || value === null) delete spec[field];
    else spec[field] = structuredClone(value);
  }
  const restoredSpec = spec as SidecarSetSpec;
  const fromRevision = revision.metadata.annotations ?? {};
  return {
    ...structuredClone(sidecarSet),
    metadata: {
      ...structuredClone(sidecarSet.metadata),
      annotations: {
        ...(sidecarSet.metadata.annotations ?? {}),
        [ANNOTATION_SIDECARSET_HASH]:
          fromRevision[ANNOTATION_SIDECARSET_HASH] || sidecarSetHash(restoredSpec),
        [ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE]:
          fromRevision[ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE] || sidecarSetHashWithoutImage(restoredSpec),
      },
    },
    spec: restoredSpec,
    status: { ...(sidecarSet.status ?? {}), latestRevision: revision.metadata.name ?? '' },
  };
}

/**
 * `ParsePercentageAsFloat64`: `"30%"` → 0.3.
 * @throws SidecarInjectionError for a value without `%` or whose number does not parse
 */
function percentage(value: string): number {
  if (!value.endsWith('%')) throw new SidecarInjectionError('invalid type: string is not a percentage');
  const text = value.slice(0, -1);
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n))
    throw new SidecarInjectionError(`strconv.ParseFloat: parsing "${text}": invalid syntax`);
  return n / 100;
}

/**
 * Which SidecarSet a CREATE injects when it is pinned (`getSuitableRevisionSidecarSet`, CREATE branch): the pinned
 * one when the rollout is paused (`updateStrategy.paused`) or the policy is `Always` (the default); with `Partial`,
 * the pinned one for a pod the update `selector` does not match, else the latest unless `partition` is a percentage,
 * in which case the pinned one with that probability (`random() <= p`).
 * @param pinned the SidecarSet restored from the pinned revision ({@link restoreSidecarSet})
 * @param random a number in [0, 1) (upstream: `math/rand`'s `Float64`)
 * @throws SidecarInjectionError for an invalid update selector or a partition string that is not a percentage
 *   (upstream refuses the pod then)
 */
export function injectedRevision(
  sidecarSet: SidecarSet,
  pinned: SidecarSet,
  podLabels: Record<string, string> | undefined,
  random: () => number,
): SidecarSet {
  const strategy = sidecarSet.spec.updateStrategy ?? {};
  if (strategy.paused === true) return pinned;
  if (sidecarSet.spec.injectionStrategy?.revision?.policy !== 'Partial') return pinned;
  if (strategy.selector) {
    let matches: boolean;
    try {
      matches = selectorMatches(strategy.selector, podLabels);
    } catch (e) {
      throw new SidecarInjectionError(`invalid update selector: ${(e as Error).message}`);
    }
    if (!matches) return pinned;
  }
  const partition = strategy.partition;
  if (partition === undefined || partition === null || typeof partition === 'number') return sidecarSet;
  return random() <= percentage(partition) ? pinned : sidecarSet;
}
