/**
 * The address every conditional write of the state table's helpers takes (./leaseItem.ts, ./fence.ts): which
 * table and item, and the operation name its errors and metrics carry.
 */
import type { StateTable } from './table.js';

/** One item of the state table, written by one named operation. */
export interface ItemWrite {
  table: StateTable;
  /** The store operation, e.g. `lease.acquire` or `watch.save`: the `operation` of a StateStoreError. */
  operation: string;
  /** Partition key, e.g. `obj#prod#apps.kruise.io/CloneSet#shop#web` (lib/state/itemKeys.ts). */
  pk: string;
  /** Sort key, e.g. `lease` or `watches` (lib/state/itemKeys.ts `SK`). */
  sk: string;
}
