/**
 * The lease protocol shared by every lease of the state layer — the per-object reconcile lease and the watch
 * pump's per-stream checkpoint lease — and by both adapters (docs/architecture.md#lease):
 * - a lease is free when never taken, released (`expiresAt` = {@link RELEASED_AT}) or expired (`expiresAt <= now`);
 * - taking it (free, or already ours) adds 1 to its fencing token;
 * - only the holder with the current token may renew, save under, or release it.
 */

import type { DirtyMark, DirtyMarks } from './ports.js';

/** `expiresAt` of a released lease: free for anyone, and distinguishable from an expired one. */
export const RELEASED_AT = 0;

/**
 * Checks the caller-supplied timing of a lease operation.
 * @param durationMs lease length, ms, > 0
 * @param nowMs the caller's clock, epoch ms, > 0
 * @throws RangeError naming `operation` when either is out of range
 */
export function checkLeaseTiming(operation: string, durationMs: number, nowMs: number): void {
  if (!Number.isFinite(durationMs) || durationMs <= 0)
    throw new RangeError(`${operation}: durationMs must be a positive number of ms, got ${durationMs}`);
  if (!Number.isFinite(nowMs) || nowMs <= RELEASED_AT)
    throw new RangeError(`${operation}: nowMs must be a positive epoch ms, got ${nowMs}`);
}

/**
 * Checks the failure count a release stores (docs/reliability.md#backoff).
 * @throws RangeError naming `operation` unless it is an integer ≥ 0
 */
export function checkFailures(operation: string, failures: number): void {
  if (!Number.isInteger(failures) || failures < 0)
    throw new RangeError(`${operation}: failures must be an integer ≥ 0, got ${failures}`);
}

/** Digits of a mark's resourceVersion as stored: etcd's int64 revision has at most 19, so text order is number order. */
const MARK_DIGITS = 20;
const DECIMAL = /^[0-9]{1,20}$/;

/**
 * A {@link DirtyMark}'s resourceVersion as the DynamoDB adapter stores it (zero-padded to 20 digits, so a string
 * comparison orders them as numbers and none loses precision as a JavaScript number would), or `undefined` when it is
 * not etcd's decimal revision (such a mark asks for a quorum read). `none` and an object mark, which ask nothing of the
 * LISTs, are stored as all zeros.
 */
export function storedMarkVersion(mark: Exclude<DirtyMark, 'quorum'>): string | undefined {
  if (mark === 'none') return '0'.repeat(MARK_DIGITS);
  if ('objectResourceVersion' in mark)
    return DECIMAL.test(mark.objectResourceVersion) ? '0'.repeat(MARK_DIGITS) : undefined;
  if (!DECIMAL.test(mark.resourceVersion)) return undefined;
  return mark.resourceVersion.padStart(MARK_DIGITS, '0');
}

/**
 * An object mark's resourceVersion as stored beside {@link storedMarkVersion} (zero-padded to 20 digits), or
 * `undefined` for any other mark and for one that is not etcd's decimal revision (that one asks for a quorum read).
 */
export function storedObjectMarkVersion(mark: DirtyMark): string | undefined {
  if (typeof mark === 'string' || !('objectResourceVersion' in mark)) return undefined;
  return DECIMAL.test(mark.objectResourceVersion)
    ? mark.objectResourceVersion.padStart(MARK_DIGITS, '0')
    : undefined;
}

/**
 * What the stored marks say ({@link DirtyMarks}): `quorum` when one asked for it, or when the flag was set with no
 * mark at all (a writer of an older version: read by quorum, as before marks existed); else the newest
 * resourceVersion, absent when every mark was `none` or an object mark, and the newest object resourceVersion.
 * @param stored the stored resourceVersion ({@link storedMarkVersion}), if any
 * @param storedObject the stored object resourceVersion ({@link storedObjectMarkVersion}), if any
 */
export function marksOf(
  quorum: boolean | undefined,
  stored: string | undefined,
  storedObject?: string,
): DirtyMarks {
  if (quorum === true || stored === undefined || !DECIMAL.test(stored)) return { quorum: true };
  const rv = stored.replace(/^0+/, '');
  const marks: DirtyMarks = rv === '' ? { quorum: false } : { quorum: false, resourceVersion: rv };
  const objectRv =
    storedObject !== undefined && DECIMAL.test(storedObject) ? storedObject.replace(/^0+/, '') : '';
  if (objectRv !== '') marks.objectResourceVersion = objectRv;
  return marks;
}

/** `marks` with `mark` folded in: the in-memory adapter's marks, as the DynamoDB adapter's attributes fold them. */
export function foldMark(marks: DirtyMarks | undefined, mark: DirtyMark): DirtyMarks {
  const stored = mark === 'quorum' ? undefined : storedMarkVersion(mark);
  if (stored === undefined || marks?.quorum === true) return { quorum: true };
  const newer = (held: string | undefined, given: string | undefined) => {
    const padded = held?.padStart(MARK_DIGITS, '0');
    return padded !== undefined && (given === undefined || padded > given) ? padded : given;
  };
  return marksOf(
    false,
    newer(marks?.resourceVersion, stored),
    newer(marks?.objectResourceVersion, storedObjectMarkVersion(mark)),
  );
}
