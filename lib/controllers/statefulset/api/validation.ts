/**
 * Re-validation of a v1beta1 Advanced StatefulSet without a webhook: each rule of OpenKruise v1.9.0's validating
 * webhook (`pkg/webhook/statefulset/validating/statefulset_validation.go`) that needs no API call, one function
 * per rule, named after its upstream twin, with its messages. Values inside messages are printed as Go's
 * `field.Error` prints them where that is deterministic (numbers, strings, `IntOrString`s, readiness gates);
 * struct values Go prints with pointer addresses are printed as JSON here.
 */
import jsonpatch from 'fast-json-patch';
import { frozenFieldsChanged } from '../../../api/admission/frozenSpec.js';
import type { FieldError } from '../../../api/errors.js';
import { goLabelSelector, goStringMap } from '../../../api/goPrint.js';
import {
  dns1123LabelErrors,
  forbidden,
  goIntOrString,
  invalid,
  invalidPrinted,
  nonNegative,
  PERCENT,
  PERCENT_MESSAGE,
  labelsErrors,
  notSupported,
  priorityStrategyError,
  qualifiedNameErrors,
  required,
  selectorErrors,
} from '../../../api/fieldValidation.js';
import { isEmptySelector, selectorMatches } from '../../../api/selector.js';
import type { IntOrString } from '../../../api/types.js';
import { CONDITION_INPLACE_UPDATE_READY } from '../../../api/keys.js';
import { InvalidOrdinalRangeError, parseOrdinalRange } from './reserveOrdinals.js';
import {
  MAX_MIN_READY_SECONDS,
  type PersistentVolumeClaimRetentionPolicyType,
  type StatefulSet,
  type StatefulSetPersistentVolumeClaimRetentionPolicy,
  type StatefulSetSpec,
} from './types.js';

const RESERVE_ORDINAL_RANGE = /^\d+-\d+$/;
/** Unanchored, as upstream's `inPlaceUpdateTemplateSpecPatchRexp`. */
const INPLACE_ONLY_PATH = /\/containers\/([0-9]+)\/image/;
/** Upstream `validatePodManagementPolicy`: required, and OrderedReady or Parallel. */
export function validatePodManagementPolicy(spec: StatefulSetSpec): FieldError[] {
  const p = spec.podManagementPolicy;
  if (!p) return [required('spec.podManagementPolicy')];
  if (p === 'OrderedReady' || p === 'Parallel') return [];
  return [invalid('spec.podManagementPolicy', p, "must be 'OrderedReady' or 'Parallel'")];
}

/**
 * Upstream `validateReserveOrdinals`: a string must match `^\d+-\d+$` and parse as a range with start ≤ end (both
 * checked, so one item may give two errors); a number must be ≥ 0. Errors are reported at `spec` with the whole
 * list as the value.
 */
export function validateReserveOrdinals(spec: StatefulSetSpec): FieldError[] {
  const list = spec.reserveOrdinals ?? [];
  const printed = `[]intstr.IntOrString{${list.map(goIntOrString).join(', ')}}`;
  const out: FieldError[] = [];
  list.forEach((elem, i) => {
    if (typeof elem === 'string') {
      if (!RESERVE_ORDINAL_RANGE.test(elem))
        out.push(invalidPrinted('spec', printed, `${i} th reserve ordinal is not a valid range: ${elem}`));
      try {
        parseOrdinalRange(elem);
      } catch (e) {
        if (!(e instanceof InvalidOrdinalRangeError)) throw e;
        out.push(
          invalidPrinted('spec', printed, `${i} th reserve ordinal is invalid: ${elem}, err = ${e.message}`),
        );
      }
    } else if (elem < 0) {
      out.push(invalidPrinted('spec', printed, `${i} th reserve ordinal is negative: ${elem}`));
    }
  });
  return out;
}

/**
 * Upstream `validateMaxUnavailableField`, for `rollingUpdate.maxUnavailable` and `scaleStrategy.maxUnavailable`:
 * a non-negative int or a `<digits>%` string (`ValidatePositiveIntOrPercent`); at least 1 once evaluated against 1
 * replica rounding up (so any non-zero percentage passes); and anything but the integer 1 only with Parallel.
 */
export function validateMaxUnavailableField(
  value: IntOrString,
  spec: StatefulSetSpec,
  path: string,
): FieldError[] {
  const out: FieldError[] = [];
  if (typeof value === 'string') {
    if (!PERCENT.test(value)) out.push(invalidPrinted(path, goIntOrString(value), PERCENT_MESSAGE));
  } else if (value < 0) {
    out.push(invalid(path, value, 'must be greater than or equal to 0'));
  }
  // the deprecated GetValueFromIntOrPercent: every '%' removed, the rest an integer percentage
  let evaluated: number | undefined;
  if (typeof value === 'number') evaluated = value;
  else {
    const body = value.replace(/%/g, '');
    if (/^[+-]?\d+$/.test(body)) evaluated = Math.ceil(Number(body) / 100);
    else
      out.push(
        invalid(
          path,
          0,
          `getValueFromIntOrPercent error: invalid value for IntOrString: invalid value ${JSON.stringify(value)}: strconv.Atoi: parsing ${JSON.stringify(body)}: invalid syntax`,
        ),
      );
  }
  if (evaluated !== undefined && evaluated < 1)
    out.push(invalid(path, evaluated, 'should not be less than 1'));
  if (spec.podManagementPolicy !== 'Parallel' && value !== 1) {
    out.push(
      invalidPrinted(path, goIntOrString(value), 'can only work with Parallel PodManagementPolicyType'),
    );
  }
  return out;
}

/** Upstream `validateScaleStrategy`: `scaleStrategy.maxUnavailable` as {@link validateMaxUnavailableField}. */
export function validateScaleStrategy(spec: StatefulSetSpec): FieldError[] {
  const mu = spec.scaleStrategy?.maxUnavailable;
  if (mu === undefined || mu === null) return [];
  return validateMaxUnavailableField(mu, spec, 'spec.scaleStrategy.maxUnavailable');
}

/** Upstream `validateOnDeleteStatefulSetStrategyType`: OnDelete takes no `rollingUpdate`. */
export function validateOnDeleteStatefulSetStrategyType(spec: StatefulSetSpec): FieldError[] {
  const ru = spec.updateStrategy?.rollingUpdate;
  if (!ru) return [];
  return [
    invalid('spec.updateStrategy.rollingUpdate', ru, "only allowed for updateStrategy 'RollingUpdate'"),
  ];
}

/**
 * Upstream `validatePodUpdatePolicy`: required; ReCreate, or an in-place policy with the `InPlaceUpdateReady`
 * readiness gate in the pod template.
 */
export function validatePodUpdatePolicy(spec: StatefulSetSpec): FieldError[] {
  const policy = spec.updateStrategy?.rollingUpdate?.podUpdatePolicy;
  const path = 'spec.updateStrategy.rollingUpdate.podUpdatePolicy';
  if (!policy) return [required(path)];
  if (policy === 'ReCreate') return [];
  if (policy === 'InPlaceIfPossible' || policy === 'InPlaceOnly') {
    const gates = spec.template?.spec?.readinessGates;
    if ((gates ?? []).some((g) => g.conditionType === CONDITION_INPLACE_UPDATE_READY)) return [];
    const printed =
      gates === undefined || gates === null
        ? '[]v1.PodReadinessGate(nil)'
        : `[]v1.PodReadinessGate{${gates.map((g) => `v1.PodReadinessGate{ConditionType:${JSON.stringify(g.conditionType)}}`).join(', ')}}`;
    return [
      invalidPrinted(
        'spec.template.spec.readinessGates',
        printed,
        `must contains ${CONDITION_INPLACE_UPDATE_READY} when podUpdatePolicy is ${policy}`,
      ),
    ];
  }
  return [invalid(path, policy, "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'")];
}

/**
 * Upstream `validateRollingUpdateStatefulSetStrategyTypeUnorderedUpdate`: `unorderedUpdate` only with Parallel, and
 * its priority strategy valid (`UpdatePriorityStrategy.FieldsValidation`).
 */
export function validateUnorderedUpdate(spec: StatefulSetSpec): FieldError[] {
  const uu = spec.updateStrategy?.rollingUpdate?.unorderedUpdate;
  if (!uu) return [];
  const out: FieldError[] = [];
  const path = 'spec.updateStrategy.rollingUpdate.unorderedUpdate';
  if (spec.podManagementPolicy !== 'Parallel')
    out.push(required(path, 'unorderedUpdate can only work with Parallel PodManagementPolicyType'));
  const pe = priorityStrategyError(uu.priorityStrategy);
  if (pe) out.push(required(`${path}.priorityStrategy`, pe));
  return out;
}

/**
 * Upstream `validateRollingUpdateStatefulSetStrategyType`: partition ≥ 0; minReadySeconds in 0..300;
 * maxUnavailable required and valid; then the pod update policy and the unordered update. Absent partition and
 * minReadySeconds (only before defaulting) count as 0.
 */
export function validateRollingUpdateStatefulSetStrategyType(spec: StatefulSetSpec): FieldError[] {
  const ru = spec.updateStrategy?.rollingUpdate;
  if (!ru) return [];
  const p = 'spec.updateStrategy.rollingUpdate';
  const out = nonNegative(ru.partition ?? 0, `${p}.partition`);
  const mrs = ru.minReadySeconds ?? 0;
  out.push(...nonNegative(mrs, `${p}.minReadySeconds`));
  if (mrs > MAX_MIN_READY_SECONDS)
    out.push(invalid(`${p}.minReadySeconds`, mrs, `must be no more than ${MAX_MIN_READY_SECONDS} seconds`));
  if (ru.maxUnavailable === undefined || ru.maxUnavailable === null)
    out.push(required(`${p}.maxUnavailable`));
  else out.push(...validateMaxUnavailableField(ru.maxUnavailable, spec, `${p}.maxUnavailable`));
  out.push(...validatePodUpdatePolicy(spec), ...validateUnorderedUpdate(spec));
  return out;
}

/** Upstream `validateUpdateStrategyType`: required; OnDelete or RollingUpdate, each with its own rules. */
export function validateUpdateStrategyType(spec: StatefulSetSpec): FieldError[] {
  const us = spec.updateStrategy ?? {};
  switch (us.type) {
    case undefined:
    case '':
      return [required('spec.updateStrategy')];
    case 'OnDelete':
      return validateOnDeleteStatefulSetStrategyType(spec);
    case 'RollingUpdate':
      return validateRollingUpdateStatefulSetStrategyType(spec);
    default:
      return [invalid('spec.updateStrategy', us, "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

/** Upstream `ValidatePersistentVolumeClaimRetentionPolicyType`: Retain or Delete. */
function retentionPolicyTypeErrors(
  policy: PersistentVolumeClaimRetentionPolicyType | undefined,
  path: string,
): FieldError[] {
  if (policy === 'Retain' || policy === 'Delete') return [];
  return [notSupported(path, policy ?? '', ['Retain', 'Delete'])];
}

/**
 * Upstream `ValidatePersistentVolumeClaimRetentionPolicy`: when a policy is given, both `whenDeleted` and
 * `whenScaled` must be Retain or Delete (defaulting fills them while gate `StatefulSetAutoDeletePVC` is on).
 */
export function validatePersistentVolumeClaimRetentionPolicy(
  policy: StatefulSetPersistentVolumeClaimRetentionPolicy | undefined,
): FieldError[] {
  if (!policy) return [];
  const p = 'spec.persistentVolumeClaimRetentionPolicy';
  return [
    ...retentionPolicyTypeErrors(policy.whenDeleted, `${p}.whenDeleted`),
    ...retentionPolicyTypeErrors(policy.whenScaled, `${p}.whenScaled`),
  ];
}

/**
 * Upstream `validateSpecSelector` with Kubernetes' `ValidatePodTemplateSpecForStatefulSet`: the selector required,
 * valid and non-empty; a non-empty selector (an absent one selects nothing) must match the template labels; the
 * template's label keys/values (reported at `spec.template.labels`, as Kubernetes does) and annotation keys. The
 * pod spec itself is not validated (Kubernetes does not either, for StatefulSets).
 */
export function validateSpecSelector(spec: StatefulSetSpec): FieldError[] {
  const out: FieldError[] = [];
  const sel = spec.selector;
  const labels = spec.template?.metadata?.labels;
  let matches: boolean;
  if (!sel) {
    out.push(required('spec.selector'));
    matches = false;
  } else {
    out.push(...selectorErrors(sel, 'spec.selector'));
    if (isEmptySelector(sel))
      out.push(
        invalidPrinted('spec.selector', goLabelSelector(sel), 'empty selector is invalid for statefulset'),
      );
    try {
      matches = isEmptySelector(sel) || selectorMatches(sel, labels);
    } catch {
      out.push(invalidPrinted('spec.selector', goLabelSelector(sel), ''));
      return out;
    }
  }
  if (!matches)
    out.push(
      invalidPrinted(
        'spec.template.metadata.labels',
        goStringMap(labels),
        '`selector` does not match template `labels`',
      ),
    );
  out.push(...labelsErrors(labels, 'spec.template.labels'));
  for (const k of Object.keys(spec.template?.metadata?.annotations ?? {})) {
    for (const e of qualifiedNameErrors(k.toLowerCase()))
      out.push(invalid('spec.template.annotations', k, e));
  }
  return out;
}

/** Upstream `validateRestartPolicy`: the template's restartPolicy empty or Always. */
export function validateRestartPolicy(spec: StatefulSetSpec): FieldError[] {
  const rp = spec.template?.spec?.restartPolicy;
  if (!rp || rp === 'Always') return [];
  return [notSupported('spec.template.spec.restartPolicy', rp, ['Always'])];
}

/** Upstream `validateActiveDeadlineSeconds`: no activeDeadlineSeconds in the template. */
export function validateActiveDeadlineSeconds(spec: StatefulSetSpec): FieldError[] {
  const ads = spec.template?.spec?.activeDeadlineSeconds;
  if (ads === undefined || ads === null) return [];
  return [
    forbidden(
      'spec.template.spec.activeDeadlineSeconds',
      'activeDeadlineSeconds in StatefulSet is not Supported',
    ),
  ];
}

/** Upstream `validateStatefulSetSpec`: the spec rules above, in upstream's order, with replicas ≥ 0. */
export function validateStatefulSetSpec(spec: StatefulSetSpec): FieldError[] {
  return [
    ...validatePodManagementPolicy(spec),
    ...validateReserveOrdinals(spec),
    ...validateScaleStrategy(spec),
    ...validateUpdateStrategyType(spec),
    ...validatePersistentVolumeClaimRetentionPolicy(spec.persistentVolumeClaimRetentionPolicy),
    ...nonNegative(spec.replicas ?? 1, 'spec.replicas'),
    ...validateSpecSelector(spec),
    ...validateRestartPolicy(spec),
    ...validateActiveDeadlineSeconds(spec),
  ];
}

/** The spec fields an update may change (upstream `ValidateStatefulSetUpdate`). */
const MUTABLE_SPEC_FIELDS = [
  'replicas',
  'template',
  'updateStrategy',
  'persistentVolumeClaimRetentionPolicy',
  'scaleStrategy',
  'volumeClaimTemplates',
  'volumeClaimUpdateStrategy',
  'reserveOrdinals',
  'lifecycle',
  'revisionHistoryLimit',
  'ordinals',
] as const;

/**
 * Upstream `ValidateStatefulSetUpdate` (the spec part; the API server checks metadata updates itself): only the
 * mutable fields may change — so selector, serviceName and podManagementPolicy are fixed — then replicas ≥ 0 and
 * the retention policy again (upstream reports those twice on an update, and so does this).
 */
export function validateStatefulSetUpdate(sts: StatefulSet, old: StatefulSet): FieldError[] {
  const out: FieldError[] = [];
  if (frozenFieldsChanged(sts.spec, old.spec, MUTABLE_SPEC_FIELDS)) {
    out.push(
      forbidden(
        'spec',
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'reserveOrdinals', 'lifecycle', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', `volumeClaimTemplates`, `VolumeClaimUpdateStrategy` and 'updateStrategy' are forbidden",
      ),
    );
  }
  out.push(...nonNegative(sts.spec.replicas ?? 1, 'spec.replicas'));
  out.push(...validatePersistentVolumeClaimRetentionPolicy(sts.spec.persistentVolumeClaimRetentionPolicy));
  return out;
}

/**
 * Upstream `validateTemplateInPlaceOnly`, checked on update when `podUpdatePolicy` is InPlaceOnly: every JSON-patch
 * operation from the old template spec to the new one must be a `replace` whose path contains
 * `/containers/<i>/image` (unanchored, as upstream: `/initContainers/0/image` passes too).
 * @returns the webhook's message for the first other operation, or undefined
 */
export function validateTemplateInPlaceOnly(sts: StatefulSet, old: StatefulSet): FieldError[] {
  if (sts.spec.updateStrategy?.rollingUpdate?.podUpdatePolicy !== 'InPlaceOnly') return [];
  const ops = jsonpatch.compare(old.spec.template?.spec ?? {}, sts.spec.template?.spec ?? {});
  const bad = ops.find((op) => op.op !== 'replace' || !INPLACE_ONLY_PATH.test(op.path));
  if (!bad) return [];
  return [
    {
      path: 'spec.template',
      message: `invalid template modified with InPlaceOnly strategy: ${bad.op} ${bad.path}, currently only image update is allowed for InPlaceOnly`,
    },
  ];
}

/**
 * Every validation error of an Advanced StatefulSet, in the order OpenKruise's webhook reports them; `[]` when
 * valid. Create: `metadata.name` a DNS-1123 label (Kubernetes' `ValidateStatefulSetName`), then
 * {@link validateStatefulSetSpec}. With `old` (an update) also {@link validateStatefulSetUpdate} and
 * {@link validateTemplateInPlaceOnly}.
 *
 * Not checked here (they need API reads or are not the webhook's spec rules): the volumeClaimTemplate update rules
 * of gate `StatefulSetAutoResizePVCGate` (a StorageClass read), deletion protection (a DELETE-time rule), and
 * Kubernetes' other ObjectMeta rules (the API server checks them).
 *
 * Expects the defaulted object (./defaults.ts `applyDefaults`).
 */
export function validateStatefulSet(sts: StatefulSet, old?: StatefulSet): FieldError[] {
  const out: FieldError[] = [];
  const name = sts.metadata?.name;
  if (name !== undefined)
    for (const e of dns1123LabelErrors(name)) out.push(invalid('metadata.name', name, e));
  out.push(...validateStatefulSetSpec(sts.spec));
  if (old) out.push(...validateStatefulSetUpdate(sts, old), ...validateTemplateInPlaceOnly(sts, old));
  return out;
}
