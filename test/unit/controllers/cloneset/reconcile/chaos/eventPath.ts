/**
 * The randomized test's event path (docs/reliability.md#event-path): the simulated API server's changes become watch
 * events (./watchServer.ts, served over HTTP to the real lib/kube/watch.ts), which real pump runs turn into reconcile
 * requests on the model bus. Each run is what production runs (docs/architecture.md#watch-pump,
 * #cluster-checkpoint): lib/source/pump.ts `pumpCluster` over the cluster's streams, with their relists and
 * reopens, under the cluster's one pump lease in the cluster-level WatchCheckpoints store
 * (test/unit/source/support/checkpoints.ts `MemoryCheckpoints`, the DynamoDB adapter's rules): taken once per run,
 * waiting for the previous run's release (hand-over), every stream's resume point kept in one item, written at most
 * once per checkpoint interval and with the release (lib/source/clusterCheckpoint.ts), and a run whose write finds
 * the lease taken stops all its streams (fencing). The real resync (lib/source/resync.ts) lists the cluster on its
 * 5-minute schedule, and the real admission handler (lib/runtime/handlers/admission.ts, with its coalescer) is
 * called for every change when a scenario has admission on. Pump runs start every minute and end 8 s before their
 * 70 s timeout, as serverless.yml schedules them, so consecutive runs overlap and hand the cluster over. The
 * round's {@link EventFault}s cut, stall and expire watches, kill runs at a write of their resume points (Lambda
 * retries a killed run a minute later under its request id, so under its lease holder), start overlapping runs,
 * add or miss resync ticks, and flood or fail the admission webhook. Checks: no write of the resume points (a save
 * or the release) has a stream's point past a change of a reconciled object that no pump run published after it
 * (at-least-once, lib/source/pump.ts `pumpStream`), and every change is published eventually (the settle's
 * quiescence waits for it). The pump's waits (its hand-over poll, reopen backoff, flushes and the checkpoint's
 * interval writes) run on the simulation's clock through the `timer` it is given, never on real timers, and each
 * step waits until every run is parked (in a watch, waiting on that clock for the lease or a reopen, or done), so a
 * seed replays the same run. Test-only.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { JsonObject, ObjectMeta } from '../../../../../../lib/api/types.js';
import { cloneSetKind } from '../../../../../../lib/controllers/cloneset/kind.js';

/** The simulated cluster serves CloneSets only: the event path is built over CloneSet's registration alone. */
const CONTROLLER_KINDS = [cloneSetKind];
import { silentLogger } from '../../../../../../lib/core/logger.js';
import type { KubeClient } from '../../../../../../lib/kube/types.js';
import {
  coalesce,
  type EventPublisher,
  type ReconcileRequest,
} from '../../../../../../lib/requests/index.js';
import { admissionHandler } from '../../../../../../lib/runtime/handlers/admission.js';
import type { Runtime } from '../../../../../../lib/runtime/types.js';
import { clusterPathSecret } from '../../../../../../lib/source/admissionSecret.js';
import type { Timer } from '../../../../../../lib/core/deadline.js';
import { pumpCluster, type ClusterPumpDeps } from '../../../../../../lib/source/pump.js';
import { resyncCluster } from '../../../../../../lib/source/resync.js';
import { watchStreams, type WatchStream } from '../../../../../../lib/source/watchSpec.js';
import { FencedOutError, type WatchCheckpoints } from '../../../../../../lib/state/index.js';
import type { ResumePoints } from '../../../../../../lib/state/ports.js';
import { MemoryCheckpoints } from '../../../../source/support/checkpoints.js';
import type { RecordingKube } from '../support/recordingKube.js';
import { ModelWatchServer, type LoggedEvent } from './watchServer.js';
import type { EventFault } from './scenario.js';

/** serverless.yml's watch function: every minute, 70 s timeout; lib/runtime/handlers/watch.ts's margins. */
const WATCH_EVERY_MS = 60_000;
const WATCH_TIMEOUT_MS = 70_000;
const DEADLINE_MARGIN_MS = 8_000;
const LEASE_SLACK_MS = 5_000;
/** The resync's schedule (serverless.yml: every 5 minutes). */
const RESYNC_MS = 300_000;
/** Lambda retries a failed asynchronous invocation twice, the first retry about a minute later. */
const MAX_RETRIES = 2;
const RETRY_AFTER_MS = 60_000;
/** lib/runtime/handlers/watch.ts's least time between two writes of the cluster's resume points, ms. */
const CHECKPOINT_INTERVAL_MS = 10_000;
/** Objects per page of a relist: small, so a relist of a dozen pods takes several pages. */
const RELIST_PAGE_SIZE = 3;
/** Longest real time a step waits for the pump runs to park, ms (then a violation: a run is stuck). */
const QUIESCE_REAL_MS = 10_000;
const MASTER = 'chaos-admission-master';

/** A deliberate defect of the event path, to show its checks catch it (./eventMutants.ts). */
export type EventMutantKind =
  /**
   * The pump saves its checkpoint before it publishes what the checkpoint covers: a run's publishes are deferred to
   * its next write of the cluster's resume points (an interval's save or the release).
   */
  | 'checkpointBeforePublish'
  /** The resync lists nothing (a scope that misses the cluster's objects). */
  | 'resyncListsNothing'
  /** A registration without its `Owns` watch of pods and PVCs: the pump publishes no `OwnedObjectChanged`. */
  | 'ownsWatchDropped';

/** What the event path needs from the simulation. */
export interface EventHost {
  kube: RecordingKube;
  now(): number;
  /** Put requests on the model bus, due now (they go through the round's bus faults). */
  enqueue(requests: readonly ReconcileRequest[]): void;
  violation(what: string): void;
  fired(kind: string): void;
}

/** One stream of one pump run. */
interface RunStream {
  stream: WatchStream;
  /** Its result or failure is final (`pumpCluster`'s `onStream`): it does nothing more in the run. */
  ended: boolean;
  /** Simulated epoch ms until which it waits before it is reopened (after a failure), if it does. */
  reopenAt?: number;
}

/** One pump run (one watch invocation: one `pumpCluster` over the cluster's streams). */
interface PumpRun {
  id: string;
  holder: string;
  deadlineMs: number;
  abort: AbortController;
  dead: boolean;
  /**
   * Dies at its next write of the cluster's resume points (an interval's save, or the release that carries them):
   * after applying it (`true`) or before (`false`).
   */
  killAtSave?: boolean;
  retries: number;
  streams: RunStream[];
  /** It holds the cluster's pump lease (its acquire succeeded); its streams run. */
  acquired: boolean;
  /** Its last acquire was refused: it polls again on its handover timer. */
  refused: boolean;
  /** `pumpCluster` has returned (or failed): the run did its release, or is dead. */
  done: boolean;
  settled: Promise<unknown>;
  /** Requests the `checkpointBeforePublish` mutant holds until the run's next write of its resume points. */
  held: ReconcileRequest[];
}

/** A wait of a pump run on the simulated clock (the `timer` the pump is given). */
interface SimTimer {
  run: PumpRun;
  /** Simulated epoch ms at which it fires. */
  due: number;
  /** Order of creation: timers due at the same time fire in it. */
  seq: number;
  fn: () => void;
}

/** A change of a reconciled object not yet published by the pump. */
interface PendingChange {
  rv: number;
  path: string;
  key: string;
  seq: number;
  what: string;
}

const SILENT = new Logger({ logLevel: 'SILENT' });

class KilledError extends Error {
  constructor() {
    super('the pump run was killed');
    this.name = 'KilledError';
  }
}

/** The event path of one simulation. */
export class EventPath {
  private readonly server = new ModelWatchServer();
  /** The cluster-level checkpoint store every run shares (one lease and one item of resume points per cluster). */
  readonly checkpoints: MemoryCheckpoints;
  private readonly streams = watchStreams(CONTROLLER_KINDS);
  private readonly runs: PumpRun[] = [];
  private runCount = 0;
  private nextRunAt: number;
  private readonly retries: { at: number; holder: string; retries: number }[] = [];
  private lastResync: number;
  /** When the resync last ran (epoch ms of the simulated clock; the path's start before the first). */
  get lastResyncAt(): number {
    return this.lastResync;
  }
  /** The watched objects as last observed, by stream path, then name. */
  private readonly seen = new Map<string, Map<string, JsonObject>>();
  private pending: PendingChange[] = [];
  private seq = 0;
  /** The runs' pending waits on the simulated clock, fired by {@link quiesce} once the clock reaches them. */
  private timers: SimTimer[] = [];
  private timerSeq = 0;
  /** Calls that change the state of a run (not a refused acquire): the quiescence check's fixpoint. */
  private activity = 0;
  /** Wakes {@link quiesce}'s wait: a run called something, a watch was parked, a stream ended. */
  private wake: () => void = () => undefined;
  private readonly admission: ReturnType<typeof admissionHandler> | undefined;

  /**
   * @param admission whether the admission webhook is configured (every observed change is sent to it)
   * @param mutant a deliberate defect (./eventMutants.ts)
   */
  constructor(
    private readonly host: EventHost,
    admission: boolean,
    private readonly mutant?: EventMutantKind,
  ) {
    this.checkpoints = new MemoryCheckpoints(() => host.now());
    this.server.onChange = () => this.wake();
    this.nextRunAt = host.now();
    this.lastResync = host.now();
    for (const s of this.streams) this.seen.set(s.path, new Map());
    if (admission) {
      const runtime = {
        admissionSecret: () => Promise.resolve(MASTER),
        publisher: this.publisherFor(undefined),
      } as unknown as Runtime;
      this.admission = admissionHandler(() => runtime, SILENT, CONTROLLER_KINDS, { now: () => host.now() });
    }
  }

  async start(): Promise<void> {
    await this.server.start();
  }

  /** Changes of reconciled objects no pump run has published yet. */
  unpublished(): number {
    return this.pending.length;
  }

  // ── the cluster's changes ─────────────────────────────────────────────────────────────────────────────

  /** The reconciled object a watched object's change concerns, as `<namespace>/<name>`, if any. */
  private keyOf(stream: WatchStream, o: JsonObject): string | undefined {
    const meta = (o.metadata ?? {}) as ObjectMeta;
    if (stream.consumers.some((c) => c.spec.type === 'For')) return `${meta.namespace}/${meta.name}`;
    const ref = (meta.ownerReferences ?? []).find((r) => r.controller);
    if (!ref || ref.kind !== 'CloneSet' || !ref.apiVersion.startsWith('apps.kruise.io/')) return undefined;
    return `${meta.namespace}/${ref.name}`;
  }

  /** Diff the watched collections against the last observation and log each change as a watch event. */
  private async observe(admissionFaults: readonly EventFault[]): Promise<void> {
    const kube = this.host.kube;
    const changes: { stream: WatchStream; event: LoggedEvent; old?: JsonObject }[] = [];
    for (const stream of this.streams) {
      const seen = this.seen.get(stream.path)!;
      const now = new Map<string, JsonObject>();
      for (const [name, o] of kube.objects(stream.watched)) now.set(name, o as unknown as JsonObject);
      for (const [name, o] of now) {
        const old = seen.get(name);
        const rv = Number((o.metadata as ObjectMeta).resourceVersion);
        if (old && Number((old.metadata as ObjectMeta).resourceVersion) === rv) continue;
        const object = structuredClone(o);
        changes.push({
          stream,
          event: { rv, path: stream.path, type: old ? 'MODIFIED' : 'ADDED', object },
          ...(old ? { old } : {}),
        });
        seen.set(name, object);
      }
      for (const [name, old] of seen)
        if (!now.has(name)) {
          seen.delete(name);
          changes.push({ stream, event: { rv: 0, path: stream.path, type: 'DELETED', object: old }, old });
        }
    }
    // deletions get a new resourceVersion, after every other change (etcd's revision of the delete)
    for (const c of changes)
      if (c.event.type === 'DELETED') {
        c.event.rv = Number(kube.advanceResourceVersion());
        c.event.object = {
          ...c.event.object,
          metadata: { ...(c.event.object.metadata as JsonObject), resourceVersion: String(c.event.rv) },
        };
      }
    changes.sort((a, b) => a.event.rv - b.event.rv);
    for (const { stream, event } of changes) {
      this.server.log.push(event);
      const key = this.keyOf(stream, event.object);
      const meta = event.object.metadata as ObjectMeta;
      if (key)
        this.pending.push({
          rv: event.rv,
          path: stream.path,
          key,
          seq: ++this.seq,
          what: `${event.type} ${stream.watched.kind} ${meta.name} rv ${event.rv}`,
        });
    }
    this.server.latestRv = Number(kube.currentResourceVersion());
    if (this.admission) await this.callAdmission(changes, admissionFaults);
  }

  /** The admission webhook's calls for the observed changes (failurePolicy Ignore: a failed call changes nothing). */
  private async callAdmission(
    changes: { stream: WatchStream; event: LoggedEvent; old?: JsonObject }[],
    faults: readonly EventFault[],
  ): Promise<void> {
    if (faults.some((f) => f.on === 'admission' && f.kind === 'down')) {
      if (changes.length > 0) this.host.fired('admission down');
      return;
    }
    const flood = faults.find((f) => f.on === 'admission' && f.kind === 'flood');
    const copies = flood?.on === 'admission' && flood.kind === 'flood' ? flood.copies : 1;
    if (flood && changes.length > 0) this.host.fired('admission flood');
    const path = `/${clusterPathSecret(MASTER, 'chaos')}/chaos`;
    let uid = 0;
    for (const { stream, event, old } of changes)
      for (let i = 0; i < copies; i++) {
        const meta = event.object.metadata as ObjectMeta;
        const review = {
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          request: {
            uid: `adm-${this.seq}-${++uid}`,
            kind: { group: stream.watched.group, version: stream.watched.version, kind: stream.watched.kind },
            namespace: meta.namespace,
            operation: event.type === 'ADDED' ? 'CREATE' : event.type === 'DELETED' ? 'DELETE' : 'UPDATE',
            object: event.type === 'DELETED' ? null : event.object,
            oldObject: old ?? null,
          },
        };
        const r = await this.admission!({
          rawPath: path,
          body: JSON.stringify(review),
          isBase64Encoded: false,
        });
        if (typeof r === 'string' || r.statusCode !== 200)
          this.host.violation(`admission answered ${JSON.stringify(r)}`);
      }
  }

  // ── pump runs ─────────────────────────────────────────────────────────────────────────────────────────

  /** The publisher of a pump run (or, for `undefined`, of the admission source and the resync). */
  private publisherFor(run: PumpRun | undefined): EventPublisher {
    return {
      publish: async (requests) => {
        if (run?.dead) throw new KilledError();
        this.touch();
        let batch = coalesce(requests);
        if (run && this.mutant === 'ownsWatchDropped')
          batch = batch.filter((r) => r.reason !== 'OwnedObjectChanged');
        if (run && this.mutant === 'checkpointBeforePublish') {
          run.held.push(...batch);
          return { published: batch.length, calls: 1, retried: 0 };
        }
        this.deliver(run, batch);
        return { published: batch.length, calls: 1, retried: 0 };
      },
    };
  }

  /** Put `batch` on the bus; a pump run's publish covers every earlier change of its keys. */
  private deliver(run: PumpRun | undefined, batch: readonly ReconcileRequest[]): void {
    if (batch.length === 0) return;
    this.host.enqueue(batch);
    if (!run) return;
    const seq = ++this.seq;
    const keys = new Set(batch.map((r) => `${r.namespace}/${r.name}`));
    this.pending = this.pending.filter((p) => !(keys.has(p.key) && p.seq < seq));
  }

  /**
   * A pump run's view of the cluster's checkpoint store: notes whether it holds the lease or waits for it, checks the
   * resume point of every stream in each write of them (E1: a save, or the release that carries them), dies at such
   * a write when a `kill` fault says so, counts the writes that find the lease another run's, and refuses everything
   * once the run is dead.
   */
  private checkpointsFor(run: PumpRun): WatchCheckpoints {
    const real = this.checkpoints;
    const gate = (): void => {
      if (run.dead) throw new KilledError();
    };
    /** One write of the run's resume points, `apply` being the store's. */
    const write = async (points: ResumePoints, apply: () => Promise<void>): Promise<void> => {
      if (run.killAtSave === false) this.kill(run, 'before its checkpoint save');
      this.checkResumePoints(run, points);
      try {
        await apply();
      } catch (e) {
        if (e instanceof FencedOutError) this.host.fired('pump fenced out');
        throw e;
      }
      if (run.held.length > 0) this.deliver(run, run.held.splice(0));
      if (run.killAtSave === true) this.kill(run, 'after its checkpoint save');
    };
    return {
      acquire: async (cluster, holder, durationMs, nowMs) => {
        gate();
        run.refused = false;
        const r = await real.acquire(cluster, holder, durationMs, nowMs);
        if (r.acquired) {
          run.acquired = true;
          this.touch();
        } else {
          // not activity: a run waiting for the lease polls it once a step, and the step's fixpoint must come
          run.refused = true;
          this.wake();
        }
        return r;
      },
      save: async (cluster, holder, token, points) => {
        gate();
        this.touch();
        await write(points, () => real.save(cluster, holder, token, points));
      },
      release: async (cluster, holder, token, points) => {
        gate();
        this.touch();
        if (points === undefined) return real.release(cluster, holder, token);
        await write(points, () => real.release(cluster, holder, token, points));
      },
      legacyResumePoint: async (cluster, resource) => {
        gate();
        return real.legacyResumePoint(cluster, resource);
      },
    };
  }

  /**
   * E1 for one write of a run's resume points: no stream's point is at or past a change of that stream that no pump
   * run published after it happened.
   */
  private checkResumePoints(run: PumpRun, points: ResumePoints): void {
    for (const [resource, resourceVersion] of Object.entries(points)) {
      const path = this.streams.find((s) => s.resource === resource)?.path;
      const rv = Number(resourceVersion);
      for (const p of this.pending)
        if (p.path === path && p.rv <= rv) {
          this.host.violation(
            `pump ${run.holder} saved the ${resource} checkpoint at rv ${rv} past ${p.what}, which no pump run published after it`,
          );
          this.pending = this.pending.filter((x) => x !== p);
        }
    }
  }

  /**
   * The run's process is gone: nothing it calls reaches anyone, its streams stop (its signal is aborted, so that it
   * ends within the step; what it still calls fails), its lease stays until it runs out; Lambda retries it under its
   * request id.
   */
  private kill(run: PumpRun, when: string): never {
    run.dead = true;
    run.killAtSave = undefined;
    this.server.kill(run.id);
    this.host.fired(`pump killed ${when}`);
    if (run.retries < MAX_RETRIES)
      this.retries.push({
        at: this.host.now() + RETRY_AFTER_MS,
        holder: run.holder,
        retries: run.retries + 1,
      });
    run.abort.abort();
    throw new KilledError();
  }

  /** The cluster client of a run: relist LISTs and mapped reads, refused once the run is dead. */
  private kubeFor(run: PumpRun): Pick<KubeClient, 'get' | 'list'> {
    const kube = this.host.kube;
    return {
      get: (resource, ref) => (run.dead ? Promise.reject(new KilledError()) : kube.get(resource, ref)),
      list: (resource, options) =>
        run.dead ? Promise.reject(new KilledError()) : kube.list(resource, options),
    };
  }

  /**
   * The run's timer (the pump's `timer`: its handover poll, reopen backoff, flushes and checkpoint writes): a wait
   * fires when the simulated clock has reached it, in {@link quiesce}, never on its own.
   */
  private timerFor(run: PumpRun): Timer {
    return (fn, ms) => {
      const t: SimTimer = { run, due: this.host.now() + ms, seq: ++this.timerSeq, fn };
      this.timers.push(t);
      this.wake();
      return () => {
        this.timers = this.timers.filter((x) => x !== t);
      };
    };
  }

  /**
   * Fire the earliest wait the simulated clock has reached (by due time, then creation), if any.
   * @returns whether one fired
   */
  private fireDue(): boolean {
    const now = this.host.now();
    let next: SimTimer | undefined;
    for (const t of this.timers)
      if (t.due <= now && (!next || t.due < next.due || (t.due === next.due && t.seq < next.seq))) next = t;
    if (!next) return false;
    const fired = next;
    this.timers = this.timers.filter((x) => x !== fired);
    this.touch();
    fired.fn();
    return true;
  }

  /** Start a pump run now (a scheduled watch invocation) under `holder`: `pumpCluster` over the cluster's streams. */
  private startRun(holder: string, retries = 0): void {
    const id = `r${++this.runCount}`;
    const now = this.host.now();
    const run: PumpRun = {
      id,
      holder,
      deadlineMs: now + WATCH_TIMEOUT_MS - DEADLINE_MARGIN_MS,
      abort: new AbortController(),
      dead: false,
      retries,
      streams: this.streams.map((stream) => ({ stream, ended: false })),
      acquired: false,
      refused: false,
      done: false,
      settled: Promise.resolve(),
      held: [],
    };
    this.touch();
    this.runs.push(run);
    const deps: ClusterPumpDeps = {
      cluster: 'chaos',
      kc: this.server.kubeConfig(id),
      kube: this.kubeFor(run),
      watches: this.checkpointsFor(run),
      publisher: this.publisherFor(run),
      holder,
      clock: () => this.host.now(),
      deadlineMs: run.deadlineMs,
      leaseDurationMs: WATCH_TIMEOUT_MS + LEASE_SLACK_MS,
      watchTimeoutSeconds: 50,
      flushIntervalMs: 3_600_000, // flushed at the end of each watch only: the step decides when
      checkpointIntervalMs: CHECKPOINT_INTERVAL_MS,
      relistPageSize: RELIST_PAGE_SIZE,
      log: silentLogger,
      signal: run.abort.signal,
      timer: this.timerFor(run),
      onStream: (resource, pause) => {
        const s = run.streams.find((x) => x.stream.resource === resource);
        if (!s) return;
        if (pause.state === 'ended') s.ended = true;
        else {
          s.reopenAt = this.host.now() + pause.inMs;
          if (!run.dead) this.host.fired('pump stream reopened');
        }
        this.touch();
      },
    };
    run.settled = pumpCluster(deps, this.streams)
      .then(
        (results) => {
          // a stream out of time for another reopen, or every stream of a run that lost the lease
          if (!run.dead) for (const r of results) if (r.error) this.host.fired('pump stream failed');
        },
        (e: unknown) => {
          if (!(e instanceof KilledError) && !run.dead) this.host.fired('pump run failed');
        },
      )
      .finally(() => {
        run.done = true;
        this.timers = this.timers.filter((t) => t.run !== run);
        this.touch();
      });
  }

  /** Count a call that changes a run's state, and wake the wait for quiescence. */
  private touch(): void {
    this.activity++;
    this.wake();
  }

  /**
   * Whether every run is parked, with no wait of any run due: done; waiting for the lease (refused, its handover
   * poll pending on the simulated clock); or holding it with each stream in a watch, waiting to be reopened, or
   * ended (not all of them ended: then its release is under way).
   */
  private quiet(): boolean {
    const now = this.host.now();
    if (this.timers.some((t) => t.due <= now)) return false;
    return this.runs.every((run) => {
      if (run.done) return true;
      if (!run.acquired) return run.refused && this.timers.some((t) => t.run === run);
      if (run.streams.every((s) => s.ended)) return false;
      return run.streams.every(
        (s) => s.ended || this.server.isParked(run.id, s.stream.path) || (s.reopenAt ?? 0) > now,
      );
    });
  }

  /**
   * Wait until the runs are parked and a further wait changes nothing (a fixpoint; see {@link quiet}), firing each
   * wait of a run the simulated clock has reached on the way.
   */
  private async quiesce(): Promise<void> {
    const started = Date.now();
    for (;;) {
      const before = this.activity;
      while (!this.quiet()) {
        if (Date.now() - started > QUIESCE_REAL_MS) {
          this.host.violation(`a pump run did not park within ${QUIESCE_REAL_MS} ms`);
          return;
        }
        if (this.fireDue()) {
          // what the wait's end set going (a write, a poll, a reopen) runs before the next look
          await new Promise<void>((resolve) => setImmediate(resolve));
          continue;
        }
        // woken by the next call of a run or park of a watch; the timer only bounds a wait nothing announces
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => resolve(), 20);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = () => undefined;
      }
      if (this.activity === before) break;
    }
    for (let i = this.runs.length - 1; i >= 0; i--) if (this.runs[i].done) this.runs.splice(i, 1);
  }

  // ── one step ──────────────────────────────────────────────────────────────────────────────────────────

  /**
   * One round of the event path, before the round's deliveries: observe the changes (and call the admission
   * webhook), start the runs that are due, end every parked watch (as the round's faults say), end the runs past
   * their deadline, and run the resync when it is due.
   */
  async step(faults: readonly EventFault[], faultsOn: boolean): Promise<void> {
    const f = faultsOn ? faults : [];
    const now = this.host.now();
    await this.observe(f);
    while (this.nextRunAt <= now) {
      this.startRun(`watch-${this.nextRunAt}`);
      this.nextRunAt += WATCH_EVERY_MS;
    }
    for (const r of this.retries.filter((x) => x.at <= now)) {
      this.retries.splice(this.retries.indexOf(r), 1);
      this.host.fired('pump retried');
      this.startRun(r.holder, r.retries);
    }
    for (const x of f)
      if (x.on === 'pump' && x.kind === 'overlap') {
        const newest = this.runs.filter((r) => !r.dead).at(-1);
        this.host.fired(x.sameHolder ? 'pump duplicated' : 'pump overlap');
        this.startRun(x.sameHolder && newest ? newest.holder : `watch-extra-${now}-${this.runCount}`);
      }
    await this.quiesce();
    if (f.some((x) => x.on === 'watch' && x.kind === 'gone')) {
      this.host.fired('watch 410 Gone');
      this.server.compactedBelow = this.server.latestRv;
    }
    for (const x of f)
      if (x.on === 'pump' && x.kind === 'kill') {
        const newest = this.runs.filter((r) => !r.dead).at(-1);
        if (newest) newest.killAtSave = x.applied;
      }
    for (const run of [...this.runs])
      for (const [i, s] of run.streams.entries()) {
        if (!this.server.isParked(run.id, s.stream.path)) continue;
        const stall = f.some((x) => x.on === 'watch' && x.kind === 'stall' && x.stream === i);
        if (stall) {
          this.host.fired('watch stalled');
          continue;
        }
        const cut = f.find((x) => x.on === 'watch' && x.kind === 'cut' && x.stream === i);
        if (cut?.on === 'watch' && cut.kind === 'cut') this.host.fired('watch cut');
        this.server.end(
          run.id,
          s.stream.path,
          cut?.on === 'watch' && cut.kind === 'cut' ? { how: 'cut', after: cut.after } : { how: 'timeout' },
        );
        await this.quiesce();
      }
    for (const run of this.runs) if (!run.abort.signal.aborted && run.deadlineMs <= now) run.abort.abort();
    await this.quiesce();
    await this.resync(f, now);
  }

  /** The resync on its schedule, or at a `tick` fault; a `missed` tick lists nothing (its cluster was skipped). */
  private async resync(f: readonly EventFault[], now: number): Promise<void> {
    const tick = f.some((x) => x.on === 'resync' && x.kind === 'tick');
    const due = now - this.lastResync >= RESYNC_MS;
    if (!tick && !due) return;
    if (due) this.lastResync = now;
    if (due && f.some((x) => x.on === 'resync' && x.kind === 'missed')) {
      this.host.fired('resync missed');
      return;
    }
    if (tick) this.host.fired('resync tick');
    const kube = this.host.kube;
    const lister: Pick<KubeClient, 'list'> =
      this.mutant === 'resyncListsNothing'
        ? {
            list: () => Promise.resolve({ items: [], resourceVersion: kube.currentResourceVersion() }),
          }
        : kube;
    await resyncCluster('chaos', lister, this.publisherFor(undefined), CONTROLLER_KINDS, silentLogger);
  }

  /** End every run (their deadline) and stop the server. */
  async close(): Promise<void> {
    for (const run of this.runs) run.abort.abort();
    await this.quiesce();
    await Promise.all(this.runs.map((r) => r.settled));
    await this.server.close();
  }
}
