/**
 * The resync source (docs/architecture.md#resync): one reconcile request for every object of every registered
 * controller's resource in a cluster, so the system converges even if every other event were lost. A resource
 * the cluster does not serve (404, no CRD) leaves its controller idle there (./idle.ts).
 */
import {
  EVENT_VERSION,
  withCorrelationIds,
  type EventPublisher,
  type PublishResult,
  type ReconcileRequest,
} from '../requests/index.js';
import type { JsonObject } from '../api/types.js';
import type { Logger } from '../core/logger.js';
import { isNotFound } from '../kube/errors.js';
import { listAll, listIfServed, LIST_PAGE_SIZE } from '../kube/list.js';
import type { KubeObject } from '../kube/resource.js';
import type { KubeClient, Listed } from '../kube/types.js';
import { noteIdle } from './idle.js';
import type { WatchingController } from './watchSpec.js';

/** The requests of one resync of one cluster. */
export interface ResyncResult {
  /** Objects found per controller kind (`<group>/<Kind>`); absent for a kind whose resource is not served. */
  objects: Record<string, number>;
  /** The kinds left idle: their resource answered 404. */
  idle: string[];
  /** Per kind with `needsResync`: the objects it left to their own wake-up (not published). */
  leftToWakeUp: Record<string, number>;
  result: PublishResult;
}

/**
 * The objects of a controller's resource it reconciles: one LIST of all of them; for a controller that reconciles
 * only some objects of a resource with many (`selects`, e.g. the pods still waiting on a launch barrier, out of every
 * pod of the cluster) pages of {@link LIST_PAGE_SIZE}, each cut down to the selected ones before the next is read,
 * so no response and nothing held grows with the collection.
 * @returns undefined when the resource is not served
 * @throws KubeApiError other than 404
 */
async function listSelected(
  kube: Pick<KubeClient, 'list'>,
  c: Pick<WatchingController, 'resource' | 'selects'>,
): Promise<Listed<KubeObject> | undefined> {
  const { selects } = c;
  if (!selects) return listIfServed(kube, c.resource);
  try {
    return await listAll(kube, c.resource, { limit: LIST_PAGE_SIZE }, (o) =>
      selects(o as unknown as JsonObject),
    );
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** Options of {@link resyncCluster}. */
export interface ResyncOptions {
  /** The clock `needsResync` is asked with, epoch ms. Default: now. */
  nowMs?: number;
  /**
   * Publish every object, `needsResync` or not: the objects' own wake-ups may be lost (the embedded runtime's
   * timers die with its process, so its first resync after a start asks for every object). Default false.
   */
  everyObject?: boolean;
}

/**
 * List every object of each controller's resource in `cluster` and publish a `Resync` request for each (of those
 * its `selects` takes, when it has one, and its `needsResync` keeps, when it has one and `everyObject` is not set:
 * `objects` counts those).
 * @param controllers the registered controllers (lib/controllers `CONTROLLERS`)
 * @throws KubeApiError when a list fails other than with 404; PublishError when entries could not be published
 */
export async function resyncCluster(
  cluster: string,
  kube: Pick<KubeClient, 'list'>,
  publisher: EventPublisher,
  controllers: readonly Pick<WatchingController, 'kind' | 'resource' | 'selects' | 'needsResync'>[],
  log: Logger,
  options: ResyncOptions = {},
): Promise<ResyncResult> {
  const { nowMs = Date.now(), everyObject = false } = options;
  const requests: ReconcileRequest[] = [];
  const objects: Record<string, number> = {};
  const leftToWakeUp: Record<string, number> = {};
  const idle: string[] = [];
  for (const c of controllers) {
    const listed = await listSelected(kube, c);
    if (!listed) {
      idle.push(c.kind);
      noteIdle(log, cluster, `${c.resource.plural}.${c.resource.group}`, `controller ${c.kind}`);
      continue;
    }
    const needsResync = everyObject ? undefined : c.needsResync;
    const named = listed.items.filter(
      (o) => o.metadata.name && (!c.resource.namespaced || o.metadata.namespace),
    );
    const mine = named
      .filter((o) => !needsResync || needsResync(o as unknown as JsonObject, nowMs))
      .map((o): ReconcileRequest => ({
        version: EVENT_VERSION,
        cluster,
        kind: c.kind,
        ...(c.resource.namespaced ? { namespace: o.metadata.namespace ?? '' } : {}),
        name: o.metadata.name ?? '',
        reason: 'Resync',
        ...(o.metadata.resourceVersion ? { resourceVersion: o.metadata.resourceVersion } : {}),
      }));
    objects[c.kind] = mine.length;
    if (needsResync) leftToWakeUp[c.kind] = named.length - mine.length;
    requests.push(...mine);
  }
  const result = await publisher.publish(withCorrelationIds(requests));
  return { objects, idle, leftToWakeUp, result };
}
