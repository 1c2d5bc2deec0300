/**
 * The randomized fault test's world (docs/reliability.md#randomized-fault-test): one CloneSet on the recording
 * in-memory API server, the in-memory state stores, a kubelet, a hook owner, an event bus with requeues and a
 * periodic resync, and the real reconcile entry ({@link reconcileCloneSet}) invoked once per delivered event.
 * Every API write the reconcilers make is checked as it is applied; after the last round, faults are switched
 * off and the world is resynced to quiescence. Test-only.
 */
import { LABEL_INSTANCE_ID, SAFE_ALPHABET } from '../../../../../../lib/api/keys.js';
import type { CloneSet, JsonObject, Pod } from '../../../../../../lib/api/types.js';
import { metaTime } from '../../../../../../lib/api/time.js';
import { planCloneSet } from '../../../../../../lib/controllers/cloneset/plan/plan.js';
import { silentLogger } from '../../../../../../lib/core/logger.js';
import type { ReconcileReason, ReconcileRequest } from '../../../../../../lib/requests/index.js';
import { RESOURCES } from '../../../../../../lib/kube/resources.js';
import { isSatisfied } from '../../../../../../lib/reconcile/pods/observeExpectations.js';
import { reconcileCloneSet, type ReconcileDeps } from '../../../../../../lib/controllers/cloneset/index.js';
import {
  createMemoryStores,
  type LeaseStore,
  type ScaleDownIntent,
} from '../../../../../../lib/state/index.js';
import { imageIdOf } from '../../../../support/world.js';
import { RecordingKube } from '../support/recordingKube.js';
import { executionHolder } from '../../../../../../lib/reconcile/holder.js';
import type { ChaosStores, Mutant, MutantParts } from './mutants.js';
import { FaultyKube, faultyStores, Invocation, type InvocationHost, type WriteCall } from './faulty.js';
import {
  boundsOf,
  compareProjections,
  isServing,
  notServingBecause,
  lifecycleOf,
  ownedBy,
  projectionOf,
  type Bounds,
  type Projection,
} from './invariants.js';
import type { Fault, Round, Scenario, SpecParams, UserAction } from './scenario.js';
import { EventPath, type EventMutantKind } from './eventPath.js';

const NS = 'default';
const NAME = 'web';
const KEY = { cluster: 'chaos', kind: 'apps.kruise.io/CloneSet', namespace: NS, name: NAME };
const T0 = Date.parse('2024-05-01T08:00:00Z');
/** Lease length and an invocation's time budget, ms (the lease outlives the budget, as in production). */
const LEASE_MS = 30_000;
const BUDGET_MS = 20_000;
/** The periodic resync, ms (the resync Lambda runs every 5 minutes). */
const RESYNC_MS = 300_000;
/** Lambda retries a failed asynchronous invocation twice. */
const MAX_RETRIES = 2;
/** The hooks' labels (labelsHandler): `true` holds the pod, anything else releases it. */
export const PRE_DELETE_LABEL = 'example.io/block-delete';
export const IN_PLACE_LABEL = 'example.io/block-update';
/** The longest an in-flight write waits in the API server, ms (kube-apiserver's `--request-timeout`, 1 min). */
const IN_FLIGHT_MS = 60_000;
/** Rounds of the final resync before it is declared not converged. */
const SETTLE_ROUNDS = 120;

/** The CloneSet a user applies for these knobs. */
export function cloneSetOf(p: SpecParams): CloneSet {
  const hooks: Record<string, string> = {};
  if (p.preDeleteHook) hooks[PRE_DELETE_LABEL] = 'true';
  if (p.inPlaceUpdateHook) hooks[IN_PLACE_LABEL] = 'true';
  const us: NonNullable<CloneSet['spec']['updateStrategy']> = { type: p.type };
  if (p.partition !== undefined) us.partition = p.partition;
  if (p.maxSurge !== undefined) us.maxSurge = p.maxSurge;
  if (p.maxUnavailable !== undefined) us.maxUnavailable = p.maxUnavailable;
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: NAME, namespace: NS },
    spec: {
      replicas: p.replicas,
      selector: { matchLabels: { app: NAME } },
      template: {
        metadata: { labels: { app: NAME, ...hooks } },
        spec: { containers: [{ name: 'nginx', image: `nginx:1.${18 + p.image}-alpine` }] },
      },
      updateStrategy: us,
      ...(p.preDeleteHook || p.inPlaceUpdateHook
        ? {
            lifecycle: {
              ...(p.preDeleteHook ? { preDelete: { labelsHandler: { [PRE_DELETE_LABEL]: 'true' } } } : {}),
              ...(p.inPlaceUpdateHook
                ? { inPlaceUpdate: { labelsHandler: { [IN_PLACE_LABEL]: 'true' } } }
                : {}),
            },
          }
        : {}),
    },
  };
}

/** The UID of the pod's controller owner reference, if it has one. */
function controllerUidOf(pod: Pod): string | undefined {
  return (pod.metadata.ownerReferences ?? []).find((r) => r.controller)?.uid;
}

/** Five characters of the safe alphabet for `n` (distinct for distinct n below 27^5). */
function idOf(n: number): string {
  let id = '';
  for (let i = 0; i < 5; i++, n = Math.floor(n / SAFE_ALPHABET.length))
    id += SAFE_ALPHABET[n % SAFE_ALPHABET.length];
  return id;
}

interface Delivery {
  request: ReconcileRequest;
  due: number;
  retries: number;
  /**
   * A retried invocation keeps its request id, as Lambda keeps the request id of a retried async invocation; each
   * execution still gets its own holder (`<requestId>/<execution>`, lib/reconcile/holder.ts), as in production.
   */
  requestId?: string;
}

/** What a run is made of besides its scenario: the reconcile entry, the state stores, a mutant (./mutants.ts). */
export interface SimOptions {
  /** The reconcile entry under test; only the tests that show the checks can fail pass a broken one. */
  reconcile?: typeof reconcileCloneSet;
  /** The state stores (default: the in-memory adapter); e.g. the DynamoDB adapter over dynalite. */
  stores?: ChaosStores;
  /** A deliberate defect in the stores or the API server, to show the checks catch it. */
  mutant?: Mutant;
  /** A deliberate defect of the event path (./eventPath.ts), for scenarios with {@link Scenario.events}. */
  eventMutant?: EventMutantKind;
}

/** What one run (with or without faults) produced. */
export interface RunResult {
  rounds: number;
  invocations: number;
  /** The holder of every execution, in the order they started (`<requestId>/<execution>`). */
  holders: string[];
  /** Faults that fired, by kind. */
  faults: Record<string, number>;
  violations: string[];
  converged: boolean;
  /** Rounds the final resync took. */
  settleRounds: number;
  projection: Projection;
  bounds: Bounds;
}

/** The world of one run. */
export class Simulation {
  readonly clock = { now: T0 };
  /** Objects created under each name so far: a name used again gets a new UID, as the API server gives one. */
  private readonly incarnations = new Map<string, number>();
  readonly kube = new RecordingKube(
    [],
    () => new Date(this.clock.now),
    (name) => {
      // `uid-<name>` for the first object of a name (readable); `uid-<name>-<n>` for the n-th (a released pod's
      // name reused): until 2026-12 both got `uid-<name>`, so a delete meant for one matched the other
      const n = (this.incarnations.get(name) ?? 0) + 1;
      this.incarnations.set(name, n);
      return n === 1 ? `uid-${name}` : `uid-${name}-${n}`;
    },
  );
  /** The lagging watch cache of Scenario.staleLists: the pods as they were at the round's start. */
  private readonly cache = new RecordingKube([], () => new Date(this.clock.now));
  private staleLists = false;
  /** Writes sent but not yet applied (`inFlight`), with their sender and when they were sent (epoch ms). */
  private inFlight: { from: Invocation; sentAt: number; apply: () => Promise<void> }[] = [];
  /**
   * Invocations stalled before sending a write (`stall`): when each goes on (epoch ms), how to let it, and the rest
   * of its execution (set once its `invoke` stopped waiting for it).
   */
  private stalls: { from: Invocation; until: number; resume: () => void; rest?: Promise<void> }[] = [];
  private readonly raw: ChaosStores;
  /** The lease as the store holds it, mirrored below the fault wrappers. */
  private leaseOwner: { holder: string; expiresAt: number } | undefined;
  private readonly leases: LeaseStore;
  private spec: SpecParams;
  private readonly unhealthy = new Set<string>();
  private bus: Delivery[] = [];
  private readonly live: Promise<void>[] = [];
  private garbage: string[] = [];
  private incarnation = 1;
  private ids = 0;
  /**
   * Instance ids of released pods, handed out by the id generator before fresh ones: OpenKruise's random ids avoid
   * only the CloneSet's own pods and PVCs, so a released pod's id may come again (here: at once, every time).
   */
  private readonly reusable: string[] = [];
  private invocations = 0;
  private appliedWrites = 0;
  private lastResync = T0;
  private fingerprint = '';
  private faultsOn: boolean;
  /** Intents recorded through the ledger whose pods a plan chose, by intent id. */
  private readonly intents = new Map<string, ScaleDownIntent>();
  readonly faults: Record<string, number> = {};
  readonly violations: string[] = [];

  /**
   * @param reconcile the reconcile entry under test; only the test that shows the checks can fail passes a
   *   deliberately broken one
   */
  private readonly reconcile: typeof reconcileCloneSet;
  private readonly mutant: MutantParts | undefined;
  private requestIds = 0;
  private readonly holders: string[] = [];
  /**
   * A global order of marks, CloneSet reads and requeues (the lost-event check); a deferred execution's requeue for
   * after the holder's lease ends is not counted as a requeue there.
   */
  private tick = 0;
  private lastMark = 0;
  private lastRequeue = 0;
  private readonly lastRead = new WeakMap<Invocation, number>();
  /** When each invocation last listed pods (a tick of {@link tick}). */
  private readonly lastPodList = new WeakMap<Invocation, number>();
  /** Pod deletes the controller sent that were applied or are in flight (`<name>/<uid>` → the sender's holder). */
  private readonly deletesSent = new Map<string, string>();
  /** Pods the controller's deletes removed (`<name>/<uid>`), with when (a tick), in order (invariant 9). */
  private readonly removedByController: { key: string; tick: number }[] = [];
  /** When a late write (in flight when its sender died) last landed on a pod, by pod name (a tick). */
  private readonly lateLanded = new Map<string, number>();
  /** Invocations that released the lease with a mark neither read after nor covered by a requeue. */
  private readonly unhandled = new WeakSet<Invocation>();
  /** The second invocation of a `concurrent` fault, started at the first's first API write. */
  private readonly startAtFirstWrite = new WeakMap<Invocation, () => void>();
  /** The event path (Scenario.events): the pump, the resync and admission instead of {@link watch}. */
  private events: EventPath | undefined;

  constructor(spec: SpecParams, faultsOn: boolean, options: SimOptions = {}) {
    this.spec = { ...spec };
    this.faultsOn = faultsOn;
    this.reconcile = options.reconcile ?? reconcileCloneSet;
    this.mutant = options.mutant?.parts();
    const stores = options.stores ?? createMemoryStores();
    this.raw = this.mutant?.stores ? this.mutant.stores(stores) : stores;
    const raw = this.raw.leases;
    this.leases = {
      acquire: async (...args: Parameters<LeaseStore['acquire']>) => {
        const r = await raw.acquire(...args);
        if (r.acquired) this.leaseOwner = { holder: r.lease.holder, expiresAt: r.lease.expiresAt };
        else this.lastMark = ++this.tick;
        return r;
      },
      renew: async (...args: Parameters<LeaseStore['renew']>) => {
        const r = await raw.renew(...args);
        this.leaseOwner = { holder: args[0].holder, expiresAt: r.expiresAt };
        return r;
      },
      release: async (...args: Parameters<LeaseStore['release']>) => {
        const r = await raw.release(...args);
        if (r === 'released') this.leaseOwner = undefined;
        return r;
      },
      takeDirty: (...args: Parameters<LeaseStore['takeDirty']>) => raw.takeDirty(...args),
    };
    this.applyCloneSet();
  }

  private get cloneSet(): CloneSet | undefined {
    return this.kube.cloneSets.get(NAME);
  }

  /** The current CloneSet's pods (not terminating), sorted by name. */
  private owned(): Pod[] {
    const uid = this.cloneSet?.metadata.uid;
    return [...this.kube.pods.values()]
      .filter((p) => ownedBy(p, uid) && !p.metadata.deletionTimestamp)
      .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  }

  private violation(what: string): void {
    this.violations.push(`t+${(this.clock.now - T0) / 1000}s: ${what}`);
  }

  private applyCloneSet(): void {
    this.kube.apply(cloneSetOf(this.spec));
    const cs = this.cloneSet!;
    cs.metadata.uid = `cs-uid-${this.incarnation}`;
  }

  private request(reason: ReconcileReason): ReconcileRequest {
    return { version: 2, ...KEY, reason };
  }

  private publish(reason: ReconcileReason, delayMs = 0): void {
    const due = this.clock.now + delayMs;
    if (this.bus.some((d) => d.request.reason === reason && d.due <= due && d.retries === 0)) return;
    this.bus.push({ request: this.request(reason), due, retries: 0 });
  }

  // ── the cluster around the controller ──────────────────────────────────────────────────────────────────

  /** The garbage collector: dependents of deleted CloneSets go, one round after their owner. */
  private collectGarbage(): void {
    if (this.garbage.length === 0) return;
    const gone = (o: { metadata: { ownerReferences?: { uid: string }[] } }) =>
      (o.metadata.ownerReferences ?? []).some((r) => this.garbage.includes(r.uid));
    for (const [k, p] of this.kube.pods) if (gone(p)) this.kube.pods.delete(k);
    for (const [k, p] of this.kube.pvcs) if (gone(p)) this.kube.pvcs.delete(k);
    for (const [k, r] of this.kube.revisions) if (gone(r)) this.kube.revisions.delete(k);
    this.garbage = [];
  }

  /** A strategic-merge patch of a pod (or its `subresource`) by the cluster around the controller. */
  private patchPod(name: string, body: JsonObject, subresource?: string): Promise<Pod> {
    const options = subresource ? { subresource } : {};
    return this.kube.patch(
      RESOURCES.pods,
      { namespace: NS, name },
      { type: 'strategic-merge', body },
      options,
    );
  }

  /**
   * The kubelet: binds and starts pods, restarts containers whose image changed, and reports Ready when the pod is
   * healthy and every readiness gate is True. Writes only what changed.
   */
  private async kubelet(): Promise<void> {
    const t = metaTime(new Date(this.clock.now));
    for (const pod of [...this.kube.pods.values()]) {
      if (pod.metadata.deletionTimestamp) continue;
      const name = pod.metadata.name ?? '';
      if (!pod.spec.nodeName) await this.patchPod(name, { spec: { nodeName: 'node-1' } });
      const healthy = !this.unhealthy.has(name);
      const old = pod.status?.containerStatuses ?? [];
      const containerStatuses = pod.spec.containers.map((c) => {
        const prev = old.find((s) => s.name === c.name);
        const image = c.image ?? '';
        if (prev && prev.image === image) return { ...prev, ready: healthy };
        return {
          name: c.name,
          image,
          imageID: imageIdOf(image),
          containerID: `containerd://${name}-${c.name}-${(prev?.restartCount ?? -1) + 1}`,
          ready: healthy,
          restartCount: prev ? prev.restartCount + 1 : 0,
        };
      });
      const conds = pod.status?.conditions ?? [];
      const gates = (pod.spec.readinessGates ?? []).every((g) =>
        conds.some((c) => c.type === g.conditionType && c.status === 'True'),
      );
      const want = {
        ContainersReady: healthy ? 'True' : 'False',
        Ready: healthy && gates ? 'True' : 'False',
      };
      const conditions = Object.entries(want)
        .filter(([type, status]) => conds.find((c) => c.type === type)?.status !== status)
        .map(([type, status]) => ({ type, status, lastTransitionTime: t }));
      const same =
        JSON.stringify(containerStatuses) === JSON.stringify(old) && pod.status?.phase === 'Running';
      if (same && conditions.length === 0) continue;
      await this.patchPod(
        name,
        {
          status: { phase: 'Running', containerStatuses, ...(conditions.length ? { conditions } : {}) },
        },
        'status',
      );
    }
  }

  /** The hook owner: releases pods waiting in PreparingDelete/PreparingUpdate and restores Updated ones. */
  private async releaseHooks(pods: Pod[]): Promise<void> {
    for (const pod of pods) {
      const labels = pod.metadata.labels ?? {};
      const state = lifecycleOf(pod);
      let patch: Record<string, string> | undefined;
      if (state === 'PreparingDelete' && labels[PRE_DELETE_LABEL] === 'true')
        patch = { [PRE_DELETE_LABEL]: 'false' };
      if (state === 'PreparingUpdate' && labels[IN_PLACE_LABEL] === 'true')
        patch = { [IN_PLACE_LABEL]: 'false' };
      if (state === 'Updated' && this.spec.inPlaceUpdateHook && labels[IN_PLACE_LABEL] !== 'true')
        patch = { [IN_PLACE_LABEL]: 'true' };
      if (patch) await this.patchPod(pod.metadata.name ?? '', { metadata: { labels: patch } });
    }
  }

  private async act(a: UserAction): Promise<void> {
    const pods = this.owned();
    const pick = (i: number) => (pods.length ? pods[i % pods.length] : undefined);
    switch (a.kind) {
      case 'scale':
        this.spec.replicas = a.replicas;
        return this.applyCloneSet();
      case 'image':
        this.spec.image = a.image;
        return this.applyCloneSet();
      case 'partition':
        this.spec.partition = a.partition;
        return this.applyCloneSet();
      case 'readiness': {
        const p = pick(a.pod);
        if (!p) return;
        if (a.healthy) this.unhealthy.delete(p.metadata.name ?? '');
        else this.unhealthy.add(p.metadata.name ?? '');
        return this.kubelet();
      }
      case 'releaseHooks': {
        const p = a.pod === undefined ? undefined : pick(a.pod);
        return this.releaseHooks(a.pod === undefined ? pods : p ? [p] : []);
      }
      case 'externalDelete': {
        const p = pick(a.pod);
        if (p) this.kube.pods.delete(p.metadata.name ?? '');
        return;
      }
      case 'release': {
        const p = pick(a.pod);
        if (!p) return;
        const released = structuredClone(p);
        delete released.metadata.ownerReferences;
        released.metadata.labels = { ...released.metadata.labels, app: 'released' };
        await this.kube.replace(RESOURCES.pods, released);
        const id = p.metadata.labels?.[LABEL_INSTANCE_ID];
        if (id) this.reusable.push(id);
        return;
      }
      case 'recreate': {
        const uid = this.cloneSet?.metadata.uid;
        if (uid) this.garbage.push(uid);
        this.kube.cloneSets.delete(NAME);
        this.incarnation++;
        return this.applyCloneSet();
      }
    }
  }

  // ── the checks, as each write is applied ───────────────────────────────────────────────────────────────

  /** The DeletePod choices of the plan computed from what `inv` read last (the planner is deterministic). */
  private readonly planned = new WeakMap<Invocation, { seq: number; deletes: Set<string> }>();
  private plannedDeletes(inv: Invocation): Set<string> {
    const r = inv.read;
    const cached = this.planned.get(inv);
    if (cached?.seq === r.seq) return cached.deletes;
    const deletes = new Set<string>();
    // a timer pass of a settled CloneSet without volumeClaimTemplates does not list PVCs and plans with none
    // (readWorld in lib/controllers/cloneset/pass.ts); with templates, the PVCs must have been read
    const noTemplates = (r.cloneSet?.spec.volumeClaimTemplates ?? []).length === 0;
    const pvcs = r.pvcs ?? (noTemplates ? [] : undefined);
    if (r.cloneSet && r.pods && pvcs && r.revisions) {
      const uid = r.cloneSet.metadata.uid;
      const mine = <T extends { metadata: { ownerReferences?: { uid: string }[] } }>(xs: T[]) =>
        xs.filter((o) => (o.metadata.ownerReferences ?? []).some((x) => x.uid === uid));
      let n = 0;
      const plan = planCloneSet({
        cloneSet: structuredClone(r.cloneSet),
        pods: structuredClone(mine(r.pods)),
        pvcs: structuredClone(mine(pvcs)),
        revisions: structuredClone(r.revisions),
        now: new Date(r.at),
        newInstanceId: () => `zz${idOf(n++).slice(0, 3)}`,
      });
      for (const a of plan.actions) if (a.type === 'DeletePod') deletes.add(`${a.pod.name}/${a.pod.uid}`);
    }
    this.planned.set(inv, { seq: r.seq, deletes });
    return deletes;
  }

  /** Called by the store wrapper for each state-store call that goes through; returns what to do after it. */
  private storeCall(inv: Invocation, call: string, args: unknown[]): (() => void) | undefined {
    if (call === 'ledger.record') {
      const intent = args[1] as ScaleDownIntent;
      const planned = this.plannedDeletes(inv);
      for (const p of intent.pods)
        if (!planned.has(`${p.name}/${p.uid}`))
          this.violation(
            `${inv.holder} recorded ${p.name} in the scale-down ledger, which its plan did not choose`,
          );
      return () => this.intents.set(intent.intentId, structuredClone(intent));
    }
    if (call === 'ledger.clear') {
      const id = args[1] as string;
      return () => this.intents.delete(id);
    }
    return undefined;
  }

  /**
   * Whether the pod serves only through a write `inv` could not see: a late write of a dead invocation landed on it
   * after `inv` listed the pods, and in that list it did not serve. Then `inv` chose it by OpenKruise's rules as an
   * unavailable pod, which costs no budget (`calculateDiffsWithExpectation`), and invariant 2 does not charge its
   * write — as it does not charge a pod made unavailable by someone else: any writer between a pass's read and its
   * write (here the late write; in a cluster also the kubelet turning a pod Ready) can do this to a controller
   * whose pod patches carry no resourceVersion precondition, and OpenKruise's lifecycle patches carry none
   * (`UpdatePodLifecycle` in pkg/util/lifecycle/lifecycle_utils.go; lib/controllers/cloneset/execute.ts
   * `PRECONDITIONED`). Scenario 743 of seed 20261201 (docs/reliability.md#mutants).
   */
  private madeServingUnseen(inv: Invocation, name: string): boolean {
    const landed = this.lateLanded.get(name) ?? 0;
    if (landed <= (this.lastPodList.get(inv) ?? 0)) return false;
    const read = inv.read.pods?.find((p) => p.metadata.name === name);
    return !read || !isServing(read, this.unhealthy);
  }

  /**
   * Invariant 9, no pod deleted beyond the plan: a late delete (sent before its sender's stall or death, applied
   * after a successor read the world) removes one of the pods its sender listed; counted with every other pod of
   * that list the controller removed since, it must not exceed the deletes the sender's plan chose from that list.
   * A successor that plans again while the late delete is still to come (the expectations expired) and chooses
   * other victims makes the controller delete more pods than one plan for that world. Not judged when the
   * CloneSet was re-created or its spec changed since the sender read it (the later plans answer another spec).
   */
  private checkLateDelete(inv: Invocation, name: string): void {
    const read = inv.read;
    const cs = this.cloneSet;
    if (!read.cloneSet || !read.pods || !cs) return;
    if (
      read.cloneSet.metadata.uid !== cs.metadata.uid ||
      read.cloneSet.metadata.generation !== cs.metadata.generation
    )
      return;
    const listedAt = this.lastPodList.get(inv) ?? 0;
    const listed = new Set(read.pods.map((p) => `${p.metadata.name}/${p.metadata.uid}`));
    const removed = this.removedByController
      .filter((r) => r.tick > listedAt && listed.has(r.key))
      .map((r) => r.key.split('/')[0]);
    const planned = this.plannedDeletes(inv).size;
    if (removed.length > planned)
      this.violation(
        `${inv.holder}'s late delete of ${name} landed: the controller removed ${removed.length} of the pods it listed since (${removed.join(', ')}), its plan chose ${planned}`,
      );
  }

  /**
   * The checks of one API write. A `late` write (in flight when its sender died, or sent when its sender's stall
   * ended; invariant 9 judges a late delete, {@link checkLateDelete}) was planned under the spec and
   * world its sender read, so invariants 1 and 2 judge the writes of the passes after it instead (a pass that did
   * not wait for the in-flight write adds to it); invariants 3 and 7 still hold of it. Invariant 8: a pod is deleted
   * once — no controller delete names a pod (name and UID) that an earlier controller delete removed or that one
   * still in flight will remove (the second was planned from a world that did not account for the first).
   */
  private checkWrite(inv: Invocation, call: WriteCall, late = false): () => void {
    const cs = this.cloneSet;
    if (!cs) return () => undefined;
    const b = boundsOf(cs);
    if (call.verb === 'createPod') {
      return () => {
        this.appliedWrites++;
        // a create reported done stored the pod it sent: the pod of that name has the same controller (else an
        // AlreadyExists for someone else's pod was taken for ours, and its SuccessfulCreate and expectation lie)
        const name = call.pod.metadata.name ?? '';
        const stored = this.kube.pods.get(name);
        const sent = controllerUidOf(call.pod);
        if (!stored || controllerUidOf(stored) !== sent)
          this.violation(
            `${inv.holder} created ${name} for ${sent ?? 'no owner'}, but the pod of that name is controlled by ${stored ? (controllerUidOf(stored) ?? 'no one') : 'nothing: there is none'}`,
          );
        if (late || !ownedBy(call.pod, cs.metadata.uid)) return;
        const n = this.owned().length;
        if (n > b.replicas + b.maxSurge)
          this.violation(
            `${inv.holder} created ${call.pod.metadata.name}: ${n} pods > replicas ${b.replicas} + maxSurge ${b.maxSurge}`,
          );
      };
    }
    if (call.verb === 'other') return () => void this.appliedWrites++;
    const before = this.kube.pods.get(call.name);
    const uid = before?.metadata.uid;
    const deleting = call.verb === 'deletePod' ? `${call.name}/${call.uid}` : undefined;
    if (deleting && !late) {
      // invariant 8: a pod is deleted once; a second delete was planned from a world that did not account for the
      // controller's own delete (applied, or in flight with its expectation stored first)
      const first = this.deletesSent.get(deleting);
      if (first)
        this.violation(
          `${inv.holder} deleted ${call.name} again: ${first === inv.holder ? 'it' : first} had sent its delete already`,
        );
    }
    if (call.verb === 'deletePod' && before && uid === call.uid && !before.metadata.deletionTimestamp) {
      const key = `${call.name}/${call.uid}`;
      const inIntent = [...this.intents.values()].some((i) =>
        i.pods.some((p) => `${p.name}/${p.uid}` === key),
      );
      if (!this.plannedDeletes(inv).has(key) && !inIntent)
        this.violation(`${inv.holder} deleted ${call.name}, which no plan chose`);
    }
    const wasServing =
      !late &&
      !!before &&
      ownedBy(before, cs.metadata.uid) &&
      isServing(before, this.unhealthy) &&
      !this.madeServingUnseen(inv, call.name);
    return () => {
      this.appliedWrites++;
      if (late) this.lateLanded.set(call.name, ++this.tick);
      if (deleting && before && `${call.name}/${uid}` === deleting) {
        this.deletesSent.set(deleting, inv.holder);
        if (!before.metadata.deletionTimestamp) {
          this.removedByController.push({ key: deleting, tick: ++this.tick });
          if (late) this.checkLateDelete(inv, call.name);
        }
      }
      if (!wasServing) return;
      const after = this.kube.pods.get(call.name);
      if (after && after.metadata.uid === uid && isServing(after, this.unhealthy)) return;
      const available = this.owned().filter((p) => isServing(p, this.unhealthy)).length;
      if (available < b.replicas - b.maxUnavailable) {
        const others = this.owned()
          .map((p) => [p.metadata.name, notServingBecause(p, this.unhealthy)])
          .filter(([, why]) => why)
          .map(([n, why]) => `${n} ${why}`);
        this.violation(
          `${inv.holder} made ${call.name} unavailable (${call.verb}): ${available} available < replicas ${b.replicas} − maxUnavailable ${b.maxUnavailable} [${others.join(', ')}]`,
        );
      }
    };
  }

  // ── invocations and the bus ────────────────────────────────────────────────────────────────────────────

  private host(request: ReconcileRequest): InvocationHost {
    return {
      now: () => this.clock.now,
      fired: (kind) => {
        this.faults[kind] = (this.faults[kind] ?? 0) + 1;
      },
      beforeWrite: (inv, call, late) => {
        const second = this.startAtFirstWrite.get(inv);
        if (second) {
          this.startAtFirstWrite.delete(inv);
          second();
        }
        return this.checkWrite(inv, call, late);
      },
      readCloneSet: (inv) => void this.lastRead.set(inv, ++this.tick),
      inFlight: (inv, apply, call) => {
        // a delete sent is a delete made, whenever it lands (invariant 8)
        if (call.verb === 'deletePod') this.deletesSent.set(`${call.name}/${call.uid}`, inv.holder);
        this.inFlight.push({ from: inv, sentAt: this.clock.now, apply });
      },
      stall: (inv, ms) =>
        new Promise<void>((resume) => {
          this.stalls.push({ from: inv, until: this.clock.now + ms, resume });
          inv.suspend();
        }),
      listedPods: (inv) => {
        this.lastPodList.set(inv, ++this.tick);
        // lands after the next lease holder listed the pods: the write that pass did not see
        const landing = this.inFlight.filter((w) => w.from !== inv);
        this.inFlight = this.inFlight.filter((w) => w.from === inv);
        for (const w of landing) this.live.push(w.apply());
      },
      cacheFor: (resource) =>
        this.staleLists && this.faultsOn && resource.plural === 'pods' && resource.group === ''
          ? this.cache
          : undefined,
      clockJump: () => {
        this.clock.now += LEASE_MS + 1000;
        this.live.push(this.invoke({ ...request, reason: 'ObjectChanged' }, [], 0));
      },
      ghostTakeover: async () => {
        const r = await this.leases.acquire(KEY, 'ghost', LEASE_MS, this.clock.now + LEASE_MS + 1000);
        if (r.acquired) await this.leases.release(r.lease);
      },
    };
  }

  /** The lease store as one invocation sees it: records when it released with an event left unhandled. */
  private leasesOf(inv: Invocation): LeaseStore {
    return {
      acquire: (...args) => this.leases.acquire(...args),
      renew: (...args) => this.leases.renew(...args),
      takeDirty: (...args) => this.leases.takeDirty(...args),
      release: async (...args) => {
        const r = await this.leases.release(...args);
        // a look at the world after the mark: a GET of the CloneSet, or a LIST of the pods — the pass after a mark
        // that did not say the CloneSet changed answers its GET from the invocation's copy (lib/kube/keptObject.ts)
        // and lists the pods (the chaos clients keep no watch), so its pods LIST is its look
        const looked = Math.max(this.lastRead.get(inv) ?? 0, this.lastPodList.get(inv) ?? 0);
        if (r === 'released' && this.lastMark > Math.max(looked, this.lastRequeue)) this.unhandled.add(inv);
        return r;
      },
    };
  }

  /** A new request id (a new asynchronous invocation). */
  private newRequestId(): string {
    return `req-${++this.requestIds}`;
  }

  /**
   * One execution of `request`.
   * @param requestId kept by a retry (as Lambda keeps it); a fresh one when absent
   * @param onFirstWrite started at this execution's first API write (a concurrent copy that overlaps its pass)
   */
  private async invoke(
    request: ReconcileRequest,
    faults: readonly Fault[],
    retries: number,
    requestId = this.newRequestId(),
    onFirstWrite?: () => void,
  ): Promise<void> {
    this.invocations++;
    const holder = executionHolder(requestId, `x${this.invocations}`);
    this.holders.push(holder);
    const inv = new Invocation(holder, faults, this.host(request));
    if (onFirstWrite) this.startAtFirstWrite.set(inv, onFirstWrite);
    const stores = faultyStores(
      { leases: this.leasesOf(inv), expectations: this.raw.expectations, ledger: this.raw.ledger },
      inv,
      (call, args) => this.storeCall(inv, call, args),
    );
    const deps: ReconcileDeps = {
      kube: new FaultyKube(
        this.mutant?.kube ? this.mutant.kube(this.kube, inv.holder, () => !inv.crashed) : this.kube,
        inv,
      ),
      ...stores,
      requeue: {
        requeueAfter: (req, seconds) =>
          inv.gate(async () => {
            const due = this.clock.now + seconds * 1000;
            // a deferred execution's requeue for after the holder's lease is the net for a holder that died
            // (lib/reconcile/reconcile.ts deferralRequeueSeconds); it does not excuse a live holder's release
            // (invariant 6), which must re-run or hand off within its lease
            const owner = this.leaseOwner;
            const net = owner !== undefined && owner.holder !== inv.holder && due > owner.expiresAt;
            if (!net) this.lastRequeue = ++this.tick;
            this.bus.push({ request: req, due, retries: 0 });
          }),
      },
      log: silentLogger,
      holder: inv.holder,
      clock: () => this.clock.now,
      sleep: (ms) => inv.gate(async () => void (this.clock.now += ms)),
      deadlineMs: this.clock.now + BUDGET_MS,
      leaseDurationMs: LEASE_MS,
      maxInlineWaitSeconds: 10,
      maxPasses: 20,
      dirtyPollMs: 250,
      newInstanceId: () => this.reusable.shift() ?? idOf(this.ids++),
    };
    const run = this.reconcile(deps, request).then(
      () => 'returned' as const,
      (e: unknown) => e,
    );
    const crashed = inv.died.then(() => 'crashed' as const);
    const outcome = await Promise.race([run, crashed, inv.suspended.then(() => 'stalled' as const)]);
    if (outcome === 'stalled') {
      // a stalled process is not killed (no Lambda timeout: `kruiseless local`, a suspended process); the rest of
      // its execution is judged when it goes on (resumeStalls)
      const stall = this.stalls.find((x) => x.from === inv);
      if (stall)
        stall.rest = Promise.race([run, crashed]).then((o) =>
          this.ended(inv, request, retries, requestId, o),
        );
      return;
    }
    this.ended(inv, request, retries, requestId, outcome);
  }

  /** The checks at the end of an execution, and Lambda's retry of one that crashed or threw. */
  private ended(
    inv: Invocation,
    request: ReconcileRequest,
    retries: number,
    requestId: string,
    outcome: unknown,
  ): void {
    if (outcome === 'crashed') {
      // Lambda times the invocation out and retries it, under the same request id
      if (retries < MAX_RETRIES)
        this.bus.push({ request, due: this.clock.now + BUDGET_MS, retries: retries + 1, requestId });
      return;
    }
    if (outcome !== 'returned') {
      // every fault the model injects is backed off by the loop — a failed read (KubeApiError), a pass's DynamoDB
      // call and the lease's own acquire or release (StateStoreError; review finding 10) — so nothing may reach
      // Lambda's retries
      this.violation(`${inv.holder} threw ${String(outcome)}`);
      // the retry (or, after the last, the dead-letter queue) covers what was marked
      if (retries < MAX_RETRIES)
        this.bus.push({ request, due: this.clock.now + 1000, retries: retries + 1, requestId });
    } else if (this.unhandled.has(inv))
      this.violation(
        `${inv.holder} released the lease with an event unhandled: marked after its last read, no requeue since`,
      );
    const owner = this.leaseOwner;
    if (owner?.holder === inv.holder && owner.expiresAt > this.clock.now && !inv.leaseCallFailed)
      this.violation(`${inv.holder} returned holding the lease`);
  }

  /** Let the stalled invocations whose stall ended by `now` go on, and wait for the rest of their executions. */
  private async resumeStalls(now: number): Promise<void> {
    const due = this.stalls.filter((x) => x.until <= now);
    this.stalls = this.stalls.filter((x) => x.until > now);
    for (const x of due) {
      x.resume();
      await x.rest;
      while (this.live.length > 0) await Promise.all(this.live.splice(0));
    }
  }

  /** Deliver what is due, with this round's bus and invocation faults. */
  private async deliver(faults: readonly Fault[]): Promise<void> {
    const now = this.clock.now;
    let due = this.bus.filter((d) => d.due <= now).sort((a, b) => a.due - b.due);
    this.bus = this.bus.filter((d) => d.due > now);
    let concurrent = false;
    for (const f of faults) {
      if (f.on !== 'bus' || due.length === 0) continue;
      this.faults[`bus ${f.kind}`] = (this.faults[`bus ${f.kind}`] ?? 0) + 1;
      if (f.kind === 'outage') due = [];
      else if (f.kind === 'drop') due.shift();
      else if (f.kind === 'duplicate')
        due.push({ ...due[0], requestId: undefined }); // another invocation (EventBridge delivered twice)
      else if (f.kind === 'reorder') due = due.reverse();
      else if (f.kind === 'delay') this.bus.push({ ...due.shift()!, due: now + 15_000 });
      else concurrent = true;
    }
    let invocationFaults = faults.filter((f) => f.on !== 'bus');
    if (concurrent && due.length > 0) {
      // two executions overlap: the second starts at the first's first API write (mid-pass, so it marks the lease
      // after the first read the world); one delivery run twice at once keeps its request id (Lambda's
      // at-least-once execution of an asynchronous request)
      const [first, second = first] = due.splice(0, 2);
      const firstId = first.requestId ?? this.newRequestId();
      const secondId = second === first ? firstId : second.requestId;
      let started: Promise<void> | undefined;
      const start = () => (started ??= this.invoke(second.request, [], second.retries, secondId));
      await this.invoke(first.request, invocationFaults, first.retries, firstId, () => void start());
      await start();
      invocationFaults = [];
    }
    for (const d of due) {
      await this.invoke(d.request, invocationFaults, d.retries, d.requestId);
      invocationFaults = [];
    }
    while (this.live.length > 0) await Promise.all(this.live.splice(0));
  }

  private worldPrint(): string {
    const cs = this.cloneSet;
    return `${cs?.metadata.uid}:${cs?.metadata.resourceVersion}|${[...this.kube.pods.values()]
      .map((p) => `${p.metadata.name}@${p.metadata.resourceVersion}`)
      .join(',')}`;
  }

  /** Publish a reconcile request when the watch would have seen a change; the resync every 5 minutes. */
  private watch(): void {
    const print = this.worldPrint();
    if (print !== this.fingerprint) this.publish('OwnedObjectChanged');
    this.fingerprint = print;
    if (this.clock.now - this.lastResync >= RESYNC_MS) {
      this.lastResync = this.clock.now;
      this.publish('Resync');
    }
  }

  /** Apply the in-flight writes sent at or before `sentBy` (epoch ms): the API server's request timeout. */
  private async landInFlight(sentBy: number): Promise<void> {
    const landing = this.inFlight.filter((w) => w.sentAt <= sentBy);
    this.inFlight = this.inFlight.filter((w) => w.sentAt > sentBy);
    for (const w of landing) await w.apply();
  }

  /**
   * Put the event path in the loop (Scenario.events): changes reach the bus only through the real pump, resync
   * and admission (./eventPath.ts).
   * @returns the event path, started (its watch server listens); {@link closeEvents} stops it
   */
  async withEvents(admission: boolean, mutant?: EventMutantKind): Promise<EventPath> {
    this.events = new EventPath(
      {
        kube: this.kube,
        now: () => this.clock.now,
        enqueue: (requests) => {
          for (const request of requests) this.bus.push({ request, due: this.clock.now, retries: 0 });
        },
        violation: (what) => this.violation(what),
        fired: (kind) => void (this.faults[kind] = (this.faults[kind] ?? 0) + 1),
      },
      admission,
      mutant,
    );
    await this.events.start();
    return this.events;
  }

  /** Stop the event path's pump runs and watch server. */
  async closeEvents(): Promise<void> {
    await this.events?.close();
  }

  /** Answer the faulty run's pod LISTs from the lagging watch cache (Scenario.staleLists). */
  lagLists(): void {
    this.staleLists = true;
  }

  /** One round: the clock moves, the garbage collector and the user act, events are delivered, the kubelet runs. */
  async round(r: Round): Promise<void> {
    this.clock.now += r.dt * 1000;
    await this.landInFlight(this.clock.now - IN_FLIGHT_MS);
    await this.resumeStalls(this.clock.now);
    if (this.staleLists) {
      this.cache.pods.clear();
      for (const [k, p] of this.kube.pods) this.cache.pods.set(k, structuredClone(p));
    }
    this.collectGarbage();
    if (r.action) await this.act(r.action);
    if (this.events) await this.events.step(r.events ?? [], this.faultsOn);
    else this.watch();
    await this.deliver(this.faultsOn ? r.faults : []);
    await this.kubelet();
    if (!this.events) this.watch();
    this.kube.journal.length = 0;
    this.kube.events.length = 0;
  }

  /**
   * Faults off, every pod healthy, every hook released: resync until two rounds in a row change nothing while no
   * expectation is pending and no scale-down intent is recorded.
   * @returns whether that happened within {@link SETTLE_ROUNDS} rounds, and after how many
   */
  async settle(): Promise<{ converged: boolean; rounds: number }> {
    this.faultsOn = false;
    await this.landInFlight(Infinity);
    this.unhealthy.clear();
    this.clock.now += LEASE_MS + 1000; // the lease of a dead invocation runs out
    let quiet = 0;
    const settleFrom = this.clock.now;
    for (let i = 1; i <= SETTLE_ROUNDS; i++) {
      // with the event path, a lost delivery waits for the 5-minute resync: rounds of 30 s reach it in 10
      this.clock.now += this.events ? 30_000 : 5000;
      // a stalled holder goes on when its stall ends, faults off or not (it stalled before they stopped)
      await this.resumeStalls(this.clock.now);
      this.collectGarbage();
      await this.releaseHooks(this.owned());
      await this.kubelet();
      const print = this.worldPrint();
      const writes = this.appliedWrites;
      // with the event path, only its pump and scheduled resync publish: a lost event shows as no convergence
      if (this.events) await this.events.step([], false);
      else this.publish('Resync');
      await this.deliver([]);
      await this.kubelet();
      this.kube.journal.length = 0;
      this.kube.events.length = 0;
      const idle =
        this.stalls.length === 0 &&
        isSatisfied(await this.raw.expectations.get(KEY)) &&
        !(await this.raw.ledger.get(KEY)) &&
        (!this.events ||
          (this.bus.length === 0 &&
            this.events.unpublished() === 0 &&
            this.events.lastResyncAt > settleFrom));
      quiet = idle && writes === this.appliedWrites && print === this.worldPrint() ? quiet + 1 : 0;
      if (quiet >= 2) return { converged: true, rounds: i };
    }
    return { converged: false, rounds: SETTLE_ROUNDS };
  }

  result(rounds: number, settled: { converged: boolean; rounds: number }): RunResult {
    const cs = this.cloneSet;
    return {
      rounds,
      invocations: this.invocations,
      holders: [...this.holders],
      faults: { ...this.faults },
      violations: [...this.violations],
      converged: settled.converged,
      settleRounds: settled.rounds,
      projection: projectionOf(cs, this.owned(), this.unhealthy),
      bounds: cs ? boundsOf(cs) : { replicas: 0, maxSurge: 0, maxUnavailable: 0, partition: 0 },
    };
  }
}

/** Run a scenario, with or without its faults, then resync to quiescence. */
export async function runScenario(
  s: Scenario,
  faultsOn: boolean,
  options: SimOptions | typeof reconcileCloneSet = {},
): Promise<RunResult> {
  const sim = new Simulation(
    s.spec,
    faultsOn,
    typeof options === 'function' ? { reconcile: options } : options,
  );
  if (s.staleLists) sim.lagLists();
  const opts = typeof options === 'function' ? {} : options;
  if (s.events) await sim.withEvents(s.events.admission, faultsOn ? opts.eventMutant : undefined);
  try {
    for (const r of s.rounds) await sim.round(r);
    return sim.result(s.rounds.length, await sim.settle());
  } finally {
    await sim.closeEvents();
  }
}

/** A scenario's verdict: its faulty run, its fault-free run, and where their outcomes differ. */
export interface Verdict {
  faulty: RunResult;
  clean: RunResult;
  divergence: string[];
}

/**
 * Run a scenario with its faults and without, and compare the quiescent outcomes.
 * @param options for the faulty run (the fault-free twin always runs on fresh in-memory stores, unmutated)
 */
export async function checkScenario(s: Scenario, options: SimOptions = {}): Promise<Verdict> {
  const faulty = await runScenario(s, true, options);
  const clean = await runScenario(s, false);
  return { faulty, clean, divergence: compareProjections(faulty.projection, clean.projection, clean.bounds) };
}
