/**
 * Re-validation of a v1alpha1 CloneSet without a webhook (docs/behaviour/cloneset.md#validation,
 * docs/behaviour/cloneset.md#api-fields): every rule of Kruise's validating webhook that needs no API call,
 * with its messages.
 */
import jsonpatch from 'fast-json-patch';
import type { FieldError } from '../../../api/errors.js';
import { frozenFieldsChanged } from '../../../api/admission/frozenSpec.js';
import { IntOrPercentError, scaledValueFromIntOrPercent } from '../../../api/intOrPercent.js';
import {
  DNS1123_LABEL_MESSAGE,
  forbidden,
  goIntOrStringPointer,
  invalid,
  invalidPrinted,
  labelsErrors,
  nonNegative,
  priorityStrategyError,
  scatterStrategyError,
  qualifiedNameErrors,
  required,
  selectorErrors,
  show,
  subdomainErrors,
} from '../../../api/fieldValidation.js';
import { goLabelSelector, goStringMap } from '../../../api/goPrint.js';
import { isEmptySelector, selectorMatches } from '../../../api/selector.js';
import type { CloneSet, CloneSetSpec, CloneSetUpdateStrategy, IntOrString } from '../../../api/types.js';

import { MAX_INT32 } from '../../../api/int32.js';

export type { FieldError } from '../../../api/errors.js';
export { labelValueErrors, qualifiedNameErrors } from '../../../api/fieldValidation.js';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

const INPLACE_ONLY_PATH = /^\/containers\/([0-9]+)\/image$/;

const MUTABLE_SPEC_FIELDS = [
  'replicas',
  'template',
  'lifecycle',
  'scaleStrategy',
  'updateStrategy',
  'minReadySeconds',
  'progressDeadlineSeconds',
  'volumeClaimTemplates',
  'revisionHistoryLimit',
] as const;

function templateErrors(spec: SharedSpec): FieldError[] {
  const out: FieldError[] = [];
  const tpl = spec.template;
  const base = 'spec.template';
  out.push(...labelsErrors(tpl?.metadata?.labels, `${base}.metadata.labels`));
  for (const k of Object.keys(tpl?.metadata?.annotations ?? {})) {
    for (const e of qualifiedNameErrors(k.toLowerCase()))
      out.push(invalid(`${base}.metadata.annotations`, k, e));
  }
  const podSpec = tpl?.spec;
  const containers = podSpec?.containers ?? [];
  if (containers.length === 0) out.push(required(`${base}.spec.containers`));
  const volumeNames = new Set<string>([
    ...(podSpec?.volumes ?? []).map((v) => v.name),
    ...(spec.volumeClaimTemplates ?? []).map((v) => v.metadata?.name ?? ''),
  ]);
  const seen = new Set<string>();
  const check = (list: typeof containers, field: string) =>
    list.forEach((c, i) => {
      const p = `${base}.spec.${field}[${i}]`;
      if (!c.name) out.push(required(`${p}.name`));
      else if (!DNS1123_LABEL.test(c.name) || c.name.length > 63) {
        out.push(invalid(`${p}.name`, c.name, DNS1123_LABEL_MESSAGE));
      } else if (seen.has(c.name))
        out.push({ path: `${p}.name`, message: `Duplicate value: ${show(c.name)}` });
      if (c.name) seen.add(c.name);
      const mounts = Array.isArray(c.volumeMounts) ? (c.volumeMounts as { name?: string }[]) : [];
      mounts.forEach((m, j) => {
        if (!volumeNames.has(m.name ?? '')) {
          out.push({ path: `${p}.volumeMounts[${j}].name`, message: `Not found: ${show(m.name ?? '')}` });
        }
      });
    });
  check(podSpec?.initContainers ?? [], 'initContainers');
  check(containers, 'containers');
  const rp = podSpec?.restartPolicy;
  if (rp && rp !== 'Always') {
    out.push({
      path: `${base}.spec.restartPolicy`,
      message: `Unsupported value: ${show(rp)}: supported values: "Always"`,
    });
  }
  if (podSpec?.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
    out.push(
      forbidden(`${base}.spec.activeDeadlineSeconds`, 'activeDeadlineSeconds in cloneset is not Supported'),
    );
  }
  return out;
}

/**
 * The part of a CloneSet spec both versions' rules read alike (v1alpha1's {@link validateCloneSet} and
 * ./validationV1beta1.ts): v1beta1 changes only the two strategies' shapes.
 */
export type SharedSpec = Pick<CloneSetSpec, 'replicas' | 'selector' | 'template' | 'volumeClaimTemplates'> & {
  scaleStrategy?: { podsToDelete?: string[] };
};

/**
 * OpenKruise's `util.GetScaledValueFromIntOrPercent(value, replicas, true)`: the count `value` stands for, 0 when
 * unset; a malformed value pushes `Invalid: failed GetScaledValueFromIntOrPercent for <what>: <reason>` onto `out`
 * and counts 0.
 */
export function scaled(
  value: IntOrString | undefined,
  replicas: number,
  path: string,
  what: string,
  out: FieldError[],
): number {
  if (value === undefined || value === null) return 0;
  try {
    return scaledValueFromIntOrPercent(value, replicas, 'up');
  } catch (e) {
    const reason =
      e instanceof IntOrPercentError ? e.message.replace(/^invalid value for IntOrString: /, '') : String(e);
    out.push(invalid(path, String(value), `failed GetScaledValueFromIntOrPercent for ${what}: ${reason}`));
    return 0;
  }
}

function priorityError(us: CloneSetUpdateStrategy): string | undefined {
  return priorityStrategyError(us.priorityStrategy);
}

function scatterError(us: CloneSetUpdateStrategy): string | undefined {
  return scatterStrategyError(us.scatterStrategy);
}

function updateStrategyErrors(
  us: CloneSetUpdateStrategy,
  replicas: number,
  opts: ValidationOptions,
): FieldError[] {
  const out: FieldError[] = [];
  const p = 'spec.updateStrategy';
  const onDelete = opts.allowOnDelete === true && us.type === 'OnDelete';
  if (!onDelete && us.type !== 'ReCreate' && us.type !== 'InPlaceIfPossible' && us.type !== 'InPlaceOnly') {
    out.push(invalid(`${p}.type`, us.type ?? '', "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'"));
  }
  const partition = scaled(us.partition, replicas, `${p}.partition`, 'partition', out);
  out.push(...nonNegative(partition, `${p}.partition`));
  const pe = priorityError(us);
  if (pe) out.push(required(`${p}.priorityStrategy`, pe));
  const se = scatterError(us);
  if (se) out.push(required(`${p}.scatterStrategy`, se));
  const mu = scaled(us.maxUnavailable, replicas, `${p}.maxUnavailable`, 'maxUnavailable', out);
  const ms = scaled(us.maxSurge, replicas, `${p}.maxSurge`, 'maxSurge', out);
  if (us.type === 'InPlaceOnly' && ms > 0) {
    out.push(
      invalid(`${p}.maxSurge`, String(us.maxSurge), 'can not use maxSurge with strategy type InPlaceOnly'),
    );
  }
  if (replicas > 0 && mu < 1 && ms < 1) {
    out.push(
      invalidPrinted(
        `${p}.maxUnavailable`,
        goIntOrStringPointer(us.maxUnavailable),
        'maxUnavailable and maxSurge should not both be less than 1',
      ),
    );
  }
  return out;
}

function duplicates(list: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const s of list) (seen.has(s) ? dup : seen).add(s);
  return [...dup];
}

/**
 * The spec rules OpenKruise's v1alpha1 and v1beta1 webhooks share (`validateCloneSetSpec` /
 * `validateCloneSetV1beta1Spec` up to the update strategy), in their order: replicas ≥ 0; the selector present,
 * valid, non-empty and matching the template's labels; the template (`templateErrors`); no duplicate
 * in `scaleStrategy.podsToDelete`.
 */
export function sharedSpecErrors(spec: SharedSpec): FieldError[] {
  const out: FieldError[] = [];
  const replicas = spec.replicas ?? 1;
  out.push(...nonNegative(replicas, 'spec.replicas'));
  const sel = spec.selector;
  let selectorOk = false;
  if (!sel) {
    out.push(required('spec.selector'));
  } else {
    out.push(...selectorErrors(sel, 'spec.selector'));
    if (isEmptySelector(sel))
      out.push(
        invalidPrinted('spec.selector', goLabelSelector(sel), 'empty selector is invalid for cloneset'),
      );
    try {
      selectorMatches(sel, {});
      selectorOk = true;
    } catch {
      out.push(invalidPrinted('spec.selector', goLabelSelector(sel), ''));
    }
  }
  if (selectorOk && sel && !isEmptySelector(sel) && !selectorMatches(sel, spec.template?.metadata?.labels)) {
    out.push(
      invalidPrinted(
        'spec.template.metadata.labels',
        goStringMap(spec.template?.metadata?.labels),
        '`selector` does not match template `labels`',
      ),
    );
  }
  out.push(...templateErrors(spec));
  const dup = duplicates(spec.scaleStrategy?.podsToDelete ?? []);
  if (dup.length > 0) {
    out.push(
      invalid(
        'spec.scaleStrategy.podsToDelete',
        spec.scaleStrategy?.podsToDelete,
        `duplicated items [${dup.join(' ')}]`,
      ),
    );
  }
  return out;
}

function specErrors(cs: CloneSet, opts: ValidationOptions): FieldError[] {
  const spec = cs.spec;
  const out = sharedSpecErrors(spec);
  const replicas = spec.replicas ?? 1;
  out.push(...updateStrategyErrors(spec.updateStrategy ?? {}, replicas, opts));
  const pds = spec.progressDeadlineSeconds;
  if (pds !== undefined && pds !== null && opts.progressDeadlineRules !== false) {
    out.push(...nonNegative(pds, 'spec.progressDeadlineSeconds'));
    if (pds !== MAX_INT32 && pds <= (spec.minReadySeconds ?? 0)) {
      out.push(invalid('spec.progressDeadlineSeconds', pds, 'must be greater than minReadySeconds'));
    }
  }
  return out;
}

/**
 * The update rule both versions' webhooks share: only `replicas`, `template`, `lifecycle`, `scaleStrategy`,
 * `updateStrategy`, `minReadySeconds`, `progressDeadlineSeconds`, `volumeClaimTemplates` and
 * `revisionHistoryLimit` may change (`Forbidden` on `spec` otherwise, OpenKruise's words).
 */
export function frozenSpecErrors(spec: object, oldSpec: object): FieldError[] {
  if (!frozenFieldsChanged(spec, oldSpec, MUTABLE_SPEC_FIELDS)) return [];
  return [
    forbidden(
      'spec',
      `updates to cloneset spec for fields other than ${MUTABLE_SPEC_FIELDS.slice(0, -1)
        .map((f) => `'${f}'`)
        .join(', ')} and 'revisionHistoryLimit' are forbidden`,
    ),
  ];
}

function updateErrors(cs: CloneSet, old: CloneSet): FieldError[] {
  const out = frozenSpecErrors(cs.spec, old.spec);
  if (cs.spec.updateStrategy?.type === 'InPlaceOnly') {
    const ops = jsonpatch.compare(old.spec.template?.spec ?? {}, cs.spec.template?.spec ?? {});
    const bad = ops.find((op) => op.op !== 'replace' || !INPLACE_ONLY_PATH.test(op.path));
    if (bad) {
      out.push(
        forbidden(
          'spec',
          `only allowed to update images in spec for InPlaceOnly, but found ${bad.op} ${bad.path}`,
        ),
      );
    }
  }
  return out;
}

/** Options of {@link validateCloneSet}. */
export interface ValidationOptions {
  /**
   * Accept `updateStrategy.type: OnDelete`. The v1alpha1 webhook rejects it
   * (docs/behaviour/cloneset.md#api-fields) and so does the CRD's enum, but OnDelete is reachable through
   * v1beta1 conversion (docs/behaviour/cloneset.md#v1beta1-mapping), so the planner validates with this on.
   */
  allowOnDelete?: boolean;
  /**
   * Check `progressDeadlineSeconds` (≥ 0, and MaxInt32 or above minReadySeconds), as OpenKruise's v1alpha1 webhook
   * does and its v1beta1 one does not (default true). The planner leaves them out: a CloneSet written through
   * v1beta1 may be stored with such a value, and OpenKruise's controller runs it as it is.
   */
  progressDeadlineRules?: boolean;
}

/**
 * All validation errors of a CloneSet (docs/behaviour/cloneset.md#api-fields), in the order Kruise's webhook
 * reports them; `[]` when valid. Checks: object name (DNS subdomain); replicas ≥ 0; selector present, valid,
 * non-empty and matching the template labels; template label keys/values and annotation keys; containers
 * present with unique DNS-label names and volume mounts that name a volume or a volumeClaimTemplate;
 * restartPolicy empty or `Always`; no activeDeadlineSeconds; podsToDelete without duplicates; update type,
 * partition (≥ 0 after round-up), maxUnavailable, maxSurge (strings must end in `%`; maxSurge 0 with
 * InPlaceOnly; not both < 1 when replicas > 0), priority and scatter strategies; progressDeadlineSeconds ≥ 0
 * and MaxInt32 or > minReadySeconds. With `old` (an update): only the spec fields replicas, template,
 * lifecycle, scaleStrategy, updateStrategy, minReadySeconds, progressDeadlineSeconds, volumeClaimTemplates
 * and revisionHistoryLimit may change (so the selector is immutable), and an InPlaceOnly CloneSet may change
 * nothing in `template.spec` but container images.
 *
 * Not checked (needs I/O): that newly added `podsToDelete` names exist, are not terminating and are owned by
 * this CloneSet. Not checked either: the rest of Kubernetes' pod-template validation (the API server
 * validates pods when they are created).
 *
 * Expects the defaulted object ({@link applyDefaults}); absent partition/maxUnavailable/maxSurge count as
 * unset, absent replicas as 1, and an absent update type is rejected like an empty one.
 * @param old the previous object on update
 */
export function validateCloneSet(cs: CloneSet, old?: CloneSet, opts: ValidationOptions = {}): FieldError[] {
  const out: FieldError[] = [];
  if (old) out.push(...updateErrors(cs, old));
  const name = cs.metadata?.name;
  if (name !== undefined) {
    for (const e of subdomainErrors(name)) out.push(invalid('metadata.name', name, e));
  }
  out.push(...specErrors(cs, opts));
  return out;
}
