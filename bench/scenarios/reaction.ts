/**
 * Reaction time: from a change the controller must follow (a pod deleted, a CloneSet's replicas edited) to the
 * first write it causes (a pod created or the CloneSet changed by the controller, seen on the bench's watch) and to
 * a correct status (every pod there and Ready, and `status` saying so for the current generation). Run for
 * OpenKruise and Kruiseless on their control planes; also the per-namespace part of the fleet scenario.
 */
import { performance } from 'node:perf_hooks';
import { percentile } from '../support/stats.js';
import { createNamespace, deleteNamespace, type BenchCluster } from '../support/kube.js';
import type { Stamped, Tracker } from '../support/tracker.js';
import { MERGE_PATCH, objectPath, replicasPatch, workload } from './workload.js';

/** p50 and p99 of a set of latencies, seconds, and the samples. */
export interface Latencies {
  p50: number;
  p99: number;
  samples: number[];
}

/** Latencies to the first write and to a correct status. */
export interface Reaction {
  firstWrite: Latencies;
  correctStatus: Latencies;
}

/** {@link Latencies} of samples in ms, reported in seconds (3 decimals). */
export function latencies(ms: readonly number[]): Latencies {
  const s = ms.map((x) => Math.round(x) / 1000);
  return { p50: percentile(s, 50), p99: percentile(s, 99), samples: s };
}

/**
 * A write by the controller in `namespace` after `t0`: a pod ADDED, or a CloneSet change other than the bench's
 * own (`ownResourceVersions`).
 */
export function isControllerWrite(
  e: Stamped,
  namespace: string,
  t0: number,
  ownResourceVersions: ReadonlySet<string>,
): boolean {
  if (e.at < t0 || e.namespace !== namespace) return false;
  if (e.kind === 'pod') return e.type === 'ADDED';
  return e.type === 'MODIFIED' && !ownResourceVersions.has(e.resourceVersion);
}

/** Records every event of a tracker until stopped. */
export function recorder(tracker: Tracker): { events: Stamped[]; stop: () => void } {
  const events: Stamped[] = [];
  const stop = tracker.listen((e) => events.push(e));
  return { events, stop };
}

/** True when `name` in `namespace` has `replicas` live Ready pods and a status saying so for its generation. */
export function settled(tracker: Tracker, namespace: string, name: string, replicas: number): boolean {
  const live = tracker.live(namespace, name);
  const cs = tracker.cloneSets.get(`${namespace}/${name}`);
  return (
    live.length === replicas &&
    live.every((p) => p.ready) &&
    cs !== undefined &&
    cs.observedGeneration === cs.generation &&
    cs.replicas === replicas &&
    cs.readyReplicas === replicas
  );
}

const NAME = 'react';
/** Pods of the CloneSet the reaction samples run on. */
export const REACTION_REPLICAS = 10;

/**
 * `samples` pod deletions and `samples` scale-ups by one (each undone unmeasured) on a settled CloneSet of
 * {@link REACTION_REPLICAS} pods, one at a time.
 * @throws Error when the CloneSet does not settle within a minute
 */
export async function runReaction(
  cluster: BenchCluster,
  tracker: Tracker,
  namespace: string,
  samples: number,
): Promise<{ podDeleted: Reaction; cloneSetEdited: Reaction }> {
  const csPath = objectPath('kruiseless', namespace, NAME);
  const { path, body } = workload('kruiseless', namespace, NAME, REACTION_REPLICAS);
  await cluster.request('POST', path, body);
  const settle = (n: number): Promise<number> =>
    tracker.until(`${NAME} settled at ${n}`, () => settled(tracker, namespace, NAME, n), 60_000);
  await settle(REACTION_REPLICAS);
  const out = {
    podDeleted: { w: [] as number[], s: [] as number[] },
    cloneSetEdited: { w: [] as number[], s: [] as number[] },
  };
  for (let i = 0; i < samples; i++) {
    await new Promise((r) => setTimeout(r, 300));
    // a pod deleted
    let rec = recorder(tracker);
    const victim = tracker.live(namespace)[i % REACTION_REPLICAS];
    let t0 = performance.now();
    await cluster.request('DELETE', `/api/v1/namespaces/${namespace}/pods/${victim.name}`);
    // the bench's own view must have seen the deletion before "settled again" means anything
    await tracker.until(
      'deletion seen',
      () => !tracker.live(namespace, NAME).some((p) => p.name === victim.name),
      10_000,
    );
    let done = await settle(REACTION_REPLICAS);
    rec.stop();
    let first = rec.events.find((e) => isControllerWrite(e, namespace, t0, new Set()));
    out.podDeleted.w.push((first?.at ?? done) - t0);
    out.podDeleted.s.push(done - t0);
    await new Promise((r) => setTimeout(r, 300));
    // the CloneSet edited: one more replica
    rec = recorder(tracker);
    t0 = performance.now();
    const patched = (await cluster.request(
      'PATCH',
      csPath,
      replicasPatch(REACTION_REPLICAS + 1),
      MERGE_PATCH,
    )) as {
      metadata: { resourceVersion: string; generation: number };
    };
    const generation = patched.metadata.generation;
    await tracker.until(
      'edit seen',
      () => (tracker.cloneSets.get(`${namespace}/${NAME}`)?.generation ?? 0) >= generation,
      10_000,
    );
    done = await settle(REACTION_REPLICAS + 1);
    rec.stop();
    first = rec.events.find((e) =>
      isControllerWrite(e, namespace, t0, new Set([patched.metadata.resourceVersion])),
    );
    out.cloneSetEdited.w.push((first?.at ?? done) - t0);
    out.cloneSetEdited.s.push(done - t0);
    await cluster.request('PATCH', csPath, replicasPatch(REACTION_REPLICAS), MERGE_PATCH);
    await settle(REACTION_REPLICAS);
  }
  return {
    podDeleted: { firstWrite: latencies(out.podDeleted.w), correctStatus: latencies(out.podDeleted.s) },
    cloneSetEdited: {
      firstWrite: latencies(out.cloneSetEdited.w),
      correctStatus: latencies(out.cloneSetEdited.s),
    },
  };
}

/** Run {@link runReaction} in a fresh namespace with its own tracker, deleted afterwards. */
export async function runReactionIn(
  cluster: BenchCluster,
  makeTracker: (ns: string) => Tracker,
  label: string,
  samples: number,
): Promise<{ podDeleted: Reaction; cloneSetEdited: Reaction }> {
  const ns = `bench-react-${label}-${Date.now().toString(36)}`;
  await createNamespace(cluster, ns);
  const tracker = makeTracker(ns);
  await tracker.start();
  try {
    return await runReaction(cluster, tracker, ns, samples);
  } finally {
    tracker.stop();
    await deleteNamespace(cluster, ns);
  }
}
