/**
 * Kubernetes' canonical text of a resource quantity (apimachinery `resource.Quantity`: `ParseQuantity` then
 * `String()`/`CanonicalizeBytes`), after Kubernetes' `SetDefaults_ResourceList` rounding up to milli-units: the form
 * Go writes back when it decodes and encodes a quantity, e.g. `0.5` → `500m`, `1024Mi` → `1Gi`, `1.5Gi` → `1536Mi`,
 * `1e3` → `1e3`, `0.0001` → `1m`. Pure; exact (BigInt) arithmetic.
 */

/** A quantity's decimal suffix → its power of ten (apimachinery's suffixer). */
export const DECIMAL_SUFFIX: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
/** A quantity's binary suffix → its power of 1024 (apimachinery's suffixer). */
export const BINARY_SUFFIX: Readonly<Record<string, number>> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const DECIMAL_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIX).map(([s, e]) => [e, s]));
const BINARY_BY_POWER = new Map(Object.entries(BINARY_SUFFIX).map(([s, p]) => [p, s]));

const pow10 = (n: number): bigint => 10n ** BigInt(n);
const abs = (n: bigint): bigint => (n < 0n ? -n : n);

/** `⌈n / d⌉` away from zero (Go's `RoundUp` of a quantity rounds its magnitude up). */
function divRoundUp(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d === 0n ? q : q + (n < 0n ? -1n : 1n);
}

/**
 * Whether Go keeps the text as written: `ParseQuantity`'s fast path caches the input string when it is already in a
 * canonical shape — decimal: the digits (leading zeros dropped) neither start with `0` nor end in `000` and the
 * decimal exponent is a multiple of 3; binary: no fraction and the number is not a multiple of 8 — and the milli
 * rounding only clears that cache when it changes the scale (finer than milli).
 */
function keptAsWritten(
  whole: string,
  fraction: string,
  format: 'DecimalSI' | 'BinarySI' | 'DecimalExponent',
  exponent10: number,
  power1024: number,
): boolean {
  const num = whole.replace(/^0+/, '');
  if (format === 'BinarySI') {
    const bits = power1024 * 10;
    if (fraction !== '' || 15 - num.length - Math.floor((bits * 3) / 10) - 1 < 0) return false;
    return (BigInt(num || '0') & 7n) !== 0n;
  }
  if (18 - (num.length + fraction.length) < 0) return false;
  const scale = exponent10 - fraction.length;
  if (scale < -3) return false; // below nano the slow path caches nothing; below milli the rounding clears it
  const shifted = num + fraction;
  return scale % 3 === 0 && !shifted.endsWith('000') && !shifted.startsWith('0');
}

/**
 * The canonical text of `text`, or `text` itself when it is not a quantity (Go would refuse the object; nothing to
 * canonicalise).
 * @param text a quantity as written: `[+-]digits[.digits]` then a decimal (`n` … `E`), binary (`Ki` … `Ei`) or
 *   exponent (`e3`, `E-2`) suffix
 */
export function canonicalQuantity(text: string): string {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return text;
  const [, sign, whole, fraction = '', suffix] = m;
  let format: 'DecimalSI' | 'BinarySI' | 'DecimalExponent';
  let exponent10 = 0;
  let power1024 = 0;
  if (suffix in DECIMAL_SUFFIX) {
    format = 'DecimalSI';
    exponent10 = DECIMAL_SUFFIX[suffix];
  } else if (suffix in BINARY_SUFFIX) {
    format = 'BinarySI';
    power1024 = BINARY_SUFFIX[suffix];
  } else if (/^[eE][+-]?\d+$/.test(suffix)) {
    format = 'DecimalExponent';
    exponent10 = Number(suffix.slice(1));
  } else return text;
  if (keptAsWritten(whole, fraction, format, exponent10, power1024)) return text;
  // value = mantissa × 10^scale, exactly
  let mantissa = BigInt(`${sign}${whole || '0'}${fraction}`) * 1024n ** BigInt(power1024);
  let scale = exponent10 - fraction.length;
  // ParseQuantity keeps nano precision at most, SetDefaults_ResourceList rounds up to milli: both round up
  if (scale < -3) {
    mantissa = divRoundUp(mantissa, pow10(-3 - scale));
    scale = -3;
  }
  if (mantissa === 0n) return '0';
  if (format === 'BinarySI') {
    const integral =
      scale >= 0
        ? mantissa * pow10(scale)
        : mantissa % pow10(-scale) === 0n
          ? mantissa / pow10(-scale)
          : undefined;
    if (integral === undefined || abs(integral) < 1024n) format = 'DecimalSI';
    else {
      let amount = integral;
      let power = 0;
      while (amount % 1024n === 0n && power < 6) {
        amount /= 1024n;
        power++;
      }
      return `${amount}${BINARY_BY_POWER.get(power) ?? ''}`;
    }
  }
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    scale++;
  }
  const r = ((scale % 3) + 3) % 3;
  mantissa *= pow10(r);
  scale -= r;
  if (format === 'DecimalExponent') return scale === 0 ? `${mantissa}` : `${mantissa}e${scale}`;
  const suffixText = DECIMAL_BY_EXPONENT.get(scale);
  return suffixText !== undefined ? `${mantissa}${suffixText}` : `${mantissa}e${scale}`;
}
