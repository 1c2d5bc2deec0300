/**
 * The counted capacity model (docs/reliability.md#dynamodb-capacity): a 1,000-pod CloneSet scaled up, rolled out in
 * place, rolled out by recreation and scaled down to zero by the real reconciler (planner, executor, the DynamoDB
 * state adapter) over the recording in-memory API server, with the state table on dynalite or moto behind the
 * capacity-enforcing client (test/support/dynamoCapacity). Test-only.
 *
 * Time is simulated. By default it is pessimistic: every DynamoDB request takes {@link ModelOptions.dynamoLatencyMs}
 * and the API server answers at once, so the writes of a pass are as close together as DynamoDB's own latency
 * allows — a real API server (tens of ms per write) only spreads them further. {@link ModelOptions.apiWriteLatencyMs}
 * gives API writes a duration too (reads stay instant). Between invocations the kubelet starts every pod and 1 s
 * passes.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { CloneSet } from '../../../lib/api/types.js';
import { DEFAULT_WRITE_CONCURRENCY } from '../../../lib/core/bounded.js';
import type { KubeClient, Resource } from '../../../lib/kube/types.js';
import { errorMessage } from '../../../lib/core/errors.js';
import { silentLogger } from '../../../lib/core/logger.js';
import { reconcileCloneSet, type ReconcileDeps } from '../../../lib/controllers/cloneset/index.js';
import type { ReconcileRequest, RequeueScheduler } from '../../../lib/requests/index.js';
import { createStateStores } from '../../../lib/state/index.js';
import { enforceCapacity } from '../../support/dynamoCapacity/middleware.js';
import type { CapacityStats } from '../../support/dynamoCapacity/meter.js';
import { RecordingKube } from '../../unit/controllers/cloneset/reconcile/support/recordingKube.js';
import { REQUEST, seedCloneSet, T0 } from '../../unit/controllers/cloneset/reconcile/support/harness.js';

/** How the model runs. */
export interface ModelOptions {
  /** A new client of the DynamoDB server (one is metered per phase); `raw` a client that is never metered. */
  client: () => DynamoDBClient;
  raw: DynamoDBClient;
  /** An existing state table. */
  tableName: string;
  /** Refuse requests over a limit (the after-figures) or only count them (the before-figures). */
  enforce: boolean;
  /** Pods of the CloneSet; default 1,000. */
  replicas?: number;
  /** Simulated time each DynamoDB request takes, ms; default 5. */
  dynamoLatencyMs?: number;
  /**
   * Simulated time each API-server write takes, ms; default 0 (an instant API server). Pod creates and patches,
   * which the executor sends {@link DEFAULT_WRITE_CONCURRENCY} at a time, take a share of it each (a full wave of
   * them takes it once; a partial wave less, which errs towards higher rates); every other write is sequential.
   */
  apiWriteLatencyMs?: number;
  /** Called with each phase's figures as it ends (progress for long runs). */
  onPhase?: (figures: PhaseFigures) => void;
}

/** What one phase cost, from the meter. */
export interface PhaseFigures {
  phase: 'scale-up' | 'in-place rollout' | 'recreate rollout' | 'scale-down';
  /** Reconcile invocations until the phase was done. */
  invocations: number;
  /** DynamoDB requests (attempts) by command. */
  calls: Record<string, number>;
  /** Writes and WCU per item of the CloneSet, by sort key. */
  writesBySk: Record<string, { writes: number; wcu: number }>;
  stats: CapacityStats;
}

/** A 36-character UID, distinct per `n`, as the API server gives them. */
const uid = (n: number): string => {
  const h = n.toString(16).padStart(32, '0');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/** A 5-letter instance id, distinct per `n` (CloneSet's random suffix). */
const instanceId = (n: number): string =>
  Array.from({ length: 5 }, (_, i) => String.fromCharCode(97 + (Math.floor(n / 26 ** i) % 26))).join('');

/**
 * Runs the four phases one after another on one CloneSet.
 * @returns the figures of each phase, in order
 * @throws Error when a phase does not finish within 300 invocations, or an invocation fails
 */
export async function runCapacityModel(opts: ModelOptions): Promise<PhaseFigures[]> {
  const replicas = opts.replicas ?? 1000;
  const latency = opts.dynamoLatencyMs ?? 5;
  const clock = { now: T0 };
  let uids = 0;
  let ids = 0;
  let invocation = 0;
  const kube = new RecordingKube(
    [],
    () => new Date(clock.now),
    () => uid(++uids),
  );
  const apiMs = opts.apiWriteLatencyMs ?? 0;
  const WRITES = new Set(['create', 'replace', 'patch', 'delete', 'recordEvent']);
  // the reconciler's view of the API server: each write advances the clock once it returns
  const timedKube = new Proxy(kube, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== 'string' || !WRITES.has(prop) || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          const pods = (args[0] as Resource).plural === 'pods' && (prop === 'create' || prop === 'patch');
          clock.now += pods ? apiMs / DEFAULT_WRITE_CONCURRENCY : apiMs;
        }
      };
    },
  }) as KubeClient;
  const requeue: RequeueScheduler = { requeueAfter: async () => undefined };
  const request: ReconcileRequest = REQUEST;
  const cloneSet = (): CloneSet => {
    const cs = kube.cloneSets.get(request.name);
    if (!cs) throw new Error('the CloneSet is gone');
    return cs;
  };
  const edit = (change: (cs: CloneSet) => void) => {
    const cs = structuredClone(cloneSet());
    change(cs);
    kube.apply(cs);
  };
  const settled = () => {
    const s = cloneSet().status;
    return (
      s !== undefined &&
      s.observedGeneration === cloneSet().metadata.generation &&
      kube.pods.size === replicas &&
      s.replicas === replicas &&
      s.readyReplicas === replicas &&
      s.updatedReadyReplicas === replicas
    );
  };

  const phase = async (name: PhaseFigures['phase'], done: () => boolean): Promise<PhaseFigures> => {
    const client = opts.client();
    const { meter, calls } = enforceCapacity(client, {
      raw: opts.raw,
      clock: () => clock.now,
      enforce: opts.enforce,
      onRequest: () => {
        clock.now += latency;
      },
    });
    const stores = createStateStores({ client, tableName: opts.tableName, clock: () => clock.now });
    const deps = (): ReconcileDeps => ({
      kube: timedKube,
      leases: stores.leases,
      expectations: stores.expectations,
      ledger: stores.ledger,
      requeue,
      log: silentLogger,
      holder: `inv-${++invocation}`,
      clock: () => clock.now,
      sleep: async (ms) => {
        clock.now += ms;
      },
      deadlineMs: clock.now + 60_000,
      leaseDurationMs: 120_000,
      maxInlineWaitSeconds: 10,
      maxPasses: 20,
      // as the reconcile handler polls (lib/runtime/handlers/reconcile.ts): the polls' reads are in the figures
      dirtyPollMs: 250,
      newInstanceId: () => instanceId(ids++),
    });
    let invocations = 0;
    while (!done()) {
      if (++invocations > 300) throw new Error(`${name} did not finish in 300 invocations`);
      const out = await reconcileCloneSet(deps(), request).catch((e: unknown) => {
        throw new Error(`${name}: invocation ${invocations} threw: ${errorMessage(e)}`, { cause: e });
      });
      if (out.error) throw new Error(`${name}: invocation ${invocations} failed: ${out.error}`);
      kube.kubelet();
      clock.now += 1000;
    }
    const writesBySk: PhaseFigures['writesBySk'] = {};
    for (const [item, used] of Object.entries(meter.stats.byItem)) {
      if (used.requests.write === 0) continue;
      writesBySk[item.slice(item.lastIndexOf('/') + 1)] = {
        writes: used.requests.write,
        wcu: used.units.write,
      };
    }
    const figures = {
      phase: name,
      invocations,
      calls: { ...calls },
      writesBySk,
      stats: structuredClone(meter.stats),
    };
    opts.onPhase?.(figures);
    return figures;
  };

  const figures: PhaseFigures[] = [];
  const seed = seedCloneSet();
  seed.spec.replicas = replicas;
  kube.apply(seed);
  figures.push(await phase('scale-up', settled));
  edit((cs) => {
    cs.spec.template.spec.containers[0].image = 'nginx:1.19-alpine';
  });
  figures.push(await phase('in-place rollout', settled));
  edit((cs) => {
    cs.spec.updateStrategy = { type: 'ReCreate' };
    cs.spec.template.spec.containers[0].image = 'nginx:1.20-alpine';
  });
  figures.push(await phase('recreate rollout', settled));
  edit((cs) => {
    cs.spec.replicas = 0;
  });
  figures.push(await phase('scale-down', () => kube.pods.size === 0 && cloneSet().status?.replicas === 0));
  return figures;
}

/** One line per phase: the figures docs/reliability.md#dynamodb-capacity quotes. */
export function formatFigures(figures: readonly PhaseFigures[]): string {
  return figures
    .map((f) => {
      const s = f.stats;
      const items = Object.entries(f.writesBySk)
        .map(([sk, w]) => `${sk} ${w.writes}×/${w.wcu} WCU`)
        .join(', ');
      return (
        `${f.phase}: ${f.invocations} invocations; WCU total ${s.total.write}, peak/s per item ${s.peakPerItem.write} ` +
        `(${s.peakItem.write.slice(s.peakItem.write.lastIndexOf('/') + 1)}), per partition ${s.peakPerPartition.write}; ` +
        `RCU total ${s.total.read}, peak/s per partition ${s.peakPerPartition.read}; largest item ${s.largestItemBytes} B; ` +
        `throttled ${s.throttled.write + s.throttled.read}; writes: ${items}`
      );
    })
    .join('\n');
}
