/**
 * Go's `int32` as the API uses it: the bounds (`math.MaxInt32` is also the "no limit" value of several CloneSet
 * fields, docs/behaviour/cloneset.md#defaults) and the parse of an int32 (or of a Go `int`) held in a label or
 * annotation.
 */

/** `math.MaxInt32`. */
export const MAX_INT32 = 2147483647;
/** `math.MinInt32`. */
export const MIN_INT32 = -2147483648;

/** Whether `n` lies in Go's int32 range (callers have already checked it is an integer). */
export function isInt32(n: number): boolean {
  return n >= MIN_INT32 && n <= MAX_INT32;
}

/**
 * Go's `strconv.ParseInt(s, 10, 32)`: optional sign, decimal digits, int32 range.
 * @returns the number, or `undefined` when `s` is not such a string
 */
export function parseInt32(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = Number(s);
  return isInt32(n) ? n : undefined;
}

/**
 * The error Go's `strconv.ParseInt(s, 10, 32)` returns for a string {@link parseInt32} refuses, as its `Error()`
 * prints it: `strconv.ParseInt: parsing "<s>": value out of range` for digits beyond int32, else `… invalid syntax`.
 */
export function parseInt32Error(s: string): string {
  const reason = /^[+-]?\d+$/.test(s) ? 'value out of range' : 'invalid syntax';
  return `strconv.ParseInt: parsing ${JSON.stringify(s)}: ${reason}`;
}

/**
 * Go's `strconv.Atoi(s)` on a 64-bit platform: optional sign, decimal digits; here within JavaScript's safe integers
 * (±2^53 − 1), beyond which no annotation value is meaningful.
 * @returns the number, or `undefined` when `s` is not such a string
 */
export function parseGoInt(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}
