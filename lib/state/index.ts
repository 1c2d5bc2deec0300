/**
 * lib/state: the DynamoDB state of Kruiseless (docs/architecture.md#lib-state): per-object lease,
 * expectations and scale-down ledger, the cluster registry and watch checkpoints, all in one table
 * (`pk` S, `sk` S, TTL attribute `ttl`) written with single-item conditional writes only.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Clock } from '../core/clock.js';
import { DynamoClusterRegistry, type ClusterRecordPolicy, type ClusterRegistry } from './clusters.js';
import { DynamoExpectationStore } from './dynamo/expectations.js';
import { DynamoScaleDownLedger } from './dynamo/ledger.js';
import { DynamoLeaseStore } from './dynamo/leases.js';
import { StateTable } from './dynamo/table.js';
import { DynamoWatchCheckpoints } from './dynamo/watches.js';
import type { ExpectationStore, LeaseStore, ScaleDownLedger, WatchCheckpoints } from './ports.js';

export type { ClusterRecord, ClusterRecordPolicy, ClusterRegistry } from './clusters.js';
export { eksEndpointProblem, parseClusterRecord } from './clusters.js';
export {
  FencedOutError,
  InvalidClusterRecordError,
  InvalidStateKeyError,
  StateStoreError,
} from './errors.js';
export type {
  AcquireResult,
  DirtyMark,
  DirtyMarks,
  ExpectationStore,
  Expectations,
  Lease,
  LeaseStore,
  PendingOp,
  ReleaseOptions,
  ScaleDownIntent,
  ScaleDownLedger,
  WatchCheckpoints,
} from './ports.js';
export type { ObjectKey } from '../core/objectKey.js';
export { clusterKeyString, objectKeyString, parseObjectKey, REGISTRY_PK } from './itemKeys.js';
export { ensureTable } from './dynamo/table.js';
export { createMemoryStores, type MemoryStores } from './memory.js';

/** Every state port, built on one table client. */
export interface StateStores {
  leases: LeaseStore;
  expectations: ExpectationStore;
  ledger: ScaleDownLedger;
  clusters: ClusterRegistry;
  watches: WatchCheckpoints;
}

/**
 * Builds all state stores on one table.
 * @param opts.client a DynamoDB client (region, credentials, endpoint are its concern)
 * @param opts.tableName the state table (docs/architecture.md#state-table)
 * @param opts.clock wall clock for the `ttl` (GC) of expectations and ledger items, epoch ms; default
 *   `Date.now`. Never used for correctness: leases take the caller's `nowMs`.
 * @param opts.clusters which cluster records the registry accepts, written or read (default: EKS endpoints only)
 * Creating the stores does no I/O; errors surface per call as StateStoreError.
 */
export function createStateStores(opts: {
  client: DynamoDBClient;
  tableName: string;
  clock?: Clock;
  clusters?: ClusterRecordPolicy;
}): StateStores {
  const table = new StateTable(opts.client, opts.tableName, opts.clock);
  return {
    leases: new DynamoLeaseStore(table),
    expectations: new DynamoExpectationStore(table),
    ledger: new DynamoScaleDownLedger(table),
    clusters: new DynamoClusterRegistry(table, opts.clusters),
    watches: new DynamoWatchCheckpoints(table),
  };
}
