/**
 * The ports of the state layer: what the reconciler and the watch pump need from durable state, independent of
 * where it lives. Adapters: `dynamo/` (the DynamoDB table, production and the embedded default) and `memory.ts`
 * (one in-process map, for unit tests). The protocol they share is described in docs/architecture.md ("State").
 */
import type { ObjectKey } from '../core/objectKey.js';

/** A lease held by one reconciler invocation (docs/architecture.md#lease). */
export interface Lease {
  key: ObjectKey;
  /** Unique per invocation, e.g. the Lambda request id. */
  holder: string;
  /** Fencing token: strictly greater than every earlier token of this key. */
  token: number;
  /** End of the lease, epoch ms. */
  expiresAt: number;
}

/**
 * Outcome of {@link LeaseStore.acquire}. `failures`: the consecutive failed reconcile passes the last release
 * stored on the lease item (docs/reliability.md#backoff), 0 when none was stored. `eventCorrelation`: the text the
 * last release stored ({@link ReleaseOptions.eventCorrelation}), absent when none is. `listFloors`: the text the
 * last release stored ({@link ReleaseOptions.listFloors}), only when that release freed the lease this acquire takes
 * (never after a takeover: a holder that died may have seen more than its predecessor stored).
 */
export type AcquireResult =
  | { acquired: true; lease: Lease; failures: number; eventCorrelation?: string; listFloors?: string }
  | { acquired: false; heldBy: string; /** epoch ms */ expiresAt: number };

/**
 * The lease port (docs/architecture.md#lease). Choose the duration longer than the function timeout plus a margin, so a
 * holder cannot outlive its lease without noticing (assumes NTP-synced clocks).
 */
export interface LeaseStore {
  /**
   * Take the lease if it is free (never taken, released, or `expiresAt <= nowMs`) or already ours; the token
   * increments on every acquire and `dirty` is reset (the caller reads the world after this call). If the
   * previous lease was not released (a takeover), the `expectations` and `scaledown` fences are raised to the
   * new token, so the previous holder's later writes fail with FencedOutError.
   * If another live holder has it, set its `dirty` flag (so the holder re-runs before releasing), add `mark` to the
   * marks the holder takes with the flag ({@link DirtyMark}, {@link DirtyMarks}) and return `acquired: false`.
   * @param durationMs lease length in ms, > 0
   * @param nowMs the caller's clock, epoch ms
   * @throws StateStoreError on DynamoDB failures
   * @throws InvalidStateKeyError when the key has an empty part or a part containing `#`
   */
  acquire(
    key: ObjectKey,
    holder: string,
    durationMs: number,
    nowMs: number,
    mark?: DirtyMark,
  ): Promise<AcquireResult>;
  /**
   * Extend the lease to `nowMs + durationMs` (epoch ms). A lease that expired but was not taken over is still the
   * holder's (its token did not move) and is extended; a released one is not revived.
   * @returns the lease with the new `expiresAt`
   * @throws FencedOutError if the lease was taken over (token or holder changed) or released
   * @throws StateStoreError on DynamoDB failures
   */
  renew(lease: Lease, durationMs: number, nowMs: number): Promise<Lease>;
  /**
   * Release only if `dirty` is false → `'released'`. If `dirty` is true: clear it and its marks (conditional on our
   * token, one write that answers the marks it cleared, handed to `options.onMarks`) and return `'dirty'`: the
   * caller must reconcile again before releasing, so no event is lost.
   * @param failures when given, stored on the lease item in the same write (either outcome) as the consecutive
   *   failed passes the next {@link acquire} returns (docs/reliability.md#backoff); when omitted the stored count
   *   is kept. An integer ≥ 0.
   * @param options `requeued: true` releases whatever `dirty` says ({@link ReleaseOptions})
   * @throws FencedOutError if the lease was taken over
   * @throws StateStoreError on DynamoDB failures
   */
  release(lease: Lease, failures?: number, options?: ReleaseOptions): Promise<'released' | 'dirty'>;
  /**
   * Whether another invocation marked the lease dirty since it was taken (or since the last call that returned
   * marks); when it did, clear the flag and its marks (conditional on our token) and return what the marks say
   * ({@link DirtyMarks}): the caller must then read the world again, as after a `'dirty'` {@link release}, and that
   * read covers every mark so far. Lets a holder waiting inside its invocation wake for an event instead of sleeping
   * out the wait (docs/reliability.md#lease-hand-off). One strongly consistent read, plus one conditional write only
   * when the flag is set.
   * @returns `false` when not marked
   * @throws FencedOutError if the lease was taken over (token or holder changed)
   * @throws StateStoreError on DynamoDB failures
   */
  takeDirty(lease: Lease): Promise<DirtyMarks | false>;
}

/**
 * What an invocation that found the lease held says its change needs of the holder's next reads
 * (docs/architecture.md#list-floors): `quorum` — a change without a resourceVersion (a resync, a request without
 * one): read by quorum; `{ resourceVersion }` — a change of an owned or mapped object at that resourceVersion (etcd's
 * decimal revision): the next LISTs must be at least that new; `{ objectResourceVersion }` — a change of the reconciled
 * object itself at that resourceVersion: nothing the LISTs must reach, but the holder's kept copy of the object, if
 * older, is read again (docs/architecture.md#kept-object); `none` — nothing (a timer).
 */
export type DirtyMark = 'quorum' | 'none' | { resourceVersion: string } | { objectResourceVersion: string };

/**
 * The marks taken with a dirty flag, folded: `quorum` when any mark was one (or a mark written by a version that
 * wrote none), else the newest `resourceVersion` among them, if any, and the newest `objectResourceVersion`, if any.
 */
export interface DirtyMarks {
  quorum: boolean;
  resourceVersion?: string;
  /** The newest change of the reconciled object itself that was marked (etcd's decimal revision). */
  objectResourceVersion?: string;
}

/** How {@link LeaseStore.release} treats the dirty flag, and what else it stores on the lease item. */
export interface ReleaseOptions {
  /**
   * The holder's Event correlation state for the next holder, as text the store does not read
   * (lib/kube/eventCorrelation.ts `encodeCorrelation`, docs/reliability.md#event-folding): stored in the same write
   * as the release (either outcome), as `failures` is; `null` removes the stored one; absent keeps it.
   */
  eventCorrelation?: string | null;
  /**
   * The holder's LIST floors for the next holder, as text the store does not read (lib/kube/listFloors.ts
   * `ListFloors.carried`, docs/architecture.md#list-floors): stored in the same write as the release (either
   * outcome); absent removes the stored one, so the next holder never starts from floors older than what this one
   * saw. The next {@link LeaseStore.acquire} returns it only if this release freed the lease.
   */
  listFloors?: string;
  /**
   * The caller has already arranged a requeue that looks at the object after every event marked so far (a
   * scheduled requeue, or a rethrown error the event source retries): release even when `dirty` is set, clearing
   * it, in one write; the result is then always `'released'`. Bounds the release when other invocations keep
   * marking the lease (review finding 18; why no event is lost: docs/reliability.md#lease-hand-off).
   */
  requeued?: boolean;
  /** Called with the marks a `'dirty'` release cleared ({@link DirtyMarks}), before it returns. */
  onMarks?: (marks: DirtyMarks) => void;
}

/** One issued but not yet observed write. */
export interface PendingOp {
  /** Pod (or PVC) name. */
  name: string;
  /** When the write was issued, epoch ms; expectations older than the timeout (5 min) are given up. */
  at: number;
  /** UID of the object, once known (deletes and in-place updates). */
  uid?: string;
  /** resourceVersion returned by the write: observed once the cache is at least this new (in-place updates). */
  resourceVersion?: string;
}

/**
 * A retry delay a controller keeps for one key of an object between passes, as client-go's `flowcontrol.Backoff`
 * keeps one per id in memory (Advanced DaemonSet's failed-pod backoff per node: `failedPodsBackoff`).
 */
export interface BackoffEntry {
  /** What backs off, e.g. `<observedGeneration>/<node name>`. */
  key: string;
  /** The current delay, ms. */
  delayMs: number;
  /** When the delay was last raised, epoch ms. */
  at: number;
}

/**
 * All pending writes of one object (docs/architecture.md#expectations), in the order the caller stored them, and
 * the retry delays its controller keeps ({@link BackoffEntry}): both are read at the start of every pass and written
 * under the same fence, so they share one item.
 */
export interface Expectations {
  creates: PendingOp[];
  deletes: PendingOp[];
  updates: PendingOp[];
  /** Absent when the controller keeps none. */
  backoffs?: BackoffEntry[];
  /**
   * Whether the object may own PVCs: its last complete read of them found some it owns, or it has claim templates
   * that may make some (CloneSet, lib/controllers/cloneset/pass.ts `readWorld`, which skips the LIST when false).
   * Absent: not known (kept by none but the CloneSet's pass, and not by items written before it was), so read.
   */
  ownsClaims?: boolean;
  /**
   * `metadata.uid` of the object these were recorded for (lib/reconcile/pods/expectationsOwner.ts): a later object
   * of the same name reads them as empty. Absent in items written before it was kept, and for an object read without
   * a UID.
   */
  ownerUid?: string;
}

/** The expectations port (docs/architecture.md#expectations). */
export interface ExpectationStore {
  /**
   * Strongly consistent read.
   * @returns the stored expectations; empty lists when the item (or a list) is absent
   * @throws StateStoreError on DynamoDB failures or a malformed stored item
   */
  get(key: ObjectKey): Promise<Expectations>;
  /**
   * Replace the whole expectations item, conditioned on fence: stored fence absent or <= `lease.token` (then
   * stores `lease.token`). Record expectations *before* each cluster write (docs/architecture.md#write-order).
   * @throws FencedOutError when a newer lease holder wrote (or took over) the item
   * @throws StateStoreError on DynamoDB failures
   */
  put(lease: Lease, expectations: Expectations): Promise<void>;
}

/** One recorded scale-down decision. */
export interface ScaleDownIntent {
  /** Unique id of this decision, chosen by the caller. */
  intentId: string;
  /** When the decision was made, epoch ms. */
  createdAt: number;
  /** The chosen pods, with why each was chosen (e.g. `specified-delete`, `not-ready`). */
  pods: { name: string; uid: string; reason: string }[];
  /**
   * `metadata.generation` of the CloneSet the pods were chosen for: a successor finishes the intent only while the
   * spec is unchanged (docs/architecture.md#ledger). Absent in intents recorded before it was kept.
   */
  generation?: number;
  /**
   * `metadata.uid` of the CloneSet the pods were chosen for: a CloneSet of the same name created later does not
   * finish it. Absent in intents recorded before it was kept.
   */
  ownerUid?: string;
}

/** The scale-down ledger port (docs/architecture.md#ledger). */
export interface ScaleDownLedger {
  /**
   * Strongly consistent read.
   * @returns the recorded intent, or undefined when none is recorded
   * @throws StateStoreError on DynamoDB failures or a malformed stored item
   */
  get(key: ObjectKey): Promise<ScaleDownIntent | undefined>;
  /**
   * Record (replace) the intent, fenced like {@link ExpectationStore.put}.
   * @throws FencedOutError when a newer lease holder wrote (or took over) the item
   * @throws StateStoreError on DynamoDB failures
   */
  record(lease: Lease, intent: ScaleDownIntent): Promise<void>;
  /**
   * Remove the intent, only if the stored `intentId` matches; otherwise (another intent, or none) nothing
   * changes and this returns normally, so a retried clear is harmless. The item's fence stays (raised to
   * `lease.token`), so an older holder cannot record afterwards.
   * @throws FencedOutError when a newer lease holder wrote (or took over) the item
   * @throws StateStoreError on DynamoDB failures
   */
  clear(lease: Lease, intentId: string): Promise<void>;
}

/**
 * The resume points of a cluster's watch streams, by stream name (lib/source/watchSpec.ts `WatchStream.resource`:
 * `pods`, `clonesets`, `pods.?<selector>`): the resourceVersion up to which each stream's changes were published.
 */
export type ResumePoints = Readonly<Record<string, string>>;

/**
 * The watch checkpoint port (docs/architecture.md#watch-pump): one pump lease per cluster, whose item keeps the
 * resume point of every stream of the cluster, so a run writes one item per cluster however many streams it follows.
 */
export interface WatchCheckpoints {
  /**
   * Take the cluster's pump lease if free (never taken, released, or `expiresAt <= nowMs`) or already ours.
   * @param durationMs lease length in ms, > 0
   * @param nowMs the caller's clock, epoch ms
   * @returns `acquired: true` with the new fencing token and the stored resume points (`resumePoints` absent when
   *   the item never stored any: see {@link WatchCheckpoints.legacyResumePoint}); `acquired: false` with the current
   *   holder's token when another live pump has it
   * @throws InvalidStateKeyError when the cluster is empty or contains `#`
   * @throws StateStoreError on DynamoDB failures
   */
  acquire(
    cluster: string,
    holder: string,
    durationMs: number,
    nowMs: number,
  ): Promise<{ acquired: boolean; token: number; resumePoints?: ResumePoints }>;
  /**
   * Store the resume points (all of them: the stored set is replaced).
   * @throws FencedOutError when `holder`/`token` no longer own the pump lease
   * @throws StateStoreError on DynamoDB failures
   */
  save(cluster: string, holder: string, token: number, resumePoints: ResumePoints): Promise<void>;
  /**
   * Release the pump lease, storing `resumePoints` in the same write when given.
   * @throws FencedOutError when `holder`/`token` no longer own the pump lease
   * @throws StateStoreError on DynamoDB failures
   */
  release(cluster: string, holder: string, token: number, resumePoints?: ResumePoints): Promise<void>;
  /**
   * The resume point a stream kept in its own item before one item held the whole cluster's (`watch#<resource>`,
   * written by releases before 2026-12-06): read once per stream by a run that finds the cluster's item without
   * resume points, so an upgrade resumes where the last run stopped instead of relisting every stream.
   * @returns undefined when there is none
   * @throws InvalidStateKeyError when the cluster or resource is empty or contains `#`
   * @throws StateStoreError on DynamoDB failures
   */
  legacyResumePoint(cluster: string, resource: string): Promise<string | undefined>;
}
