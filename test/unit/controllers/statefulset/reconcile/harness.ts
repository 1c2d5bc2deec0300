/**
 * A reconcile invocation of the Advanced StatefulSet controller over the recording API server and the in-memory
 * state stores (the CloneSet tests' recording kube), with a clock the test drives. Test-only.
 */
import type { ReconcileRequest, RequeueScheduler } from '../../../../../lib/requests/index.js';
import { silentLogger } from '../../../../../lib/core/logger.js';
import type { StatefulSetReconcileDeps } from '../../../../../lib/controllers/statefulset/index.js';
import { STATEFULSET_RESOURCE } from '../../../../../lib/controllers/statefulset/api/resource.js';
import type { StatefulSet } from '../../../../../lib/controllers/statefulset/api/types.js';
import { createMemoryStores, type MemoryStores } from '../../../../../lib/state/index.js';
import {
  RecordingKube,
  recordingStores,
  type Journal,
} from '../../cloneset/reconcile/support/recordingKube.js';

export const NAMESPACE = 'default';
export const T0 = Date.parse('2024-05-01T08:00:00Z');

/** The reconcile request for the set `web`. */
export const REQUEST: ReconcileRequest = {
  version: 2,
  cluster: 'test',
  kind: 'apps.kruise.io/StatefulSet',
  namespace: NAMESPACE,
  name: 'web',
  reason: 'ObjectChanged',
};

/** `web`: 3 replicas of nginx, OrderedReady, a `data` volumeClaimTemplate, with `change` applied. */
export function webSet(change: (s: StatefulSet) => void = () => undefined): StatefulSet {
  const sts: StatefulSet = {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: NAMESPACE },
    spec: {
      replicas: 3,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25-alpine' }] },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
    },
  };
  change(sts);
  return sts;
}

/** Everything a test drives or reads. */
export interface Harness {
  journal: Journal;
  kube: RecordingKube;
  stores: MemoryStores;
  requeues: number[];
  clock: { now: number };
  /** Store the set as `kubectl apply` would (uid `sts-uid`, generation bumped, status kept). */
  apply(sts: StatefulSet): StatefulSet;
  sets(): Map<string, StatefulSet>;
  deps(overrides?: Partial<StatefulSetReconcileDeps>): StatefulSetReconcileDeps;
}

/** A fresh harness. */
export function harness(): Harness {
  const journal: Journal = [];
  const clock = { now: T0 };
  const kube = new RecordingKube(journal, () => new Date(clock.now));
  const stores = createMemoryStores();
  const recorded = recordingStores(stores, journal, { expectations: true });
  const requeues: number[] = [];
  const requeue: RequeueScheduler = {
    async requeueAfter(_request, seconds) {
      journal.push(`requeue ${seconds}s`);
      requeues.push(seconds);
    },
  };
  const sets = () => kube.objects(STATEFULSET_RESOURCE);
  return {
    journal,
    kube,
    stores,
    requeues,
    clock,
    sets,
    apply(sts) {
      const old = sets().get(sts.metadata.name ?? '');
      const stored = structuredClone(sts);
      stored.metadata.uid = 'sts-uid';
      stored.metadata.generation = (old?.metadata.generation ?? 0) + 1;
      stored.metadata.resourceVersion = String(Math.floor(Math.random() * 1e6));
      if (old?.status) stored.status = old.status;
      sets().set(sts.metadata.name ?? '', stored);
      return stored;
    },
    deps: (overrides = {}) => ({
      kube,
      ...recorded,
      requeue,
      log: silentLogger,
      holder: 'inv-1',
      clock: () => clock.now,
      sleep: async (ms) => {
        journal.push(`sleep ${ms}ms`);
        clock.now += ms;
      },
      deadlineMs: T0 + 600_000,
      leaseDurationMs: 120_000,
      maxInlineWaitSeconds: 10,
      maxPasses: 20,
      ...overrides,
    }),
  };
}
