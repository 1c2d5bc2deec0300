/**
 * One reconcile invocation's view of the world in the randomized fault test: the in-memory API server and state
 * stores behind wrappers that inject this invocation's faults and report every applied write to the checker.
 *
 * These wrappers are mocks of faults that cannot be caused for real in a unit test (a 500 or a lost answer on
 * the n-th write, a Lambda dying mid-write, DynamoDB throttling or a timeout after the write was applied, a
 * clock that jumps past the lease). Everything else — the API server's preconditions, the lease and fencing
 * protocol of the state stores — is the real in-memory implementation. Test-only.
 */
import type {
  CloneSet,
  CloneSetStatus,
  ControllerRevision,
  JsonObject,
  PersistentVolumeClaim,
  Pod,
} from '../../../../lib/api/types.js';
import { KubeApiError } from '../../../../lib/kube/errors.js';
import type { CloneSetEvent, KubeClient, Listed } from '../../../../lib/kube/types.js';
import type { ImagePullJob } from '../../../../lib/api/imagePullJob.js';
import { StateStoreError } from '../../../../lib/state/errors.js';
import type { ExpectationStore, LeaseStore, ScaleDownLedger } from '../../../../lib/state/index.js';
import type { ApiFaultKind, Fault, StoreFaultKind } from './scenario.js';

/** What the invocation reports to the simulation. */
export interface InvocationHost {
  /** The simulated clock, epoch ms. */
  now(): number;
  /** Count a fault that fired. */
  fired(kind: string): void;
  /** Called before an API write is applied; returns a check to run after it was applied. */
  beforeWrite(inv: Invocation, call: WriteCall): () => void;
  /** The clock jumps past the lease's end and a second invocation starts for the same key. */
  clockJump(): void;
  /** Another invocation (clock ahead) takes the lease over and releases it at once. */
  ghostTakeover(): Promise<void>;
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
  storeCalls = 0;
  crashed = false;
  /**
   * A DynamoDB fault hit the lease acquire or release: the lease may stay with this holder until it runs out or
   * the retried invocation (same holder) takes it again and releases it.
   */
  leaseCallFailed = false;
  private onCrash: () => void = () => undefined;
  readonly died: Promise<void>;
  readonly read: LastRead = { at: 0, seq: 0 };

  constructor(
    readonly holder: string,
    private readonly faults: readonly Fault[],
    readonly host: InvocationHost,
  ) {
    this.died = new Promise((resolve) => (this.onCrash = resolve));
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
    const n = ++this.apiWrites;
    return this.faults.find((f): f is Extract<Fault, { on: 'api' }> => f.on === 'api' && f.at === n)?.kind;
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

/** The API server as one invocation sees it: faults first, then the real in-memory server, then the checker. */
export class FaultyKube implements KubeClient {
  constructor(
    private readonly inner: KubeClient,
    private readonly inv: Invocation,
  ) {}

  private async write<T>(op: string, call: WriteCall, apply: () => Promise<T>): Promise<T> {
    return this.inv.gate(async () => {
      const fault = this.inv.apiFault();
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

  private reading<T>(f: () => Promise<T>, keep: (r: T) => void): Promise<T> {
    return this.inv.gate(async () => {
      const r = await f();
      this.inv.read.seq++;
      keep(structuredClone(r));
      return r;
    });
  }

  getCloneSet(namespace: string, name: string): Promise<CloneSet | undefined> {
    return this.reading(
      () => this.inner.getCloneSet(namespace, name),
      (cs) => {
        this.inv.read.cloneSet = cs;
        this.inv.read.pods = this.inv.read.pvcs = this.inv.read.revisions = undefined;
        this.inv.read.at = this.inv.host.now();
      },
    );
  }
  listCloneSets(): Promise<Listed<CloneSet>> {
    return this.inv.gate(() => this.inner.listCloneSets());
  }
  listPods(namespace: string, labelSelector?: string): Promise<Listed<Pod>> {
    return this.reading(
      () => this.inner.listPods(namespace, labelSelector),
      (l) => (this.inv.read.pods = l.items),
    );
  }
  listPVCs(namespace: string, labelSelector?: string): Promise<Listed<PersistentVolumeClaim>> {
    return this.reading(
      () => this.inner.listPVCs(namespace, labelSelector),
      (l) => (this.inv.read.pvcs = l.items),
    );
  }
  listControllerRevisions(namespace: string, labelSelector?: string): Promise<Listed<ControllerRevision>> {
    return this.reading(
      () => this.inner.listControllerRevisions(namespace, labelSelector),
      (l) => (this.inv.read.revisions = l.items),
    );
  }

  createControllerRevision(r: ControllerRevision): Promise<ControllerRevision> {
    return this.write('create revision', { verb: 'other', what: 'revision' }, () =>
      this.inner.createControllerRevision(r),
    );
  }
  replaceControllerRevision(r: ControllerRevision): Promise<ControllerRevision> {
    return this.write('replace revision', { verb: 'other', what: 'revision' }, () =>
      this.inner.replaceControllerRevision(r),
    );
  }
  deleteControllerRevision(namespace: string, name: string): Promise<void> {
    return this.write('delete revision', { verb: 'other', what: 'revision' }, () =>
      this.inner.deleteControllerRevision(namespace, name),
    );
  }
  patchControllerRevisionLabels(
    namespace: string,
    name: string,
    labels: Record<string, string>,
  ): Promise<ControllerRevision> {
    return this.write('patch revision labels', { verb: 'other', what: 'revision' }, () =>
      this.inner.patchControllerRevisionLabels(namespace, name, labels),
    );
  }
  listImagePullJobs(namespace: string): Promise<Listed<ImagePullJob> | undefined> {
    return this.inv.gate(() => this.inner.listImagePullJobs(namespace));
  }
  createImagePullJob(job: ImagePullJob): Promise<ImagePullJob> {
    return this.write('create imagepulljob', { verb: 'other', what: 'imagepulljob' }, () =>
      this.inner.createImagePullJob(job),
    );
  }
  deleteImagePullJob(namespace: string, name: string, uid: string): Promise<void> {
    return this.write('delete imagepulljob', { verb: 'other', what: 'imagepulljob' }, () =>
      this.inner.deleteImagePullJob(namespace, name, uid),
    );
  }
  anyNodeImage(): Promise<boolean> {
    return this.inv.gate(() => this.inner.anyNodeImage());
  }
  createPod(pod: Pod): Promise<Pod> {
    return this.write(`create pod ${pod.metadata.name}`, { verb: 'createPod', pod }, () =>
      this.inner.createPod(pod),
    );
  }
  deletePod(namespace: string, name: string, uid: string): Promise<void> {
    return this.write(`delete pod ${name}`, { verb: 'deletePod', name, uid }, () =>
      this.inner.deletePod(namespace, name, uid),
    );
  }
  patchPod(namespace: string, name: string, patch: JsonObject, resourceVersion?: string): Promise<Pod> {
    return this.write(`patch pod ${name}`, { verb: 'patchPod', name }, () =>
      this.inner.patchPod(namespace, name, patch, resourceVersion),
    );
  }
  patchPodStatus(namespace: string, name: string, patch: JsonObject, resourceVersion?: string): Promise<Pod> {
    return this.write(`patch pod status ${name}`, { verb: 'patchPod', name }, () =>
      this.inner.patchPodStatus(namespace, name, patch, resourceVersion),
    );
  }
  createPVC(pvc: PersistentVolumeClaim): Promise<PersistentVolumeClaim> {
    return this.write('create pvc', { verb: 'other', what: 'pvc' }, () => this.inner.createPVC(pvc));
  }
  deletePVC(namespace: string, name: string, uid: string): Promise<void> {
    return this.write('delete pvc', { verb: 'other', what: 'pvc' }, () =>
      this.inner.deletePVC(namespace, name, uid),
    );
  }
  patchPVCOwnerReferences(
    namespace: string,
    name: string,
    uid: string,
    refs: NonNullable<PersistentVolumeClaim['metadata']['ownerReferences']>,
  ): Promise<void> {
    return this.write('patch pvc', { verb: 'other', what: 'pvc' }, () =>
      this.inner.patchPVCOwnerReferences(namespace, name, uid, refs),
    );
  }
  updateCloneSetStatus(cloneSet: CloneSet, status: CloneSetStatus): Promise<CloneSet> {
    return this.write('update status', { verb: 'other', what: 'status' }, () =>
      this.inner.updateCloneSetStatus(cloneSet, status),
    );
  }
  patchCloneSetPodsToDelete(cloneSet: CloneSet, podsToDelete: string[]): Promise<CloneSet> {
    return this.write('patch podsToDelete', { verb: 'other', what: 'podsToDelete' }, () =>
      this.inner.patchCloneSetPodsToDelete(cloneSet, podsToDelete),
    );
  }
  recordEvent(cloneSet: CloneSet, event: CloneSetEvent, aggregate?: boolean): Promise<void> {
    return this.inv.gate(() => this.inner.recordEvent(cloneSet, event, aggregate));
  }
}

/** The state-store calls that are conditional writes fenced by the lease token. */
const FENCED = new Set([
  'leases.renew',
  'leases.release',
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
