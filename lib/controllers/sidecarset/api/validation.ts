/**
 * OpenKruise: `SidecarSetCreateUpdateHandler.validateSidecarSet` and `validateSidecarSetSpec` in
 * `pkg/webhook/sidecarset/validating/sidecarset_create_update_handler.go` (v1.9.0), which validates the v1beta1 form
 * of the object after the mutating webhook's defaults (./defaults.ts). Pure: what upstream reads from the API server
 * (the other SidecarSets, the ControllerRevisions a pinned revision names, the patch-metadata whitelist of the
 * `kruise-configuration` ConfigMap) comes in {@link SidecarSetValidationOptions}.
 *
 * Messages and paths are upstream's, odd ones included (`container.podInjectPolicy`, `[i].transferEnv.fieldRef`,
 * `revision`, `patchPodMetadata.annotations`, the root path of "no initContainer or container defined"). Where
 * upstream prints a Go struct that holds pointers (`%++v` of the update strategy, a pinned revision with its names
 * set, a resources policy), Go prints memory addresses; these messages print the value as JSON instead.
 */
import type { FieldError } from '../../../api/errors.js';
import { goRegExp } from '../../../api/goRegexp.js';
import {
  invalid,
  invalidPrinted,
  labelsErrors,
  positiveIntOrPercentErrors,
  priorityStrategyError,
  scatterStrategyError,
  qualifiedNameErrors,
  regexError,
  required,
  forbidden,
  selectorErrors,
} from '../../../api/fieldValidation.js';
import { goLabelSelector, goStringMap } from '../../../api/goPrint.js';
import { isEmptySelector, selectorMatches } from '../../../api/selector.js';
import type { ControllerRevision, IntOrString, LabelSelector } from '../../../api/types.js';
import { LABEL_SIDECARSET_CUSTOM_VERSION, LABEL_SIDECARSET_NAME, RESTART_POLICY_ALWAYS } from './keys.js';
import { resourceExpressionProblem } from '../plan/resourceExpression.js';
import type { SidecarContainer, SidecarSet, SidecarSetUpdateStrategy, TransferEnvVar } from './types.js';
import {
  ANNOTATION_SIDECARSET_BASE,
  canaryBase,
  conflictErrors,
  containerUpdateErrors,
  effectiveNamespaceSelector,
} from './validationConflict.js';
import { splitSubscriptedPath } from '../../../api/containerEnvValidation.js';
import { podSpecErrors } from '../../../api/podSpecValidation.js';
import { DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS } from '../../../api/podTemplateDefaults.js';

export type { FieldError } from '../../../api/errors.js';

/** One rule of the `SidecarSet_PatchPodMetadata_WhiteList` entry of the `kruise-configuration` ConfigMap. */
export interface PatchMetadataWhitelistRule {
  /** The rule applies to SidecarSets whose labels it matches; to all when absent. */
  selector?: LabelSelector;
  /** Regular expressions an annotation key may match (Go RE2; read here as JavaScript regular expressions). */
  allowedAnnotationKeyExprs?: string[];
}

/** What upstream's validation reads from the cluster. */
export interface SidecarSetValidationOptions {
  /** The stored SidecarSet on UPDATE (the AdmissionReview's `oldObject`); absent on CREATE. */
  old?: SidecarSet;
  /** Every SidecarSet of the cluster (upstream lists them all; the one validated is skipped by name). */
  others: readonly SidecarSet[];
  /**
   * The ControllerRevisions of OpenKruise's namespace (`kruise-system`), where a pinned `injectionStrategy.revision`
   * is looked up; when absent the lookup is not made (offline).
   */
  revisions?: readonly ControllerRevision[];
  /**
   * The patch-metadata whitelist: its rules, `null` when the ConfigMap has no such entry; when absent (`undefined`)
   * the whitelist is not checked (offline).
   */
  patchMetadataWhitelist?: readonly PatchMetadataWhitelistRule[] | null;
  /** Feature gate `SidecarSetPatchPodMetadataDefaultsAllowed` (default false): allow patches without a whitelist. */
  patchMetadataDefaultsAllowed?: boolean;
}

const NAME_FMT = '^[a-zA-Z0-9\\-]+$';
const NAME = /^[a-zA-Z0-9-]+$/;
const NAME_MESSAGE = regexError(
  "sidecarset name must consist of alphanumeric characters or '-'",
  NAME_FMT,
  'example-com',
);
const TOTAL_ANNOTATION_SIZE = 256 * 1024;

/** Upstream `validateSidecarSetName`: alphanumerics and `-`, at most 63 characters. */
function nameErrors(name: string): string[] {
  const errs: string[] = [];
  if (!NAME.test(name)) errs.push(NAME_MESSAGE);
  if (name.length > 63) errs.push('must be no more than 63 characters');
  return errs;
}

/** Kubernetes' `ValidateAnnotations`: keys qualified names (lower-cased first), 256 KiB in all. */
function annotationErrors(annotations: Record<string, string> | undefined, path: string): FieldError[] {
  const out: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const e of qualifiedNameErrors(k.toLowerCase())) out.push(invalid(path, k, e));
    size += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  }
  if (size > TOTAL_ANNOTATION_SIZE)
    out.push({ path, message: `Too long: may not be more than ${TOTAL_ANNOTATION_SIZE} bytes` });
  return out;
}

/** Kubernetes' `ValidateObjectMeta` for a cluster-scoped object named by {@link nameErrors}: the parts that apply here. */
function metadataErrors(ss: SidecarSet): FieldError[] {
  const m = ss.metadata;
  const out: FieldError[] = [];
  if (m.generateName)
    for (const e of nameErrors(m.generateName)) out.push(invalid('metadata.generateName', m.generateName, e));
  if (!m.name && !m.generateName) out.push(required('metadata.name', 'name or generateName is required'));
  else if (m.name) for (const e of nameErrors(m.name)) out.push(invalid('metadata.name', m.name, e));
  if (m.namespace) out.push(forbidden('metadata.namespace', 'not allowed on this type'));
  out.push(...labelsErrors(m.labels, 'metadata.labels'));
  out.push(...annotationErrors(m.annotations, 'metadata.annotations'));
  return out;
}

/** Upstream `validateSidecarSetCanaryAnnotations`: a canary names an existing, non-canary other base and does not roll. */
function canaryErrors(ss: SidecarSet, opts: SidecarSetValidationOptions): FieldError[] {
  const base = canaryBase(ss);
  if (base === undefined) return [];
  const shown = goStringMap(ss.metadata.annotations);
  const out: FieldError[] = [];
  const bad = (detail: string) => out.push(invalidPrinted('metadata', shown, detail));
  if (base === ss.metadata.name) bad('base sidecarSet cannot be itself');
  if (opts.old && (opts.old.metadata.annotations ?? {})[ANNOTATION_SIDECARSET_BASE] !== base)
    bad(`annotations[${ANNOTATION_SIDECARSET_BASE}] is immutable`);
  const found = opts.others.find((o) => o.metadata.name === base);
  if (!found) bad(`fetch base sidecarSet[${base}] failed: sidecarsets.apps.kruise.io "${base}" not found`);
  else if (canaryBase(found) !== undefined) bad('base sidecarSet cannot be canary');
  if (ss.spec.updateStrategy?.type !== 'NotUpdate')
    bad('RollingUpdate is not supported for canary sidecarSet');
  return out;
}

/**
 * Upstream `validateSelector`: Kubernetes' label-selector rules (values included), not empty, and parseable (an
 * unparseable one is reported once more at `<path>.selector` with no detail, as upstream does).
 */
function sidecarSelectorErrors(sel: LabelSelector, path: string): FieldError[] {
  const out = selectorErrors(sel, path, { values: true });
  const parseable = out.length === 0;
  if (isEmptySelector(sel))
    out.push(invalidPrinted(path, goLabelSelector(sel), 'empty selector is not valid for sidecarset.'));
  if (!parseable) out.push({ path: `${path}.selector`, message: `Invalid value: ${goLabelSelector(sel)}` });
  return out;
}

/** `%#v` of a `SidecarSetInjectRevision` (pointer fields printed as `(*string)(nil)` or, when set, as JSON). */
function goRevision(r: { customVersion?: string; revisionName?: string; policy?: string }): string {
  const ptr = (v: string | undefined) =>
    v === undefined || v === null ? '(*string)(nil)' : JSON.stringify(v);
  return `v1beta1.SidecarSetInjectRevision{CustomVersion:${ptr(r.customVersion)}, RevisionName:${ptr(r.revisionName)}, Policy:${JSON.stringify(r.policy ?? '')}}`;
}

/**
 * Upstream `validateSidecarSetInjectionStrategy` (paths `revision`, `revision.policy`, as upstream writes them): a
 * pinned revision names a revision or a custom version, which must exist (the newest ControllerRevision labelled with
 * the SidecarSet's name and the custom version), and its policy is Always or Partial.
 */
function injectionStrategyErrors(ss: SidecarSet, opts: SidecarSetValidationOptions): FieldError[] {
  const r = ss.spec.injectionStrategy?.revision;
  if (!r) return [];
  const out: FieldError[] = [];
  const hasName = r.revisionName !== undefined && r.revisionName !== null;
  const hasVersion = r.customVersion !== undefined && r.customVersion !== null;
  if (!hasName && !hasVersion)
    out.push(
      invalidPrinted(
        'revision',
        goRevision(r),
        'revisionName and customVersion cannot be empty simultaneously',
      ),
    );
  else if (opts.revisions) {
    let err: string | undefined;
    if (hasName) {
      if (!opts.revisions.some((c) => c.metadata.name === r.revisionName))
        err = `controllerrevisions.apps "${r.revisionName}" not found`;
    } else {
      const labelled = opts.revisions.filter(
        (c) =>
          c.metadata.labels?.[LABEL_SIDECARSET_NAME] === ss.metadata.name &&
          c.metadata.labels?.[LABEL_SIDECARSET_CUSTOM_VERSION] === r.customVersion,
      );
      if (labelled.length === 0) err = `ControllerRevision.apps "${ss.metadata.name ?? ''}" not found`;
    }
    if (err) out.push(invalid('revision', 'null', `Cannot find specific ControllerRevision, err: ${err}`));
  }
  const policy = r.policy ?? '';
  if (policy !== '' && policy !== 'Always' && policy !== 'Partial')
    out.push(
      invalidPrinted(
        'revision.policy',
        goRevision(r),
        `Invalid policy ${policy}, supported: [Always, Partial]`,
      ),
    );
  return out;
}

/** Upstream `intStrIsSet`: set and not the integer 0. */
const intStrIsSet = (v: IntOrString | undefined): boolean => v !== undefined && v !== null && v !== 0;

/**
 * Upstream `validateSidecarSetUpdateStrategy`, only for type RollingUpdate: partition and selector not together,
 * the selector valid, partition and maxUnavailable non-negative or a percentage, priority and scatter strategies
 * valid.
 */
function updateStrategyErrors(us: SidecarSetUpdateStrategy): FieldError[] {
  if (us.type !== 'RollingUpdate') return [];
  const p = 'spec.updateStrategy';
  const out: FieldError[] = [];
  if (intStrIsSet(us.partition) && us.selector)
    out.push(invalid('updateStrategy', JSON.stringify(us), 'Partition and Selector cannot be used together'));
  if (us.selector) out.push(...sidecarSelectorErrors(us.selector, `${p}.selector`));
  if (us.partition !== undefined && us.partition !== null)
    out.push(...positiveIntOrPercentErrors(us.partition, `${p}.partition`));
  if (us.maxUnavailable !== undefined && us.maxUnavailable !== null)
    out.push(...positiveIntOrPercentErrors(us.maxUnavailable, `${p}.maxUnavailable`));
  const pe = priorityStrategyError(us.priorityStrategy);
  if (pe) out.push(required(`${p}.priorityStrategy`, pe));
  const se = scatterStrategyError(us.scatterStrategy);
  if (se) out.push(required(`${p}.scatterStrategy`, se));
  return out;
}

/**
 * Upstream `validateDownwardAPI` / `validateObjectFieldSelector` on each `transferEnv` entry read from pod metadata
 * (path `<container>.transferEnv.fieldRef`, no entry index, as upstream): apiVersion and fieldPath required, apiVersion
 * `v1`, the field a subscripted `metadata.labels['k']` / `metadata.annotations['k']` with a qualified-name key.
 */
function transferEnvErrors(envs: readonly TransferEnvVar[] | undefined, path: string): FieldError[] {
  const out: FieldError[] = [];
  const p = `${path}.fieldRef`;
  for (const t of envs ?? []) {
    const fs = t.sourceContainerNameFrom?.fieldRef;
    if (!fs) continue;
    if (!fs.apiVersion) {
      out.push(required(`${p}.apiVersion`));
      continue;
    }
    if (!fs.fieldPath) {
      out.push(required(`${p}.fieldPath`));
      continue;
    }
    const split = splitSubscriptedPath(fs.fieldPath);
    let convErr: string | undefined;
    if (fs.apiVersion !== 'v1') convErr = `unsupported pod version: ${fs.apiVersion}`;
    else if (!split) convErr = `field label not supported: ${fs.fieldPath}`;
    else if (split[0] !== 'metadata.annotations' && split[0] !== 'metadata.labels')
      convErr = `field path not supported: ${split[0]}`;
    if (convErr || !split) {
      out.push(invalid(`${p}.fieldPath`, fs.fieldPath, `error converting fieldPath: ${convErr ?? ''}`));
      continue;
    }
    const [field, key] = split;
    for (const e of qualifiedNameErrors(field === 'metadata.annotations' ? key.toLowerCase() : key))
      out.push(invalid(p, key, e));
  }
  return out;
}

/**
 * Upstream `validateResourcesPolicy` and `validateResourceExpr`: not with `resources`, a non-empty compilable
 * `targetContainersNameRegex` (read by `goRegExp`; Go's RE2 error text differs), limits or
 * requests set, and each non-empty expression evaluating with its field's variable (`cpu` or `memory`) bound to the
 * number 1 (`validateResourceExpression`: `invalid expression: <calculator error>`).
 */
function resourcesPolicyErrors(c: SidecarContainer, path: string): FieldError[] {
  const policy = c.resourcesPolicy;
  if (!policy) return [];
  const res = c.resources;
  if (Object.keys(res?.limits ?? {}).length > 0 || Object.keys(res?.requests ?? {}).length > 0)
    return [
      invalid(path, JSON.stringify(policy), 'resourcesPolicy and resources cannot be configured together'),
    ];
  const out: FieldError[] = [];
  const regex = policy.targetContainersNameRegex ?? '';
  if (regex === '') out.push(required(`${path}.targetContainersNameRegex`, 'invalid empty regex'));
  else {
    try {
      goRegExp(regex);
    } catch (e) {
      out.push(
        invalid(`${path}.targetContainersNameRegex`, regex, `invalid regex pattern: ${(e as Error).message}`),
      );
    }
  }
  const expr = policy.resourcesExpr ?? {};
  if (!expr.limits && !expr.requests) {
    out.push(
      invalid(
        `${path}.resourcesExpr`,
        JSON.stringify(expr),
        'at least one of limits or requests must be configured',
      ),
    );
    return out;
  }
  for (const kind of ['limits', 'requests'] as const)
    for (const resource of ['cpu', 'memory'] as const) {
      const text = expr[kind]?.[resource] ?? '';
      if (text === '') continue;
      const problem = resourceExpressionProblem(text, resource);
      if (problem !== undefined)
        out.push(
          invalid(`${path}.resourcesExpr.${kind}.${resource}`, text, `invalid expression: ${problem}`),
        );
    }
  return out;
}

/**
 * Upstream `validateContainersForSidecarSet` (path root `""`, as upstream passes it): init containers' resources
 * policy (native sidecars only), containers' inject policy, share-volume policy, transferEnv and resources policy, then
 * Kubernetes' pod validation of them all (lib/api/podSpecValidation.ts).
 */
function containersErrors(ss: SidecarSet): FieldError[] {
  const spec = ss.spec;
  const out: FieldError[] = [];
  (spec.initContainers ?? []).forEach((c, i) => {
    if (!c.resourcesPolicy) return;
    if (c.restartPolicy !== RESTART_POLICY_ALWAYS)
      out.push(
        invalid(
          `[${i}].resourcesPolicy`,
          JSON.stringify(c.resourcesPolicy),
          'resourcesPolicy is only supported for containers with RestartPolicy Always',
        ),
      );
    out.push(...resourcesPolicyErrors(c, `[${i}].resourcesPolicy`));
  });
  (spec.containers ?? []).forEach((c, i) => {
    const ip = c.podInjectPolicy ?? '';
    if (ip !== 'BeforeAppContainer' && ip !== 'AfterAppContainer')
      out.push(invalid('container.podInjectPolicy', ip, 'unsupported pod inject policy'));
    const sv = c.shareVolumePolicy?.type ?? '';
    if (sv !== 'enabled' && sv !== 'disabled')
      out.push(
        invalidPrinted(
          'container.shareVolumePolicy',
          `v1beta1.ShareVolumePolicy{Type:${JSON.stringify(sv)}}`,
          'unsupported share volume policy',
        ),
      );
    out.push(...transferEnvErrors(c.transferEnv, `[${i}].transferEnv`));
    out.push(...resourcesPolicyErrors(c, `[${i}].resourcesPolicy`));
  });
  // OpenKruise's fake pod has the default grace period
  out.push(
    ...podSpecErrors(
      { ...spec, terminationGracePeriodSeconds: DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS },
      { placeholder: true },
    ),
  );
  return out;
}

/** Upstream `ValidateSidecarSetPatchMetadataWhitelist`: the first problem, or undefined. */
function whitelistError(ss: SidecarSet, opts: SidecarSetValidationOptions): string | undefined {
  const patches = ss.spec.patchPodMetadata ?? [];
  const rules = opts.patchMetadataWhitelist;
  if (patches.length === 0 || rules === undefined) return undefined;
  const allowed = opts.patchMetadataDefaultsAllowed === true;
  if (rules === null) return allowed ? undefined : 'SidecarSet patch metadata whitelist not found';
  const exprs: RegExp[] = [];
  for (const rule of rules) {
    if (rule.selector) {
      let matches: boolean;
      try {
        matches = selectorMatches(rule.selector, ss.metadata.labels);
      } catch (e) {
        return (e as Error).message;
      }
      if (!matches) continue;
    }
    for (const x of rule.allowedAnnotationKeyExprs ?? []) {
      try {
        exprs.push(new RegExp(x));
      } catch (e) {
        return (e as Error).message;
      }
    }
  }
  if (exprs.length === 0) return allowed ? undefined : 'sidecarSet patch metadata annotation is not allowed';
  for (const p of patches)
    for (const k of Object.keys(p.annotations ?? {}))
      if (!exprs.some((x) => x.test(k))) return `sidecarSet patch metadata annotation(${k}) is not allowed`;
  return undefined;
}

/** Upstream's patchPodMetadata rules: the whitelist, annotations set and valid, a policy, no key patched twice. */
function patchMetadataErrors(ss: SidecarSet, opts: SidecarSetValidationOptions): FieldError[] {
  const p = 'spec.patchPodMetadata';
  const out: FieldError[] = [];
  const we = whitelistError(ss, opts);
  if (we) out.push(required(p, we));
  const keys = new Set<string>();
  for (const patch of ss.spec.patchPodMetadata ?? []) {
    const annotations = patch.annotations ?? {};
    if (Object.keys(annotations).length === 0) out.push(required(p, 'no annotations defined for SidecarSet'));
    else out.push(...annotationErrors(annotations, 'patchPodMetadata.annotations'));
    if (!patch.patchPolicy) out.push(required(p, 'no patchPolicy defined for patchPodMetadata'));
    for (const k of Object.keys(annotations)) {
      if (keys.has(k)) out.push(required(p, `patch annotation[${k}] already exist`));
      else keys.add(k);
    }
  }
  return out;
}

/**
 * Upstream `validateSidecarSetSpec`: native-sidecar init containers need `updateStrategy.type` NotUpdate; the selector
 * required and valid; the (converted) namespace selector valid; the injection strategy, the update strategy, the
 * containers (at least one container or init container) and the patchPodMetadata rules.
 */
export function validateSidecarSetSpec(ss: SidecarSet, opts: SidecarSetValidationOptions): FieldError[] {
  const spec = ss.spec;
  const out: FieldError[] = [];
  const us = spec.updateStrategy ?? {};
  for (const c of spec.initContainers ?? [])
    if (c.restartPolicy === RESTART_POLICY_ALWAYS && us.type === 'RollingUpdate')
      out.push(
        required('spec.updateStrategy', 'The initContainer in-place upgrade is not currently supported.'),
      );
  if (!spec.selector) out.push(required('spec.selector', 'no selector defined for SidecarSet'));
  else out.push(...sidecarSelectorErrors(spec.selector, 'spec.selector'));
  const nsSelector = effectiveNamespaceSelector(ss);
  if (nsSelector) out.push(...sidecarSelectorErrors(nsSelector, 'spec.namespaceSelector'));
  out.push(...injectionStrategyErrors(ss, opts));
  out.push(...updateStrategyErrors(us));
  if ((spec.initContainers ?? []).length === 0 && (spec.containers ?? []).length === 0)
    out.push(required('', 'no initContainer or container defined for SidecarSet'));
  else out.push(...containersErrors(ss));
  out.push(...patchMetadataErrors(ss, opts));
  return out;
}

/**
 * Every error OpenKruise's SidecarSet validating webhook answers for `ss` (CREATE, or UPDATE with `opts.old`), in
 * its order; `[]` when it would be admitted. Metadata (name, cluster scope, labels, annotations), the canary
 * annotations, {@link validateSidecarSetSpec}, on update the container rule (no new container, `upgradeType` fixed);
 * only when all of these pass, the conflicts with `opts.others` (./validationConflict.ts `conflictErrors`).
 *
 * Expects the v1alpha1 object after the mutating webhook's defaults (./defaults.ts `defaultSidecarSet`): `namespace`
 * is read as the v1beta1 `namespaceSelector` it converts to. Field paths follow upstream (see the module comment).
 */
export function validateSidecarSet(ss: SidecarSet, opts: SidecarSetValidationOptions): FieldError[] {
  const out = [...metadataErrors(ss), ...canaryErrors(ss, opts), ...validateSidecarSetSpec(ss, opts)];
  if (opts.old) out.push(...containerUpdateErrors(ss.spec.containers ?? [], opts.old.spec.containers ?? []));
  if (out.length > 0) return out;
  return conflictErrors(ss, opts.others);
}
