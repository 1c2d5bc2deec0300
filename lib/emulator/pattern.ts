/**
 * EventBridge event-pattern matching, for the local bus (docs/architecture.md#embedded-default: the in-process bus routes by the
 * same event patterns as serverless.yml). Semantics from
 * https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-event-patterns-content-based-filtering.html and
 * https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-event-patterns.html:
 * every field of the pattern must match (AND), fields absent from the pattern are ignored, a leaf is an array of
 * alternatives (OR), an event array matches when any of its elements does, `$or` holds alternative sub-patterns.
 * No npm library does this. Not yet cross-checked against moto.
 */
import { InvalidPatternError } from './errors.js';

/** A JSON value as found in events and patterns. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** An event pattern: nested objects whose leaves are arrays of values or operator objects. */
export interface EventPattern {
  [key: string]: JsonValue;
}

/** A compiled pattern: `true` when the event matches. */
export type EventMatcher = (event: unknown) => boolean;

type Scalar = string | number | boolean | null;
type Test = (value: Scalar) => boolean;

/** A leaf condition: tests one present scalar; `absent` says whether a missing field satisfies it. */
interface Condition {
  test: Test;
  absent: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const sameIgnoringCase = (a: string, b: string): boolean =>
  a.length === b.length && a.toLocaleLowerCase('en-US') === b.toLocaleLowerCase('en-US');

function fail(path: string, message: string): never {
  throw new InvalidPatternError(path, message);
}

function str(v: JsonValue, path: string, op: string): string {
  return typeof v === 'string' ? v : fail(path, `${op} takes a string`);
}

/** `*` matches any run of characters; `\*` and `\\` are literal (EventBridge wildcard filter). */
function wildcard(pattern: string, path: string): Test {
  if (pattern.includes('**')) fail(path, 'wildcard may not contain consecutive * characters');
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[++i];
      if (next !== '*' && next !== '\\') fail(path, 'wildcard escapes only * and \\');
      source += `\\${next}`;
    } else source += c === '*' ? '.*' : c.replace(/[.+?^${}()|[\]]/g, '\\$&');
  }
  const re = new RegExp(`^${source}$`, 's');
  return (v) => typeof v === 'string' && re.test(v);
}

/** `{prefix|suffix: "x"}` or `{prefix|suffix: {equals-ignore-case: "x"}}`. */
function affix(kind: 'prefix' | 'suffix', arg: JsonValue, path: string): Test {
  const ignoreCase = isObject(arg);
  if (ignoreCase && Object.keys(arg).join() !== 'equals-ignore-case') {
    fail(path, `${kind} takes a string or {"equals-ignore-case": string}`);
  }
  const wanted = ignoreCase ? str(arg['equals-ignore-case'], path, kind) : str(arg, path, kind);
  return (v) => {
    if (typeof v !== 'string' || v.length < wanted.length) return false;
    const part = kind === 'prefix' ? v.slice(0, wanted.length) : v.slice(v.length - wanted.length);
    return ignoreCase ? sameIgnoringCase(part, wanted) : part === wanted;
  };
}

const NUMERIC_OPS: Record<string, (a: number, b: number) => boolean> = {
  '=': (a, b) => a === b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};

/** `{numeric: [op, n, (op, n)]}`: only JSON numbers match. */
function numeric(arg: JsonValue, path: string): Test {
  if (!Array.isArray(arg) || arg.length === 0 || arg.length % 2 !== 0 || arg.length > 4) {
    fail(path, 'numeric takes [op, number] or [op, number, op, number]');
  }
  const checks: Array<(v: number) => boolean> = [];
  for (let i = 0; i < arg.length; i += 2) {
    const op = arg[i];
    const bound = arg[i + 1];
    const cmp = typeof op === 'string' ? NUMERIC_OPS[op] : undefined;
    if (cmp === undefined || typeof bound !== 'number')
      fail(path, `numeric operator ${JSON.stringify(op)} is not =, <, <=, > or >=`);
    checks.push((v) => cmp(v, bound));
  }
  return (v) => typeof v === 'number' && checks.every((check) => check(v));
}

/** The inner test of `anything-but`; the outer negates it. */
function anythingBut(arg: JsonValue, path: string): Test {
  const isScalarList = (l: JsonValue[]): boolean =>
    l.length > 0 && (l.every((x) => typeof x === 'string') || l.every((x) => typeof x === 'number'));
  if (typeof arg === 'string' || typeof arg === 'number') return (v) => v === arg;
  if (Array.isArray(arg)) {
    if (!isScalarList(arg)) fail(path, 'anything-but list must hold only strings or only numbers');
    return (v) => arg.includes(v);
  }
  if (isObject(arg) && Object.keys(arg).length === 1) {
    const [op, inner] = Object.entries(arg)[0];
    const list = Array.isArray(inner) ? inner : [inner];
    if (op === 'prefix' || op === 'suffix') return affix(op, inner, path);
    if (op === 'equals-ignore-case') {
      const words = list.map((w) => str(w, path, 'equals-ignore-case'));
      return (v) => typeof v === 'string' && words.some((w) => sameIgnoringCase(v, w));
    }
    if (op === 'wildcard') {
      const tests = list.map((w) => wildcard(str(w, path, 'wildcard'), path));
      return (v) => tests.some((t) => t(v));
    }
  }
  return fail(
    path,
    'anything-but takes a string, a number, a list, or {prefix|suffix|equals-ignore-case|wildcard}',
  );
}

/** One element of a leaf array. */
function condition(element: JsonValue, path: string): Condition {
  if (!isObject(element)) {
    if (Array.isArray(element)) fail(path, 'nested arrays are not allowed in a pattern');
    return { test: (v) => v === element, absent: false };
  }
  const keys = Object.keys(element);
  if (keys.length !== 1) fail(path, `an operator object has exactly one key, got ${JSON.stringify(keys)}`);
  const op = keys[0];
  const arg = element[op];
  switch (op) {
    case 'prefix':
    case 'suffix':
      return { test: affix(op, arg, path), absent: false };
    case 'equals-ignore-case': {
      const wanted = str(arg, path, op);
      return { test: (v) => typeof v === 'string' && sameIgnoringCase(v, wanted), absent: false };
    }
    case 'wildcard':
      return { test: wildcard(str(arg, path, op), path), absent: false };
    case 'numeric':
      return { test: numeric(arg, path), absent: false };
    case 'anything-but': {
      const inner = anythingBut(arg, path);
      return { test: (v) => !inner(v), absent: false };
    }
    case 'exists':
      if (typeof arg !== 'boolean') fail(path, 'exists takes true or false');
      // exists only looks at leaves: a present scalar satisfies `true`; only absence satisfies `false`.
      return { test: () => arg, absent: !arg };
    default:
      return fail(path, `unsupported operator ${JSON.stringify(op)}`);
  }
}

/** The scalars at a leaf: an array is flattened, objects are not leaves, `[]` counts as absent. */
function leafValues(value: unknown): Scalar[] {
  if (Array.isArray(value)) return value.flatMap(leafValues);
  if (value === undefined || isObject(value)) return [];
  return [value as Scalar];
}

function compileLeaf(list: JsonValue[], path: string): EventMatcher {
  if (list.length === 0) fail(path, 'a leaf array must not be empty');
  const conditions = list.map((element, i) => condition(element, `${path}[${i}]`));
  return (value) => {
    const values = leafValues(value);
    if (values.length === 0) return conditions.some((c) => c.absent);
    return conditions.some((c) => values.some((v) => c.test(v)));
  };
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function compileObject(pattern: Record<string, JsonValue>, path: string): EventMatcher {
  if (Object.keys(pattern).length === 0) fail(path, 'a pattern object must not be empty');
  const fields = Object.entries(pattern).map(([key, sub]): EventMatcher => {
    const at = join(path, key);
    if (key === '$or') {
      if (!Array.isArray(sub) || sub.length < 2 || !sub.every(isObject))
        fail(at, '$or takes a list of ≥ 2 patterns');
      const alternatives = sub.map((alt, i) =>
        compileObject(alt as Record<string, JsonValue>, `${at}[${i}]`),
      );
      return (event) => alternatives.some((alternative) => alternative(event));
    }
    if (Array.isArray(sub)) {
      const leaf = compileLeaf(sub, at);
      return (event) => leaf(isObject(event) ? event[key] : undefined);
    }
    if (isObject(sub)) {
      const nested = compileObject(sub, at);
      return (event) => {
        const value = isObject(event) ? event[key] : undefined;
        // An array of objects matches when one element matches the whole sub-pattern.
        return Array.isArray(value) && value.some(isObject)
          ? value.filter(isObject).some(nested)
          : nested(value);
      };
    }
    return fail(at, 'a pattern value must be an array or an object');
  });
  return (event) => fields.every((field) => field(event));
}

/**
 * Validates a pattern once and returns its matcher.
 * @throws InvalidPatternError for shapes EventBridge rejects (non-array leaves, empty arrays, unknown or
 *   malformed operators, `$or` with fewer than two alternatives); `cidr` is not supported here
 */
export function compilePattern(pattern: EventPattern): EventMatcher {
  if (!isObject(pattern)) fail('', 'a pattern must be a JSON object');
  return compileObject(pattern, '');
}

/**
 * Whether `event` (an EventBridge envelope: `source`, `detail-type`, `detail`, ...) matches `pattern`.
 * Compiles on every call; use {@link compilePattern} in loops.
 * @throws InvalidPatternError as {@link compilePattern}
 */
export function matchesPattern(pattern: EventPattern, event: unknown): boolean {
  return compilePattern(pattern)(event);
}
