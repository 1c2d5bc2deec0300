/**
 * What a controller watches, as data (docs/architecture.md#watches), and how a changed object becomes reconcile
 * requests: controller-runtime's builder verbs, as each OpenKruise controller's `add()` calls them
 * (`pkg/controller/cloneset/cloneset_controller.go`: `Watch(For CloneSet)`, `Watch(Pod, EnqueueRequestForOwner)`,
 * `Watch(PVC, EnqueueRequestForOwner)`). The watch pump, the resync and the admission source are given these by the
 * registrations (lib/controllers) and never name a kind themselves.
 */
import type { JsonObject } from '../api/types.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { EVENT_VERSION, type ReconcileReason, type ReconcileRequest } from '../requests/index.js';
import { watchPath, type ObjectRef, type Resource } from '../kube/resource.js';
import type { KubeClient } from '../kube/types.js';

/** The reconciled object itself changed (controller-runtime's `For`): the object is its own key. */
export interface ForWatch {
  type: 'For';
  /**
   * Whether a `MODIFIED` object asks for a pass (controller-runtime's `UpdateFunc` predicate on `For`), judged from
   * the new object alone, since a watch event carries no old one. Absent: every update does. Not asked of an added,
   * deleted or relisted object, nor at admission (the admission source passes every write: a superset). Pure and
   * synchronous. E.g. the SidecarSet's: only a spec change (./generationChanged.ts `generationNotObserved`).
   */
  updates?(obj: JsonObject): boolean;
}

/**
 * An object the reconciled object controls changed (controller-runtime's `Owns`): mapped to the object named by its
 * controller owner reference, when that reference's group (any version) and Kind are the controller's.
 */
export interface OwnsWatch {
  type: 'Owns';
  resource: Resource;
  /** Only objects with this label (selector syntax), e.g. the instance-id label every CloneSet pod carries. */
  labelSelector?: string;
}

/** What a {@link MapWatch}'s function may read: the cluster's generic client (LIST/GET only, by convention). */
export interface MapReads {
  cluster: string;
  /**
   * The cluster's reads; a LIST of a resource the pump follows may be answered from the run's earlier one
   * (./listMemo.ts): list only the reconciled objects the change may concern, whose own changes start a pass.
   */
  kube: Pick<KubeClient, 'get' | 'list' | 'serverResources' | 'getScale'>;
}

/**
 * How a watched object changed, as the watch reported it; `LISTED` for an object of a (re)list, which may be new or
 * changed (a map function must then assume either).
 */
export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'LISTED';

/**
 * Any other object whose change concerns reconciled objects (controller-runtime's `Watches` with
 * `EnqueueRequestsFromMapFunc`): a Node → every DaemonSet/BroadcastJob, a Pod → every SidecarSet whose selector
 * matches. The function gets the changed object and the reads it needs, and names the reconciled objects.
 */
export interface MapWatch {
  type: 'Map';
  resource: Resource;
  labelSelector?: string;
  /**
   * The reconciled objects `obj` concerns (namespace absent for a cluster-scoped kind); none is fine. `change` says
   * how `obj` changed (controller-runtime's handlers tell a create from an update the same way).
   * @throws whatever its reads throw: the pump logs it and drops the change (the resync covers it)
   */
  map(obj: JsonObject, reads: MapReads, change: ChangeType): Promise<ObjectRef[]>;
}

/** One watch of a controller. */
export type WatchSpec = ForWatch | OwnsWatch | MapWatch;

/** The part of a controller registration the sources read (lib/controllers/controller.ts has the whole one). */
export interface WatchingController {
  /** `<group>/<Kind>` of the reconciled objects, the requests' `kind`. */
  kind: string;
  /** Its resource (the `For` watch and the resync list it). */
  resource: Resource;
  watches: readonly WatchSpec[];
  /**
   * Which objects of its resource it reconciles (controller-runtime's predicate on its `For` watch), when not every
   * one: the `For` watch and the resync ask for a pass of those only. Absent: all. Pure and synchronous (the
   * admission source calls it too). E.g. the container launch priority controller's pods still waiting on a barrier.
   */
  selects?(obj: JsonObject): boolean;
  /**
   * Which of those a resync asks a pass of, when not every one (docs/architecture.md#wake-up): for a controller
   * whose objects keep their own durable wake-up, only those the wake-up may have missed, so that between two
   * scheduled times nothing invokes them. Absent: all. Pure and synchronous.
   * @param nowMs the resync's clock, epoch ms
   */
  needsResync?(obj: JsonObject, nowMs: number): boolean;
}

/** One watch spec of one controller, as a stream serves it. */
export interface WatchConsumer {
  controller: WatchingController;
  spec: WatchSpec;
}

/** One watched collection: every spec of every controller on the same resource and label selector. */
export interface WatchStream {
  /**
   * Checkpoint name (its key among the cluster's resume points): the resource's plural, e.g. `pods`, suffixed `?<selector>` only when a
   * second stream of the same resource with another selector exists.
   */
  resource: string;
  /** The watched resource. */
  watched: Resource;
  /** Cluster-wide collection path. */
  path: string;
  labelSelector?: string;
  consumers: readonly WatchConsumer[];
}

/** The resource a spec watches: the controller's own for `For`. */
export function watchedResource(controller: WatchingController, spec: WatchSpec): Resource {
  return spec.type === 'For' ? controller.resource : spec.resource;
}

/**
 * The streams the pump follows for a set of controllers, in registration order: one per (resource, label
 * selector), shared by every controller that watches it (two controllers owning pods read one stream).
 */
export function watchStreams(controllers: readonly WatchingController[]): WatchStream[] {
  const streams: { watched: Resource; labelSelector?: string; consumers: WatchConsumer[] }[] = [];
  for (const controller of controllers) {
    for (const spec of controller.watches) {
      const watched = watchedResource(controller, spec);
      const labelSelector = spec.type === 'For' ? undefined : spec.labelSelector;
      const same = streams.find(
        (s) =>
          s.watched.group === watched.group &&
          s.watched.plural === watched.plural &&
          s.labelSelector === labelSelector,
      );
      if (same) same.consumers.push({ controller, spec });
      else
        streams.push({
          watched,
          ...(labelSelector ? { labelSelector } : {}),
          consumers: [{ controller, spec }],
        });
    }
  }
  const used = new Set<string>();
  return streams.map((s) => {
    // today's checkpoint names are the bare plurals; a second stream of one plural says which one it is
    let resource = s.watched.plural;
    if (used.has(resource))
      resource = `${resource}${s.watched.group ? `.${s.watched.group}` : ''}?${s.labelSelector ?? ''}`;
    used.add(resource);
    return { resource, path: watchPath(s.watched), ...s };
  });
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The reason a spec's requests carry. */
function reasonOf(spec: WatchSpec): ReconcileReason {
  return spec.type === 'For'
    ? 'ObjectChanged'
    : spec.type === 'Owns'
      ? 'OwnedObjectChanged'
      : 'MappedObjectChanged';
}

/** A request for `ref` of `controller`'s kind, or undefined when a namespaced kind's ref has no namespace. */
function requestOf(
  cluster: string,
  controller: WatchingController,
  ref: { namespace?: string | undefined; name?: string | undefined },
  reason: ReconcileReason,
  resourceVersion: string | undefined,
): ReconcileRequest | undefined {
  const { namespace, name } = ref;
  if (!name || (controller.resource.namespaced && !namespace)) return undefined;
  return {
    version: EVENT_VERSION,
    cluster,
    kind: controller.kind,
    ...(controller.resource.namespaced ? { namespace } : {}),
    name,
    reason,
    ...(resourceVersion ? { resourceVersion } : {}),
  };
}

/**
 * The request a `For` or `Owns` watch makes of a changed object, or undefined when it concerns no object of the
 * controller's kind (an `Owns` object without a controller reference of its group and Kind, or no name/namespace).
 * Pure and synchronous: the admission source uses it as it must answer at once.
 * @param obj the object as JSON (watch event or admission request)
 */
export function requestForObject(
  cluster: string,
  controller: WatchingController,
  spec: ForWatch | OwnsWatch,
  obj: JsonObject,
): ReconcileRequest | undefined {
  const meta = (obj.metadata ?? {}) as JsonObject;
  const namespace = str(meta.namespace);
  const resourceVersion = str(meta.resourceVersion);
  if (spec.type === 'For') {
    if (controller.selects && !controller.selects(obj)) return undefined;
    return requestOf(
      cluster,
      controller,
      { namespace, name: str(meta.name) },
      'ObjectChanged',
      resourceVersion,
    );
  }
  const refs = Array.isArray(meta.ownerReferences) ? (meta.ownerReferences as JsonObject[]) : [];
  const ref = refs.find((r) => r.controller === true);
  const group = str(ref?.apiVersion)?.split('/')[0];
  const [ownGroup, ownKind] = controller.kind.split('/');
  if (!ref || group !== ownGroup || ref.kind !== ownKind) return undefined;
  return requestOf(cluster, controller, { namespace, name: str(ref.name) }, reasonOf(spec), resourceVersion);
}

/**
 * Every request a changed object of a stream makes, over all its consumers: `For`/`Owns` at once, `Map` through its
 * function and reads (given `change`; default `LISTED`, which says nothing of how it changed). A failing map function
 * is logged and contributes nothing (the resync covers the change).
 */
export async function requestsForChange(
  stream: WatchStream,
  obj: JsonObject,
  reads: MapReads,
  log: Logger,
  change: ChangeType = 'LISTED',
): Promise<ReconcileRequest[]> {
  const out: ReconcileRequest[] = [];
  const resourceVersion = str(((obj.metadata ?? {}) as JsonObject).resourceVersion);
  for (const { controller, spec } of stream.consumers) {
    if (spec.type === 'For' && change === 'MODIFIED' && spec.updates && !spec.updates(obj)) continue;
    if (spec.type !== 'Map') {
      const r = requestForObject(reads.cluster, controller, spec, obj);
      if (r) out.push(r);
      continue;
    }
    try {
      for (const ref of await spec.map(obj, reads, change)) {
        const r = requestOf(reads.cluster, controller, ref, 'MappedObjectChanged', resourceVersion);
        if (r) out.push(r);
      }
    } catch (e) {
      log.warn('mapped watch failed; the change is left to the resync', {
        cluster: reads.cluster,
        kind: controller.kind,
        resource: stream.resource,
        error: errorMessage(e),
      });
    }
  }
  return out;
}
