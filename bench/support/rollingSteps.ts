/**
 * Where the time of a recreate rolling update goes (the Advanced DaemonSet part's Standard runs and the DaemonSet
 * controller's, BENCHMARKS.md#ads-steps): each node's old pod is deleted, terminates (kwok's `pod-delete` stage
 * holds it 500 ms, infra/local/kwok-stages.yaml), is replaced by a new pod on the same node, which comes Ready, and
 * only then may the controller delete the next one within `maxUnavailable`. From what the bench's pod watch saw of
 * every pod ({@link MilestoneRecorder}) {@link rollingSteps} gives the median of each step, and the floor no
 * controller can go under at `maxSurge` 0: the pods go in at least ⌈N ÷ maxUnavailable⌉ waves, and each wave lasts
 * at least one termination.
 */
import { median } from './stats.js';
import type { Stamped, Tracker } from './tracker.js';

/** What the bench's pod watch saw of one pod, ms since the recorder's origin (the image change). */
export interface PodMilestones {
  /** `spec.containers[0].image` */
  image: string;
  /** `spec.nodeName`, the last one seen (a new pod is bound after its creation). */
  node?: string;
  /** First event of the pod. */
  seen: number;
  /** First event with a `deletionTimestamp`. */
  deleting?: number;
  /** Its DELETED event. */
  gone?: number;
  /** First event with condition `Ready` `True`. */
  ready?: number;
}

/**
 * Records {@link PodMilestones} of every pod of one workload (`app` label) from a tracker's events, from the call
 * on. Pods that existed before are recorded from their next event (their `seen` is then that event).
 */
export class MilestoneRecorder {
  /** By pod name. */
  readonly pods = new Map<string, PodMilestones>();
  private readonly off: () => void;

  /**
   * @param origin `performance.now()` value the times count from
   * @param app the workload's `app` label
   */
  constructor(
    private readonly tracker: Tracker,
    private readonly origin: number,
    private readonly app: string,
  ) {
    this.off = tracker.listen((e) => this.note(e));
  }

  private note(e: Stamped): void {
    if (e.kind !== 'pod') return;
    const at = e.at - this.origin;
    const known = this.pods.get(e.name);
    if (e.type === 'DELETED') {
      if (known) known.gone ??= at;
      return;
    }
    const view = this.tracker.pods.get(`${e.namespace}/${e.name}`);
    if (!view || view.app !== this.app) return;
    const m = known ?? { image: view.image, seen: at };
    if (view.node) m.node = view.node;
    if (view.deleting) m.deleting ??= at;
    if (view.ready) m.ready ??= at;
    this.pods.set(e.name, m);
  }

  /** Stop recording. */
  stop(): void {
    this.off();
  }
}

/** Medians of the steps of a recreate rolling update, ms, and its floor. */
export interface RollingSteps {
  /** Old pods deleted (a `deletionTimestamp` seen). */
  deleted: number;
  /** Old pod's deletion seen → its DELETED event (the termination). */
  terminationMs: number;
  /** Old pod's DELETED → the new pod on its node seen (the controller's create). */
  replacementMs: number;
  /** New pod seen → Ready (binding, kwok's stages, the controller's `KruisePodReady` write where it has one). */
  readinessMs: number;
  /**
   * A deletion after the first wave → the latest Ready of a new pod before it (the controller's reaction to a pod
   * coming Ready with the next deletion).
   */
  nextDeleteMs: number;
  /** ⌈N ÷ maxUnavailable⌉. */
  waves: number;
  /** `waves` × `terminationMs`, seconds: no controller's update of these pods ends sooner. */
  floorS: number;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

/**
 * The steps of a recreate rolling update from `pods` (see the module doc). Old pods are those not of `newImage`
 * with a deletion seen; a new pod pairs with the old pod of the same node.
 * @param maxUnavailable pods (not a percentage), > 0
 * @returns NaN for a step that no pod went through
 * @throws Error when `maxUnavailable` is not a positive integer
 */
export function rollingSteps(
  pods: ReadonlyMap<string, PodMilestones>,
  newImage: string,
  n: number,
  maxUnavailable: number,
): RollingSteps {
  if (!Number.isInteger(maxUnavailable) || maxUnavailable < 1)
    throw new Error(`rollingSteps: maxUnavailable must be a positive integer, got ${maxUnavailable}`);
  const all = [...pods.values()];
  const olds = all.flatMap((p) =>
    p.image !== newImage && p.deleting !== undefined ? [{ ...p, deleting: p.deleting }] : [],
  );
  const news = all.filter((p) => p.image === newImage);
  const newOnNode = new Map(news.filter((p) => p.node).map((p) => [p.node, p]));
  const termination: number[] = [];
  const replacement: number[] = [];
  for (const old of olds) {
    if (old.gone === undefined) continue;
    termination.push(old.gone - old.deleting);
    const next = old.node ? newOnNode.get(old.node) : undefined;
    if (next) replacement.push(next.seen - old.gone);
  }
  const readiness = news.flatMap((p) => (p.ready !== undefined ? [p.ready - p.seen] : []));
  const readyTimes = news.flatMap((p) => (p.ready !== undefined ? [p.ready] : [])).sort((a, b) => a - b);
  const nextDelete: number[] = [];
  for (const old of olds) {
    let latest: number | undefined;
    for (const r of readyTimes) if (r < old.deleting) latest = r;
    if (latest !== undefined) nextDelete.push(old.deleting - latest);
  }
  const terminationMs = median(termination);
  const waves = Math.ceil(n / maxUnavailable);
  return {
    deleted: olds.length,
    terminationMs: round1(terminationMs),
    replacementMs: round1(median(replacement)),
    readinessMs: round1(median(readiness)),
    nextDeleteMs: round1(median(nextDelete)),
    waves,
    floorS: Math.round(waves * terminationMs) / 1000,
  };
}
