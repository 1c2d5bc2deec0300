/**
 * OpenKruise: pkg/controller/broadcastjob/broadcastjob_controller.go `checkNodeFitness` — the scheduler predicates a
 * workload that places one pod per node runs itself, over Kubernetes' helpers: `nodename` (the pod's `nodeName`),
 * `nodeaffinity` (`component-helpers/scheduling/corev1/nodeaffinity` `GetRequiredNodeAffinity(pod).Match`:
 * `nodeSelector` and the required node-affinity terms), `tainttoleration` (`FindMatchingUntoleratedTaint` over the
 * NoSchedule and NoExecute taints), `nodeunschedulable` and `noderesources.Fits` against an empty node.
 *
 * Pure: a pod spec and a Node in, the first failing predicate out. Shared by every kind that decides per node
 * (BroadcastJob today; Advanced DaemonSet next).
 */
import type {
  Node,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  SchedulingSpec,
  Taint,
  Toleration,
} from '../api/node.js';
import type { Container } from '../api/types.js';
import { parseQuantity } from './inplace/spec.js';

/** The taint the scheduler reads `spec.unschedulable` as (`corev1.TaintNodeUnschedulable`). */
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/** The only node field a `matchFields` requirement may name (`metav1.ObjectNameField`). */
export const FIELD_OBJECT_NAME = 'metadata.name';

/** The pod spec fields a fit check reads: scheduling and the containers' requests. */
export interface FitSpec extends SchedulingSpec {
  containers?: Container[];
  initContainers?: (Container & { restartPolicy?: string })[];
  overhead?: Record<string, string>;
}

/** Why a pod does not fit a node: the predicate and the scheduler's reason text. */
export interface NoFit {
  predicate: 'NodeName' | 'NodeAffinity' | 'TaintToleration' | 'NodeUnschedulable' | 'NodeResourcesFit';
  reason: string;
}

/**
 * Whether `toleration` tolerates `taint` (`corev1.Toleration.ToleratesTaint`): an empty effect or key matches any;
 * operator `Exists` matches any value, `Equal` (or empty) the same value; another operator nothing.
 */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  const op = toleration.operator ?? '';
  if (op === 'Exists') return true;
  if (op === '' || op === 'Equal') return (toleration.value ?? '') === (taint.value ?? '');
  return false;
}

/**
 * The first taint of `taints` (in order) that `filter` keeps and no toleration tolerates
 * (`v1helper.FindMatchingUntoleratedTaint`), or undefined.
 */
export function untoleratedTaint(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  filter: (t: Taint) => boolean,
): Taint | undefined {
  return taints.find((t) => filter(t) && !tolerations.some((tol) => toleratesTaint(tol, t)));
}

/** A Go `strconv.ParseInt` of a label value or requirement value, or undefined. */
function parseInt64(s: string): number | undefined {
  return /^[+-]?\d+$/.test(s) ? Number(s) : undefined;
}

/** Whether a requirement is well formed (`labels.NewRequirement` / the field-selector conversion); bad ones void their term. */
function validLabelRequirement(r: NodeSelectorRequirement): boolean {
  const n = r.values?.length ?? 0;
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      return n > 0;
    case 'Exists':
    case 'DoesNotExist':
      return n === 0;
    case 'Gt':
    case 'Lt':
      return n === 1 && parseInt64(r.values?.[0] ?? '') !== undefined;
    default:
      return false;
  }
}

function labelRequirementMatches(r: NodeSelectorRequirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = labels[r.key];
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return has && values.includes(value);
    case 'NotIn':
      return !has || !values.includes(value);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      const v = has ? parseInt64(value) : undefined;
      const bound = parseInt64(values[0] ?? '') as number;
      if (v === undefined) return false;
      return r.operator === 'Gt' ? v > bound : v < bound;
    }
    default:
      return false;
  }
}

/** A field requirement is `metadata.name` In/NotIn with exactly one value (`nodeSelectorRequirementsAsFieldSelector`). */
function validFieldRequirement(r: NodeSelectorRequirement): boolean {
  return (
    r.key === FIELD_OBJECT_NAME && (r.operator === 'In' || r.operator === 'NotIn') && r.values?.length === 1
  );
}

/**
 * Whether a node-selector term matches (`nodeaffinity` `nodeSelectorTerm.match`): a term with no requirement, or with
 * a malformed one (dropped by `NewLazyErrorNodeSelector`), matches nothing; otherwise every label and field
 * requirement must hold.
 */
export function nodeSelectorTermMatches(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  if (!exprs.every(validLabelRequirement) || !fields.every(validFieldRequirement)) return false;
  const labels = node.metadata.labels ?? {};
  const name = node.metadata.name ?? '';
  return (
    exprs.every((r) => labelRequirementMatches(r, labels)) &&
    fields.every((r) => (r.operator === 'In') === (r.values?.[0] === name))
  );
}

/**
 * `GetRequiredNodeAffinity(pod).Match(node)`: every `nodeSelector` label equal on the node, and — when the pod has
 * required node affinity — at least one of its terms matching ({@link nodeSelectorTermMatches}; no terms: none).
 */
export function requiredNodeAffinityMatches(spec: SchedulingSpec, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return (required.nodeSelectorTerms ?? []).some((t) => nodeSelectorTermMatches(t, node));
}

type Amounts = Map<string, number>;

function addInto(into: Amounts, from: Record<string, string> | undefined): void {
  for (const [name, q] of Object.entries(from ?? {}))
    into.set(name, (into.get(name) ?? 0) + (parseQuantity(q) ?? 0));
}

function maxInto(into: Amounts, from: Amounts): void {
  for (const [name, v] of from) into.set(name, Math.max(into.get(name) ?? 0, v));
}

/**
 * A pod's resource requests as the scheduler counts them (`resourcehelper.PodRequests` without pod-level resources
 * and in-place resize state): the containers' requests summed with the restartable (sidecar) init containers', at
 * least each regular init container's (plus the sidecars started before it), plus `overhead`.
 * @returns amounts by resource name, in the quantity's base unit (cores, bytes)
 */
export function podRequests(spec: FitSpec): Amounts {
  const total: Amounts = new Map();
  for (const c of spec.containers ?? []) addInto(total, c.resources?.requests);
  const sidecars: Amounts = new Map();
  const initMax: Amounts = new Map();
  for (const c of spec.initContainers ?? []) {
    if (c.restartPolicy === 'Always') {
      addInto(sidecars, c.resources?.requests);
      addInto(total, c.resources?.requests);
      continue;
    }
    const need: Amounts = new Map(sidecars);
    addInto(need, c.resources?.requests);
    maxInto(initMax, need);
  }
  maxInto(total, initMax);
  addInto(total, spec.overhead);
  return total;
}

/**
 * `noderesources.Fits` of a pod on an empty node (`framework.NewNodeInfo()` with only the node): `Too many pods`
 * when the node's allocatable `pods` is below 1, then — unless the pod requests nothing — `Insufficient <name>` for
 * each requested resource above the node's allocatable (cpu, memory, ephemeral-storage, then the others by name).
 * @returns the reasons, empty when it fits
 */
export function insufficientResources(spec: FitSpec, node: Node): string[] {
  const allocatable = node.status?.allocatable ?? {};
  const reasons: string[] = [];
  if ((parseQuantity(allocatable.pods ?? '0') ?? 0) < 1) reasons.push('Too many pods');
  const requests = podRequests(spec);
  if ([...requests.values()].every((v) => v === 0)) return reasons;
  const order = ['cpu', 'memory', 'ephemeral-storage'];
  const names = [
    ...order.filter((n) => requests.has(n)),
    ...[...requests.keys()].filter((n) => !order.includes(n) && n !== 'pods').sort(),
  ];
  for (const name of names) {
    const want = requests.get(name) ?? 0;
    if (want === 0) continue;
    const have = parseQuantity(allocatable[name] ?? '0') ?? 0;
    if (have < want) reasons.push(`Insufficient ${name}`);
  }
  return reasons;
}

/**
 * Whether the pod of `spec` fits `node`, the predicates in `checkNodeFitness`'s order: `nodeName` (when set, the
 * node's name), required node affinity and `nodeSelector`, the NoSchedule/NoExecute taints, `spec.unschedulable`
 * (tolerated as the `node.kubernetes.io/unschedulable:NoSchedule` taint), then resources.
 * @returns undefined when it fits, else the first failing predicate and its reason
 */
export function whyPodDoesNotFit(spec: FitSpec, node: Node): NoFit | undefined {
  if (spec.nodeName && spec.nodeName !== node.metadata.name)
    return { predicate: 'NodeName', reason: "node(s) didn't match the requested node name" };
  if (!requiredNodeAffinityMatches(spec, node))
    return { predicate: 'NodeAffinity', reason: "node(s) didn't match Pod's node affinity/selector" };
  const tolerations = spec.tolerations ?? [];
  const taint = untoleratedTaint(
    node.spec?.taints ?? [],
    tolerations,
    (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute',
  );
  if (taint)
    return {
      predicate: 'TaintToleration',
      reason: `node(s) had taint {${taint.key}: ${taint.value ?? ''}}, that the pod didn't tolerate`,
    };
  const unschedulable: Taint = { key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' };
  if (node.spec?.unschedulable && !tolerations.some((t) => toleratesTaint(t, unschedulable)))
    return { predicate: 'NodeUnschedulable', reason: 'node(s) were unschedulable' };
  const short = insufficientResources(spec, node);
  if (short.length > 0) return { predicate: 'NodeResourcesFit', reason: short.join(', ') };
  return undefined;
}
