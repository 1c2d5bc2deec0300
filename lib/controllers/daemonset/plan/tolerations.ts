/**
 * OpenKruise: Kubernetes pkg/controller/daemon/util/daemonset_util.go `AddOrUpdateDaemonPodTolerations` (which
 * OpenKruise's `NewPod` and `CreatePodTemplate` call), with pkg/apis/core/v1/helper `AddOrUpdateTolerationInPodSpec`.
 *
 * The tolerations every daemon pod gets, so that node conditions the node lifecycle controller turns into taints
 * (not ready, unreachable, pressure, unschedulable, and for host-network pods network-unavailable) do not keep
 * daemons off or evict them.
 */
import type { Toleration } from '../../../api/node.js';

/** The daemon tolerations, in the order they are added; the last only for `hostNetwork` pods. */
export const DAEMON_TOLERATIONS: readonly Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

/** Added last for pods with `hostNetwork: true`. */
export const NETWORK_UNAVAILABLE_TOLERATION: Toleration = {
  key: 'node.kubernetes.io/network-unavailable',
  operator: 'Exists',
  effect: 'NoSchedule',
};

const same = (a: Toleration, b: Toleration) =>
  (a.key ?? '') === (b.key ?? '') &&
  (a.effect ?? '') === (b.effect ?? '') &&
  (a.operator ?? '') === (b.operator ?? '') &&
  (a.value ?? '') === (b.value ?? '');

/**
 * `tolerations` with `add` put in (`AddOrUpdateTolerationInPodSpec`): one with the same key, operator, value and
 * effect is replaced in place by `add` (so its `tolerationSeconds` is dropped), else `add` is appended.
 */
export function addOrUpdateToleration(tolerations: readonly Toleration[], add: Toleration): Toleration[] {
  let replaced = false;
  const out = tolerations.map((t) => {
    if (!same(t, add)) return t;
    replaced = true;
    return { ...add };
  });
  return replaced ? out : [...out, { ...add }];
}

/**
 * The pod's tolerations with the daemon ones added in order ({@link DAEMON_TOLERATIONS}, then
 * {@link NETWORK_UNAVAILABLE_TOLERATION} when `hostNetwork`). Returns a new list.
 */
export function withDaemonTolerations(
  tolerations: readonly Toleration[] | undefined,
  hostNetwork: boolean,
): Toleration[] {
  const all = hostNetwork ? [...DAEMON_TOLERATIONS, NETWORK_UNAVAILABLE_TOLERATION] : DAEMON_TOLERATIONS;
  return all.reduce<Toleration[]>((acc, t) => addOrUpdateToleration(acc, t), [...(tolerations ?? [])]);
}
