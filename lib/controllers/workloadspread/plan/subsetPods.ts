/**
 * OpenKruise: pkg/controller/workloadspread/workloadspread_controller.go `groupVersionedPods` (v1.9.0).
 *
 * The controller's grouping of the target's pods: by version (./version.ts), then, within each version, by the
 * subset their matched-workloadspread annotation names, pods this WorkloadSpread did not place taken in by their
 * node (./existingPods.ts); and all versions' groups joined.
 */
import type { Node } from '../../../api/node.js';
import type { Pod } from '../../../api/types.js';
import type { WorkloadSpread } from '../api/types.js';
import { groupWithExisting, type PodAdoption, type SubsetPods } from './existingPods.js';
import { podVersion } from './version.js';

export type { SubsetPods } from './existingPods.js';

/** The grouping: by version then subset, by subset across versions, and the pods taken in. */
export interface GroupedPods {
  byVersion: Map<string, SubsetPods>;
  all: SubsetPods;
  adoptions: PodAdoption[];
}

/**
 * The pods grouped (see the module doc); versions in order of first appearance, every subset of the spec with an
 * entry in each map, possibly empty.
 * @param replicas the target's replicas, for percentages
 * @param nodes the nodes of pods not placed by this WorkloadSpread, by name
 */
export function groupPods(
  ws: WorkloadSpread,
  pods: readonly Pod[],
  replicas: number,
  nodes: ReadonlyMap<string, Node> = new Map(),
): GroupedPods {
  const versions = new Map<string, Pod[]>();
  for (const pod of pods) {
    const v = podVersion(pod);
    versions.set(v, [...(versions.get(v) ?? []), pod]);
  }
  const byVersion = new Map<string, SubsetPods>();
  const all: SubsetPods = new Map();
  const adoptions: PodAdoption[] = [];
  for (const [version, versionPods] of versions) {
    const grouped = groupWithExisting(ws, versionPods, replicas, nodes);
    byVersion.set(version, grouped.podMap);
    adoptions.push(...grouped.adoptions);
    for (const [subset, ps] of grouped.podMap) all.set(subset, [...(all.get(subset) ?? []), ...ps]);
  }
  return { byVersion, all, adoptions };
}
