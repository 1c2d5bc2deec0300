/**
 * Maps a changed Kubernetes object to the object key of the CloneSet it concerns (docs/architecture.md#lib-source):
 * a CloneSet is its own key; a pod or PVC maps to the CloneSet named by its controller owner reference
 * (group `apps.kruise.io`, kind `CloneSet`, any version). Anything else maps to nothing.
 */
import { CLONESET_KIND } from '../api/kinds.js';
import { GROUP, KIND } from '../api/keys.js';
import type { JsonObject } from '../api/types.js';
import { EVENT_VERSION, type ReconcileReason, type ReconcileRequest } from '../requests/index.js';

/** The kinds the watch pump and the admission source look at. */
export type WatchedKind = 'CloneSet' | 'Pod' | 'PersistentVolumeClaim';

/** The CloneSet itself changed, or an object it controls (controller-runtime's `For` and `Owns`). */
const REASON: Record<WatchedKind, ReconcileReason> = {
  CloneSet: 'ObjectChanged',
  Pod: 'OwnedObjectChanged',
  PersistentVolumeClaim: 'OwnedObjectChanged',
};

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * The reconcile request for a changed object of `kind` in `cluster`, or undefined when the object does not concern
 * a CloneSet (no CloneSet controller reference, or no name/namespace).
 * @param obj the object as JSON (watch event or admission request)
 */
export function requestForObject(
  cluster: string,
  kind: WatchedKind,
  obj: JsonObject,
): ReconcileRequest | undefined {
  const meta = (obj.metadata ?? {}) as JsonObject;
  const namespace = str(meta.namespace);
  const resourceVersion = str(meta.resourceVersion);
  let name: string | undefined;
  if (kind === 'CloneSet') {
    name = str(meta.name);
  } else {
    const refs = Array.isArray(meta.ownerReferences) ? (meta.ownerReferences as JsonObject[]) : [];
    const ref = refs.find((r) => r.controller === true);
    const group = str(ref?.apiVersion)?.split('/')[0];
    if (ref && group === GROUP && ref.kind === KIND) name = str(ref.name);
  }
  if (!namespace || !name) return undefined;
  return {
    version: EVENT_VERSION,
    cluster,
    kind: CLONESET_KIND,
    namespace,
    name,
    reason: REASON[kind],
    ...(resourceVersion ? { resourceVersion } : {}),
  };
}
