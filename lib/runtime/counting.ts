/**
 * Call counters for the embedded default: how many API-server calls and DynamoDB operations the pipeline makes
 * (the issue asks for these numbers for a no-op reconcile).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { discoveryReads } from '../kube/discoveryReads.js';
import type { Resource } from '../kube/resource.js';
import type { KubeClient } from '../kube/types.js';

/** Running totals. */
export interface CallCounts {
  /**
   * KubeClient calls (each is one HTTP request, retries aside; an Event recording is one call), by
   * {@link kubeCallName}: `get clonesets`, `list pods`, `patch pods/status`, `recordEvent clonesets`, ….
   */
  kube: Record<string, number>;
  /** DynamoDB operations of the reconcilers (leases, expectations, ledger), by command name. */
  dynamo: Record<string, number>;
  /** DynamoDB operations of the watch pump's checkpoints, by command name. */
  dynamoWatch: Record<string, number>;
}

/**
 * The counter name of a KubeClient call: the method, then the resource's plural with the subresource, if any
 * (`replace clonesets/status`; for recordEvent, the resource of the object the Event is about).
 */
export function kubeCallName(method: keyof KubeClient, resource: Resource, subresource?: string): string {
  return `${method} ${resource.plural}${subresource === undefined ? '' : `/${subresource}`}`;
}

/** Wrap a KubeClient so every call is counted into `counts.kube` under its {@link kubeCallName}. */
export function countingKube(kube: KubeClient, counts: CallCounts): KubeClient {
  const count = (name: string) => (counts.kube[name] = (counts.kube[name] ?? 0) + 1);
  const watch = kube.watch?.bind(kube);
  return {
    ...(watch
      ? {
          watch: ((resource, options, onEvent) => {
            count(kubeCallName('watch', resource));
            return watch(resource, options, onEvent);
          }) satisfies KubeClient['watch'],
        }
      : {}),
    get(resource, ref) {
      count(kubeCallName('get', resource));
      return kube.get(resource, ref);
    },
    list(resource, options) {
      count(kubeCallName('list', resource));
      return kube.list(resource, options);
    },
    create(resource, object) {
      count(kubeCallName('create', resource));
      return kube.create(resource, object);
    },
    replace(resource, object, options) {
      count(kubeCallName('replace', resource, options?.subresource));
      return kube.replace(resource, object, options);
    },
    patch(resource, ref, patch, options) {
      count(kubeCallName('patch', resource, options?.subresource));
      return kube.patch(resource, ref, patch, options);
    },
    delete(resource, ref, preconditions, options) {
      count(kubeCallName('delete', resource));
      return kube.delete(resource, ref, preconditions, options);
    },
    recordEvent(resource, object, event, options) {
      count(kubeCallName('recordEvent', resource));
      return kube.recordEvent(resource, object, event, options);
    },
    // not counted: the client answers it from what it keeps, without a request, all but once
    serverVersion: () => kube.serverVersion(),
    // discovery is not counted either (kept per group version); a scale GET is
    ...discoveryReads(kube, (resource) => count(kubeCallName('get', resource, 'scale'))),
  };
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
