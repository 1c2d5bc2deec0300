/**
 * OpenKruise: pkg/util/pvc/pvc_compare_utils.go (`IsClaimCompatibleWithoutSize`, `IsPVCCompatibleAndReady`,
 * `IsPVCNeedExpand`, `IsPatchPVCCompleted`).
 *
 * How a workload's PVC compares with the volumeClaimTemplate it was made from: the same class and access modes, and
 * a storage request at least the template's (compatible); a capacity at least its own request (ready). Storage sizes
 * are compared as Kubernetes quantities; an absent one counts as zero, as `ResourceList.Storage()` reads it. Pure.
 */
import type { PersistentVolumeClaim } from '../api/types.js';
import { parseQuantity } from './inplace/spec.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});

/** The `storage` quantity of a resource list (`spec.resources.requests`, `status.capacity`); absent: 0. */
function storageOf(list: unknown): number {
  const q = obj(list).storage;
  return typeof q === 'string' ? (parseQuantity(q) ?? 0) : typeof q === 'number' ? q : 0;
}

/** The claim's (or template's) storage request, `spec.resources.requests.storage`; absent: 0. */
export function requestedStorage(claim: PersistentVolumeClaim): number {
  return storageOf(obj(obj(claim.spec).resources).requests);
}

/** The claim's provisioned size, `status.capacity.storage`; absent: 0. */
export function capacityStorage(claim: PersistentVolumeClaim): number {
  return storageOf(obj(claim.status).capacity);
}

/**
 * Upstream `IsClaimCompatibleWithoutSize`: false when both name a storage class and the names differ (a template
 * without one matches any, the default class having been filled in), or when the access modes differ (same
 * length and order).
 */
export function isClaimCompatibleWithoutSize(
  claim: PersistentVolumeClaim,
  template: PersistentVolumeClaim,
): boolean {
  const c = obj(claim.spec);
  const t = obj(template.spec);
  if (
    typeof t.storageClassName === 'string' &&
    typeof c.storageClassName === 'string' &&
    t.storageClassName !== c.storageClassName
  )
    return false;
  const cm = Array.isArray(c.accessModes) ? (c.accessModes as unknown[]) : [];
  const tm = Array.isArray(t.accessModes) ? (t.accessModes as unknown[]) : [];
  return cm.length === tm.length && cm.every((m, i) => tm[i] === m);
}

/**
 * Upstream `IsPVCCompatibleAndReady`: `compatible` — {@link isClaimCompatibleWithoutSize} and the claim requests at
 * least the template's storage; `ready` — also compatible without size, and the claim's capacity is at least its own
 * request (both false when not compatible without size).
 */
export function isPVCCompatibleAndReady(
  claim: PersistentVolumeClaim,
  template: PersistentVolumeClaim,
): { compatible: boolean; ready: boolean } {
  if (!isClaimCompatibleWithoutSize(claim, template)) return { compatible: false, ready: false };
  const request = requestedStorage(claim);
  return { compatible: request >= requestedStorage(template), ready: capacityStorage(claim) >= request };
}

/** Upstream `IsPVCNeedExpand`: the claim requests less storage than the template. */
export function isPVCNeedExpand(claim: PersistentVolumeClaim, template: PersistentVolumeClaim): boolean {
  return requestedStorage(claim) < requestedStorage(template);
}
