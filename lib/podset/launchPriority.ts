/**
 * Container launch priority, the rules every pod shares whoever creates it (OpenKruise v1.9.0:
 * apis/apps/pub/launch_priority.go, pkg/util/containerlaunchpriority, the pod webhook's
 * `containerLaunchPriorityInitialization` and the `container-launch-priority-controller`;
 * docs/proposals/20210809-containerlaunchpriority.md).
 *
 * A pod asks for an order by the annotation `apps.kruise.io/container-launch-priority: Ordered` (containers start in
 * the order listed) or by a `KRUISE_CONTAINER_PRIORITY` env per container (higher starts first). At creation every
 * container gets a `KRUISE_CONTAINER_BARRIER` env read from key `p_<priority>` of the ConfigMap `<pod>-barrier`; the
 * kubelet cannot start a container until its key exists. The controller creates that ConfigMap and adds the key of
 * the highest priority among the containers not ready yet, one step at a time, then marks the pod
 * `apps.kruise.io/container-launch-priority-completed: "true"`. Pure functions; the webhook step and the controller
 * (lib/controllers/containerlaunchpriority) do the I/O.
 */
import type { ConfigMap, Container, EnvVar, Pod } from '../api/types.js';

/** The env a user sets on a container to give it a launch priority (an integer; higher starts first). */
export const CONTAINER_PRIORITY_ENV = 'KRUISE_CONTAINER_PRIORITY';
/** The env the pod webhook adds to every container of a prioritised pod: a configMapKeyRef into the barrier. */
export const CONTAINER_BARRIER_ENV = 'KRUISE_CONTAINER_BARRIER';
/** The pod annotation asking for the listed order. */
export const ANNOTATION_CONTAINER_LAUNCH_PRIORITY = 'apps.kruise.io/container-launch-priority';
/** The value of {@link ANNOTATION_CONTAINER_LAUNCH_PRIORITY} that asks for the listed order. */
export const LAUNCH_ORDERED = 'Ordered';
/** The pod annotation the controller sets (`"true"`) once every priority is released. */
export const ANNOTATION_LAUNCH_PRIORITY_COMPLETED = 'apps.kruise.io/container-launch-priority-completed';

/** The barrier ConfigMap's name of pod `podName`: `<pod>-barrier` (upstream's `GeneratePriorityEnv`). */
export function barrierName(podName: string): string {
  return `${podName}-barrier`;
}

/** The barrier key of a priority: `p_<n>`, e.g. `p_-1` (upstream's `GetKey`). */
export function barrierKey(priority: number): string {
  return `p_${priority}`;
}

/** The {@link CONTAINER_BARRIER_ENV} entry for `priority` of pod `podName` (upstream's `GeneratePriorityEnv`). */
export function barrierEnv(priority: number, podName: string): EnvVar {
  return {
    name: CONTAINER_BARRIER_ENV,
    valueFrom: { configMapKeyRef: { name: barrierName(podName), key: barrierKey(priority) } },
  };
}

/**
 * A container's launch priority: the `<n>` of its {@link CONTAINER_BARRIER_ENV}'s key `p_<n>` (0 when that is not
 * an integer, as upstream's `GetContainerPriority` ignores `strconv.Atoi`'s error), or undefined without the env.
 */
export function containerPriority(c: Container): number | undefined {
  const env = (c.env ?? []).find((e) => e.name === CONTAINER_BARRIER_ENV);
  if (!env) return undefined;
  const ref = env.valueFrom?.configMapKeyRef as { key?: unknown } | undefined;
  const digits = typeof ref?.key === 'string' ? ref.key.slice(2) : '';
  return /^[+-]?\d+$/.test(digits) ? Number(digits) : 0;
}

/** A {@link CONTAINER_PRIORITY_ENV} value that is not a Go `int`: the webhook refuses the pod with `message`. */
export interface PriorityParseError {
  message: string;
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/**
 * Go's `strconv.Atoi` on 64-bit: an optional sign and decimal digits within int64.
 * @returns the number, or the error text Go gives (`strconv.Atoi: parsing "x": invalid syntax` / `value out of
 *   range`); beyond ±2^53 the number (so the barrier key) is the nearest double, where Go keeps every int64
 */
export function goAtoi(text: string): number | PriorityParseError {
  const quoted = JSON.stringify(text);
  if (!/^[+-]?\d+$/.test(text)) return { message: `strconv.Atoi: parsing ${quoted}: invalid syntax` };
  const big = BigInt(text);
  if (big > INT64_MAX || big < INT64_MIN)
    return { message: `strconv.Atoi: parsing ${quoted}: value out of range` };
  return Number(big);
}

/**
 * The priority of each container `pod` asks for, in container order, or undefined when it asks for none, as the
 * pod webhook's `containerLaunchPriorityInitialization` decides it: a single container never; the `Ordered`
 * annotation gives 0, -1, -2, …; else each container's last {@link CONTAINER_PRIORITY_ENV} (absent: 0), and none
 * when every priority is equal.
 * @returns a {@link PriorityParseError} when a priority env's value is not an integer (the webhook's 500 refusal)
 */
export function requestedPriorities(pod: Pod): number[] | undefined | PriorityParseError {
  const containers = pod.spec.containers;
  if (containers.length === 1) return undefined;
  if (pod.metadata.annotations?.[ANNOTATION_CONTAINER_LAUNCH_PRIORITY] === LAUNCH_ORDERED)
    return containers.map((_, i) => (i === 0 ? 0 : -i));
  const priorities: number[] = [];
  for (const c of containers) {
    let p = 0;
    for (const e of c.env ?? []) {
      if (e.name !== CONTAINER_PRIORITY_ENV) continue;
      const parsed = goAtoi(e.value ?? '');
      if (typeof parsed !== 'number') return parsed;
      p = parsed;
    }
    priorities.push(p);
  }
  if (priorities.every((p) => p === 0) || priorities.every((p) => p === priorities[0])) return undefined;
  return priorities;
}

/**
 * `pod` with the barrier env appended to each container for `priorities` (one per container, in order), its name
 * `podName` (a pod created with `generateName` only is named here, as upstream names it so the ConfigMap's name is
 * known). A new object; `pod` is not changed.
 */
export function withBarrierEnv(pod: Pod, priorities: readonly number[], podName: string): Pod {
  return {
    ...pod,
    metadata: { ...pod.metadata, name: podName },
    spec: {
      ...pod.spec,
      containers: pod.spec.containers.map((c, i) => ({
        ...c,
        env: [...(c.env ?? []), barrierEnv(priorities[i] ?? 0, podName)],
      })),
    },
  };
}

/**
 * The priorities of the containers not ready yet that have a barrier env, ascending (upstream's
 * `findNextPriorities`): the last is the one to release next.
 */
export function pendingPriorities(pod: Pod): number[] {
  const ready = new Set((pod.status?.containerStatuses ?? []).filter((s) => s.ready).map((s) => s.name));
  const out: number[] = [];
  for (const c of pod.spec.containers) {
    if (ready.has(c.name)) continue;
    const p = containerPriority(c);
    if (p !== undefined) out.push(p);
  }
  return out.sort((a, b) => a - b);
}

/**
 * Whether a change of `pod` concerns the controller (upstream's `shouldEnqueue` without its cache read of the
 * barrier, which the pass makes): not marked completed, ContainersReady not True, some priority still pending.
 */
export function awaitsLaunch(pod: Pod): boolean {
  if (pod.metadata.annotations?.[ANNOTATION_LAUNCH_PRIORITY_COMPLETED] === 'true') return false;
  const cr = (pod.status?.conditions ?? []).find((c) => c.type === 'ContainersReady');
  if (cr?.status === 'True') return false;
  return pendingPriorities(pod).length > 0;
}

/**
 * What the controller does for one pod: mark it completed at once (nothing pending), or release the highest pending
 * priority (`release`, a `p_<n>` key; adding a key that is there already changes nothing) and mark the pod completed
 * when the barrier then holds `lowest` too (the key of the lowest pending priority: once it is released, every
 * container may start).
 */
export type LaunchStep = { complete: true } | { release: string; lowest: string };

/**
 * The controller's step for `pod` (upstream's `handle`, made to need no read of the barrier: its outcome is the same
 * — the highest pending priority released unless the lowest one is, the pod completed once the lowest one is).
 */
export function planLaunchStep(pod: Pod): LaunchStep {
  const pending = pendingPriorities(pod);
  if (pending.length === 0) return { complete: true };
  return { release: barrierKey(pending[pending.length - 1]), lowest: barrierKey(pending[0]) };
}

/** Whether `barrier` (as the release's write answered it) has `key`. */
export function isReleased(barrier: ConfigMap, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(barrier.data ?? {}, key);
}
