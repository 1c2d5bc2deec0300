/**
 * Builds a reconcile invocation over the recording API server and the in-memory state stores, with a clock the
 * test drives. Test-only.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { CloneSet } from '../../../../../../lib/api/types.js';
import type { ReconcileRequest, RequeueScheduler } from '../../../../../../lib/requests/index.js';
import { silentLogger } from '../../../../../../lib/core/logger.js';
import type { ReconcileDeps } from '../../../../../../lib/controllers/cloneset/index.js';
import { createMemoryStores, type MemoryStores } from '../../../../../../lib/state/index.js';
import { RecordingKube, recordingStores, type Journal } from './recordingKube.js';

export const NAMESPACE = 'default';
export const T0 = Date.parse('2024-05-01T08:00:00Z');

/** The seed CloneSet of examples/cs-no-pvc-sample.yaml, in `default`. */
export function seedCloneSet(): CloneSet {
  const cs = parse(
    readFileSync(new URL('../../../../../../examples/cs-no-pvc-sample.yaml', import.meta.url), 'utf8'),
  ) as CloneSet;
  cs.metadata.namespace = NAMESPACE;
  return cs;
}

/** The reconcile request for the seed CloneSet. */
export const REQUEST: ReconcileRequest = {
  version: 2,
  cluster: 'test',
  kind: 'apps.kruise.io/CloneSet',
  namespace: NAMESPACE,
  name: 'cs-no-pvc-sample',
  reason: 'ObjectChanged',
};

/** Everything a test drives or reads. */
export interface Harness {
  journal: Journal;
  kube: RecordingKube;
  /** The raw (unrecorded) stores, for setting up state behind the reconciler's back. */
  stores: MemoryStores;
  requeues: { seconds: number }[];
  clock: { now: number };
  deps: (overrides?: Partial<ReconcileDeps>) => ReconcileDeps;
}

/** A fresh harness; instance ids are handed out as `aaaaa`, `bbbbb`, … */
export function harness(): Harness {
  const journal: Journal = [];
  const clock = { now: T0 };
  const kube = new RecordingKube(journal, () => new Date(clock.now));
  const stores = createMemoryStores();
  const recorded = recordingStores(stores, journal, { expectations: true });
  const requeues: { seconds: number }[] = [];
  const requeue: RequeueScheduler = {
    async requeueAfter(_request, seconds) {
      journal.push(`requeue ${seconds}s`);
      requeues.push({ seconds });
    },
  };
  let id = 0;
  return {
    journal,
    kube,
    stores,
    requeues,
    clock,
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
      deadlineMs: T0 + 60_000,
      leaseDurationMs: 120_000,
      maxInlineWaitSeconds: 10,
      maxPasses: 20,
      newInstanceId: () => String.fromCharCode(97 + (id++ % 26)).repeat(5),
      ...overrides,
    }),
  };
}
