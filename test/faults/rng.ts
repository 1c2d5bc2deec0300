/**
 * A seeded pseudo-random generator, so that `npm run test:faults -- --seed S` draws the same faults in the same
 * order of requests. mulberry32 (Tommy Ettinger's 32-bit generator, public domain): small, fast and good enough to
 * pick faults; not for anything that must be unpredictable.
 */

/** Draws uniform numbers in [0, 1). */
export type Random = () => number;

/**
 * A generator seeded with `seed` (any integer; only its low 32 bits count).
 * @returns a function whose successive calls give the same sequence for the same seed
 */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number in [min, max] drawn from `random`. */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
