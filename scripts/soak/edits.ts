/**
 * The soak's user edits (`npm run soak`): a seeded plan of what a user does to the soak's CloneSets and when —
 * scale up and down, an image change in place or by recreation, partition moves, pause and resume, a pod deleted,
 * a pod marked for specified deletion — and how each becomes one API call against the CloneSet as it then is.
 * The plan is pure data from the seed (fast-check's generator, unbiased); {@link resolveEdit} is pure too.
 */
import fc from 'fast-check';
import type { CloneSet, Pod } from '../../lib/api/types.js';
import { LABEL_SPECIFIED_DELETE } from '../../lib/api/keys.js';

/** Images an image change chooses from (all served by kwok: any name works). */
export const SOAK_IMAGES = ['nginx:1.18-alpine', 'nginx:1.19-alpine', 'nginx:1.20-alpine'] as const;

/** Replicas a scale edit chooses from (small: the machine is shared). */
export const SOAK_MAX_REPLICAS = 5;

/** The kinds of user edit, as issue 18 lists them. */
export type SoakEditKind =
  'scale' | 'imageInPlace' | 'imageRecreate' | 'partition' | 'pauseResume' | 'deletePod' | 'specifiedDelete';

/** One planned edit: which CloneSet, what, a number that picks the value or pod, and the wait before it. */
export interface PlannedEdit {
  /** Index of the CloneSet, 0 ≤ cloneset < the soak's CloneSet count. */
  cloneset: number;
  kind: SoakEditKind;
  /** Chooses the new value or the pod (see {@link resolveEdit}); 0 ≤ pick < 2^16. */
  pick: number;
  /** Wait before this edit, ms. */
  delayMs: number;
}

/** Options of {@link planEdits}. */
export interface PlanOptions {
  seed: number;
  count: number;
  clonesets: number;
  /** The wait before each edit is uniform in [minDelayMs, maxDelayMs]. */
  minDelayMs: number;
  maxDelayMs: number;
}

const KINDS: readonly SoakEditKind[] = [
  'scale',
  'imageInPlace',
  'imageRecreate',
  'partition',
  'pauseResume',
  'deletePod',
  'specifiedDelete',
];

/**
 * The edit plan of a seed: the same seed gives the same edits (fast-check's `sample` with `noBias`, so values are
 * uniform rather than skewed to the edges as in property tests).
 * @returns `count` edits
 */
export function planEdits(o: PlanOptions): PlannedEdit[] {
  if (o.count === 0) return [];
  const edit = fc.record({
    cloneset: fc.integer({ min: 0, max: o.clonesets - 1 }),
    kind: fc.constantFrom(...KINDS),
    pick: fc.integer({ min: 0, max: 0xffff }),
    delayMs: fc.integer({ min: o.minDelayMs, max: o.maxDelayMs }),
  });
  return fc.sample(fc.noBias(edit), { seed: o.seed, numRuns: o.count });
}

/** One API call an edit becomes. */
export type EditCall =
  | { verb: 'patchCloneSet'; patch: Record<string, unknown>; what: string }
  | { verb: 'patchPod'; pod: string; patch: Record<string, unknown>; what: string }
  | { verb: 'deletePod'; pod: string; what: string };

/** The value `pick` chooses among `n` values other than `exclude` (index into 0…n-1). */
function pickOther(pick: number, n: number, exclude: number): number {
  const i = pick % (n - 1);
  return i >= exclude ? i + 1 : i;
}

/**
 * What a planned edit does to this CloneSet and its active pods: a spec edit always changes its field (a scale to
 * another replica count in 1…{@link SOAK_MAX_REPLICAS}, another image, another partition in 0…replicas, paused
 * flipped), so that every spec edit moves `metadata.generation`; a pod edit picks among the active (not
 * terminating) pods by name order.
 * @param pods the CloneSet's pods (terminating ones are skipped)
 * @returns the call, or undefined when a pod edit finds no active pod
 */
export function resolveEdit(edit: PlannedEdit, cs: CloneSet, pods: readonly Pod[]): EditCall | undefined {
  const replicas = cs.spec.replicas ?? 1;
  const strategy = cs.spec.updateStrategy ?? {};
  switch (edit.kind) {
    case 'scale': {
      const to = pickOther(edit.pick, SOAK_MAX_REPLICAS, replicas - 1) + 1;
      return {
        verb: 'patchCloneSet',
        patch: { spec: { replicas: to } },
        what: `replicas ${replicas} → ${to}`,
      };
    }
    case 'imageInPlace':
    case 'imageRecreate': {
      const current = cs.spec.template.spec?.containers[0]?.image ?? '';
      const at = SOAK_IMAGES.indexOf(current as (typeof SOAK_IMAGES)[number]);
      const image =
        SOAK_IMAGES[at < 0 ? edit.pick % SOAK_IMAGES.length : pickOther(edit.pick, SOAK_IMAGES.length, at)];
      const type = edit.kind === 'imageInPlace' ? 'InPlaceIfPossible' : 'ReCreate';
      const containers = (cs.spec.template.spec?.containers ?? []).map((c, i) =>
        i === 0 ? { ...c, image } : c,
      );
      return {
        verb: 'patchCloneSet',
        patch: { spec: { updateStrategy: { type }, template: { spec: { containers } } } },
        what: `image ${current} → ${image} (${type})`,
      };
    }
    case 'partition': {
      const current = typeof strategy.partition === 'number' ? strategy.partition : 0;
      // 0…replicas, another value than the current one when it is among them
      const to =
        current <= replicas ? pickOther(edit.pick, replicas + 1, current) : edit.pick % (replicas + 1);
      return {
        verb: 'patchCloneSet',
        patch: { spec: { updateStrategy: { partition: to } } },
        what: `partition ${current} → ${to}`,
      };
    }
    case 'pauseResume': {
      const paused = !strategy.paused;
      return {
        verb: 'patchCloneSet',
        patch: { spec: { updateStrategy: { paused } } },
        what: paused ? 'pause' : 'resume',
      };
    }
    case 'deletePod':
    case 'specifiedDelete': {
      const active = pods
        .filter((p) => !p.metadata.deletionTimestamp)
        .map((p) => p.metadata.name ?? '')
        .sort();
      if (active.length === 0) return undefined;
      const pod = active[edit.pick % active.length];
      return edit.kind === 'deletePod'
        ? { verb: 'deletePod', pod, what: `delete pod ${pod}` }
        : {
            verb: 'patchPod',
            pod,
            patch: { metadata: { labels: { [LABEL_SPECIFIED_DELETE]: 'true' } } },
            what: `specified-delete ${pod}`,
          };
    }
  }
}

/**
 * Whether the CloneSet's status matches its spec and its pods are all there (the soak's convergence, and the state
 * in which an edit's reaction is measured): the status observed the current generation; `replicas`, ready and
 * available pods all equal `spec.replicas`, and so does the number of pods, none terminating; unless paused, at least
 * `replicas − partition` pods are on the update revision, all ready (OpenKruise's `CloneSetPartitionRollback` is off
 * by default: raising the partition leaves updated pods as they are).
 * @param pods the CloneSet's pods, terminating ones included
 * @returns undefined when settled, else what differs (for the log)
 */
export function unsettledReason(cs: CloneSet, pods: readonly Pod[]): string | undefined {
  const want = cs.spec.replicas ?? 1;
  const s = cs.status;
  if (!s) return 'no status';
  if (s.observedGeneration !== cs.metadata.generation)
    return `observedGeneration ${s.observedGeneration} ≠ generation ${cs.metadata.generation}`;
  if (s.replicas !== want || s.readyReplicas !== want || s.availableReplicas !== want)
    return `status replicas ${s.replicas} ready ${s.readyReplicas} available ${s.availableReplicas}, spec ${want}`;
  const terminating = pods.filter((p) => p.metadata.deletionTimestamp).length;
  if (pods.length - terminating !== want || terminating > 0)
    return `${pods.length - terminating} pods (${terminating} terminating), spec ${want}`;
  const strategy = cs.spec.updateStrategy ?? {};
  if (strategy.paused) return undefined;
  const partition = typeof strategy.partition === 'number' ? strategy.partition : 0;
  const updated = Math.max(0, want - partition);
  if (s.updatedReplicas < updated || s.updatedReadyReplicas !== s.updatedReplicas)
    return `updated ${s.updatedReplicas} (ready ${s.updatedReadyReplicas}), at least ${updated} wanted`;
  return undefined;
}
