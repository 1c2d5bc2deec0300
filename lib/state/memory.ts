/**
 * The in-memory adapter of the per-object state ports ({@link LeaseStore}, {@link ExpectationStore},
 * {@link ScaleDownLedger}): the same protocol as the DynamoDB adapter — fencing tokens, the dirty flag, fences raised
 * on a takeover — kept in one `Map`, for the reconciler's unit tests. Nothing is persisted.
 */
import { FencedOutError } from './errors.js';
import { objectKeyString, itemKey, SK } from './itemKeys.js';
import type {
  AcquireResult,
  DirtyMarks,
  ExpectationStore,
  Expectations,
  Lease,
  LeaseStore,
  ScaleDownIntent,
  ScaleDownLedger,
} from './ports.js';
import type { ObjectKey } from '../core/objectKey.js';
import { checkFailures, checkLeaseTiming, foldMark, RELEASED_AT } from './leaseProtocol.js';

interface LeaseRecord {
  holder: string;
  token: number;
  expiresAt: number;
  dirty: boolean;
  /** What the marks since the flag was last cleared say (absent while it is clear). */
  marks?: DirtyMarks;
  failures: number;
  eventCorrelation?: string;
  listFloors?: string;
}

interface Fenced<T> {
  fence: number;
  value?: T;
}

/** The three per-object stores over one in-memory table. */
export interface MemoryStores {
  leases: LeaseStore;
  expectations: ExpectationStore;
  ledger: ScaleDownLedger;
}

/**
 * Builds the in-memory stores. Behaves like the DynamoDB adapter for every call the reconciler makes: a released
 * lease keeps counting tokens; acquiring a lease that was not released (a takeover) raises the fences of the
 * expectations and ledger items so the previous holder's later writes throw {@link FencedOutError}.
 */
export function createMemoryStores(): MemoryStores {
  const leases = new Map<string, LeaseRecord>();
  const expectations = new Map<string, Fenced<Expectations>>();
  const ledger = new Map<string, Fenced<ScaleDownIntent>>();

  const raise = <T>(m: Map<string, Fenced<T>>, pk: string, token: number, force: boolean) => {
    const cur = m.get(pk);
    if (!cur) m.set(pk, { fence: token });
    else if (force || cur.fence < token) cur.fence = token;
  };
  const fencedWrite = <T>(
    m: Map<string, Fenced<T>>,
    op: string,
    sk: string,
    lease: Lease,
    value: T | undefined,
  ) => {
    const pk = objectKeyString(lease.key);
    const cur = m.get(pk);
    if (cur && cur.fence > lease.token)
      throw new FencedOutError(op, itemKey(pk, sk), lease.token, 'a newer lease holder wrote this item');
    m.set(pk, { fence: lease.token, ...(value === undefined ? {} : { value: structuredClone(value) }) });
  };
  const owned = (op: string, lease: Lease): LeaseRecord => {
    const pk = objectKeyString(lease.key);
    const cur = leases.get(pk);
    if (!cur || cur.holder !== lease.holder || cur.token !== lease.token)
      throw new FencedOutError(op, itemKey(pk, SK.lease), lease.token, `holder ${lease.holder}`);
    return cur;
  };

  return {
    leases: {
      async acquire(key: ObjectKey, holder, durationMs, nowMs, mark = 'quorum'): Promise<AcquireResult> {
        checkLeaseTiming('lease.acquire', durationMs, nowMs);
        const pk = objectKeyString(key);
        const old = leases.get(pk);
        if (!old || old.expiresAt <= nowMs || old.holder === holder) {
          const token = (old?.token ?? 0) + 1;
          const expiresAt = nowMs + durationMs;
          const carried = old?.eventCorrelation;
          const floors = old?.expiresAt === RELEASED_AT ? old.listFloors : undefined;
          leases.set(pk, {
            holder,
            token,
            expiresAt,
            dirty: false,
            failures: old?.failures ?? 0,
            ...(carried === undefined ? {} : { eventCorrelation: carried }),
            ...(old?.listFloors === undefined ? {} : { listFloors: old.listFloors }),
          });
          if (!old || old.expiresAt !== RELEASED_AT) {
            raise(expectations, pk, token, !old);
            raise(ledger, pk, token, !old);
          }
          return {
            acquired: true,
            lease: { key: { ...key }, holder, token, expiresAt },
            failures: old?.failures ?? 0,
            ...(carried === undefined ? {} : { eventCorrelation: carried }),
            ...(floors === undefined ? {} : { listFloors: floors }),
          };
        }
        old.dirty = true;
        old.marks = foldMark(old.marks, mark);
        return { acquired: false, heldBy: old.holder, expiresAt: old.expiresAt };
      },
      async renew(lease, durationMs, nowMs) {
        checkLeaseTiming('lease.renew', durationMs, nowMs);
        const cur = owned('lease.renew', lease);
        // a released lease stays free: its holder has returned (the DynamoDB adapter's `#expiresAt <> :released`)
        if (cur.expiresAt === RELEASED_AT)
          throw new FencedOutError(
            'lease.renew',
            itemKey(objectKeyString(lease.key), SK.lease),
            lease.token,
            'the lease was released',
          );
        cur.expiresAt = nowMs + durationMs;
        return { ...lease, key: { ...lease.key }, expiresAt: cur.expiresAt };
      },
      async release(lease, failures, options) {
        if (failures !== undefined) checkFailures('lease.release', failures);
        const cur = owned('lease.release', lease);
        if (failures !== undefined) cur.failures = failures;
        if (options?.eventCorrelation === null) delete cur.eventCorrelation;
        else if (options?.eventCorrelation !== undefined) cur.eventCorrelation = options.eventCorrelation;
        if (options?.listFloors === undefined) delete cur.listFloors;
        else cur.listFloors = options.listFloors;
        const marks = cur.marks ?? { quorum: true };
        delete cur.marks;
        if (cur.dirty && !options?.requeued) {
          cur.dirty = false;
          options?.onMarks?.(marks);
          return 'dirty';
        }
        cur.dirty = false;
        cur.expiresAt = RELEASED_AT;
        return 'released';
      },
      async takeDirty(lease) {
        const cur = owned('lease.takeDirty', lease);
        if (!cur.dirty) return false;
        const marks = cur.marks ?? { quorum: true };
        delete cur.marks;
        cur.dirty = false;
        return marks;
      },
    },
    expectations: {
      async get(key) {
        const e = expectations.get(objectKeyString(key))?.value;
        return e ? structuredClone(e) : { creates: [], deletes: [], updates: [] };
      },
      async put(lease, e) {
        fencedWrite(expectations, 'expectations.put', SK.expectations, lease, e);
      },
    },
    ledger: {
      async get(key) {
        const i = ledger.get(objectKeyString(key))?.value;
        return i ? structuredClone(i) : undefined;
      },
      async record(lease, intent) {
        fencedWrite(ledger, 'ledger.record', SK.scaledown, lease, intent);
      },
      async clear(lease, intentId) {
        const pk = objectKeyString(lease.key);
        const cur = ledger.get(pk);
        if (cur && cur.fence > lease.token)
          throw new FencedOutError(
            'ledger.clear',
            itemKey(pk, SK.scaledown),
            lease.token,
            'a newer lease holder wrote this item',
          );
        if (cur?.value?.intentId !== intentId) return;
        ledger.set(pk, { fence: lease.token });
      },
    },
  };
}
