/**
 * `spec.reserveOrdinals`: the ordinals an Advanced StatefulSet skips, given as numbers or inclusive ranges
 * `"<start>-<end>"` (OpenKruise's `ParseRange` and `GetReserveOrdinalIntSet` in `pkg/util/api/asts.go`).
 */
import { KruiselessError } from '../../../core/errors.js';
import type { IntOrString } from '../../../api/types.js';

/** A `reserveOrdinals` range that `ParseRange` rejects; the message is Go's error text. */
export class InvalidOrdinalRangeError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidOrdinalRangeError';
  }
}

/** Go's `strconv.Atoi` on a 64-bit platform: optional sign, decimal digits. @throws InvalidOrdinalRangeError */
function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s))
    throw new InvalidOrdinalRangeError(`strconv.Atoi: parsing "${s}": invalid syntax`);
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n)
    throw new InvalidOrdinalRangeError(`strconv.Atoi: parsing "${s}": value out of range`);
  return Number(n);
}

/**
 * The bounds of a range `"<start>-<end>"`, both inclusive (OpenKruise's `ParseRange`).
 * @throws InvalidOrdinalRangeError with Go's message: `invalid range <s>` when there are not exactly two parts or
 *   start > end, `strconv.Atoi: parsing "<part>": invalid syntax` for a part that is not an integer
 */
export function parseOrdinalRange(s: string): { start: number; end: number } {
  const parts = s.split('-');
  if (parts.length !== 2) throw new InvalidOrdinalRangeError(`invalid range ${s}`);
  const start = atoi(parts[0]);
  const end = atoi(parts[1]);
  if (start > end) throw new InvalidOrdinalRangeError(`invalid range ${s}`);
  return { start, end };
}

/**
 * The reserved ordinals as a set (OpenKruise's `GetReserveOrdinalIntSet`): each number itself, each range every
 * ordinal from start to end. As upstream, one invalid range makes the whole set empty (the controller then
 * reserves nothing; validation rejects such a spec, so this is only reached for objects stored without it).
 */
export function reservedOrdinalSet(reserveOrdinals: readonly IntOrString[] | undefined): Set<number> {
  const out = new Set<number>();
  for (const elem of reserveOrdinals ?? []) {
    if (typeof elem === 'number') {
      out.add(elem);
      continue;
    }
    try {
      const { start, end } = parseOrdinalRange(elem);
      for (let i = start; i <= end; i++) out.add(i);
    } catch (e) {
      if (e instanceof InvalidOrdinalRangeError) return new Set();
      throw e;
    }
  }
  return out;
}
