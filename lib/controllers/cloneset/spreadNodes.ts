/**
 * OpenKruise: pkg/controller/cloneset/utils/pod_sorter.go `NewSpreadConstraintsRanker` (its node reads), called by
 * pkg/controller/cloneset/sync/cloneset_scale.go `choosePodsToDelete` (v1.9.0).
 *
 * The labels of the nodes a CloneSet's pods run on, for the scale-in ranking under the template's
 * `topologySpreadConstraints` (plan/sync/victims.ts `spreadRanks`). Upstream GETs each pod's node from its informer
 * cache while it ranks; the planner is pure, so the pass reads them first — only when the ranking can happen: the
 * template has constraints and more pods are active than `spec.replicas`, the one case a scale-in chooses victims. A
 * node that cannot be read is left out, as upstream skips a node its GET fails for: its pods get no topology rank.
 */
import type { CloneSet, Pod } from '../../api/types.js';
import { runBounded } from '../../core/bounded.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import { isPodActive } from '../../podset/pods.js';
import type { NodeLabels } from './plan/types.js';

/** Node GETs one pass keeps in flight. */
const NODE_READS_IN_FLIGHT = 8;

/** What {@link readSpreadNodeLabels} found. */
export interface SpreadNodes {
  /** Labels by node name, of the nodes read. */
  labels: NodeLabels;
  /** Nodes whose GET failed or found nothing (their pods rank as on a node without the topology key). */
  unread: string[];
}

/**
 * The labels of every node one of `pods` is bound to (`spec.nodeName`), one GET per node, at most
 * {@link NODE_READS_IN_FLIGHT} at a time; unscheduled pods need none.
 * @returns the labels read and the nodes that could not be (never rejects; an error other than an API one is
 *   counted as unread too, as upstream's `continue`)
 */
export async function readSpreadNodeLabels(
  kube: Pick<KubeClient, 'get'>,
  pods: readonly Pod[],
): Promise<SpreadNodes> {
  const names = [...new Set(pods.map((p) => p.spec.nodeName ?? '').filter((n) => n !== ''))].sort();
  const outcomes = await runBounded(
    names,
    NODE_READS_IN_FLIGHT,
    (name) => kube.get(RESOURCES.nodes, { name }),
    false,
  );
  const labels: NodeLabels = {};
  const unread: string[] = [];
  outcomes.forEach((o, i) => {
    const name = names[i];
    if (o.status === 'fulfilled' && o.value) labels[name] = { ...(o.value.metadata.labels ?? {}) };
    else unread.push(name);
  });
  return { labels, unread };
}

/**
 * The labels of the nodes the CloneSet's active pods run on when a scale-in may rank them by topology — the template
 * has `topologySpreadConstraints` and more pods are active than `spec.replicas` (1 when unset, as the defaults), which
 * every scale-in needs — else undefined (no read at all, the usual case).
 * @param ownPods the pods the pass listed that the CloneSet owns (any state: only the active ones count and are read for)
 * @returns as {@link readSpreadNodeLabels}; never rejects
 */
export async function spreadNodesFor(
  kube: Pick<KubeClient, 'get'>,
  cloneSet: CloneSet,
  ownPods: readonly Pod[],
): Promise<SpreadNodes | undefined> {
  if ((cloneSet.spec.template.spec.topologySpreadConstraints ?? []).length === 0) return undefined;
  const active = ownPods.filter(isPodActive);
  return active.length > (cloneSet.spec.replicas ?? 1) ? readSpreadNodeLabels(kube, active) : undefined;
}
