/**
 * OpenKruise: pkg/controller/daemonset/daemonset_util.go `nodeShouldRunDaemonPod`, daemonset_controller.go
 * `Predicates`, `NewPod`.
 *
 * Whether a DaemonSet wants a pod on a node, and whether a pod already there may stay.
 */
import type { Node, Toleration } from '../../../api/node.js';
import { requiredNodeAffinityMatches, untoleratedTaint, type FitSpec } from '../../../podset/nodeFit.js';
import type { DaemonSet } from '../api/types.js';
import { withDaemonTolerations } from './tolerations.js';

/** The answer of {@link nodeShouldRunDaemonPod}. */
export interface NodeVerdict {
  /** A pod should be created when the node has none. */
  shouldRun: boolean;
  /** A pod already on the node may stay. */
  shouldContinueRunning: boolean;
}

/** The scheduling spec of the DaemonSet's pod (`NewPod`: the template's spec with the daemon tolerations). */
export function daemonPodSpec(ds: DaemonSet): FitSpec {
  const spec = ds.spec.template.spec;
  return {
    ...(spec as FitSpec),
    tolerations: withDaemonTolerations(
      spec.tolerations as Toleration[] | undefined,
      spec.hostNetwork === true,
    ),
  };
}

/**
 * `nodeShouldRunDaemonPod`: the template's `nodeName`, when set, must be the node's; then its `nodeSelector` and
 * required node affinity must match the node (else neither). A NoSchedule or NoExecute taint the pod (daemon
 * tolerations included) does not tolerate means no new pod, and an existing pod may stay unless an untolerated taint
 * is NoExecute. Resources and `spec.unschedulable` are not checked (upstream neither; the unschedulable taint is
 * tolerated).
 */
export function nodeShouldRunDaemonPod(
  node: Node,
  ds: DaemonSet,
  spec: FitSpec = daemonPodSpec(ds),
): NodeVerdict {
  const name = node.metadata.name ?? '';
  if (spec.nodeName && spec.nodeName !== name) return { shouldRun: false, shouldContinueRunning: false };
  if (!requiredNodeAffinityMatches(spec, node)) return { shouldRun: false, shouldContinueRunning: false };
  const taints = node.spec?.taints ?? [];
  const tolerations = spec.tolerations ?? [];
  const blocking = untoleratedTaint(
    taints,
    tolerations,
    (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute',
  );
  if (!blocking) return { shouldRun: true, shouldContinueRunning: true };
  const evicting = untoleratedTaint(taints, tolerations, (t) => t.effect === 'NoExecute');
  return { shouldRun: false, shouldContinueRunning: !evicting };
}
