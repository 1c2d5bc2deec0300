/**
 * OpenKruise: pkg/controller/statefulset/stateful_set_utils.go `getParentNameAndOrdinal`, `getPodName`,
 * `getPersistentVolumeClaimName`, `getStatefulSetReplicasRange`; stateful_set_control.go `getStartOrdinal` and the
 * replicas/condemned split at the top of `updateStatefulSet`.
 *
 * Ordinal identity: pod `<name>-<ordinal>`, the ordinal range `[start, end)` a StatefulSet keeps, skipping
 * `reserveOrdinals`, and which pods fill it and which are condemned.
 */
import type { Pod } from '../../../api/types.js';
import { reservedOrdinalSet } from '../api/reserveOrdinals.js';
import type { StatefulSet } from '../api/types.js';

const STATEFUL_POD = /^(.*)-([0-9]+)$/;
const MAX_INT32 = 2147483647;

/**
 * The parent name and ordinal a pod name encodes (`(.*)-([0-9]+)$`); ordinal −1 when the name has none or it
 * exceeds int32, as upstream.
 */
export function parentAndOrdinal(podName: string): { parent: string; ordinal: number } {
  const m = STATEFUL_POD.exec(podName);
  if (!m) return { parent: '', ordinal: -1 };
  const n = Number(m[2]);
  return { parent: m[1], ordinal: n <= MAX_INT32 ? n : -1 };
}

/** A pod's ordinal, −1 when its name has none. */
export function podOrdinal(pod: Pod): number {
  return parentAndOrdinal(pod.metadata.name ?? '').ordinal;
}

/** `<set name>-<ordinal>`. */
export function statefulPodName(sts: StatefulSet, ordinal: number): string {
  return `${sts.metadata.name ?? ''}-${ordinal}`;
}

/** `<claim template name>-<set name>-<ordinal>`: the PVC of one volumeClaimTemplate for one ordinal. */
export function claimName(templateName: string, sts: StatefulSet, ordinal: number): string {
  return `${templateName}-${sts.metadata.name ?? ''}-${ordinal}`;
}

/** The ordinals a StatefulSet keeps: `[start, end)` without `reserved`. */
export interface OrdinalRange {
  start: number;
  /** Exclusive. */
  end: number;
  reserved: ReadonlySet<number>;
}

/**
 * The range of ordinals for `spec.replicas` pods: from `ordinals.start` (only with gate `StatefulSetStartOrdinal`,
 * else 0), extended past every reserved ordinal until `replicas` unreserved ordinals are in it. E.g. replicas 4,
 * reserve [1, 3], start 2 → [2, 7) without {1, 3}: ordinals 2, 4, 5, 6.
 * @param startOrdinalGate gate `StatefulSetStartOrdinal` (alpha, off)
 */
export function ordinalRange(sts: StatefulSet, startOrdinalGate: boolean): OrdinalRange {
  const reserved = reservedOrdinalSet(sts.spec.reserveOrdinals);
  const start = startOrdinalGate && sts.spec.ordinals ? sts.spec.ordinals.start : 0;
  let end = start;
  for (let kept = 0; kept < (sts.spec.replicas ?? 1); end++) if (!reserved.has(end)) kept++;
  return { start, end, reserved };
}

/** Whether `ordinal` is one the StatefulSet keeps. */
export function inRange(ordinal: number, range: OrdinalRange): boolean {
  return ordinal >= range.start && ordinal < range.end && !range.reserved.has(ordinal);
}

/** Pods split by ordinal: the slots of the range and the condemned ones. */
export interface OrdinalSplit {
  /** Index `ordinal − start`; `undefined` where no pod exists (always so for reserved ordinals). */
  replicas: (Pod | undefined)[];
  /** Pods with a valid ordinal outside the range or reserved, highest ordinal first. */
  condemned: Pod[];
}

/**
 * Puts each pod at its ordinal's slot or among the condemned; pods whose name has no ordinal are ignored. Two pods
 * with one ordinal cannot exist (the name is the ordinal).
 */
export function splitByOrdinal(pods: readonly Pod[], range: OrdinalRange): OrdinalSplit {
  const replicas: (Pod | undefined)[] = new Array<Pod | undefined>(range.end - range.start).fill(undefined);
  const condemned: Pod[] = [];
  for (const pod of pods) {
    const ord = podOrdinal(pod);
    if (inRange(ord, range)) replicas[ord - range.start] = pod;
    else if (ord >= 0) condemned.push(pod);
  }
  condemned.sort((a, b) => podOrdinal(b) - podOrdinal(a));
  return { replicas, condemned };
}
