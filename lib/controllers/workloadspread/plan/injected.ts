/**
 * OpenKruise: pkg/util/workloadspread/workloadspread.go `InjectWorkloadSpread` and the controller's
 * `getInjectWorkloadSpreadFromPod` (v1.9.0).
 *
 * The matched-workloadspread annotation a pod carries from its creation: which WorkloadSpread and subset placed it.
 */
import type { Pod } from '../../../api/types.js';
import { ANNOTATION_MATCHED_WORKLOADSPREAD } from '../api/keys.js';
import type { InjectedWorkloadSpread } from '../api/types.js';

/**
 * The annotation's value as Go's `json.Marshal` writes it: `name`, `subset`, then `uid` only when not empty.
 */
export function injectedAnnotation(injected: InjectedWorkloadSpread): string {
  return JSON.stringify({
    name: injected.name,
    subset: injected.subset,
    ...(injected.uid ? { uid: injected.uid } : {}),
  });
}

/**
 * The pod's annotation read back; undefined when absent or not a JSON object (upstream ignores such a pod).
 * Missing fields read as empty strings, as Go's decoder leaves them.
 */
export function injectedOf(pod: Pod): InjectedWorkloadSpread | undefined {
  const raw = pod.metadata.annotations?.[ANNOTATION_MATCHED_WORKLOADSPREAD];
  if (raw === undefined) return undefined;
  try {
    const v = JSON.parse(raw) as unknown;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    const o = v as Record<string, unknown>;
    const str = (x: unknown) => (typeof x === 'string' ? x : '');
    return { name: str(o.name), subset: str(o.subset), ...(str(o.uid) ? { uid: str(o.uid) } : {}) };
  } catch {
    return undefined;
  }
}

/** Upstream's `isNotMatchedWS`: the annotation does not name this WorkloadSpread with a subset. */
export function placedBy(pod: Pod, wsName: string): InjectedWorkloadSpread | undefined {
  const injected = injectedOf(pod);
  return injected && injected.name === wsName && injected.subset !== '' ? injected : undefined;
}
