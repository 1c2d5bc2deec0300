/**
 * OpenKruise: `validatingPodUnavailableBudgetFnV1beta1` and its helpers in
 * pkg/webhook/podunavailablebudget/validating/pub_create_update_handler.go, `IsSelectorLooseOverlap` in
 * pkg/util/selector.go, and the v1alpha1 → v1beta1 conversion of apis/policy/v1alpha1/podunavailablebudget_conversion.go
 * (v1.9.0).
 *
 * The rules of the PUB validating webhook (`vpodunavailablebudget.kb.io`), pure: the caller passes the stored object
 * on an update and the other PUBs of the namespace when it can read them. Messages are Kubernetes' `field.Error`
 * forms, so `aggregateMessage` prints what OpenKruise's webhook answers.
 */
import type { FieldError } from '../../../api/errors.js';
import {
  invalidPrinted,
  notMoreThan100PercentErrors,
  notSupported,
  positiveIntOrPercentErrors,
  required,
  selectorErrors,
  show,
} from '../../../api/fieldValidation.js';
import { goLabelSelector } from '../../../api/goPrint.js';
import { parseGroupVersion } from '../../../api/groupVersion.js';
import { parseInt32, parseInt32Error } from '../../../api/int32.js';
import type { LabelSelector, LabelSelectorRequirement } from '../../../api/types.js';
import { ANNOTATION_PUB_PROTECT_OPERATIONS } from './keys.js';
import type { PodUnavailableBudget, PubOperation, PubTargetReference } from './types.js';

/** On a PUB: the expected replicas (deprecated in v1beta1 for `spec.protectTotalReplicas`). */
export const ANNOTATION_PUB_PROTECT_TOTAL_REPLICAS = 'pub.kruise.io/protect-total-replicas';

/** The operations a PUB may protect, in the order upstream lists them in its `NotSupported` error. */
export const PUB_OPERATIONS: readonly PubOperation[] = ['DELETE', 'UPDATE', 'EVICT', 'RESIZE'];

/** Thrown when a v1alpha1 PUB's annotations cannot be converted to v1beta1's fields (upstream's `ConvertTo`). */
export class PubConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PubConversionError';
  }
}

/** `field.Invalid` with an empty detail: `Invalid value: <printed>` and no trailing colon. */
const invalidBare = (path: string, printed: string): FieldError => ({
  path,
  message: `Invalid value: ${printed}`,
});

/** Go's `%#v` of a `v1beta1.TargetReference` (field.Error dereferences the pointer first). */
export function goTargetReference(ref: PubTargetReference): string {
  return `v1beta1.TargetReference{APIVersion:${JSON.stringify(ref.apiVersion ?? '')}, Kind:${JSON.stringify(
    ref.kind ?? '',
  )}, Name:${JSON.stringify(ref.name ?? '')}}`;
}

/**
 * A PUB written through v1alpha1, as its webhook reads it after `ConvertTo`: the comma-separated
 * `kruise.io/pub-protect-operations` annotation becomes `spec.protectOperations` (blank items skipped) and
 * `pub.kruise.io/protect-total-replicas` becomes `spec.protectTotalReplicas`; the annotations stay.
 * @throws PubConversionError for an operation upstream does not know or a replicas value that is not an int32, with
 *   upstream's words (`invalid kruise.io/pub-protect-operations value "X"`, `failed to parse …: strconv.ParseInt: …`)
 */
export function pubFromV1alpha1(pub: PodUnavailableBudget): PodUnavailableBudget {
  const annotations = pub.metadata.annotations ?? {};
  const spec = { ...(pub.spec ?? {}) };
  const ops = (annotations[ANNOTATION_PUB_PROTECT_OPERATIONS] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const op of ops)
    if (!PUB_OPERATIONS.includes(op))
      throw new PubConversionError(
        `invalid ${ANNOTATION_PUB_PROTECT_OPERATIONS} value ${JSON.stringify(op)}`,
      );
  if (ops.length > 0) spec.protectOperations = ops;
  const total = annotations[ANNOTATION_PUB_PROTECT_TOTAL_REPLICAS] ?? '';
  if (total !== '') {
    const n = parseInt32(total);
    if (n === undefined)
      throw new PubConversionError(
        `failed to parse ${ANNOTATION_PUB_PROTECT_TOTAL_REPLICAS}: ${parseInt32Error(total)}`,
      );
    spec.protectTotalReplicas = n;
  }
  return { ...pub, spec };
}

/** Go's `reflect.DeepEqual` on decoded JSON values: absent and present-but-empty differ. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** A selector's requirements by key, matchLabels written as `In [value]` over an expression of the same key. */
function requirementsByKey(sel: LabelSelector): Map<string, LabelSelectorRequirement> {
  const out = new Map<string, LabelSelectorRequirement>();
  for (const r of sel.matchExpressions ?? []) out.set(r.key, r);
  for (const [k, v] of Object.entries(sel.matchLabels ?? {}))
    out.set(k, { key: k, operator: 'In', values: [v] });
  return out;
}

const overlaps = (a: readonly string[], b: readonly string[]) => b.some((v) => a.includes(v));
const containsAll = (a: readonly string[], b: readonly string[]) => b.every((v) => a.includes(v));

/** Upstream `isMatchExpOverlap`: whether requirement `x` of a key can hold with `y` of the same key. */
function requirementsOverlap(x: LabelSelectorRequirement, y: LabelSelectorRequirement): boolean {
  const xv = x.values ?? [];
  const yv = y.values ?? [];
  switch (x.operator) {
    case 'In':
      return (
        y.operator === 'Exists' ||
        (y.operator === 'In' && overlaps(yv, xv)) ||
        (y.operator === 'NotIn' && !containsAll(yv, xv))
      );
    case 'Exists':
      return y.operator === 'In' || y.operator === 'NotIn' || y.operator === 'Exists';
    case 'NotIn':
      return (
        y.operator === 'Exists' ||
        y.operator === 'DoesNotExist' ||
        y.operator === 'NotIn' ||
        (y.operator === 'In' && !containsAll(xv, yv))
      );
    case 'DoesNotExist':
      return y.operator === 'DoesNotExist' || y.operator === 'NotIn';
    default:
      return false;
  }
}

/**
 * OpenKruise's `IsSelectorLooseOverlap`: both selectors constrain the same keys and every key's requirements can
 * hold together. Stricter than lib/api/selectorOverlap.ts (a key only one of them names makes them not overlap).
 */
export function isSelectorLooseOverlap(a: LabelSelector, b: LabelSelector): boolean {
  const ra = requirementsByKey(a);
  const rb = requirementsByKey(b);
  for (const [k, x] of ra) {
    const y = rb.get(k);
    if (!y || !requirementsOverlap(x, y)) return false;
  }
  for (const [k, y] of rb) {
    const x = ra.get(k);
    if (!x || !requirementsOverlap(y, x)) return false;
  }
  return true;
}

/** `ValidateLabelSelector` plus upstream's `LabelSelectorAsSelector` check (an `Invalid value` with no detail). */
function pubSelectorErrors(sel: LabelSelector, path: string, emptyMessage: string): FieldError[] {
  const errs = selectorErrors(sel, path, { values: true });
  const empty = Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0;
  return [
    ...errs,
    ...(empty ? [invalidPrinted(path, goLabelSelector(sel), emptyMessage)] : []),
    ...(errs.length > 0 ? [invalidBare(path, goLabelSelector(sel))] : []),
  ];
}

/** Upstream `validatePodUnavailableBudgetSpecV1beta1`. */
function specErrors(pub: PodUnavailableBudget): FieldError[] {
  const spec = pub.spec ?? {};
  const out: FieldError[] = [];
  const both = 'spec.selector, targetRef';
  if (!spec.selector && !spec.targetRef)
    out.push(required(both, 'no selector or targetRef defined in PodUnavailableBudget'));
  else if (spec.selector && spec.targetRef)
    out.push(required(both, 'selector and targetRef are mutually exclusive'));
  else if (spec.targetRef) {
    const ref = spec.targetRef;
    if (!ref.apiVersion || !ref.name || !ref.kind)
      out.push(
        invalidPrinted(
          'spec.targetRef',
          goTargetReference(ref),
          'empty targetRef is not valid for PodUnavailableBudget',
        ),
      );
    const gv = parseGroupVersion(ref.apiVersion ?? '');
    if ('error' in gv) out.push(invalidPrinted('spec.targetRef', goTargetReference(ref), gv.error));
  } else if (spec.selector) {
    out.push(
      ...pubSelectorErrors(
        spec.selector,
        'spec.selector',
        'empty selector is not valid for PodUnavailableBudget.',
      ),
    );
  }
  const budget = 'spec.maxUnavailable, minAvailable';
  if (spec.maxUnavailable === undefined && spec.minAvailable === undefined)
    out.push(required(budget, 'no maxUnavailable or minAvailable defined in PodUnavailableBudget'));
  else if (spec.maxUnavailable !== undefined && spec.minAvailable !== undefined)
    out.push(required(budget, 'maxUnavailable and minAvailable are mutually exclusive'));
  else {
    const [path, value] =
      spec.maxUnavailable !== undefined
        ? ['spec.maxUnavailable', spec.maxUnavailable]
        : ['spec.minAvailable', spec.minAvailable ?? 0];
    out.push(...positiveIntOrPercentErrors(value, path), ...notMoreThan100PercentErrors(value, path));
  }
  (spec.protectOperations ?? []).forEach((op, i) => {
    if (!PUB_OPERATIONS.includes(op))
      out.push(notSupported(`spec.protectOperations[${i}]`, op, PUB_OPERATIONS));
  });
  if (spec.ignoredPodSelector)
    out.push(
      ...pubSelectorErrors(
        spec.ignoredPodSelector,
        'spec.ignoredPodSelector',
        'empty ignoredPodSelector is not valid for PodUnavailableBudget',
      ),
    );
  return out;
}

/** Upstream's check of the deprecated `pub.kruise.io/protect-total-replicas` annotation. */
function annotationErrors(pub: PodUnavailableBudget): FieldError[] {
  const value = pub.metadata.annotations?.[ANNOTATION_PUB_PROTECT_TOTAL_REPLICAS];
  if (value === undefined) return [];
  const path = `metadata.annotations[${ANNOTATION_PUB_PROTECT_TOTAL_REPLICAS}]`;
  if (parseInt32(value) === undefined) return [invalidPrinted(path, show(value), 'must be a valid int32')];
  const total = pub.spec?.protectTotalReplicas;
  if (total !== undefined && value !== String(total))
    return [invalidPrinted(path, show(value), 'must match spec.protectTotalReplicas when both are set')];
  return [];
}

/**
 * Upstream `validatePubConflictV1beta1`: the first other PUB (same namespace, another name) that targets the same
 * group, kind and name, or whose selector loosely overlaps; a selector PUB and a targetRef PUB never conflict.
 */
export function pubConflictErrors(
  pub: PodUnavailableBudget,
  others: readonly PodUnavailableBudget[],
): FieldError[] {
  const ref = pub.spec?.targetRef;
  const sel = pub.spec?.selector;
  const groupOf = (r: PubTargetReference) => {
    const gv = parseGroupVersion(r.apiVersion ?? '');
    return 'group' in gv ? gv.group : '';
  };
  for (const other of others) {
    if (other.metadata.name === pub.metadata.name) continue;
    const oref = other.spec?.targetRef;
    const osel = other.spec?.selector;
    if (ref && oref) {
      if (groupOf(ref) === groupOf(oref) && ref.kind === oref.kind && ref.name === oref.name)
        return [
          invalidPrinted(
            'spec.targetReference',
            goTargetReference(ref),
            `pub.spec.targetReference is in conflict with other PodUnavailableBudget ${other.metadata.name ?? ''}`,
          ),
        ];
    } else if (sel && osel && isSelectorLooseOverlap(sel, osel)) {
      return [
        invalidPrinted(
          'spec.selector',
          goLabelSelector(sel),
          `pub.spec.selector is in conflict with other PodUnavailableBudget ${other.metadata.name ?? ''}`,
        ),
      ];
    }
  }
  return [];
}

/** What {@link validatePodUnavailableBudget} compares the PUB with. */
export interface PubValidationContext {
  /** The stored PUB (UPDATE): its selector and targetRef cannot change. */
  old?: PodUnavailableBudget;
  /** The other PUBs of its namespace; absent: the conflict rule is skipped (no cluster to read). */
  others?: readonly PodUnavailableBudget[];
}

/**
 * Every error OpenKruise's PUB webhook finds in a v1beta1 PUB, in its order: the total-replicas annotation, the spec
 * (selector xor targetRef, maxUnavailable xor minAvailable as a non-negative int or a percent ≤ 100%, the protected
 * operations, ignoredPodSelector), an update's selector/targetRef change, a conflict with another PUB.
 * @param pub the PUB as v1beta1 (a v1alpha1 write through {@link pubFromV1alpha1} first)
 * @returns the errors; empty when valid
 */
export function validatePodUnavailableBudget(
  pub: PodUnavailableBudget,
  ctx: PubValidationContext = {},
): FieldError[] {
  const out = [...annotationErrors(pub), ...specErrors(pub)];
  const old = ctx.old;
  if (
    old &&
    (!deepEqual(pub.spec?.selector, old.spec?.selector) ||
      !deepEqual(pub.spec?.targetRef, old.spec?.targetRef))
  )
    out.push(required('spec.selector, targetRef', 'selector and targetRef cannot be modified'));
  if (ctx.others) out.push(...pubConflictErrors(pub, ctx.others));
  return out;
}
