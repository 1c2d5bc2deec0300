/**
 * OpenKruise: none; apimachinery v0.32 pkg/api/resource/quantity.go `ParseQuantity` (its int64 fast path) and
 * `parseQuantityString`, which OpenKruise's informers run on every quantity they decode.
 *
 * The private fields of the Go `resource.Quantity` a JSON quantity decodes to, which go-spew prints (./spewHash.ts).
 */
import { KruiselessError } from '../../core/errors.js';

/** A Go `resource.Quantity` decoded by the int64 fast path: `i` = value × 10^scale, `d` nil. */
export interface GoQuantity {
  /** `i.value` (an int64; exact while below 2^53, which the fast path's 18 digits keep). */
  value: bigint;
  /** `i.scale`: the decimal exponent of `value`. */
  scale: number;
  /** `s`: the input text when Go caches it (already canonical), else ''. */
  cached: string;
  /** `Format`: `DecimalSI`, `BinarySI` or `DecimalExponent`. */
  format: 'DecimalSI' | 'BinarySI' | 'DecimalExponent';
}

/** A quantity Go decodes through `inf.Dec` (its slow path), which ./spewHash.ts does not render. */
export class UnsupportedQuantityError extends KruiselessError {
  constructor(text: string) {
    super(
      `quantity ${JSON.stringify(text)} needs Go's inf.Dec path, which the revision hash does not reproduce`,
    );
  }
}

const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
/** `maxInt64Factors`: decimal digits an int64 always holds. */
const MAX_INT64_FACTORS = 18;
const INT64_MAX = (1n << 63n) - 1n;

/**
 * `text` as Go's `ParseQuantity` holds it, for quantities its int64 fast path takes (`100m`, `128Mi`, `1`, `0.5`,
 * `1e3`): decimal exponents ≥ -9 with at most 18 digits, binary suffixes without a fraction.
 * @throws UnsupportedQuantityError for what Go keeps as an `inf.Dec` (more digits, finer than nano, fractional binary)
 *   and for text Go refuses
 */
export function parseGoQuantity(text: string): GoQuantity {
  if (text === '0') return { value: 0n, scale: 0, cached: text, format: 'DecimalSI' };
  const m = /^([+-]?)(0*)(\d*)(?:\.(\d*))?([eEinumkKMGTP][0-9+-]*|[a-zA-Z]*)$/.exec(text);
  if (!m || text === '') throw new UnsupportedQuantityError(text);
  const [, sign, , digits, fraction = '', suffix] = m;
  const num = digits === '' ? '0' : digits;
  let format: GoQuantity['format'];
  let exponent: number;
  if (suffix in DECIMAL) {
    format = 'DecimalSI';
    exponent = DECIMAL[suffix];
  } else if (suffix in BINARY) {
    format = 'BinarySI';
    exponent = BINARY[suffix];
  } else if (/^[eE][+-]?\d+$/.test(suffix)) {
    format = 'DecimalExponent';
    exponent = Number.parseInt(suffix.slice(1), 10);
  } else {
    throw new UnsupportedQuantityError(text);
  }
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (fraction !== '') throw new UnsupportedQuantityError(text);
    mantissa = 1n << BigInt(exponent);
    precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
  } else {
    scale = exponent;
    precision = MAX_INT64_FACTORS - (num.length + fraction.length);
  }
  scale -= fraction.length;
  if (precision < 0 || scale < -9) throw new UnsupportedQuantityError(text);
  const shifted = num + fraction;
  const magnitude = BigInt(shifted) * mantissa;
  if (magnitude > INT64_MAX) throw new UnsupportedQuantityError(text);
  const value = sign === '-' ? -magnitude : magnitude;
  const canonical =
    format === 'BinarySI'
      ? exponent % 10 === 0 && (BigInt(shifted) & 7n) !== 0n
      : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
  return { value, scale, cached: canonical ? text : '', format };
}
