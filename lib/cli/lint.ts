/**
 * `kruiseless lint -f cloneset.yaml` (docs/cli.md#lint): OpenKruise's CloneSet validation offline — every
 * CloneSet document of the file is defaulted and validated by {@link checkCloneSet}, the check the planner runs
 * before every reconcile, with OpenKruise's messages. Errors are printed as `path: message` lines on stderr
 * and the exit code is 1; a valid file prints one `… is valid` line per CloneSet. Advanced StatefulSets, Advanced
 * DaemonSets, BroadcastJobs and AdvancedCronJobs are linted too, each defaulted and checked with the rules of
 * OpenKruise's validating webhook for its kind (`apps.kruise.io/v1beta1`; v1alpha1 converted to it first), the
 * check its controller runs before every pass. `apps.kruise.io/v1alpha1` SidecarSets (the version Kruiseless serves) are
 * defaulted as OpenKruise's mutating webhook defaults them and validated by
 * lib/controllers/sidecarset/api/validation.ts with no other SidecarSet (offline: no conflict, a canary's base is not
 * found), no ControllerRevision lookup and no patch-metadata whitelist check. `policy.kruise.io` PodUnavailableBudgets
 * (v1beta1, or v1alpha1 with its deprecated annotations moved into the spec as the webhook reads them) are checked by
 * lib/controllers/podunavailablebudget/api/validation.ts with no other PUB (offline: no conflict). WorkloadSpreads are
 * validated by lib/controllers/workloadspread/api/validation.ts with no other WorkloadSpread and no target read. With
 * `--kruise-configuration` (./kruiseConfigurationFile.ts) the ConfigMap's whitelists apply: a WorkloadSpread may
 * target a whitelisted custom Kind, and a SidecarSet's `patchPodMetadata` is checked against its rules.
 */
import type { Command } from 'commander';
import { checkCloneSet } from '../controllers/cloneset/api/check.js';
import { checkStatefulSet } from '../controllers/statefulset/api/check.js';
import { STATEFULSET_API_VERSION, STATEFULSET_KIND_NAME } from '../controllers/statefulset/api/resource.js';
import type { StatefulSet } from '../controllers/statefulset/api/types.js';
import { toV1beta1 } from '../controllers/statefulset/api/conversion.js';
import { errorMessage } from '../core/errors.js';
import type { FieldError } from '../api/errors.js';
import { GROUP, KIND } from '../api/keys.js';
import type { CloneSet, JsonObject } from '../api/types.js';
import type { CloneSetV1beta1 } from '../api/v1beta1.js';
import { fromV1beta1 } from '../controllers/cloneset/api/versionMapping.js';
import { withDefaults as acjWithDefaults } from '../controllers/advancedcronjob/api/defaults.js';
import { validateAdvancedCronJob } from '../controllers/advancedcronjob/api/validation.js';
import type { AdvancedCronJob } from '../controllers/advancedcronjob/api/types.js';
import { withDefaults as bcjWithDefaults } from '../controllers/broadcastjob/api/defaults.js';
import { validateBroadcastJob } from '../controllers/broadcastjob/api/validation.js';
import type { BroadcastJob } from '../controllers/broadcastjob/api/types.js';
import { daemonSetToV1beta1 } from '../controllers/daemonset/api/conversion.js';
import { withDefaults as dsWithDefaults } from '../controllers/daemonset/api/defaults.js';
import { validateDaemonSet } from '../controllers/daemonset/api/validation.js';
import type { DaemonSet } from '../controllers/daemonset/api/types.js';
import { defaultSidecarSet } from '../controllers/sidecarset/api/defaults.js';
import type { SidecarSet } from '../controllers/sidecarset/api/types.js';
import { validateSidecarSet } from '../controllers/sidecarset/api/validation.js';
import type { PodUnavailableBudget } from '../controllers/podunavailablebudget/api/types.js';
import { POLICY_GROUP, PUB_KIND_NAME } from '../controllers/podunavailablebudget/api/resource.js';
import {
  PubConversionError,
  pubFromV1alpha1,
  validatePodUnavailableBudget,
} from '../controllers/podunavailablebudget/api/validation.js';
import { workloadSpreadToV1beta1 } from '../controllers/workloadspread/api/conversion.js';
import type { WorkloadSpread } from '../controllers/workloadspread/api/types.js';
import { validateWorkloadSpread } from '../controllers/workloadspread/api/validation.js';
import { CliError, runCommand, type CliIO } from './io.js';
import {
  NO_CONFIGURATION,
  readLintConfiguration,
  type LintConfiguration,
} from './kruiseConfigurationFile.js';
import { readInput, yamlDocuments } from './yamlInput.js';

/** The result of linting one document. */
export interface LintResult {
  /** The kind's lower-case name, as the output lines name it. */
  kind:
    | 'cloneset'
    | 'statefulset'
    | 'daemonset'
    | 'broadcastjob'
    | 'advancedcronjob'
    | 'sidecarset'
    | 'podunavailablebudget'
    | 'workloadspread';
  name: string;
  errors: FieldError[];
}

/** A field of an unchecked document as text: a string as is, `absent` for null/undefined, anything else as JSON. */
function shown(v: unknown, absent: string): string {
  if (v === undefined || v === null) return absent;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** The kinds linted by webhook rules alone: how each is read as v1beta1, defaulted and validated. */
const WEBHOOK_KINDS = {
  DaemonSet: {
    name: 'daemonset',
    toV1beta1: daemonSetToV1beta1,
    check: (o: JsonObject, _config: LintConfiguration) =>
      validateDaemonSet(dsWithDefaults(o as unknown as DaemonSet)),
  },
  BroadcastJob: {
    name: 'broadcastjob',
    // v1alpha1 and v1beta1 have the same fields (apis/apps/v1alpha1/broadcastjob_conversion.go)
    toV1beta1: (o: JsonObject) => o,
    check: (o: JsonObject, _config: LintConfiguration) =>
      validateBroadcastJob(bcjWithDefaults(o as unknown as BroadcastJob)),
  },
  AdvancedCronJob: {
    name: 'advancedcronjob',
    toV1beta1: (o: JsonObject) => o,
    check: (o: JsonObject, _config: LintConfiguration) =>
      validateAdvancedCronJob(acjWithDefaults(o as unknown as AdvancedCronJob)),
  },
  // the other WorkloadSpreads of its namespace (the conflict rule) and its target are not read offline
  WorkloadSpread: {
    name: 'workloadspread',
    toV1beta1: workloadSpreadToV1beta1,
    check: (o: JsonObject, config: LintConfiguration) => {
      const ws = o as unknown as WorkloadSpread;
      return validateWorkloadSpread(
        { ...ws, spec: { ...ws.spec, subsets: ws.spec.subsets ?? [] } },
        { customWorkloads: config.customWorkloads },
      );
    },
  },
} as const;

/**
 * Lints one parsed document, with `config`'s whitelists (default: none, no patch-metadata check).
 * @throws CliError when it is not a CloneSet, Advanced StatefulSet, Advanced DaemonSet, BroadcastJob or
 *   AdvancedCronJob of apps.kruise.io/v1alpha1 or v1beta1, or a SidecarSet of apps.kruise.io/v1alpha1
 */
export function lintDocument(
  doc: unknown,
  index: number,
  config: LintConfiguration = NO_CONFIGURATION,
): LintResult {
  const obj = (doc ?? {}) as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } };
  const where = `document ${index + 1}`;
  const webhookKind =
    typeof obj.kind === 'string' ? WEBHOOK_KINDS[obj.kind as keyof typeof WEBHOOK_KINDS] : undefined;
  if (webhookKind && (obj.apiVersion === `${GROUP}/v1beta1` || obj.apiVersion === `${GROUP}/v1alpha1`)) {
    const name = shown(obj.metadata?.name, '');
    const o = doc as JsonObject;
    if (typeof o.spec !== 'object' || o.spec === null)
      return { kind: webhookKind.name, name, errors: [{ path: 'spec', message: 'Required value' }] };
    const beta = obj.apiVersion === `${GROUP}/v1alpha1` ? webhookKind.toV1beta1(o) : o;
    return { kind: webhookKind.name, name, errors: webhookKind.check(beta, config) };
  }
  if (obj.kind === 'SidecarSet') return lintSidecarSet(doc as JsonObject, where, config);
  if (obj.kind === PUB_KIND_NAME) return lintPodUnavailableBudget(doc as JsonObject, where);
  if (obj.kind === STATEFULSET_KIND_NAME && obj.apiVersion === STATEFULSET_API_VERSION)
    return lintStatefulSet(doc as StatefulSet);
  if (obj.kind === STATEFULSET_KIND_NAME && obj.apiVersion === `${GROUP}/v1alpha1`)
    return lintStatefulSet(v1alpha1StatefulSet(doc as JsonObject, where));
  if (obj.kind !== KIND)
    throw new CliError(
      `${where}: kind ${shown(obj.kind, '(none)')} is not a CloneSet, StatefulSet, DaemonSet, BroadcastJob, AdvancedCronJob, SidecarSet, PodUnavailableBudget or WorkloadSpread`,
    );
  const version =
    obj.apiVersion === `${GROUP}/v1alpha1`
      ? 'v1alpha1'
      : obj.apiVersion === `${GROUP}/v1beta1`
        ? 'v1beta1'
        : undefined;
  if (!version)
    throw new CliError(
      `${where}: apiVersion ${shown(obj.apiVersion, '(none)')} is not ${GROUP}/v1alpha1 or v1beta1`,
    );
  const cs = version === 'v1beta1' ? fromV1beta1(doc as CloneSetV1beta1) : (doc as CloneSet);
  if (typeof cs.spec !== 'object' || cs.spec === null) {
    return {
      kind: 'cloneset',
      name: shown(obj.metadata?.name, ''),
      errors: [{ path: 'spec', message: 'Required value' }],
    };
  }
  // the v1alpha1 webhook rejects OnDelete; through v1beta1 it is a valid strategy
  const { errors } = checkCloneSet(cs, { allowOnDelete: version === 'v1beta1' });
  return { kind: 'cloneset', name: shown(obj.metadata?.name, ''), errors };
}

/**
 * A v1alpha1 Advanced StatefulSet as v1beta1, as the CRD's conversion (lib/controllers/statefulset/api/conversion.ts
 * `toV1beta1`) stores it.
 * @throws CliError when its `kruiseless.io/v1beta1-fields` annotation is not what the conversion writes
 */
function v1alpha1StatefulSet(doc: JsonObject, where: string): StatefulSet {
  try {
    return toV1beta1(doc) as unknown as StatefulSet;
  } catch (e) {
    throw new CliError(`${where}: ${errorMessage(e)}`);
  }
}

/**
 * Lints an `apps.kruise.io/v1beta1` Advanced StatefulSet (a v1alpha1 one converted first): defaulted and
 * validated by lib/controllers/statefulset/api/check.ts, OpenKruise's StatefulSet webhook rules with their
 * messages, the check the controller runs before every pass.
 */
function lintStatefulSet(sts: StatefulSet): LintResult {
  const name = shown(sts.metadata?.name, '');
  if (typeof sts.spec !== 'object' || sts.spec === null)
    return { kind: 'statefulset', name, errors: [{ path: 'spec', message: 'Required value' }] };
  return { kind: 'statefulset', name, errors: checkStatefulSet(sts).errors };
}

/**
 * Lints an `apps.kruise.io/v1alpha1` SidecarSet: defaulted (lib/controllers/sidecarset/api/defaults.ts) and validated
 * by OpenKruise's SidecarSet webhook rules (lib/controllers/sidecarset/api/validation.ts) with no other SidecarSet.
 * @throws CliError for another apiVersion (Kruiseless serves SidecarSets as v1alpha1 only)
 */
function lintSidecarSet(doc: JsonObject, where: string, config: LintConfiguration): LintResult {
  const name = shown((doc.metadata as { name?: unknown } | undefined)?.name, '');
  if (doc.apiVersion !== `${GROUP}/v1alpha1`)
    throw new CliError(
      `${where}: apiVersion ${shown(doc.apiVersion, '(none)')} is not ${GROUP}/v1alpha1 for a SidecarSet`,
    );
  if (typeof doc.spec !== 'object' || doc.spec === null || Array.isArray(doc.spec))
    return { kind: 'sidecarset', name, errors: [{ path: 'spec', message: 'Required value' }] };
  const ss = doc as unknown as SidecarSet;
  const defaulted = defaultSidecarSet({ ...ss, metadata: ss.metadata ?? {} });
  return {
    kind: 'sidecarset',
    name,
    errors: validateSidecarSet(defaulted, {
      others: [],
      ...(config.patchMetadataWhitelist !== undefined
        ? { patchMetadataWhitelist: config.patchMetadataWhitelist }
        : {}),
    }),
  };
}

/**
 * Lints a `policy.kruise.io` PodUnavailableBudget with OpenKruise's PUB webhook rules and no other PUB; a v1alpha1
 * one is read as the webhook reads it (its annotations moved into the spec), a failed move reported at
 * `metadata.annotations`.
 * @throws CliError for another apiVersion
 */
function lintPodUnavailableBudget(doc: JsonObject, where: string): LintResult {
  const name = shown((doc.metadata as { name?: unknown } | undefined)?.name, '');
  const version =
    doc.apiVersion === `${POLICY_GROUP}/v1beta1`
      ? 'v1beta1'
      : doc.apiVersion === `${POLICY_GROUP}/v1alpha1`
        ? 'v1alpha1'
        : undefined;
  if (!version)
    throw new CliError(
      `${where}: apiVersion ${shown(doc.apiVersion, '(none)')} is not ${POLICY_GROUP}/v1alpha1 or v1beta1`,
    );
  const raw = doc as unknown as PodUnavailableBudget;
  const pub: PodUnavailableBudget = {
    ...raw,
    metadata: raw.metadata ?? {},
    spec: typeof raw.spec === 'object' && raw.spec !== null ? raw.spec : {},
  };
  if (version === 'v1beta1')
    return { kind: 'podunavailablebudget', name, errors: validatePodUnavailableBudget(pub) };
  try {
    return { kind: 'podunavailablebudget', name, errors: validatePodUnavailableBudget(pubFromV1alpha1(pub)) };
  } catch (e) {
    if (!(e instanceof PubConversionError)) throw e;
    return {
      kind: 'podunavailablebudget',
      name,
      errors: [
        { path: 'metadata.annotations', message: `failed to convert v1alpha1 PUB to v1beta1: ${e.message}` },
      ],
    };
  }
}

/** Lints every non-empty document of the file. */
async function lint(io: CliIO, opts: { filename: string; kruiseConfiguration?: string }): Promise<number> {
  const config = opts.kruiseConfiguration
    ? readLintConfiguration(opts.kruiseConfiguration)
    : NO_CONFIGURATION;
  const results: LintResult[] = [];
  for (const { index, value } of yamlDocuments(readInput(opts.filename), opts.filename))
    results.push(lintDocument(value, index, config));
  if (results.length === 0) throw new CliError(`${opts.filename}: no object to lint found`);
  let failed = false;
  for (const r of results) {
    if (r.errors.length === 0) {
      io.out(`${r.kind} "${r.name}" is valid\n`);
      continue;
    }
    failed = true;
    if (results.length > 1) io.err(`${r.kind} "${r.name}":\n`);
    for (const e of r.errors) io.err(`${e.path}: ${e.message}\n`);
  }
  return failed ? 1 : 0;
}

/** Registers `lint`. */
export function registerLint(program: Command, io: CliIO): void {
  program
    .command('lint')
    .description(
      "validate CloneSet, Advanced StatefulSet, Advanced DaemonSet, BroadcastJob, AdvancedCronJob, SidecarSet, PodUnavailableBudget and WorkloadSpread YAML offline with OpenKruise's rules and messages; exit 1 on errors",
    )
    .requiredOption('-f, --filename <file>', 'the YAML file (- for stdin)')
    .option(
      '--kruise-configuration <file>',
      'the kruise-system/kruise-configuration ConfigMap as YAML: apply its WorkloadSpread custom-workload and SidecarSet patchPodMetadata whitelists',
    )
    .action((opts: { filename: string; kruiseConfiguration?: string }) =>
      runCommand(io, () => lint(io, opts)),
    );
}
