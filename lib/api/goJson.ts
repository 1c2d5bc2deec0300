/**
 * OpenKruise: none; reproduces Go's `encoding/json` output of decoded JSON values (`map[string]interface{}` et
 * al.), the bytes OpenKruise writes into ControllerRevision `data` and hashes for revision names and in-place
 * state (docs/behaviour/cloneset.md#revisions). Pure functions. Here in lib/api because both the planner (hashes)
 * and the Kubernetes client (revision bodies sent byte for byte) need the same encoding.
 */
import type { JsonValue } from './types.js';
import { KruiselessError } from '../core/errors.js';

/** Thrown for values Go's `encoding/json` refuses to encode (NaN, ±Infinity) or that are not JSON. */
export class GoJsonError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'GoJsonError';
  }
}

const HEX = '0123456789abcdef';

function u4(code: number): string {
  return `\\u${HEX[(code >> 12) & 15]}${HEX[(code >> 8) & 15]}${HEX[(code >> 4) & 15]}${HEX[code & 15]}`;
}

/**
 * A JSON string literal as Go (1.22+) writes it with HTML escaping on: `"` `\\` `\n` `\r` `\t` `\b` `\f` as
 * short escapes, other control characters as `\u00XX`, `<` `>` `&` U+2028 U+2029 as `\uXXXX`, and unpaired
 * UTF-16 surrogates (invalid UTF-8 on the Go side) as `\ufffd`.
 */
export function goJsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += s[i] + s[i + 1];
        i++;
      } else {
        out += '\\ufffd';
      }
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff) {
      out += '\\ufffd';
      continue;
    }
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x09:
        out += '\\t';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x0c:
        out += '\\f';
        break;
      case 0x3c:
      case 0x3e:
      case 0x26:
      case 0x2028:
      case 0x2029:
        out += u4(c);
        break;
      default:
        out += c < 0x20 ? u4(c) : s[i];
    }
  }
  return out + '"';
}

/**
 * A float64 as Go's `encoding/json` prints it: shortest round-trip digits, plain notation when
 * `1e-6 ≤ |n| < 1e21` (so integers have no decimal point), otherwise exponent notation with a
 * two-digit-minimum exponent shortened from `e-07` to `e-7`, and `-0` kept. (ECMAScript's `Number#toString`
 * uses the same digits and the same thresholds, so the work left is the exponent form and negative zero.)
 * @throws GoJsonError for NaN and ±Infinity ("unsupported value")
 */
export function goJsonNumber(n: number): string {
  if (!Number.isFinite(n)) throw new GoJsonError(`json: unsupported value: ${n}`);
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const abs = Math.abs(n);
  if (abs >= 1e-6 && abs < 1e21) return String(n);
  // exponent form: mantissa digits as JS prints them, exponent as "e+21" / "e-7"
  const [mantissa, exp] = n.toExponential().split('e');
  const e = Number(exp);
  return `${mantissa}e${e < 0 ? '-' : '+'}${Math.abs(e)}`;
}

/** Orders strings as Go orders map keys: by UTF-8 bytes, i.e. by code point (not by UTF-16 unit). */
export function compareGoKeys(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const cx = x.value.codePointAt(0) ?? 0;
    const cy = y.value.codePointAt(0) ?? 0;
    if (cx !== cy) return cx - cy;
  }
}

/**
 * `json.Marshal` of a decoded JSON value (`map[string]interface{}` et al.): keys sorted at every level, no
 * whitespace, Go string and number formatting. Object members whose value is `undefined` are skipped (they do
 * not exist in a Go map).
 * @throws GoJsonError for non-finite numbers or non-JSON values (functions, symbols, bigint)
 */
export function goJson(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return goJsonString(value);
    case 'number':
      return goJsonNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (Array.isArray(value)) return `[${value.map((v) => goJson(v)).join(',')}]`;
      return `{${Object.keys(value)
        .filter((k) => value[k] !== undefined)
        .sort(compareGoKeys)
        .map((k) => `${goJsonString(k)}:${goJson(value[k])}`)
        .join(',')}}`;
    default:
      throw new GoJsonError(`json: unsupported type: ${typeof value}`);
  }
}
