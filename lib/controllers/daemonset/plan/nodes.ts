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
  const { shouldRun, shouldContinueRunning } = judgeDaemonNode(node, ds, spec);
  return { shouldRun, shouldContinueRunning };
}

/**
 * {@link nodeShouldRunDaemonPod} with the reason when the node should not run the pod: the template's `nodeName`
 * naming another node, its `nodeSelector` / required node affinity not matching, or the first untolerated taint
 * (NoExecute first when one evicts the pod) as `key=value:Effect`. For `kruiseless why`.
 */
export function judgeDaemonNode(
  node: Node,
  ds: DaemonSet,
  spec: FitSpec = daemonPodSpec(ds),
): NodeVerdict & { reason?: string } {
  const name = node.metadata.name ?? '';
  if (spec.nodeName && spec.nodeName !== name)
    return {
      shouldRun: false,
      shouldContinueRunning: false,
      reason: `the template's nodeName is ${spec.nodeName}`,
    };
  if (!requiredNodeAffinityMatches(spec, node))
    return {
      shouldRun: false,
      shouldContinueRunning: false,
      reason: "the template's nodeSelector or required node affinity does not match the node's labels",
    };
  const taints = node.spec?.taints ?? [];
  const tolerations = spec.tolerations ?? [];
  const blocking = untoleratedTaint(
    taints,
    tolerations,
    (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute',
  );
  if (!blocking) return { shouldRun: true, shouldContinueRunning: true };
  const evicting = untoleratedTaint(taints, tolerations, (t) => t.effect === 'NoExecute');
  const taint = evicting ?? blocking;
  return {
    shouldRun: false,
    shouldContinueRunning: !evicting,
    reason: `taint ${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect} not tolerated`,
  };
}
