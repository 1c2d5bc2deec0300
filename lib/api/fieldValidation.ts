/**
 * Kubernetes' field-validation helpers the validating webhooks of every kind share (apimachinery
 * `pkg/util/validation` and `pkg/util/validation/field`, `metav1/validation.ValidateLabelSelector`): the
 * `field.Error` message forms and the name, label and selector checks, with Kubernetes' messages.
 */
import type { FieldError } from './errors.js';
import { InvalidSelectorError, isEmptySelector, selectorMatches } from './selector.js';
import {
  isJsonObject,
  type IntOrString,
  type LabelSelector,
  type UpdatePriorityStrategy,
  type UpdateScatterTerm,
} from './types.js';

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/**
 * Kubernetes' `RegexError` (apimachinery `pkg/util/validation`): `<msg> (e.g. 'a',  or 'b', regex used for
 * validation is '<fmt>')` — each example followed by `, ` and joined by ` or `, as Go builds it.
 */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

/** `IsDNS1123Label`'s format message. */
export const DNS1123_LABEL_MESSAGE = regexError(
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
  DNS1123_LABEL_FMT,
  'my-name',
  '123-abc',
);

/** Kubernetes' `field.NotSupported`: `Unsupported value: <value>: supported values: "a", "b"`. */
export const notSupported = (path: string, value: unknown, supported: readonly string[]): FieldError => ({
  path,
  message: `Unsupported value: ${show(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
});

/** Kubernetes `IsDNS1123Label` (`NameIsDNSLabel`): ≤ 63 chars, lower-case alphanumerics and `-`, alphanumeric ends. */
export function dns1123LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS1123_LABEL.test(value)) {
    errs.push(DNS1123_LABEL_MESSAGE);
  }
  return errs;
}

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);

/** A value as `field.Error` prints it in a message: JSON, `null` for absent. */
export function show(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : v === undefined ? 'null' : JSON.stringify(v);
}

/** Kubernetes' `field.Invalid`: `Invalid value: <value>: <detail>`. */
export const invalid = (path: string, value: unknown, detail: string): FieldError => ({
  path,
  message: `Invalid value: ${show(value)}: ${detail}`,
});
/** Kubernetes' `field.Required`: `Required value[: <detail>]`. */
export const required = (path: string, detail = ''): FieldError => ({
  path,
  message: detail ? `Required value: ${detail}` : 'Required value',
});
/** Kubernetes' `field.Forbidden`: `Forbidden: <detail>`. */
export const forbidden = (path: string, detail: string): FieldError => ({
  path,
  message: `Forbidden: ${detail}`,
});

/** Kubernetes `IsDNS1123Subdomain`: ≤ 253 chars of lower-case RFC 1123 labels joined by `.`. */
export function subdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!DNS1123_SUBDOMAIN.test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN_FMT,
        'example.com',
      ),
    );
  }
  return errs;
}

/** Kubernetes `IsQualifiedName` (label and annotation keys): `[prefix/]name`, name ≤ 63 chars. */
export function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  let name = value;
  const errs: string[] = [];
  if (parts.length === 2) {
    const [prefix] = parts;
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...subdomainErrors(prefix).map((e) => `prefix part ${e}`));
  } else if (parts.length > 2) {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (name.length > 0 && !NAME_PART.test(name)) {
    errs.push(
      `name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`,
    );
  }
  return errs;
}

/**
 * Kubernetes `IsValidLabelValue`: empty, or ≤ 63 chars of `[A-Za-z0-9_.-]` starting and ending alphanumeric.
 */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (value !== '' && !NAME_PART.test(value)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        `(${QUALIFIED_NAME_FMT})?`,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errs;
}

/** Kubernetes `ValidateLabels`: each key a qualified name, each value a label value; errors at `path`. */
export function labelsErrors(labels: Record<string, string> | undefined, path: string): FieldError[] {
  const out: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const e of qualifiedNameErrors(k)) out.push(invalid(path, k, e));
    for (const e of labelValueErrors(String(v))) out.push(invalid(path, v, e));
  }
  return out;
}

/**
 * Kubernetes `ValidateLabelSelector`: matchLabels as labels, each expression's operator and values (In/NotIn need
 * values, Exists/DoesNotExist take none) and key; with `opts.values` also each value of an expression as a label
 * value (`values[j]`), as Kubernetes ≥ 1.27 does unless `AllowInvalidLabelValueInSelector`.
 */
export function selectorErrors(
  sel: LabelSelector,
  path: string,
  opts: { values?: boolean } = {},
): FieldError[] {
  const out = labelsErrors(sel.matchLabels, `${path}.matchLabels`);
  (sel.matchExpressions ?? []).forEach((r, i) => {
    const p = `${path}.matchExpressions[${i}]`;
    const n = (r.values ?? []).length;
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if (n === 0) out.push(required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') {
      if (n > 0)
        out.push(
          forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        );
    } else {
      out.push(invalid(`${p}.operator`, r.operator, 'not a valid selector operator'));
    }
    for (const e of qualifiedNameErrors(r.key ?? '')) out.push(invalid(`${p}.key`, r.key, e));
    if (opts.values)
      (r.values ?? []).forEach((v, j) => {
        for (const e of labelValueErrors(v)) out.push(invalid(`${p}.values[${j}]`, v, e));
      });
  });
  return out;
}

/**
 * OpenKruise's `UpdatePriorityStrategy.FieldsValidation` (`apis/apps/pub/update_priority.go`): the first problem of
 * a priority strategy, or undefined when it is valid (or absent).
 */
export function priorityStrategyError(ps: UpdatePriorityStrategy | undefined): string | undefined {
  if (!ps) return undefined;
  if ((ps.weightPriority ?? []).length > 0 && (ps.orderPriority ?? []).length > 0) {
    return 'only one of weightPriority and orderPriority can be used';
  }
  for (const w of ps.weightPriority ?? []) {
    if (w.weight < 0 || w.weight > 100) return 'weight must be valid number in the range 1-100';
    if (isEmptySelector(w.matchSelector)) return 'selector can not be empty';
    try {
      selectorMatches(w.matchSelector, {});
    } catch (e) {
      return `invalid selector ${e instanceof InvalidSelectorError ? e.message : String(e)}`;
    }
  }
  if ((ps.orderPriority ?? []).some((o) => !o.orderedKey)) return 'order key can not be empty';
  return undefined;
}

/**
 * OpenKruise's `UpdateScatterStrategy.FieldsValidation` (`apis/apps/v1alpha1/scatter_strategy.go`): the first problem
 * of a scatter strategy (a term without a key, a key and value twice), or undefined when it is valid (or absent).
 */
export function scatterStrategyError(terms: readonly UpdateScatterTerm[] | undefined): string | undefined {
  const seen = new Set<string>();
  for (const t of terms ?? []) {
    if (!t.key) return 'key should not be empty';
    const id = `${t.key}:${t.value}`;
    if (seen.has(id)) return `duplicated key=${t.key} value=${t.value}`;
    seen.add(id);
  }
  return undefined;
}

/** Kubernetes' `IsValidPercent` pattern: digits then `%`. */
export const PERCENT = /^[0-9]+%$/;
/** Kubernetes' `IsValidPercent` message. */
export const PERCENT_MESSAGE =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** Kubernetes' `field.Invalid` with the value already printed (Go's `%#v` forms). */
export const invalidPrinted = (path: string, printed: string, detail: string): FieldError => ({
  path,
  message: `Invalid value: ${printed}: ${detail}`,
});

/** Go's `%#v` of an `intstr.IntOrString` value, e.g. `intstr.IntOrString{Type:1, IntVal:0, StrVal:"50%"}`. */
export function goIntOrString(v: IntOrString): string {
  return typeof v === 'number'
    ? `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`
    : `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`;
}

/**
 * How a field error prints an `*intstr.IntOrString` passed as is (apimachinery `field.Error.ErrorBody`: the pointer
 * followed, and the value, whose `String` method needs a pointer, printed with `%#v`): `null` when unset.
 */
export function goIntOrStringPointer(value: IntOrString | undefined | null): string {
  return value === undefined || value === null ? 'null' : goIntOrString(value);
}

/** Kubernetes' `ValidateNonnegativeField`: `must be greater than or equal to 0`. */
export function nonNegative(value: number, path: string): FieldError[] {
  return value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/**
 * Kubernetes' `ValidatePositiveIntOrPercent` (`pkg/apis/apps/validation`): a string must be a valid percentage, an
 * integer must not be negative.
 */
export function positiveIntOrPercentErrors(value: IntOrString, path: string): FieldError[] {
  if (typeof value === 'number') return nonNegative(value, path);
  return PERCENT.test(value) ? [] : [invalidPrinted(path, goIntOrString(value), PERCENT_MESSAGE)];
}

/**
 * A valid percentage's number, undefined for an integer or a string that is not one (as Kubernetes'
 * `getPercentValue`).
 */
export function percentValue(value: IntOrString): number | undefined {
  return typeof value === 'string' && PERCENT.test(value) ? Number(value.slice(0, -1)) : undefined;
}

/** Kubernetes' `IsNotMoreThan100Percent`: a valid percentage above 100% is refused; anything else passes. */
export function notMoreThan100PercentErrors(value: IntOrString, path: string): FieldError[] {
  const pct = percentValue(value);
  return pct !== undefined && pct > 100
    ? [invalidPrinted(path, goIntOrString(value), 'must not be greater than 100%')]
    : [];
}

/** A Go pointer or slice that is set: neither absent nor `null` in JSON. */
export const isNonNil = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * A list field as Go decodes it for validation: anything that is not a list reads as none, and an element that is not
 * an object as the element type's zero value (`{}`).
 */
export function decodedList<T>(v: unknown): T[] {
  return Array.isArray(v) ? (v as unknown[]).map((e) => (isJsonObject(e) ? (e as T) : ({} as T))) : [];
}
