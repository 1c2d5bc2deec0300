/**
 * Call counters for the embedded default: how many API-server calls and DynamoDB operations the pipeline makes
 * (the issue asks for these numbers for a no-op reconcile).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { KubeClient } from '../kube/types.js';

/** Running totals. */
export interface CallCounts {
  /** KubeClient method calls (each is one HTTP request, retries aside), by method name. */
  kube: Record<string, number>;
  /** DynamoDB operations of the reconcilers (leases, expectations, ledger), by command name. */
  dynamo: Record<string, number>;
  /** DynamoDB operations of the watch pump's checkpoints, by command name. */
  dynamoWatch: Record<string, number>;
}

/** Wrap a KubeClient so every method call is counted into `counts.kube`. */
export function countingKube(kube: KubeClient, counts: CallCounts): KubeClient {
  return new Proxy(kube, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return (...args: unknown[]) => {
        counts.kube[prop] = (counts.kube[prop] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** Count every command sent through `client` into `counts[into]` (SDK middleware; no behaviour change). */
export function countDynamo(
  client: DynamoDBClient,
  counts: CallCounts,
  into: 'dynamo' | 'dynamoWatch',
): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName ?? 'unknown').replace(/Command$/, '');
      counts[into][name] = (counts[into][name] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name: 'kruiselessCallCounter' },
  );
}

/** Sum of a counter map. */
export function total(m: Record<string, number>): number {
  return Object.values(m).reduce((a, b) => a + b, 0);
}

/** A copy of the counters (for before/after differences). */
export function snapshot(c: CallCounts): CallCounts {
  return { kube: { ...c.kube }, dynamo: { ...c.dynamo }, dynamoWatch: { ...c.dynamoWatch } };
}

/** `after − before`, per key, dropping zeros. */
export function difference(before: CallCounts, after: CallCounts): CallCounts {
  const diff = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(b)
        .map(([k, v]) => [k, v - (a[k] ?? 0)] as const)
        .filter(([, v]) => v !== 0),
    );
  return {
    kube: diff(before.kube, after.kube),
    dynamo: diff(before.dynamo, after.dynamo),
    dynamoWatch: diff(before.dynamoWatch, after.dynamoWatch),
  };
}
