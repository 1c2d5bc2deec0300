/**
 * OpenKruise: pkg/control/pubcontrol/pub_control.go `IsPodUnavailableChanged`, `CanResizeInplace` and
 * `canInplaceUpdateResources` (v1.9.0).
 *
 * What a pod UPDATE is to the budget: nothing (the spec is unchanged and no unavailable label was added), a RESIZE
 * (only cpu/memory of existing containers changed, none with a `RestartContainer` resize policy, the QoS class kept,
 * not a static pod), or an UPDATE (anything else: the pod may restart).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Container, Pod } from '../../../api/types.js';
import { parseQuantity, podQosClass } from '../../../podset/inplace/spec.js';
import type { PubOperation } from '../api/types.js';
import { hasUnavailableLabel } from './podState.js';

/** Resources a container can resize in place (`allowedResizeResourceKey`). */
const RESIZABLE = new Set(['cpu', 'memory']);

/** Whether the update may make the pod unavailable: its spec changed, or it gained an unavailable label. */
export function isPodUnavailableChanged(oldPod: Pod, newPod: Pod): boolean {
  if (!isDeepStrictEqual(oldPod.spec, newPod.spec)) return true;
  return !hasUnavailableLabel(oldPod.metadata.labels) && hasUnavailableLabel(newPod.metadata.labels);
}

const withoutResources = (pod: Pod) => ({
  ...pod.spec,
  containers: pod.spec.containers.map((c) => ({ ...c, resources: {} })),
});

/** A static pod: its `kubernetes.io/config.source` is set and not `api` (kubelet's `IsStaticPod`). */
const isStaticPod = (pod: Pod) => {
  const source = pod.metadata.annotations?.['kubernetes.io/config.source'];
  return source !== undefined && source !== 'api';
};

function changed(
  a: Record<string, string> | undefined,
  b: Record<string, string> | undefined,
  name: string,
): boolean {
  const x = a?.[name];
  const y = b?.[name];
  if (x === undefined && y === undefined) return false;
  if (x === undefined || y === undefined) return true;
  return parseQuantity(x) !== parseQuantity(y);
}

function restartPolicyOf(c: Container, resource: string): string | undefined {
  const policies = (c.resizePolicy ?? []) as { resourceName?: string; restartPolicy?: string }[];
  return policies.find((p) => p.resourceName === resource)?.restartPolicy;
}

function resourcesResizable(oldPod: Pod, newPod: Pod): boolean {
  if (oldPod.spec.containers.length !== newPod.spec.containers.length) return false;
  for (const c of newPod.spec.containers) {
    const old = oldPod.spec.containers.find((o) => o.name === c.name);
    if (!old) return false;
    const names = new Set([
      ...Object.keys(old.resources?.requests ?? {}),
      ...Object.keys(c.resources?.requests ?? {}),
      ...Object.keys(old.resources?.limits ?? {}),
      ...Object.keys(c.resources?.limits ?? {}),
    ]);
    for (const name of names) {
      const moved =
        changed(old.resources?.requests, c.resources?.requests, name) ||
        changed(old.resources?.limits, c.resources?.limits, name);
      if (!moved) continue;
      if (!RESIZABLE.has(name)) return false;
      const policy = restartPolicyOf(c, name);
      if (policy !== undefined && policy !== '' && policy !== 'NotRequired') return false;
    }
  }
  return true;
}

/** Whether the update is a resize that keeps the pod available (see the module doc). */
export function canResizeInPlace(oldPod: Pod, newPod: Pod): boolean {
  if (!hasUnavailableLabel(oldPod.metadata.labels) && hasUnavailableLabel(newPod.metadata.labels))
    return false;
  if (!isDeepStrictEqual(withoutResources(oldPod), withoutResources(newPod))) return false;
  if (isStaticPod(newPod) || isStaticPod(oldPod)) return false;
  if (podQosClass(oldPod.spec) !== podQosClass(newPod.spec)) return false;
  return resourcesResizable(oldPod, newPod);
}

/** The budget's operation for a pod UPDATE: undefined when it cannot make the pod unavailable. */
export function updateOperation(oldPod: Pod, newPod: Pod): PubOperation | undefined {
  if (!isPodUnavailableChanged(oldPod, newPod)) return undefined;
  return canResizeInPlace(oldPod, newPod) ? 'RESIZE' : 'UPDATE';
}
