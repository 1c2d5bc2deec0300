/**
 * Go `time.ParseDuration` syntax for `--timeout` (kubectl's flag type): a sequence of decimal numbers with units
 * `ms`, `s`, `m`, `h`, e.g. `5m`, `1m30s`, `500ms`; a bare `0` is zero.
 */
import { CliError } from './io.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;

/**
 * Milliseconds of a Go duration.
 * @throws CliError `invalid duration "<text>"` for anything else
 */
export function parseDuration(text: string): number {
  if (text === '0') return 0;
  let ms = 0;
  PART.lastIndex = 0;
  let matched = 0;
  while (PART.lastIndex < text.length) {
    const m = PART.exec(text);
    if (!m) break;
    ms += Number(m[1]) * (UNIT_MS[m[2] ?? ''] ?? 0);
    matched = PART.lastIndex;
  }
  if (text === '' || matched !== text.length) throw new CliError(`invalid duration "${text}"`);
  return Math.round(ms);
}
