/** Cutting a list into runs of a fixed length. */

/**
 * `items` cut every `size`, in order: the last piece holds what is left (shorter, never empty); none for no item.
 * @param size the length of each piece but the last, ≥ 1 (`Infinity`: one piece)
 * @throws RangeError when `size` is below 1 or NaN (a loop over it would never end)
 */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  if (!(size >= 1)) throw new RangeError(`chunk size must be at least 1, not ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
