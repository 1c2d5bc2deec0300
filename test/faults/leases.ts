/**
 * The leases a run left in the state table: after a run settled, every lease of its namespace must be released
 * (docs/architecture.md#lease: "an invocation that has returned holds no lease"). Read with a Scan of the local
 * table (a test table of a few hundred items; production never scans for this).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { RELEASED_AT } from '../../lib/state/leaseProtocol.js';
import { SK } from '../../lib/state/itemKeys.js';

/** A lease item still held. */
export interface HeldLease {
  pk: string;
  holder: string;
  /** epoch ms */
  expiresAt: number;
}

/**
 * Leases of objects in `namespace` held at `nowMs` (not released, not run out).
 * @throws the Scan's error
 */
export async function heldLeases(
  client: DynamoDBClient,
  table: string,
  namespace: string,
  nowMs: number,
): Promise<HeldLease[]> {
  const doc = DynamoDBDocumentClient.from(client);
  const held: HeldLease[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      const pk = String(item.pk);
      if (item.sk !== SK.lease || !pk.split('#').includes(namespace)) continue;
      const expiresAt = Number(item.expiresAt);
      if (expiresAt !== RELEASED_AT && expiresAt > nowMs)
        held.push({ pk, holder: String(item.holder), expiresAt });
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return held;
}
