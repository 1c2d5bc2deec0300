/**
 * One reconcile invocation's view of the world in the randomized fault test: the in-memory API server and state
 * stores behind wrappers that inject this invocation's faults and report every applied write to the checker.
 *
 * These wrappers are mocks of faults that cannot be caused for real in a unit test (a 500 or a lost answer on
 * the n-th write, a 429, a 500 or no answer on the n-th read, a Lambda dying mid-write, DynamoDB throttling or a timeout after the write was applied, a
 * clock that jumps past the lease). Everything else — the API server's preconditions, the lease and fencing
 * protocol of the state stores — is the real in-memory implementation. Test-only.
 */
import type {
  CloneSet,
  ControllerRevision,
  PersistentVolumeClaim,
  Pod,
} from '../../../../../../lib/api/types.js';
import { KubeApiError } from '../../../../../../lib/kube/errors.js';
import { RESOURCES } from '../../../../../../lib/kube/resources.js';
import type {
  KubeClient,
  KubeEvent,
  KubeObject,
  Listed,
  ListOptions,
  ObjectRef,
  Patch,
  PatchOptions,
  Preconditions,
  RecordEventOptions,
  ReplaceOptions,
  Resource,
} from '../../../../../../lib/kube/types.js';
import { StateStoreError } from '../../../../../../lib/state/errors.js';
import type { ExpectationStore, LeaseStore, ScaleDownLedger } from '../../../../../../lib/state/index.js';
import type { ServerVersionInfo } from '../../../../../../lib/kube/version.js';
import {
  STALL_SECONDS,
  type ApiFaultKind,
  type Fault,
  type ReadFaultKind,
  type StoreFaultKind,
} from './scenario.js';
import { CLONESET_RESOURCE } from '../../../../../../lib/controllers/cloneset/api/resource.js';

/** What the invocation reports to the simulation. */
export interface InvocationHost {
  /** The simulated clock, epoch ms. */
  now(): number;
  /** Count a fault that fired. */
  fired(kind: string): void;
  /**
   * Called before an API write is applied; returns a check to run after it was applied. `late`: an in-flight write
   * landing after its sender died, or a write sent when its sender's stall ended (judged by the writes of the pass
   * that follows, not by the spec of now).
   */
  beforeWrite(inv: Invocation, call: WriteCall, late?: boolean): () => void;
  /** The clock jumps past the lease's end and a second invocation starts for the same key. */
  clockJump(): void;
  /** Another invocation (clock ahead) takes the lease over and releases it at once. */
  ghostTakeover(): Promise<void>;
  /** The invocation read the CloneSet (a pass began looking at the world). */
  readCloneSet?(inv: Invocation): void;
  /** A write sent but applied late (`inFlight`): the simulation runs `apply` when it lands. */
  inFlight?(inv: Invocation, apply: () => Promise<void>, call: WriteCall): void;
  /**
   * The invocation stalls before sending a write (`stall`): resolves when the simulation lets it go on, `ms` later.
   * Meanwhile the simulation goes on without it (its `invoke` returns; the rest of its pass is awaited on resume).
   */
  stall?(inv: Invocation, ms: number): Promise<void>;
  /** The invocation listed pods (an in-flight write of another invocation may land now). */
  listedPods?(inv: Invocation): void;
  /** The lagging watch cache that answers this LIST instead of the API server, if any (Scenario.staleLists). */
  cacheFor?(resource: Resource): KubeClient | undefined;
}

/** An API write as the checker sees it. */
export type WriteCall =
  | { verb: 'createPod'; pod: Pod }
  | { verb: 'deletePod'; name: string; uid: string }
  | { verb: 'patchPod'; name: string }
  | { verb: 'other'; what: string };

/** The last world this invocation read (for checking that deletes were planned). */
export interface LastRead {
  cloneSet?: CloneSet;
  pods?: Pod[];
  pvcs?: PersistentVolumeClaim[];
  revisions?: ControllerRevision[];
  at: number;
  /** Bumped on every read; a recomputed plan is cached per value. */
  seq: number;
}

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** One invocation: its faults, its counters, and whether it died. */
export class Invocation {
  apiWrites = 0;
  /** API reads (GET and LIST) so far. */
  apiReads = 0;
  storeCalls = 0;
  crashed = false;
  /**
   * A DynamoDB fault hit the lease acquire or release: the lease may stay with this holder until it runs out (the
   * invocation requeued itself for after it) or another invocation takes it over.
   */
  leaseCallFailed = false;
  /** It stalled once (`stall`); a later stall fault of the same invocation is ignored. */
  stalled = false;
  private onCrash: () => void = () => undefined;
  private onStall: () => void = () => undefined;
  readonly died: Promise<void>;
  /** Resolves when the invocation stalls (`stall`): the simulation goes on without it until it is resumed. */
  readonly suspended: Promise<void>;
  readonly read: LastRead = { at: 0, seq: 0 };

  constructor(
    readonly holder: string,
    private readonly faults: readonly Fault[],
    readonly host: InvocationHost,
  ) {
    this.died = new Promise((resolve) => (this.onCrash = resolve));
    this.suspended = new Promise((resolve) => (this.onStall = resolve));
  }

  /** The invocation stalls (once): its caller stops waiting for it. */
  suspend(): void {
    this.stalled = true;
    this.onStall();
  }

  /** Runs `f` unless the invocation died; a dead invocation's calls never return. */
  async gate<T>(f: () => Promise<T>): Promise<T> {
    if (this.crashed) return never();
    const r = await f();
    if (this.crashed) return never();
    return r;
  }

  crash(): void {
    this.crashed = true;
    this.onCrash();
  }

  apiFault(): ApiFaultKind | undefined {
    return this.apiFaultOf()?.kind;
  }

  /** The API write fault due at this write (counts the write). */
  apiFaultOf(): Extract<Fault, { on: 'api' }> | undefined {
    const n = ++this.apiWrites;
    return this.faults.find((f): f is Extract<Fault, { on: 'api' }> => f.on === 'api' && f.at === n);
  }

  readFault(): ReadFaultKind | undefined {
    const n = ++this.apiReads;
    return this.faults.find((f): f is Extract<Fault, { on: 'read' }> => f.on === 'read' && f.at === n)?.kind;
  }

  storeFault(): StoreFaultKind | undefined {
    const n = ++this.storeCalls;
    return this.faults.find((f): f is Extract<Fault, { on: 'store' }> => f.on === 'store' && f.at === n)
      ?.kind;
  }
}

const API_ERRORS: Partial<Record<ApiFaultKind, [number, string, string]>> = {
  conflict409: [
    409,
    'Conflict',
    'the object has been modified; please apply your changes to the latest version',
  ],
  gone410: [410, 'Gone', 'the resource version is too old'],
  throttled429: [
    429,
    'TooManyRequests',
    'the server has received too many requests and has asked us to try again later',
  ],
  internal500: [500, 'InternalError', 'etcd is unavailable'],
};

/** A read fault as the HTTP layer reports it once its retries are spent: status, reason, message. */
const READ_ERRORS: Record<ReadFaultKind, [number, string, string]> = {
  throttled429: [
    429,
    'TooManyRequests',
    'the server has received too many requests and has asked us to try again later',
  ],
  internal500: [500, 'InternalError', 'etcd is unavailable'],
  networkError: [0, 'NetworkError', 'socket hang up'],
};

/** The same resource (group and plural). */
const is = (a: Resource, b: Resource): boolean => a.group === b.group && a.plural === b.plural;

/** The pod writes the checker examines (pod count and availability bounds); every other write is `other`. */
function writeCall(
  verb: 'create' | 'replace' | 'patch' | 'delete',
  resource: Resource,
  object: {
    pod?: Pod;
    name: string;
    uid?: string;
  },
): WriteCall {
  if (!is(resource, RESOURCES.pods)) return { verb: 'other', what: resource.plural };
  if (verb === 'create' && object.pod) return { verb: 'createPod', pod: object.pod };
  if (verb === 'delete') return { verb: 'deletePod', name: object.name, uid: object.uid ?? '' };
  return { verb: 'patchPod', name: object.name };
}

/** The API server as one invocation sees it: faults first, then the real in-memory server, then the checker. */
export class FaultyKube implements KubeClient {
  constructor(
    private readonly inner: KubeClient,
    private readonly inv: Invocation,
  ) {}

  private async write<T>(op: string, call: WriteCall, apply: () => Promise<T>): Promise<T> {
    return this.inv.gate(async () => {
      const due = this.inv.apiFaultOf();
      const fault = due?.kind;
      const host = this.inv.host;
      if (fault === 'stall' && host.stall && !this.inv.stalled) {
        // the lease guard (below which this wrapper sits) checked this write; the process stalls before sending it
        host.fired('api stall');
        await host.stall(this.inv, (due?.seconds ?? STALL_SECONDS[0]) * 1000);
        const check = host.beforeWrite(this.inv, call, true);
        const result = await apply();
        check();
        return result;
      }
      const late = host.inFlight;
      if (fault === 'inFlight' && late) {
        host.fired('api inFlight');
        late(
          this.inv,
          async () => {
            const check = host.beforeWrite(this.inv, call, true);
            try {
              await apply();
            } catch {
              return; // refused when it landed (a precondition, AlreadyExists, NotFound): nothing applied
            }
            check();
          },
          call,
        );
        this.inv.crash();
        return never<T>();
      }
      const err = fault && API_ERRORS[fault];
      if (err) {
        this.inv.host.fired(`api ${fault}`);
        throw new KubeApiError(op, err[0], err[1], err[2]);
      }
      const check = this.inv.host.beforeWrite(this.inv, call);
      const result = await apply();
      check();
      if (fault === 'lostAnswer') {
        this.inv.host.fired('api lostAnswer');
        throw new KubeApiError(op, 0, 'NetworkError', 'socket hang up (the write was applied)');
      }
      if (fault === 'crash') {
        this.inv.host.fired('api crash');
        this.inv.crash();
      }
      if (fault === 'clockJump') {
        this.inv.host.fired('api clockJump');
        this.inv.host.clockJump();
      }
      return result;
    });
  }

  /** A read: this invocation's read fault, if it is due, else the real read. */
  private read<T>(op: string, f: () => Promise<T>): Promise<T> {
    return this.inv.gate(async () => {
      const fault = this.inv.readFault();
      if (fault) {
        this.inv.host.fired(`read ${fault}`);
        const [status, reason, message] = READ_ERRORS[fault];
        throw new KubeApiError(op, status, reason, message);
      }
      return f();
    });
  }

  /** A read, kept as the invocation's last view of the world (a CloneSet read starts a new view). */
  private reading<T>(op: string, f: () => Promise<T>, keep: (r: T) => void): Promise<T> {
    return this.inv.gate(async () => {
      const r = await this.read(op, f);
      this.inv.read.seq++;
      keep(structuredClone(r));
      return r;
    });
  }

  get<T extends KubeObject>(resource: Resource<T>, ref: ObjectRef): Promise<T | undefined> {
    const op = `get ${resource.kind.toLowerCase()} ${ref.namespace ?? ''}/${ref.name}`;
    if (!is(resource, CLONESET_RESOURCE)) return this.read(op, () => this.inner.get(resource, ref));
    return this.reading(
      op,
      () => this.inner.get(resource, ref),
      (cs) => {
        this.inv.read.cloneSet = cs as CloneSet | undefined;
        // the revisions stay: a later pass of the invocation may plan with the last answer to their LIST
        // (lib/kube/reusedLists.ts), which is then the last one this wrapper saw
        this.inv.read.pods = this.inv.read.pvcs = undefined;
        this.inv.read.at = this.inv.host.now();
        this.inv.host.readCloneSet?.(this.inv);
      },
    );
  }
  list<T extends KubeObject>(resource: Resource<T>, options?: ListOptions): Promise<Listed<T>> {
    const keep: ((items: KubeObject[]) => void) | undefined = is(resource, RESOURCES.pods)
      ? (items) => (this.inv.read.pods = items as Pod[])
      : is(resource, RESOURCES.persistentvolumeclaims)
        ? (items) => (this.inv.read.pvcs = items as PersistentVolumeClaim[])
        : is(resource, RESOURCES.controllerrevisions)
          ? (items) => (this.inv.read.revisions = items as ControllerRevision[])
          : undefined;
    const op = `list ${resource.kind.toLowerCase()} ${options?.namespace ?? ''}`;
    const source = this.inv.host.cacheFor?.(resource) ?? this.inner;
    if (!keep || is(resource, CLONESET_RESOURCE)) return this.read(op, () => source.list(resource, options));
    return this.reading(
      op,
      () => source.list(resource, options),
      (l) => {
        keep(l.items);
        if (is(resource, RESOURCES.pods)) this.inv.host.listedPods?.(this.inv);
      },
    );
  }
  create<T extends KubeObject>(resource: Resource<T>, object: T): Promise<T> {
    const name = object.metadata.name ?? '';
    const call = writeCall('create', resource, { pod: object as unknown as Pod, name });
    return this.write(`create ${resource.kind.toLowerCase()} ${name}`, call, () =>
      this.inner.create(resource, object),
    );
  }
  replace<T extends KubeObject>(resource: Resource<T>, object: T, options?: ReplaceOptions): Promise<T> {
    const name = object.metadata.name ?? '';
    return this.write(
      `replace ${resource.kind.toLowerCase()} ${name}`,
      writeCall('replace', resource, { name }),
      () => this.inner.replace(resource, object, options),
    );
  }
  patch<T extends KubeObject>(
    resource: Resource<T>,
    ref: ObjectRef,
    patch: Patch,
    options?: PatchOptions,
  ): Promise<T> {
    const call = writeCall('patch', resource, { name: ref.name });
    return this.write(`patch ${resource.kind.toLowerCase()} ${ref.name}`, call, () =>
      this.inner.patch(resource, ref, patch, options),
    );
  }
  delete(resource: Resource, ref: ObjectRef, preconditions?: Preconditions): Promise<void> {
    const call = writeCall('delete', resource, {
      name: ref.name,
      ...(preconditions?.uid ? { uid: preconditions.uid } : {}),
    });
    return this.write(`delete ${resource.kind.toLowerCase()} ${ref.name}`, call, () =>
      this.inner.delete(resource, ref, preconditions),
    );
  }
  recordEvent<T extends KubeObject>(
    resource: Resource<T>,
    object: T,
    event: KubeEvent,
    options?: RecordEventOptions,
  ): Promise<void> {
    return this.inv.gate(() => this.inner.recordEvent(resource, object, event, options));
  }

  serverVersion(): Promise<ServerVersionInfo | undefined> {
    return this.inner.serverVersion();
  }
}

/** The state-store calls that are conditional writes fenced by the lease token. */
const FENCED = new Set([
  'leases.renew',
  'leases.release',
  'leases.takeDirty',
  'expectations.put',
  'ledger.record',
  'ledger.clear',
]);
const WRITES = new Set([...FENCED, 'leases.acquire']);

/**
 * The three stores as one invocation sees them: DynamoDB faults first, then the real in-memory stores.
 * `onCall` sees every call that goes through (for the checker's ledger bookkeeping) and may return what to do once
 * it succeeded.
 */
export function faultyStores(
  stores: { leases: LeaseStore; expectations: ExpectationStore; ledger: ScaleDownLedger },
  inv: Invocation,
  onCall: (call: string, args: unknown[]) => (() => void) | undefined,
): { leases: LeaseStore; expectations: ExpectationStore; ledger: ScaleDownLedger } {
  const wrap = <T extends object>(name: string, target: T): T =>
    new Proxy(target, {
      get(t, prop, receiver) {
        const value = Reflect.get(t, prop, receiver) as unknown;
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        const call = `${name}.${prop}`;
        return (...args: unknown[]) =>
          inv.gate(async () => {
            const fault = inv.storeFault();
            if (fault && (call === 'leases.release' || call === 'leases.acquire')) inv.leaseCallFailed = true;
            const key = 'obj#chaos#apps.kruise.io/CloneSet#default#web';
            const fail = (why: string) =>
              new StateStoreError(`${call}`, key, Object.assign(new Error(why), { name: why }));
            if (fault === 'throttle') {
              inv.host.fired('store throttle');
              throw fail('ProvisionedThroughputExceededException');
            }
            if (fault === 'timeout' || (fault === 'timeoutApplied' && !WRITES.has(call))) {
              inv.host.fired('store timeout');
              throw fail('TimeoutError');
            }
            if (fault === 'conditional' && FENCED.has(call)) {
              inv.host.fired('store conditional');
              await inv.host.ghostTakeover();
            }
            const after = onCall(call, args);
            const r = await (value as (...a: unknown[]) => Promise<unknown>).apply(t, args);
            after?.();
            if (fault === 'timeoutApplied') {
              inv.host.fired('store timeoutApplied');
              throw fail('TimeoutError');
            }
            return r;
          });
      },
    });
  return {
    leases: wrap('leases', stores.leases),
    expectations: wrap('expectations', stores.expectations),
    ledger: wrap('ledger', stores.ledger),
  };
}
