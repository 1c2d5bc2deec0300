/**
 * Label selectors: matching, validation and the canonical string form (`status.labelSelector`,
 * docs/behaviour/cloneset.md#status-fields), with Kubernetes' `metav1.LabelSelectorAsSelector` semantics.
 */
import type { LabelSelector, LabelSelectorRequirement } from './types.js';
import { KruiselessError } from '../core/errors.js';

/** Thrown for a selector that cannot be converted (unknown operator, values where none are allowed, …). */
export class InvalidSelectorError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSelectorError';
  }
}

/**
 * Whether the selector has neither matchLabels nor matchExpressions (invalid for a CloneSet,
 * docs/behaviour/cloneset.md#api-fields).
 */
export function isEmptySelector(selector: LabelSelector | undefined): boolean {
  return (
    !selector ||
    (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0)
  );
}

const EQUALS = '=';

function requirements(selector: LabelSelector): LabelSelectorRequirement[] {
  // matchLabels become equality requirements (printed `k=v`); a matchExpressions `In` stays `k in (v)`
  const reqs: LabelSelectorRequirement[] = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => ({
    key,
    operator: EQUALS,
    values: [value],
  }));
  for (const r of selector.matchExpressions ?? []) {
    switch (r.operator) {
      case 'In':
      case 'NotIn':
        if (!r.values || r.values.length === 0) {
          throw new InvalidSelectorError(
            `values: Required value: for 'in', 'notin' operators, values set can't be empty`,
          );
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (r.values && r.values.length > 0) {
          throw new InvalidSelectorError(
            `values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
          );
        }
        break;
      default:
        throw new InvalidSelectorError(`operator: Unsupported value: "${r.operator}"`);
    }
    reqs.push(r);
  }
  return reqs;
}

/**
 * Whether `labels` satisfy `selector`. An empty selector matches everything (Kubernetes semantics; the
 * CloneSet validation rejects empty selectors separately).
 * @throws InvalidSelectorError for an invalid selector
 */
export function selectorMatches(
  selector: LabelSelector,
  labels: Record<string, string> | undefined,
): boolean {
  const l = labels ?? {};
  return requirements(selector).every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    switch (r.operator) {
      case EQUALS:
      case 'In':
        return has && (r.values ?? []).includes(l[r.key]);
      case 'NotIn':
        return !has || !(r.values ?? []).includes(l[r.key]);
      case 'Exists':
        return has;
      default:
        return !has;
    }
  });
}

/**
 * The canonical string of a selector as `labels.Selector.String()` prints it
 * (docs/behaviour/cloneset.md#status-fields): requirements sorted by key, `k=v`, `k in (a,b)`, `k notin
 * (a,b)`, `k`, `!k`, joined by commas; values sorted.
 * @throws InvalidSelectorError for an invalid selector
 */
export function selectorString(selector: LabelSelector): string {
  const reqs = requirements(selector)
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (a.r.key < b.r.key ? -1 : a.r.key > b.r.key ? 1 : a.i - b.i))
    .map(({ r }) => r);
  return reqs
    .map((r) => {
      const values = [...(r.values ?? [])].sort();
      switch (r.operator) {
        case EQUALS:
          return `${r.key}=${values[0]}`;
        case 'In':
          return `${r.key} in (${values.join(',')})`;
        case 'NotIn':
          return `${r.key} notin (${values.join(',')})`;
        case 'Exists':
          return r.key;
        default:
          return `!${r.key}`;
      }
    })
    .join(',');
}
