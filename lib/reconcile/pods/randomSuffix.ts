/**
 * The random part of a new pod's name: what the API server's `generateName` appends and OpenKruise's
 * `GenerateNewInstanceID` uses as a CloneSet instance id (apimachinery `util/rand.String(5)`).
 */
import { randomInt } from 'node:crypto';
import { SAFE_ALPHABET } from '../../api/keys.js';

/** 5 random characters of `SAFE_ALPHABET` (lib/api/keys.ts). */
export function randomSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += SAFE_ALPHABET[randomInt(SAFE_ALPHABET.length)];
  return s;
}
