/**
 * lib/state: the DynamoDB state of Kruiseless (DESIGN §2 steps 1, 3, 5 and §3): per-CloneSet lease,
 * expectations and scale-down ledger, the cluster registry and watch checkpoints, all in one table
 * (`pk` S, `sk` S, TTL attribute `ttl`) written with single-item conditional writes only.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoClusterRegistry, type ClusterRegistry } from './clusters.js';
import { DynamoExpectationStore, type ExpectationStore } from './expectations.js';
import { DynamoScaleDownLedger, type ScaleDownLedger } from './ledger.js';
import { DynamoLeaseStore, type LeaseStore } from './leases.js';
import { StateTable } from './table.js';
import { DynamoWatchCheckpoints, type WatchCheckpoints } from './watches.js';

export type { ClusterRecord, ClusterRegistry } from './clusters.js';
export { parseClusterRecord } from './clusters.js';
export {
  FencedOutError,
  InvalidClusterRecordError,
  InvalidStateKeyError,
  StateStoreError,
  type ClusterRecordIssue,
} from './errors.js';
export type { ExpectationStore, Expectations, PendingOp } from './expectations.js';
export { cloneSetKeyString, clusterKeyString, parseCloneSetKey, type CloneSetKey } from './keys.js';
export type { ScaleDownIntent, ScaleDownLedger } from './ledger.js';
export type { AcquireResult, Lease, LeaseStore } from './leases.js';
export { ensureTable } from './table.js';
export type { WatchCheckpoints } from './watches.js';

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
 * @param opts.tableName the state table (DESIGN §3)
 * @param opts.clock wall clock for the `ttl` (GC) of expectations and ledger items, epoch ms; default
 *   `Date.now`. Never used for correctness: leases take the caller's `nowMs`.
 * Creating the stores does no I/O; errors surface per call as StateStoreError.
 */
export function createStateStores(opts: {
  client: DynamoDBClient;
  tableName: string;
  clock?: () => number;
}): StateStores {
  const table = new StateTable(opts.client, opts.tableName, opts.clock);
  return {
    leases: new DynamoLeaseStore(table),
    expectations: new DynamoExpectationStore(table),
    ledger: new DynamoScaleDownLedger(table),
    clusters: new DynamoClusterRegistry(table),
    watches: new DynamoWatchCheckpoints(table),
  };
}
