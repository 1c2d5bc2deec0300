/**
 * The reconciled object's GET answered from the invocation's last copy of it (docs/architecture.md#kept-object). Every
 * pass reads its object first (a CloneSet, an Advanced StatefulSet) by a quorum GET; an invocation that holds the lease
 * through many passes (a scale-up: one pass for each batch of pod events it is woken by) read the same object again in
 * each, one request per pass where an informer-fed controller (OpenKruise) reads its cache. So within one invocation
 * the object is kept — as the last GET answered it, or as the last write of it answered (a status PUT returns the
 * whole object) — and the next GET is answered with a deep copy while
 * - no dirty mark said the object changed after the kept copy (a change of the object marks the lease with its
 *   resourceVersion, lib/reconcile/reconcile.ts `markOf`; a quorum mark drops the copy too);
 * - the invocation looked at its marks less than {@link KEPT_OBJECT_UNCHECKED_MS} ago (its acquire, a poll of a wait,
 *   a release that found marks): in a run of passes that act without waiting, a pass reads the object again once
 *   that is longer ago, so a change an event has reported is not missed longer than a waiting holder misses it;
 * - the copy came from the API server less than {@link KEPT_OBJECT_TTL_MS} ago: a change whose event was lost is seen
 *   by then, as a LIST floor's quorum read sees what no event reported (./listFloors.ts); and
 * - no write of the object failed since (a 409 says someone else changed it; a write drops the copy before it is
 *   sent and keeps what it answers).
 * A change whose event is still on its way is not seen until it marks the lease: the window an informer's cache has
 * too. Copies are never carried across invocations.
 */
import { compareResourceVersions } from '../core/resourceVersion.js';
import { LIST_FLOOR_TTL_MS } from './listFloors.js';
import { resourceId, type KubeObject, type Resource } from './resource.js';
import type { KubeClient, ObjectRef } from './types.js';
import { wrappedWrites } from './wrappedWrites.js';

/** How long after the API server answered it a kept copy answers GETs, ms: as long as a LIST floor lasts. */
export const KEPT_OBJECT_TTL_MS = LIST_FLOOR_TTL_MS;

/**
 * How long after the invocation last looked at its dirty marks a copy still answers GETs, ms: a holder that waits
 * looks every 250 ms (lib/runtime/handlers/reconcile.ts), one that keeps acting does not look until it waits or
 * releases, so a pass further than this from the last look reads the object again.
 */
export const KEPT_OBJECT_UNCHECKED_MS = 250;

/**
 * What the dirty marks an invocation took say of its reads (lib/state/ports.ts `DirtyMarks`, which has this shape):
 * read everything by quorum, or the newest change of the reconciled object itself that was marked.
 */
export interface ObjectMarks {
  quorum: boolean;
  objectResourceVersion?: string;
}

/** The copy kept: the object and when the API server answered it (clock, epoch ms). */
interface Copy {
  object: KubeObject;
  atMs: number;
}

/** One invocation's copy of its reconciled object; made when the invocation starts, dropped with it. */
export class KeptObject {
  #copy: Copy | undefined;
  /** When the invocation last looked at its dirty marks (clock, epoch ms). */
  #checkedAtMs: number;
  /** Counts drops: a GET begun before one is not kept. */
  #drops = 0;

  /** @param checkedAtMs when the invocation's marks were last looked at: its acquire, which clears them */
  constructor(checkedAtMs: number) {
    this.#checkedAtMs = checkedAtMs;
  }

  /** Drops counted so far (a GET passes it to {@link KeptObject.keep}). */
  get drops(): number {
    return this.#drops;
  }

  /**
   * A deep copy of the kept object at `nowMs`, while within {@link KEPT_OBJECT_TTL_MS} of its answer and within
   * {@link KEPT_OBJECT_UNCHECKED_MS} of the last look at the marks.
   * @returns undefined when none is kept, it is too old, or the marks were looked at too long ago
   */
  reuse(nowMs: number): KubeObject | undefined {
    const copy = this.#copy;
    if (copy === undefined || nowMs - copy.atMs >= KEPT_OBJECT_TTL_MS) return undefined;
    if (nowMs - this.#checkedAtMs > KEPT_OBJECT_UNCHECKED_MS) return undefined;
    return structuredClone(copy.object);
  }

  /**
   * Keep `object`, answered by the API server at `nowMs`, unless a drop came after the request began (`drops` was
   * {@link KeptObject.drops} then; a write's answer passes the current count) or the copy kept is newer.
   */
  keep(object: KubeObject, nowMs: number, drops: number): void {
    if (drops !== this.#drops) return;
    const kept = this.#copy?.object.metadata.resourceVersion;
    const given = object.metadata.resourceVersion;
    if (kept !== undefined && given !== undefined && (compareResourceVersions(given, kept) ?? 0) < 0) return;
    this.#copy = { object: structuredClone(object), atMs: nowMs };
  }

  /** Drop the copy: a write of the object is about to be sent, or the object is gone. */
  drop(): void {
    this.#copy = undefined;
    this.#drops++;
  }

  /** The invocation looked at its dirty marks at `nowMs` (whether it found any). */
  checked(nowMs: number): void {
    this.#checkedAtMs = Math.max(this.#checkedAtMs, nowMs);
  }

  /**
   * Take the dirty marks an invocation took ({@link ObjectMarks}): a quorum mark drops the copy, and so does a change of
   * the object newer than the copy (or one that cannot be ordered against it).
   */
  afterMarks(marks: ObjectMarks): void {
    if (this.#copy === undefined) return;
    if (marks.quorum) return this.drop();
    const marked = marks.objectResourceVersion;
    if (marked === undefined) return;
    const kept = this.#copy.object.metadata.resourceVersion;
    if (kept === undefined || (compareResourceVersions(kept, marked) ?? -1) < 0) this.drop();
  }
}

/** Whether `a` (a reference, or an object's metadata) names the object `b` does. */
function sameRef(a: { name?: string; namespace?: string }, b: ObjectRef): boolean {
  return a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');
}

/**
 * One pass's client: `kube` with its first GET of `ref` in `resource` answered from `kept` ({@link KeptObject}) when
 * it holds a copy, else read (through `kube`) and kept. Any later GET of it in the same pass is read (and kept): a
 * second read inside a pass is a deliberate re-check (lib/reconcile/pods/ownerRecheck.ts before an adoption, a
 * re-read after a conflict), which a copy would defeat. Every write of `resource` drops the copy before it is sent; a
 * create, replace or patch of `ref` keeps what it answers, a delete nothing (its answer may be the object it
 * removed). Everything else is passed through unchanged.
 * @param clock epoch ms
 * @throws what the underlying client throws
 */
export function keepingKube(
  kube: KubeClient,
  kept: KeptObject,
  resource: Resource,
  ref: ObjectRef,
  clock: () => number,
): KubeClient {
  const id = resourceId(resource);
  const isKept = (r: Resource) => resourceId(r) === id;
  // a write's answer that is the kept object itself (not a Status, not another object)
  const isRef = (o: KubeObject | undefined): o is KubeObject =>
    o !== undefined && o.kind !== 'Status' && o.metadata !== undefined && sameRef(o.metadata, ref);
  let first = true;
  async function get<T extends KubeObject>(asked: Resource<T>, at: ObjectRef): Promise<T | undefined> {
    if (!isKept(asked) || !sameRef(at, ref)) return kube.get(asked, at);
    const copy = first ? kept.reuse(clock()) : undefined;
    first = false;
    if (copy !== undefined) return copy as T;
    const drops = kept.drops;
    const got = await kube.get(asked, at);
    if (got === undefined) kept.drop();
    else kept.keep(got, clock(), drops);
    return got;
  }
  const client = wrappedWrites(
    kube,
    async (written, send) => {
      if (!isKept(written)) return send();
      kept.drop();
      const answer = await send();
      const object = answer as KubeObject | undefined;
      if (isRef(object)) kept.keep(object, clock(), kept.drops);
      return answer;
    },
    { get },
  );
  return {
    ...client,
    delete: (written, at, preconditions, options) => {
      if (isKept(written)) kept.drop();
      return kube.delete(written, at, preconditions, options);
    },
  };
}
