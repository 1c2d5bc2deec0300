/**
 * Kubernetes' field-validation helpers the validating webhooks of every kind share (apimachinery
 * `pkg/util/validation` and `pkg/util/validation/field`, `metav1/validation.ValidateLabelSelector`): the
 * `field.Error` message forms and the name, label and selector checks, with Kubernetes' messages.
 */
import type { FieldError } from './errors.js';
import { InvalidSelectorError, isEmptySelector, selectorMatches } from './selector.js';
import type { LabelSelector, UpdatePriorityStrategy } from './types.js';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

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
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc')",
    );
  }
  return errs;
}

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

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
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com')",
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
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName', or 'my.name', or '123-abc') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (name.length > 0 && !NAME_PART.test(name)) {
    errs.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName', or 'my.name', or '123-abc')",
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
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue', or 'my_value', or '12345')",
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
 * values, Exists/DoesNotExist take none) and key.
 */
export function selectorErrors(sel: LabelSelector, path: string): FieldError[] {
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
