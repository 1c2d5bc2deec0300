/**
 * apimachinery v0.32 `resource.Quantity` as a value one computes with (pkg/api/resource/quantity.go: `ParseQuantity`,
 * `Add`, `Neg`, `Cmp`, `Sign`, `MilliValue`, `SetMilli`, `NewMilliQuantity`, `NewQuantity`, `String`), for code that
 * must answer the quantities OpenKruise's Go computes (the SidecarSet resources policy). Exact: the amount is a
 * BigInt count of nano-units, the finest a parsed quantity keeps. Text only (canonical forms of stored quantities):
 * ./quantity.ts.
 */
import { BINARY_SUFFIX as BINARY_POWER, DECIMAL_SUFFIX as DECIMAL_EXPONENT } from './quantity.js';
import { KruiselessError } from '../core/errors.js';

/** `resource.Format`; `''` is a zero `Quantity{}` that was never parsed (a missing entry of a `ResourceList`). */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent' | '';

/** An immutable Go quantity. */
export interface QuantityValue {
  /** The amount in nano-units (10^-9). */
  readonly nano: bigint;
  readonly format: QuantityFormat;
  /** `s`: the text `ParseQuantity` keeps when it is already canonical, which `String()` answers as is. */
  readonly cached?: string;
}

/** `ParseQuantity` refused the text; the message is apimachinery's (`ErrFormatWrong`, `ErrSuffix`, `ErrNumeric`). */
export class QuantityParseError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'QuantityParseError';
  }
}

const ERR_FORMAT_WRONG =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const ERR_SUFFIX = "unable to parse quantity's suffix";

const DECIMAL_SUFFIX = new Map(Object.entries(DECIMAL_EXPONENT).map(([s, e]) => [e, s]));
const BINARY_SUFFIX = new Map([[0, ''], ...Object.entries(BINARY_POWER).map(([s, p]) => [p, s] as const)]);

const NANO_PER_UNIT = 1_000_000_000n;
const NANO_PER_MILLI = 1_000_000n;
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

/** The zero `Quantity{}` Go reads for a missing `ResourceList` entry. */
export const ZERO_QUANTITY: QuantityValue = { nano: 0n, format: '' };

/** `a / b` rounded away from zero (Go's `inf.RoundUp` and `MilliValue`'s rounding). */
function divAwayFromZero(a: bigint, b: bigint): bigint {
  const q = a / b;
  if (a % b === 0n) return q;
  return a < 0n ? q - 1n : q + 1n;
}

/**
 * `resource.ParseQuantity`: `[+-]digits[.digits]` then a decimal suffix (`n` … `E`), a binary one (`Ki` … `Ei`) or
 * a decimal exponent (`e3`); finer than nano rounds away from zero, a binary amount is capped at 2^63-1 and one
 * strictly between 0 and 1 becomes DecimalSI.
 * @throws QuantityParseError with apimachinery's message
 */
export function parseQuantityValue(text: string): QuantityValue {
  if (text === '') throw new QuantityParseError(ERR_FORMAT_WRONG);
  if (text === '0') return { nano: 0n, format: 'DecimalSI', cached: '0' };
  const m = /^([+-]?)(\d*)(?:\.(\d*))?([eEinumkKMGTP]*[+-]?\d*)$/.exec(text);
  if (!m) throw new QuantityParseError(ERR_FORMAT_WRONG);
  const [, sign, whole, fraction = '', suffix] = m;
  let format: QuantityFormat;
  let exponent10 = 0;
  let power1024 = 0;
  if (suffix in DECIMAL_EXPONENT) {
    format = 'DecimalSI';
    exponent10 = DECIMAL_EXPONENT[suffix];
  } else if (suffix in BINARY_POWER) {
    format = 'BinarySI';
    power1024 = BINARY_POWER[suffix];
  } else if (/^[eE][+-]?\d+$/.test(suffix) && Math.abs(Number(suffix.slice(1))) <= 1000) {
    format = 'DecimalExponent';
    exponent10 = Number(suffix.slice(1));
  } else throw new QuantityParseError(ERR_SUFFIX);
  // amount = digits × 1024^power × 10^(exponent10 - fraction.length), in nano-units rounded away from zero
  const digits = BigInt(`${whole}${fraction}` || '0') * 1024n ** BigInt(power1024);
  const shift = exponent10 - fraction.length + 9;
  let nano = shift >= 0 ? digits * 10n ** BigInt(shift) : divAwayFromZero(digits, 10n ** BigInt(-shift));
  const kept = keptAsWritten(whole, fraction, format, exponent10, power1024);
  if (format === 'BinarySI' && nano > INT64_MAX * NANO_PER_UNIT) nano = INT64_MAX * NANO_PER_UNIT;
  if (format === 'BinarySI' && nano > 0n && nano < NANO_PER_UNIT) format = 'DecimalSI';
  if (sign === '-') nano = -nano;
  return kept ? { nano, format, cached: text } : { nano, format };
}

/**
 * Whether `ParseQuantity`'s int64 fast path keeps the text (`s`): decimal — at most 18 digits, not finer than nano,
 * the exponent a multiple of 3, the digits neither starting with 0 nor ending in 000; binary — no fraction, few
 * enough digits for the suffix, the number not a multiple of 8.
 */
function keptAsWritten(
  whole: string,
  fraction: string,
  format: QuantityFormat,
  exponent10: number,
  power1024: number,
): boolean {
  const num = whole.replace(/^0+/, '') || '0';
  if (format === 'BinarySI') {
    if (fraction !== '') return false;
    const bits = power1024 * 10;
    if (15 - num.length - Math.trunc((bits * 3) / 10) - 1 < 0) return false;
    return (BigInt(num) & 7n) !== 0n;
  }
  if (18 - (num.length + fraction.length) < 0) return false;
  const scale = exponent10 - fraction.length;
  const shifted = num + fraction;
  return scale >= -9 && scale % 3 === 0 && !shifted.endsWith('000') && !shifted.startsWith('0');
}

/** `resource.NewMilliQuantity(milli, DecimalSI)`. */
export function milliQuantity(milli: bigint): QuantityValue {
  return { nano: milli * NANO_PER_MILLI, format: 'DecimalSI' };
}

/** `resource.NewQuantity(value, DecimalSI)`. */
export function unitQuantity(value: bigint): QuantityValue {
  return { nano: value * NANO_PER_UNIT, format: 'DecimalSI' };
}

/** `q.Add(y)` on a copy of `q`: a zero receiver takes `y`'s format. */
export function addQuantity(q: QuantityValue, y: QuantityValue): QuantityValue {
  return { nano: q.nano + y.nano, format: q.nano === 0n ? y.format : q.format };
}

/** `q.Neg()` on a copy of `q`. */
export function negQuantity(q: QuantityValue): QuantityValue {
  return { nano: -q.nano, format: q.format };
}

/** `q.Cmp(y)`: -1, 0 or 1. */
export function cmpQuantity(q: QuantityValue, y: QuantityValue): -1 | 0 | 1 {
  return q.nano < y.nano ? -1 : q.nano > y.nano ? 1 : 0;
}

/** `q.MilliValue()`: milli-units, a finer remainder rounded away from zero. */
export function milliValue(q: QuantityValue): bigint {
  return divAwayFromZero(q.nano, NANO_PER_MILLI);
}

/** `q.SetMilli(milli)` on a copy of `q`: the amount replaced, the format kept. */
export function withMilli(q: QuantityValue, milli: bigint): QuantityValue {
  return { nano: milli * NANO_PER_MILLI, format: q.format };
}

/**
 * Go's `int64(f)` of a float64 as amd64 computes it: truncated toward zero; NaN and values outside int64 give
 * -2^63 (the CPU's "integer indefinite").
 */
export function goInt64(f: number): bigint {
  if (!Number.isFinite(f)) return INT64_MIN;
  const t = BigInt(Math.trunc(f));
  return t > INT64_MAX || t < INT64_MIN ? INT64_MIN : t;
}

/** `q.String()`: the cached text, else `CanonicalizeBytes` (`0`, `100m`, `1536Mi`, `1e3`). */
export function quantityString(q: QuantityValue): string {
  if (q.cached) return q.cached;
  if (q.nano === 0n) return '0';
  let format = q.format === '' ? 'DecimalExponent' : q.format;
  if (format === 'BinarySI') {
    const small = q.nano > -1024n * NANO_PER_UNIT && q.nano < 1024n * NANO_PER_UNIT;
    if (small || q.nano % NANO_PER_UNIT !== 0n) format = 'DecimalSI';
    else {
      let amount = q.nano / NANO_PER_UNIT;
      let power = 0;
      while (amount % 1024n === 0n) {
        amount /= 1024n;
        power++;
      }
      return `${amount}${BINARY_SUFFIX.get(power) ?? ''}`;
    }
  }
  let mantissa = q.nano;
  let exponent = -9;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  const r = ((exponent % 3) + 3) % 3;
  mantissa *= 10n ** BigInt(r);
  exponent -= r;
  if (format === 'DecimalExponent') return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
  // a decimal exponent without an SI suffix prints the number alone, as Go's `constructBytes` leaves it
  return `${mantissa}${DECIMAL_SUFFIX.get(exponent) ?? ''}`;
}
