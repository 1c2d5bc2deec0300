/**
 * The core/v1 Node shapes and the scheduling fields of a pod spec that decide whether a pod fits a node
 * (`corev1.Node`, `Taint`, `Toleration`, `NodeSelector`, `Affinity`): what lib/podset/nodeFit.ts reads. Fields the
 * controllers do not read pass through.
 */
import type { KnownOrOther, ObjectMeta } from './types.js';

/** `corev1.Taint`. */
export interface Taint {
  key: string;
  value?: string;
  effect: KnownOrOther<'NoSchedule' | 'PreferNoSchedule' | 'NoExecute'>;
  timeAdded?: string | null;
}

/** `corev1.Toleration`. */
export interface Toleration {
  key?: string;
  operator?: KnownOrOther<'Exists' | 'Equal'>;
  value?: string;
  effect?: KnownOrOther<'NoSchedule' | 'PreferNoSchedule' | 'NoExecute'>;
  tolerationSeconds?: number;
}

/** `corev1.NodeSelectorRequirement`. */
export interface NodeSelectorRequirement {
  key: string;
  operator: KnownOrOther<'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt'>;
  values?: string[];
}

/** `corev1.NodeSelectorTerm`: its requirements are ANDed. */
export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

/** `corev1.NodeSelector`: its terms are ORed. */
export interface NodeSelector {
  nodeSelectorTerms: NodeSelectorTerm[];
}

/** `corev1.NodeAffinity` (the preferred terms pass through). */
export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
  [key: string]: unknown;
}

/** `corev1.Affinity` (pod affinity and anti-affinity pass through). */
export interface Affinity {
  nodeAffinity?: NodeAffinity;
  [key: string]: unknown;
}

/** `corev1.Node` (the fields a fit check reads). */
export interface Node {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: { unschedulable?: boolean; taints?: Taint[]; [key: string]: unknown };
  status?: {
    /** Quantities by resource name (`cpu`, `memory`, `pods`, `ephemeral-storage`, extended resources). */
    allocatable?: Record<string, string>;
    capacity?: Record<string, string>;
    conditions?: { type: string; status: string; [key: string]: unknown }[];
    [key: string]: unknown;
  };
}

/** The scheduling fields of a pod spec (`corev1.PodSpec`) a fit check reads. */
export interface SchedulingSpec {
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  tolerations?: Toleration[];
}
