/**
 * `kruiseless lint --kruise-configuration <file>`: the `kruise-system/kruise-configuration` ConfigMap
 * (lib/controllers/kruiseConfiguration.ts) read from a file — what `kubectl get cm -n kruise-system
 * kruise-configuration -o yaml` prints — so that the offline lint applies the two whitelists the admission webhooks
 * read from the cluster: WorkloadSpread's custom workloads and SidecarSet's `patchPodMetadata` rules.
 */
import { errorMessage } from '../core/errors.js';
import {
  CUSTOM_WORKLOAD_WHITELIST_KEY,
  parseCustomWorkloadWhitelist,
  type CustomWorkload,
} from '../controllers/workloadspread/api/customWorkloads.js';
import {
  parsePatchMetadataWhitelist,
  PATCH_METADATA_WHITELIST_KEY,
} from '../controllers/sidecarset/api/validating.js';
import type { PatchMetadataWhitelistRule } from '../controllers/sidecarset/api/validation.js';
import { CliError } from './io.js';
import { readInput, yamlDocuments } from './yamlInput.js';

/** The whitelists a lint applies; absent ones are not checked (as without the option). */
export interface LintConfiguration {
  /** WorkloadSpread targets of a custom Kind that are allowed (empty: none, OpenKruise's default). */
  customWorkloads: readonly CustomWorkload[];
  /** The SidecarSet `patchPodMetadata` rules; null when the ConfigMap has no entry; absent: not checked. */
  patchMetadataWhitelist?: readonly PatchMetadataWhitelistRule[] | null;
}

/** What a lint applies without `--kruise-configuration`: no custom workload, no patch-metadata check. */
export const NO_CONFIGURATION: LintConfiguration = { customWorkloads: [] };

/**
 * The whitelists of a ConfigMap document `text` (YAML or JSON; the first non-empty document).
 * @param file named in the errors
 * @throws CliError when the text is not YAML, is not a ConfigMap, its `data` is not a map of strings, or an entry is
 *   not what OpenKruise's manager could read (its words: the key and the JSON error)
 */
export function parseLintConfiguration(text: string, file: string): LintConfiguration {
  const value = [...yamlDocuments(text, file)][0]?.value;
  const doc =
    typeof value === 'object' && value !== null ? (value as { kind?: unknown; data?: unknown }) : undefined;
  if (!doc || doc.kind !== 'ConfigMap')
    throw new CliError(
      `${file}: not a ConfigMap (kubectl get cm -n kruise-system kruise-configuration -o yaml)`,
    );
  const data = doc.data ?? {};
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new CliError(`${file}: data is not a map of strings`);
  const entries = data as Record<string, unknown>;
  const entry = (key: string): string | undefined => {
    const v = entries[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw new CliError(`${file}: data.${key} is not a string`);
    return v;
  };
  let customWorkloads: CustomWorkload[];
  try {
    customWorkloads = parseCustomWorkloadWhitelist(entry(CUSTOM_WORKLOAD_WHITELIST_KEY));
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`${file}: ${errorMessage(e)}`);
  }
  const patchEntry = entry(PATCH_METADATA_WHITELIST_KEY);
  try {
    return { customWorkloads, patchMetadataWhitelist: parsePatchMetadataWhitelist(patchEntry) };
  } catch (e) {
    throw new CliError(`${file}: ${PATCH_METADATA_WHITELIST_KEY}: not JSON (${errorMessage(e)})`);
  }
}

/**
 * {@link parseLintConfiguration} of a file (a path, or `-` for stdin).
 * @throws CliError when the file cannot be read, or as {@link parseLintConfiguration}
 */
export function readLintConfiguration(file: string): LintConfiguration {
  return parseLintConfiguration(readInput(file), file);
}
