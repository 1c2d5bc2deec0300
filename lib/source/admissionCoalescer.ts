/**
 * Coalescing of admission calls per object (docs/architecture.md#admission; review finding 18). The API server calls
 * the webhook once per write, so a rollout's pod status updates make hundreds of calls for one CloneSet within
 * seconds, each of which would be a reconcile invocation and two lease writes. Per container, an object's request is
 * published at once (leading edge), and further ones within `windowMs` are held: the newest held request of an
 * object goes out with the first call after its window (trailing edge, coalesced by lib/requests/coalesce.ts). A
 * held request that no later call carries is delivered by the watch pump and the resync, as every change is. Memory
 * is bounded: at most `maxKeys` objects are remembered; the oldest is evicted first, its held request published with
 * the call that evicts it. Nothing here waits: a call is never delayed. Pure apart from the clock it is given.
 */
import type { Clock } from '../core/clock.js';
import { objectKeyText } from '../core/objectKey.js';
import { coalesce, type ReconcileRequest } from '../requests/index.js';

/** Window in which an object's further admission calls are held, ms (a pump-open watch delivers within ~1 s too). */
export const ADMISSION_COALESCE_WINDOW_MS = 1_000;
/** Objects one container remembers (each entry: a key and at most one held request, well under 1 KiB). */
export const ADMISSION_COALESCE_MAX_KEYS = 10_000;

interface Entry {
  /** When this object's last request was published (epoch ms). */
  publishedAt: number;
  /** The newest request held since then. */
  held?: ReconcileRequest;
}

/** The coalescer's settings. */
export interface AdmissionCoalescerOptions {
  /** ms; default {@link ADMISSION_COALESCE_WINDOW_MS} */
  windowMs?: number;
  /** ≥ 1; default {@link ADMISSION_COALESCE_MAX_KEYS} */
  maxKeys?: number;
  now: Clock;
}

/** One container's admission coalescer. */
export interface AdmissionCoalescer {
  /**
   * What to publish now for one call's `requests`: those of objects outside their window, then the held requests
   * whose window has ended or whose entry was evicted (one request per object, lib/requests/coalesce.ts). Requests
   * of objects inside their window are held instead.
   */
  take(requests: readonly ReconcileRequest[]): ReconcileRequest[];
  /** Records that `requests` (as returned by `take`) were published; a failed publish records nothing. */
  published(requests: readonly ReconcileRequest[]): void;
  /** Objects remembered (≤ maxKeys). */
  size(): number;
}

/**
 * A coalescer. Entries are kept in order of `publishedAt` (a Map re-inserted on publish), so expired and evicted
 * entries are always at the front.
 * @throws RangeError when `maxKeys` < 1 or `windowMs` < 0
 */
export function createAdmissionCoalescer(opts: AdmissionCoalescerOptions): AdmissionCoalescer {
  const windowMs = opts.windowMs ?? ADMISSION_COALESCE_WINDOW_MS;
  const maxKeys = opts.maxKeys ?? ADMISSION_COALESCE_MAX_KEYS;
  if (maxKeys < 1) throw new RangeError(`maxKeys must be ≥ 1, got ${maxKeys}`);
  if (windowMs < 0) throw new RangeError(`windowMs must be ≥ 0, got ${windowMs}`);
  const entries = new Map<string, Entry>();

  return {
    take(requests) {
      const at = opts.now();
      const now: ReconcileRequest[] = [];
      const due: ReconcileRequest[] = [];
      const incoming = coalesce(requests);
      const newKeys = incoming.filter((r) => !entries.has(objectKeyText(r))).length;
      for (const [key, entry] of entries) {
        const expired = entry.publishedAt + windowMs <= at;
        const evict = entries.size + newKeys > maxKeys;
        if (!expired && !evict) break;
        entries.delete(key);
        if (entry.held) due.push(entry.held);
      }
      for (const r of incoming) {
        const entry = entries.get(objectKeyText(r));
        if (entry) entry.held = entry.held ? (coalesce([entry.held, r])[0] ?? r) : r;
        else now.push(r);
      }
      return coalesce([...now, ...due]);
    },
    published(requests) {
      const at = opts.now();
      for (const r of requests) {
        const key = objectKeyText(r);
        entries.delete(key);
        entries.set(key, { publishedAt: at });
      }
    },
    size: () => entries.size,
  };
}
