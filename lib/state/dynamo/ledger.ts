/**
 * The scale-down ledger (docs/architecture.md#ledger): item `obj#<cluster>#<group>/<Kind>#<ns>#<name>` / `scaledown`. Before deleting (or
 * moving to PreparingDelete) the chosen pods are written down with the reason for each; a retried or successor
 * invocation finishes that intent instead of choosing new victims. The item also carries `fence` (token of the
 * last writer) and `ttl` (epoch s, 1 day after the last write; GC only).
 */
import * as z from 'zod';
import { FencedOutError } from '../errors.js';
import { FENCE_CONDITION, fencedPut } from './fence.js';
import { objectKeyString, itemKey, SK } from '../itemKeys.js';
import type { ObjectKey } from '../../core/objectKey.js';
import type { Lease, ScaleDownIntent, ScaleDownLedger } from '../ports.js';
import { decodeItem, gcTtl, type StateTable } from './table.js';

const IntentItem = z.object({
  intentId: z.string().optional(),
  createdAt: z.number().optional(),
  pods: z.array(z.object({ name: z.string(), uid: z.string(), reason: z.string() })).optional(),
  generation: z.number().optional(),
  ownerUid: z.string().optional(),
  fence: z.number().optional(),
});

/** {@link ScaleDownLedger} on the state table. */
export class DynamoScaleDownLedger implements ScaleDownLedger {
  constructor(private readonly table: StateTable) {}

  async get(key: ObjectKey): Promise<ScaleDownIntent | undefined> {
    const op = 'ledger.get';
    const pk = objectKeyString(key);
    const item = await this.table.get(op, pk, SK.scaledown);
    if (!item) return undefined;
    const i = decodeItem(IntentItem, item, op, pk, SK.scaledown);
    if (i.intentId === undefined) return undefined;
    return {
      intentId: i.intentId,
      createdAt: i.createdAt ?? 0,
      pods: (i.pods ?? []).map((p) => ({ name: p.name, uid: p.uid, reason: p.reason })),
      ...(i.generation !== undefined ? { generation: i.generation } : {}),
      ...(i.ownerUid !== undefined ? { ownerUid: i.ownerUid } : {}),
    };
  }

  async record(lease: Lease, intent: ScaleDownIntent): Promise<void> {
    const pk = objectKeyString(lease.key);
    await fencedPut({ table: this.table, operation: 'ledger.record', pk, sk: SK.scaledown }, lease.token, {
      intentId: intent.intentId,
      createdAt: intent.createdAt,
      pods: intent.pods.map((p) => ({ name: p.name, uid: p.uid, reason: p.reason })),
      ...(intent.generation !== undefined ? { generation: intent.generation } : {}),
      ...(intent.ownerUid !== undefined ? { ownerUid: intent.ownerUid } : {}),
    });
  }

  async clear(lease: Lease, intentId: string): Promise<void> {
    const op = 'ledger.clear';
    const pk = objectKeyString(lease.key);
    const res = await this.table.update(
      op,
      pk,
      SK.scaledown,
      'REMOVE #intentId, #createdAt, #pods, #generation, #ownerUid SET #fence = :token, #ttl = :ttl',
      {
        condition: `#intentId = :id AND (${FENCE_CONDITION})`,
        names: {
          '#intentId': 'intentId',
          '#createdAt': 'createdAt',
          '#pods': 'pods',
          '#generation': 'generation',
          '#ownerUid': 'ownerUid',
          '#fence': 'fence',
          '#ttl': 'ttl',
        },
        values: { ':id': intentId, ':token': lease.token, ':ttl': gcTtl(this.table.clock()) },
      },
    );
    if (res.ok) return;
    // The condition failed: tell "fenced out" from "another or no intent" (dynalite does not implement
    // ReturnValuesOnConditionCheckFailure, so read the item).
    const item = await this.table.get(op, pk, SK.scaledown);
    const stored = item ? decodeItem(IntentItem, item, op, pk, SK.scaledown) : undefined;
    if (stored?.fence !== undefined && stored.fence > lease.token)
      throw new FencedOutError(
        op,
        itemKey(pk, SK.scaledown),
        lease.token,
        'a newer lease holder wrote this item',
      );
  }
}
