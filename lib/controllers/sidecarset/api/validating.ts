/**
 * OpenKruise's validating webhook for SidecarSets (`pkg/webhook/sidecarset/validating`, `vsidecarset.kb.io`, handler
 * `Handle`) as a {@link Validator} of v1alpha1 (cluster-scoped): a CREATE or UPDATE refused with ./validation.ts
 * `validateSidecarSet`'s errors as the handler answers them — the validation error returned as its own, so HTTP 500.
 * The object is defaulted in memory first (./defaults.ts), as `/mutate` stores it. What upstream reads from the cluster
 * (every other SidecarSet, the ControllerRevisions of `kruise-system`, the patch-metadata whitelist of the
 * `kruise-configuration` ConfigMap) comes from {@link SidecarSetValidationReads}; without them (the admission function,
 * which holds no read grant for them yet) the rules that need them are skipped: the conflicts with other SidecarSets,
 * a pinned revision's existence and the whitelist.
 */
import { verdictOf, withSpecObject, type Validator } from '../../../api/admission/validation.js';
import type { ControllerRevision } from '../../../api/types.js';
import { isNotFound, listAll, type KubeClient } from '../../../kube/index.js';
import { RESOURCES } from '../../../kube/resources.js';
import { kruiseConfigurationEntry } from '../../kruiseConfiguration.js';
import { defaultSidecarSet } from './defaults.js';
import { SIDECARSET_REVISION_NAMESPACE } from './keys.js';
import { SIDECARSET_RESOURCE } from './resource.js';
import type { SidecarSet } from './types.js';
import { validateSidecarSet, type PatchMetadataWhitelistRule } from './validation.js';

/** What the SidecarSet validator reads from the cluster, as upstream's handler reads it. */
export interface SidecarSetValidationReads {
  /** Every SidecarSet of the cluster. @throws KubeApiError */
  sidecarSets(): Promise<SidecarSet[]>;
  /** The ControllerRevisions of `kruise-system`. @throws KubeApiError */
  revisions(): Promise<ControllerRevision[]>;
  /**
   * The `SidecarSet_PatchPodMetadata_WhiteList` rules of ConfigMap `kruise-system/kruise-configuration`; null when
   * the ConfigMap or the entry is missing. Absent: the whitelist rule is skipped (a reader that may not read
   * ConfigMaps: the admission function's role, lib/controllers/validations.ts `clusterValidationReads`).
   * @throws KubeApiError, or SyntaxError for an entry that is not JSON
   */
  patchMetadataWhitelist?(): Promise<PatchMetadataWhitelistRule[] | null>;
}

/** The `kruise-configuration` entry upstream reads the whitelist from (`pkg/util/configuration`). */
export const PATCH_METADATA_WHITELIST_KEY = 'SidecarSet_PatchPodMetadata_WhiteList';

/**
 * The rules of a `SidecarSet_PatchPodMetadata_WhiteList` entry (upstream's `GetSidecarSetPatchMetadataWhiteList`);
 * null when there is no entry (no ConfigMap, no key), as upstream reads a missing whitelist.
 * @throws SyntaxError when the entry is not JSON
 */
export function parsePatchMetadataWhitelist(entry: string | undefined): PatchMetadataWhitelistRule[] | null {
  if (entry === undefined) return null;
  const parsed = JSON.parse(entry) as { rules?: PatchMetadataWhitelistRule[] } | null;
  return parsed?.rules ?? [];
}

/** {@link SidecarSetValidationReads} over a cluster client; a missing CRD or namespace reads as empty. */
export function kubeSidecarSetValidationReads(
  kube: Pick<KubeClient, 'list' | 'get'>,
): SidecarSetValidationReads {
  const orEmpty = <T>(e: unknown, empty: T): T => {
    if (isNotFound(e)) return empty;
    throw e;
  };
  return {
    async sidecarSets() {
      return listAll(kube, SIDECARSET_RESOURCE).then(
        (l) => l.items as unknown as SidecarSet[],
        (e: unknown) => orEmpty(e, []),
      );
    },
    async revisions() {
      return listAll(kube, RESOURCES.controllerrevisions, { namespace: SIDECARSET_REVISION_NAMESPACE }).then(
        (l) => l.items,
        (e: unknown) => orEmpty(e, []),
      );
    },
    async patchMetadataWhitelist() {
      return parsePatchMetadataWhitelist(await kruiseConfigurationEntry(kube, PATCH_METADATA_WHITELIST_KEY));
    },
  };
}

/**
 * Which of the optional reads a SidecarSet's rules use: the `kruise-system` revisions only for a pinned
 * `injectionStrategy.revision` (name or custom version), the whitelist only for a non-empty `patchPodMetadata`
 * (./validation.ts). Upstream reads them from its informer cache; here each is an API call in the write path, so a
 * SidecarSet that uses neither costs one list (the other SidecarSets).
 * @param ss the defaulted SidecarSet being written
 */
export function readsNeeded(ss: SidecarSet): { revisions: boolean; whitelist: boolean } {
  const pin = ss.spec.injectionStrategy?.revision;
  const isSet = (v: unknown): boolean => v !== undefined && v !== null;
  return {
    revisions: pin !== undefined && pin !== null && (isSet(pin.revisionName) || isSet(pin.customVersion)),
    whitelist: (ss.spec.patchPodMetadata ?? []).length > 0,
  };
}

/** Options of {@link sidecarSetValidator}. */
export interface SidecarSetValidatorOptions {
  /** Gate `SidecarSetPatchPodMetadataDefaultsAllowed`. */
  patchMetadataDefaultsAllowed?: boolean;
  /** The cluster reads; absent: the rules that need them are skipped (see the file comment). */
  reads?: SidecarSetValidationReads;
}

/** The SidecarSet validator (`vsidecarset.kb.io`, CREATE and UPDATE of v1alpha1 `sidecarsets`). */
export function sidecarSetValidator(options: SidecarSetValidatorOptions = {}): Validator {
  const defaulted = (o: unknown): SidecarSet => defaultSidecarSet(withSpecObject<SidecarSet>(o));
  return {
    webhookName: 'vsidecarset.kb.io',
    group: SIDECARSET_RESOURCE.group,
    resource: SIDECARSET_RESOURCE.plural,
    version: SIDECARSET_RESOURCE.version,
    namespaced: false,
    operations: ['CREATE', 'UPDATE'],
    async validate({ operation, object, oldObject }) {
      const reads = options.reads;
      const sidecarSet = defaulted(object);
      const need = readsNeeded(sidecarSet);
      const [others, revisions, whitelist] = reads
        ? await Promise.all([
            reads.sidecarSets(),
            need.revisions ? reads.revisions() : undefined,
            need.whitelist && reads.patchMetadataWhitelist ? reads.patchMetadataWhitelist() : undefined,
          ])
        : [[], undefined, undefined];
      const errors = validateSidecarSet(sidecarSet, {
        ...(operation === 'UPDATE' && oldObject ? { old: defaulted(oldObject) } : {}),
        others,
        ...(revisions ? { revisions } : {}),
        ...(whitelist !== undefined ? { patchMetadataWhitelist: whitelist } : {}),
        patchMetadataDefaultsAllowed: options.patchMetadataDefaultsAllowed ?? false,
      });
      return verdictOf(errors, 500);
    },
  };
}
