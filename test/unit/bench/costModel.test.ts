/**
 * The fleet's cost model (bench/support/costModel.ts): list prices applied to measured counts. The expected figures
 * are worked out by hand below from the prices, so a change of a price or of a formula shows here.
 */
import { describe, expect, it } from '@jest/globals';
import { dynamoOpsOf, estimateCost } from '../../../bench/support/costModel.js';

describe('dynamoOpsOf', () => {
  it('bills GetItem and Query as reads and every other operation as a write', () => {
    expect(dynamoOpsOf({ GetItem: 3, Query: 1, UpdateItem: 5, PutItem: 2, DeleteItem: 1 })).toEqual({
      reads: 4,
      writes: 8,
    });
    expect(dynamoOpsOf({})).toEqual({ reads: 0, writes: 0 });
  });
});

describe('estimateCost', () => {
  const input = {
    clusters: 100,
    workloadsPerCluster: 10,
    // per pod event: 1 invocation of 0.1 s, 2 reads and 4 writes, 1 bus entry
    perPodEvent: { invocations: 1, reconcileSeconds: 0.1, dynamo: { reads: 2, writes: 4 }, busEntries: 1 },
    // the idle watch: 1,000 reads and 2,000 writes a minute
    idle: { watchDynamo: { reads: 1000, writes: 2000 } },
    resync: { runSeconds: 2, perObject: { seconds: 0.05, dynamo: { reads: 2, writes: 2 } } },
  };

  it('prices a million pod events: Lambda requests and GB-seconds, DynamoDB units, EventBridge entries', () => {
    // Lambda: 1M × 0.20/1M = 0.20, plus 1M × 0.1 s × 0.5 GB × 0.0000133334 = 0.666670 → 0.87
    // DynamoDB: 2M × 0.125/1M + 4M × 0.625/1M = 0.25 + 2.50 = 2.75; EventBridge: 1M × 1/1M = 1.00
    expect(estimateCost(input).perMillionPodEvents).toEqual({
      total: 4.62,
      lambda: 0.87,
      dynamo: 2.75,
      eventBridge: 1,
    });
  });

  it('prices an idle month: the watch running every minute, the resync every 5 minutes', () => {
    // watch: 43,800 runs × (0.0000002 + 62 s × 0.5 GB × 0.0000133334) = 43,800 × 0.0004135354 = 18.11
    //   + 43,800 minutes × (1,000 × 0.000000125 + 2,000 × 0.000000625) = 43,800 × 0.001375 = 60.225 → 78.34
    // resync: 8,760 runs × (0.0000002 + 2 s × 0.5 × 0.0000133334) = 0.1186
    //   + 8,760 × 100 × 10 reconciles × (0.0000002 + 0.05 × 0.5 × 0.0000133334 + 2 × 0.000000125
    //   + 2 × 0.000000625 + 0.000001) = 8,760,000 × 0.000003033335 = 26.572 → 26.69
    const idle = estimateCost(input).idleMonth;
    expect(idle).toEqual({ total: 105.03, watch: 78.34, resync: 26.69, perCluster: 1.05 });
  });

  it('prices one OpenKruise controller-manager per cluster from its requests', () => {
    // 2 × 730 h × (0.1 vCPU × 0.03238 + 0.1953125 GB × 0.00356) = 1,460 × 0.0039333125 = 5.74
    expect(estimateCost(input).openKruiseMonth).toEqual({ total: 574.26, perCluster: 5.74 });
  });

  it('refuses a count that is not one', () => {
    expect(() => estimateCost({ ...input, clusters: -1 })).toThrow(
      'cost model: clusters must be a count, got -1',
    );
    expect(() => estimateCost({ ...input, workloadsPerCluster: Number.NaN })).toThrow(
      'cost model: workloadsPerCluster must be a count, got NaN',
    );
  });
});
