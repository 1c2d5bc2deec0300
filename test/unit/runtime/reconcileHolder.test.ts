/**
 * The reconcile handler's lease holder (review finding 3): one per execution, carrying the Lambda request id, so
 * two executions of one request id (Lambda's at-least-once delivery) never share a lease, while each can still
 * tell the other is of its own request (lib/reconcile/holder.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { CONTROLLERS } from '../../../lib/controllers/index.js';
import type { Controller } from '../../../lib/controllers/controller.js';
import { requestIdOfHolder } from '../../../lib/reconcile/holder.js';
import { DETAIL_TYPE, SOURCE } from '../../../lib/requests/schema.js';
import { reconcileHandler } from '../../../lib/runtime/handlers/reconcile.js';
import type { Runtime } from '../../../lib/runtime/types.js';
import { createMemoryStores } from '../../../lib/state/memory.js';
import { CapturingLogger } from '../support/capturingLogger.js';

describe('reconcile handler: the lease holder', () => {
  it('two executions of one request id get different holders, both of that request id', async () => {
    const holders: string[] = [];
    const [cloneSet] = CONTROLLERS;
    const recording: Controller = {
      ...cloneSet,
      reconcile: async (deps) => {
        holders.push(deps.holder);
        return { result: 'reconciled', passes: 0, writes: 0 };
      },
    };
    const runtime = {
      stores: createMemoryStores(),
      requeue: { requeueAfter: async () => undefined },
      cluster: async (name: string) => ({ name, kube: {} }),
    } as unknown as Runtime;
    const handler = reconcileHandler(() => runtime, new CapturingLogger(), [recording]);
    const event = {
      source: SOURCE,
      'detail-type': DETAIL_TYPE,
      detail: {
        version: 2,
        cluster: 'prod',
        kind: 'apps.kruise.io/CloneSet',
        namespace: 'shop',
        name: 'web',
        reason: 'ObjectChanged',
      },
    };
    const context = { awsRequestId: 'req-1', getRemainingTimeInMillis: () => 120_000 };
    await Promise.all([handler(event, context), handler(event, context)]);
    expect(holders).toHaveLength(2);
    expect(holders[0]).not.toBe(holders[1]);
    expect(holders.map(requestIdOfHolder)).toEqual(['req-1', 'req-1']);
  });
});
