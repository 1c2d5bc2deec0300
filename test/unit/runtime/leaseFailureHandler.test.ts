/**
 * A lease `acquire`/`release` that fails in DynamoDB, through the reconcile handler on the embedded path
 * (`kruiseless local`: the in-process bus with Lambda's two retries and its dead-letter path, the local requeue
 * timers, the handler's metrics): nothing reaches the dead-letter path, the key is requeued, the failure is logged
 * and counted (review finding 10, docs/reliability.md#backoff).
 */
import { describe, expect, it } from '@jest/globals';
import { METRIC } from '../../../lib/core/metrics.js';
import { LocalBus } from '../../../lib/emulator/bus.js';
import { LocalRequeueScheduler, type Timers } from '../../../lib/emulator/localRequeue.js';
import { DETAIL_TYPE, SOURCE } from '../../../lib/requests/schema.js';
import { reconcileHandler } from '../../../lib/runtime/handlers/reconcile.js';
import { MemoryMetrics } from '../../../lib/runtime/metrics.js';
import type { Runtime } from '../../../lib/runtime/types.js';
import { StateStoreError } from '../../../lib/state/errors.js';
import { createMemoryStores, type LeaseStore, type StateStores } from '../../../lib/state/index.js';
import { RecordingKube } from '../controllers/cloneset/reconcile/support/recordingKube.js';
import { seedCloneSet, T0 } from '../controllers/cloneset/reconcile/support/harness.js';
import { CapturingLogger } from '../support/capturingLogger.js';

const THROTTLED = Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
  name: 'ProvisionedThroughputExceededException',
});

/** The embedded wiring of lib/local/embedded.ts around `leases`, with timers and a clock the test holds. */
function embedded(failing: 'acquire' | 'release') {
  const stores = createMemoryStores();
  const calls: string[] = [];
  const leases: LeaseStore = {
    acquire: (...args) => {
      calls.push('acquire');
      if (failing === 'acquire')
        return Promise.reject(new StateStoreError('lease.acquire (UpdateItem)', 'lease', THROTTLED));
      return stores.leases.acquire(...args);
    },
    renew: (...args) => stores.leases.renew(...args),
    takeDirty: (...args) => stores.leases.takeDirty(...args),
    release: (...args) => {
      calls.push('release');
      if (failing === 'release')
        return Promise.reject(new StateStoreError('lease.release (UpdateItem)', 'lease', THROTTLED));
      return stores.leases.release(...args);
    },
  };
  const now = { ms: T0 };
  const kube = new RecordingKube([], () => new Date(now.ms));
  const cs = seedCloneSet();
  kube.apply(cs);
  const timers: { ms: number }[] = [];
  const fakeTimers: Timers = {
    setTimeout: (_callback, ms) => timers.push({ ms }),
    clearTimeout: () => undefined,
  };
  const logger = new CapturingLogger();
  const metrics = new MemoryMetrics();
  // the runtime is complete before the first delivery (as in lib/local/embedded.ts)
  const handler = reconcileHandler(() => runtime, logger);
  const bus = new LocalBus({
    rules: [
      {
        name: 'reconcile',
        eventPattern: { source: [SOURCE], 'detail-type': [DETAIL_TYPE] },
        target: async (event) => void (await handler(event)),
      },
    ],
  });
  const requeue = new LocalRequeueScheduler({ publisher: bus, timers: fakeTimers, clock: () => now.ms });
  const runtime: Runtime = {
    // the reconcile handler reads these three stores only
    stores: { ...stores, leases } as StateStores,
    publisher: bus,
    requeue,
    metrics,
    clusterNames: async () => ['test'],
    cluster: async (name) => ({ name, kube, kc: undefined as never }),
    admissionSecret: async () => undefined,
  };
  const request = {
    version: 2 as const,
    cluster: 'test',
    kind: 'apps.kruise.io/CloneSet',
    namespace: cs.metadata.namespace!,
    name: cs.metadata.name!,
    reason: 'ObjectChanged' as const,
  };
  return { bus, calls, timers, logger, metrics, requeue, request };
}

describe('reconcile handler, embedded path: a lease call failing in DynamoDB', () => {
  it.each([
    ['acquire', ['acquire'], 1],
    ['release', ['acquire', 'release'], undefined],
  ] as const)(
    'a failed %s: one delivery, no dead letter, one requeue timer, logged and counted',
    async (failing, calls, seconds) => {
      const e = embedded(failing);
      await e.bus.publish([e.request]);
      await e.bus.drain();
      expect(e.bus.deadLetters).toEqual([]);
      expect(e.calls).toEqual(calls);
      expect(e.requeue.size).toBe(1);
      if (seconds !== undefined) expect(e.timers).toEqual([{ ms: seconds * 1000 }]);
      const warned = e.logger.lines.filter((l) => l.level === 'WARN').map((l) => l.message);
      expect(warned).toEqual([expect.stringContaining(`lease ${failing} failed`)]);
      const finished = e.logger.lines.find((l) => l.message === 'reconcile finished');
      expect(finished).toMatchObject({ leaseFailure: failing, error: expect.stringContaining('Throughput') });
      expect(e.metrics.total(METRIC.reconcileTotal, { result: 'error' })).toBe(1);
      expect(e.metrics.total(METRIC.reconcileErrors)).toBe(1);
      expect(e.metrics.total(METRIC.workqueueRetries)).toBe(1);
      expect(e.metrics.total(METRIC.leaseFailures, { operation: failing })).toBe(1);
    },
  );
});
