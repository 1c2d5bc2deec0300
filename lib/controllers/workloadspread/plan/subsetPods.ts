/**
 * OpenKruise: pkg/controller/workloadspread/workloadspread_controller.go `groupVersionedPods` and
 * `groupPodBySubset` (v1.9.0).
 *
 * The controller's grouping of the target's pods: by version (./version.ts), then by the subset their
 * matched-workloadspread annotation names. A pod of another WorkloadSpread, without the annotation, or naming a
 * subset the spec no longer has goes to the fake subset. Kruiseless gap: upstream places a pod created before the
 * WorkloadSpread (no annotation) in the subset whose node terms its node matches, and patches the annotation on it;
 * here such a pod stays in the fake subset.
 */
import type { Pod } from '../../../api/types.js';
import { FAKE_SUBSET_NAME } from '../api/keys.js';
import type { WorkloadSpread } from '../api/types.js';
import { placedBy } from './injected.js';
import { podVersion } from './version.js';

/** Subset name (or {@link FAKE_SUBSET_NAME}) → its pods, in input order. */
export type SubsetPods = Map<string, Pod[]>;

/** The pods of `pods` by subset (see the module doc); every subset of the spec has an entry, possibly empty. */
export function podsBySubset(ws: WorkloadSpread, pods: readonly Pod[]): SubsetPods {
  const out: SubsetPods = new Map([[FAKE_SUBSET_NAME, []]]);
  for (const s of ws.spec.subsets) out.set(s.name, []);
  for (const pod of pods) {
    const subset = placedBy(pod, ws.metadata.name ?? '')?.subset;
    const list = (subset !== undefined ? out.get(subset) : undefined) ?? out.get(FAKE_SUBSET_NAME);
    list?.push(pod);
  }
  return out;
}

/** Version → its pods by subset; versions in order of first appearance. */
export function podsByVersion(ws: WorkloadSpread, pods: readonly Pod[]): Map<string, SubsetPods> {
  const versions = new Map<string, Pod[]>();
  for (const pod of pods) {
    const v = podVersion(pod);
    versions.set(v, [...(versions.get(v) ?? []), pod]);
  }
  return new Map([...versions].map(([v, ps]) => [v, podsBySubset(ws, ps)]));
}
