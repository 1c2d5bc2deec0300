/**
 * Known mutants of the randomized fault test (docs/reliability.md#randomized-fault-test): each a deliberate defect
 * of the lease protocol, the bookkeeping or the executor, injected as a test double around the real in-memory
 * stores or the in-memory API server — never a switch in lib/. `npm run test:chaos -- --mutants` runs them all and
 * says how many the checks caught; the unit suite runs a quick subset (chaos.test.ts). Test-only.
 */
import type { KubeObject, KubeClient } from '../../../../../../lib/kube/types.js';
import { classifyWriteError } from '../../../../../../lib/kube/errors.js';
import { RESOURCES } from '../../../../../../lib/kube/resources.js';
import {
  FencedOutError,
  type ExpectationStore,
  type Expectations,
  type LeaseStore,
  type ScaleDownIntent,
  type ScaleDownLedger,
} from '../../../../../../lib/state/index.js';

/** The per-object stores a run uses. */
export interface ChaosStores {
  leases: LeaseStore;
  expectations: ExpectationStore;
  ledger: ScaleDownLedger;
}

/**
 * How a mutant changes the stores (once per run) and the API server (per invocation, given the invocation's lease
 * holder `<requestId>/<execution>` and whether it is still alive: a write of a dead invocation that lands late runs
 * the mutant's code around it too, but a dead invocation sends nothing after it).
 */
export interface MutantParts {
  stores?(real: ChaosStores): ChaosStores;
  kube?(real: KubeClient, holder: string, alive: () => boolean): KubeClient;
}

/** A deliberate defect; `parts()` is called once per run, so parts of one run may share state. */
export interface Mutant {
  name: string;
  parts(): MutantParts;
}

const empty = (): Expectations => ({ creates: [], deletes: [], updates: [] });

/** The lease store with `over` replacing some of its calls. */
function leasesWith(real: LeaseStore, over: Partial<LeaseStore>): LeaseStore {
  return {
    acquire: over.acquire ?? ((...a) => real.acquire(...a)),
    renew: over.renew ?? ((...a) => real.renew(...a)),
    release: over.release ?? ((...a) => real.release(...a)),
    takeDirty: over.takeDirty ?? ((...a) => real.takeDirty(...a)),
  };
}

/** `kube` with `over` replacing some of its calls. */
function kubeWith(real: KubeClient, over: Partial<KubeClient>): KubeClient {
  return {
    get: (r, ref) => real.get(r, ref),
    list: (r, o) => real.list(r, o),
    create: (r, o) => real.create(r, o),
    replace: (r, o, opts) => real.replace(r, o, opts),
    patch: (r, ref, p, o) => real.patch(r, ref, p, o),
    delete: (r, ref, p) => real.delete(r, ref, p),
    recordEvent: (r, o, e, opts) => real.recordEvent(r, o, e, opts),
    serverVersion: () => real.serverVersion(),
    ...over,
  };
}

export const MUTANTS: readonly Mutant[] = [
  {
    name: 'acquire grants a live lease',
    parts: () => ({
      stores: (real) => ({
        ...real,
        leases: leasesWith(real.leases, {
          async acquire(key, holder, durationMs, nowMs) {
            const r = await real.leases.acquire(key, holder, durationMs, nowMs);
            // taken as if it were ours: the live holder's id takes it again (token + 1, fences raised)
            return r.acquired ? r : real.leases.acquire(key, r.heldBy, durationMs, nowMs);
          },
        }),
      }),
    }),
  },
  {
    name: 'no fence raise on takeover (bookkeeping writes unfenced)',
    parts: () => ({
      stores: (real) => {
        let expectations = empty();
        let intent: ScaleDownIntent | undefined;
        return {
          leases: real.leases,
          expectations: {
            get: async () => structuredClone(expectations),
            put: async (_lease, e) => void (expectations = structuredClone(e)),
          },
          ledger: {
            get: async () => (intent ? structuredClone(intent) : undefined),
            record: async (_lease, i) => void (intent = structuredClone(i)),
            clear: async (_lease, id) => void (intent?.intentId === id ? (intent = undefined) : undefined),
          },
        };
      },
    }),
  },
  {
    name: 'lease released without the dirty check',
    parts: () => ({
      stores: (real) => ({
        ...real,
        leases: leasesWith(real.leases, {
          release: (lease, failures) => real.leases.release(lease, failures, { requeued: true }),
        }),
      }),
    }),
  },
  {
    name: 'renew without its expiry condition (revives a released lease)',
    parts: () => ({
      stores: (real) => ({
        ...real,
        leases: leasesWith(real.leases, {
          async renew(lease, durationMs, nowMs) {
            try {
              return await real.leases.renew(lease, durationMs, nowMs);
            } catch (e) {
              if (!(e instanceof FencedOutError)) throw e;
              const again = await real.leases.acquire(lease.key, lease.holder, durationMs, nowMs);
              if (!again.acquired) throw e;
              return again.lease;
            }
          },
        }),
      }),
    }),
  },
  {
    name: 'expectations cleared early (never read back)',
    parts: () => ({
      stores: (real) => ({ ...real, expectations: { ...real.expectations, get: async () => empty() } }),
    }),
  },
  {
    name: 'the scale-down ledger skipped (recorded, never read back)',
    parts: () => ({
      stores: (real) => ({
        ...real,
        // recorded (and fenced) as before, but never read back: a successor plans anew instead of finishing it
        ledger: { ...real.ledger, get: async () => undefined },
      }),
    }),
  },
  {
    name: 'Writer.create treats every AlreadyExists as ours',
    parts: () => ({
      kube: (real) =>
        kubeWith(real, {
          async create<T extends KubeObject>(resource: Parameters<KubeClient['create']>[0], object: T) {
            try {
              return await real.create(resource, object);
            } catch (e) {
              if (classifyWriteError(e) !== 'alreadyExists') throw e;
              return object;
            }
          },
        } as Partial<KubeClient>),
    }),
  },
  {
    name: 'deleteInstance puts its expectations after the delete',
    parts: () => {
      // the expectations put that announces a pod delete is held back until that invocation sent that delete; held
      // per lease holder, so one invocation's put is never sent by another's delete (a put after the delete is the
      // deleting invocation's own write), and dropped when its delete is never sent
      const held = new Map<string, { put: () => Promise<void>; names: Set<string> }>();
      let stored = empty();
      return {
        stores: (real) => ({
          ...real,
          expectations: {
            get: (key) => real.expectations.get(key),
            async put(lease, e) {
              const known = new Set(stored.deletes.map((d) => d.name));
              const added = e.deletes.filter((d) => !known.has(d.name)).map((d) => d.name);
              stored = structuredClone(e);
              if (added.length === 0) {
                held.delete(lease.holder);
                return real.expectations.put(lease, e);
              }
              held.set(lease.holder, { put: () => real.expectations.put(lease, e), names: new Set(added) });
            },
          },
        }),
        kube: (real, holder, alive) =>
          kubeWith(real, {
            async delete(resource, ref, preconditions) {
              await real.delete(resource, ref, preconditions);
              const mine = held.get(holder);
              // a delete in flight when its sender died lands without it: the held put is never sent
              if (mine?.names.has(ref.name) && alive()) {
                held.delete(holder);
                await mine.put();
              }
            },
          }),
      };
    },
  },
];

/** The pods resource, for mutants that only touch pod writes. */
export const PODS = RESOURCES.pods;
