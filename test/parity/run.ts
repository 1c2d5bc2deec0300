/**
 * Runs one scenario on one cluster: a fresh namespace, the steps in order, a timeline of every pod change, and
 * at each checkpoint a wait until the cluster is settled followed by a {@link Snapshot}. The scenario's object is of
 * the cluster's kind (`ParityCluster.kind`); the steps are the same for every kind, except those naming pods to
 * delete, which the kind's `deletePodsPatch` writes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Watch, type V1PersistentVolumeClaim, type V1Pod } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { ParityCluster, type ClusterState } from './cluster.js';
import type { ParityKind } from './kind.js';
import { NodeLedger, nodeState, taintsWith, taintsWithout } from './nodes.js';
import { KruiseConfigurationLedger } from './kruiseConfiguration.js';
import { msUntilClockSecond } from './clockSecond.js';
import { REPO_ROOT, type PodSelector, type Scenario, type Step } from './scenario.js';
import { podUids, takeSnapshot, type Snapshot, type TimelinePeaks } from './snapshot.js';
import { errorMessage } from '../../lib/core/errors.js';
import { stepErrorText } from './stepError.js';

/** Pod label the `mark` step writes. */
export const MARKER_LABEL = 'parity.kruiseless.io/marker';
const STATE_LABEL = 'lifecycle.apps.kruise.io/state';
const REVISION_LABEL = 'controller-revision-hash';
/** Name of the ResourceQuota the `resourceQuota` step writes. */
const QUOTA_NAME = 'parity-quota';

/**
 * A step that needs the scenario's object comes before the step that creates it: the scenario is written wrong, and
 * the whole run fails with its name (not one side's snapshot: both sides would fail alike and compare identical).
 */
export class ScenarioOrderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioOrderError';
  }
}

/** The outcome of one scenario on one cluster. */
export interface ScenarioRun {
  /** Snapshot per checkpoint name, in step order. */
  checkpoints: Record<string, Snapshot>;
  /** The first step that failed, if any (the run stops there). */
  error?: string;
}

/** Options of {@link runScenario}. */
export interface RunOptions {
  /** Keep the namespace after the run. */
  keep?: boolean;
  /**
   * While this returns true the cluster does not count as settled (quiet time starts again) and the checkpoint's
   * `settleTimeoutSeconds` count from when it last did, e.g. while the fault front's reconciler is being restarted
   * and while the killed reconciler's lease still holds its objects (test/faults): a controller that is down, or
   * kept off an object by a dead holder's lease, changes nothing.
   */
  busy?: () => boolean;
  /** The namespace to run in (default `parity-<scenario name>`). */
  namespace?: string;
}

/**
 * Runs `scenario` in namespace `opts.namespace`, by default `parity-<name>` (deleted first, and again after the run
 * unless `keep`). Nodes its node steps changed, and the `kruise-configuration` entries its steps set, are put back
 * after the run whatever happened, `keep` or not (nodes left in the cluster's journal by a run killed before that are
 * put back first: test/parity/nodes.ts).
 * Never throws for a failing step: the error is recorded in the result and the checkpoints taken so far are kept; a
 * node that could not be put back is recorded as an error too.
 */
export async function runScenario(
  cluster: ParityCluster,
  scenario: Scenario,
  opts: RunOptions = {},
): Promise<ScenarioRun> {
  const namespace = opts.namespace ?? `parity-${scenario.name}`;
  const result: ScenarioRun = { checkpoints: {} };
  const nodes = new NodeLedger(cluster, `${cluster.kubeconfig}.parity-nodes.json`);
  if (nodes.loadJournal().length > 0) await nodes.restore();
  const configuration = new KruiseConfigurationLedger(cluster);
  await cluster.deleteNamespace(namespace);
  await cluster.ensureNamespace(namespace);
  const timeline = new Timeline(cluster, namespace);
  let name = '';
  // every object the scenario created: a cluster-scoped one outlives the namespace and is deleted after the run
  const created = new Set<string>();
  let previous = new Set<string>();
  try {
    await timeline.start();
    for (const step of scenario.steps) {
      if ('checkpoint' in step) {
        const settled = await settle(cluster, namespace, name, scenario, opts.busy);
        const state = await cluster.read(namespace, name);
        result.checkpoints[step.checkpoint] = takeSnapshot(
          cluster.kind,
          state,
          previous,
          timeline.take(),
          settled,
          name,
        );
        previous = podUids(state);
        continue;
      }
      const made = await applyStep(cluster, namespace, name, step, nodes, configuration);
      if (made !== undefined) created.add(made);
      name = made ?? name;
    }
  } catch (e) {
    // a scenario written wrong fails the run, not one side: both sides failing alike would compare identical
    if (e instanceof ScenarioOrderError) throw e;
    result.error = stepErrorText(e);
  } finally {
    timeline.stop();
    try {
      if (!opts.keep) {
        for (const n of created) await cluster.deleteClusterObject(n).catch(() => undefined);
        await cluster.deleteNamespace(namespace).catch(() => undefined);
      }
    } finally {
      const failed = (e: unknown) => {
        result.error = [result.error, errorMessage(e)].filter(Boolean).join('; ');
      };
      // after the namespace is gone, so the controllers do not act on the scenario's object again
      await nodes.restore().catch(failed);
      await configuration.restore().catch(failed);
    }
  }
  return result;
}

/** The name of the node at `index` in name order. @throws Error when the cluster has fewer nodes */
async function nodeAt(cluster: ParityCluster, index: number): Promise<string> {
  const names = await cluster.nodeNames();
  const name = names[index];
  if (name === undefined) throw new Error(`no node ${index}: the cluster has ${names.length} nodes`);
  return name;
}

/** Does one node step on `cluster`, remembering the node in `nodes` first. */
async function applyNodeStep(cluster: ParityCluster, step: NodeStep, nodes: NodeLedger): Promise<void> {
  const index =
    'labelNode' in step
      ? step.labelNode.node
      : 'taintNode' in step
        ? step.taintNode.node
        : 'untaintNode' in step
          ? step.untaintNode.node
          : 'cordonNode' in step
            ? step.cordonNode
            : step.uncordonNode;
  const node = await nodeAt(cluster, index);
  await nodes.remember(node);
  if ('labelNode' in step) return cluster.patchNode(node, { metadata: { labels: step.labelNode.labels } });
  if ('cordonNode' in step) return cluster.patchNode(node, { spec: { unschedulable: true } });
  if ('uncordonNode' in step) return cluster.patchNode(node, { spec: { unschedulable: null } });
  const current = nodeState(await cluster.readNode(node)).taints;
  const taints =
    'taintNode' in step
      ? taintsWith(current, step.taintNode.taints)
      : taintsWithout(current, step.untaintNode.taints);
  await cluster.patchNode(node, { spec: { taints: taints.length > 0 ? taints : null } });
}

/** A step that changes a node. */
type NodeStep = Extract<
  Step,
  | { labelNode: unknown }
  | { taintNode: unknown }
  | { untaintNode: unknown }
  | { cordonNode: unknown }
  | { uncordonNode: unknown }
>;

function isNodeStep(step: Step): step is NodeStep {
  return (
    'labelNode' in step ||
    'taintNode' in step ||
    'untaintNode' in step ||
    'cordonNode' in step ||
    'uncordonNode' in step
  );
}

/** Does one non-checkpoint step. @returns the object's name when the step created it */
async function applyStep(
  cluster: ParityCluster,
  namespace: string,
  name: string,
  step: Exclude<Step, { checkpoint: string }>,
  nodes: NodeLedger,
  configuration: KruiseConfigurationLedger,
): Promise<string | undefined> {
  if (isNodeStep(step)) return void (await applyNodeStep(cluster, step, nodes));
  if ('kruiseConfiguration' in step) return void (await configuration.set(step.kruiseConfiguration));
  if ('apply' in step || 'create' in step) {
    const manifest =
      'apply' in step
        ? (parse(readFileSync(path.resolve(REPO_ROOT, step.apply), 'utf8')) as Record<string, unknown>)
        : step.create;
    const kind = cluster.kind.kind;
    if (manifest.kind !== kind) throw new Error(`the manifest is a ${String(manifest.kind)}, not a ${kind}`);
    const meta = (manifest.metadata ?? {}) as { name?: string };
    if (!meta.name) throw new Error(`the ${kind} manifest has no metadata.name`);
    await cluster.createObject(
      namespace,
      cluster.kind.clusterScoped ? manifest : { ...manifest, metadata: { ...meta, namespace } },
    );
    return meta.name;
  }
  if ('createPod' in step) return void (await cluster.createPod(namespace, step.createPod));
  if ('createWorkload' in step) return void (await cluster.createAny(namespace, step.createWorkload));
  if ('patchWorkload' in step) {
    const { apiVersion, kind, name: workload, patch } = step.patchWorkload;
    return void (await cluster.patchAny(namespace, { apiVersion, kind, name: workload }, patch));
  }
  if ('deleteWorkload' in step) return void (await cluster.deleteAny(namespace, step.deleteWorkload));
  if ('scaleWorkload' in step) {
    const { kind, name: workload, replicas } = step.scaleWorkload;
    return void (await cluster.scaleWorkload(namespace, kind, workload, replicas));
  }
  if ('resourceQuota' in step)
    return void (await cluster.putResourceQuota(namespace, QUOTA_NAME, step.resourceQuota.hard));
  if ('sleep' in step) return void (await sleep(step.sleep * 1000));
  if ('clockSecond' in step) return void (await sleep(msUntilClockSecond(Date.now(), step.clockSecond)));
  if (!name) throw new ScenarioOrderError(`a step before the ${cluster.kind.kind} was created`);
  if ('patch' in step) return void (await cluster.patchObject(namespace, name, step.patch));
  if ('deleteObject' in step) return void (await cluster.deleteObject(namespace, name));
  if ('scale' in step)
    return void (await cluster.patchObject(namespace, name, { spec: { replicas: step.scale } }));
  if ('scaleSubresource' in step)
    return void (await cluster.patchScale(namespace, name, step.scaleSubresource));
  if ('deletePvc' in step) return void (await cluster.deletePvc(namespace, step.deletePvc));
  const state = await cluster.read(namespace, name);
  const nodeNames = await cluster.nodeNames();
  const select = (s: PodSelector): V1Pod[] => selectPods(cluster.kind, state, s, nodeNames);
  if ('mark' in step) {
    for (const p of select(step.mark.pod))
      await cluster.patchPod(namespace, podName(p), {
        metadata: { labels: { [MARKER_LABEL]: step.mark.marker } },
      });
    return undefined;
  }
  if ('label' in step) {
    for (const p of select(step.label.pod))
      await cluster.patchPod(namespace, podName(p), { metadata: { labels: step.label.labels } });
    return undefined;
  }
  if ('annotate' in step) {
    for (const p of select(step.annotate.pod))
      await cluster.patchPod(namespace, podName(p), { metadata: { annotations: step.annotate.annotations } });
    return undefined;
  }
  if ('podCondition' in step) {
    const { type, status } = step.podCondition;
    for (const p of select(step.podCondition.pod))
      await cluster.setPodCondition(namespace, podName(p), type, status);
    return undefined;
  }
  if ('podsToDelete' in step) {
    const names = select(step.podsToDelete).map(podName);
    await cluster.patchObject(namespace, name, deletePodsPatch(cluster.kind, names));
    return undefined;
  }
  if ('scaleDown' in step) {
    // one update, as OpenKruise's e2e does: two back-to-back steps would race the controllers' reaction time
    const names = select(step.scaleDown.podsToDelete).map(podName);
    await cluster.patchObject(namespace, name, deletePodsPatch(cluster.kind, names, step.scaleDown.replicas));
    return undefined;
  }
  if ('addFinalizer' in step) {
    for (const p of select(step.addFinalizer.pod)) {
      const finalizers = [...(p.metadata?.finalizers ?? []), step.addFinalizer.finalizer];
      await cluster.patchPod(namespace, podName(p), {
        metadata: { finalizers, resourceVersion: p.metadata?.resourceVersion },
      });
    }
    return undefined;
  }
  if ('deletePod' in step) {
    for (const p of select(step.deletePod)) await cluster.deletePod(namespace, podName(p));
    return undefined;
  }
  if ('evictPod' in step) {
    for (const p of select(step.evictPod)) await cluster.evictPod(namespace, podName(p));
    return undefined;
  }
  for (const p of select(step.removeFinalizer.pod)) {
    const finalizers = (p.metadata?.finalizers ?? []).filter((f) => f !== step.removeFinalizer.finalizer);
    await cluster.patchPod(namespace, podName(p), {
      metadata: { finalizers, resourceVersion: p.metadata?.resourceVersion },
    });
  }
  return undefined;
}

/**
 * The merge patch of `kind` that names pods for deletion.
 * @throws Error when the kind has none (loadScenario refuses such scenarios first)
 */
function deletePodsPatch(kind: ParityKind, names: string[], replicas?: number): Record<string, unknown> {
  if (!kind.deletePodsPatch) throw new Error(`${kind.kind} has no field naming pods to delete`);
  return kind.deletePodsPatch(names, replicas);
}

/**
 * The pods a selector picks among the live pods (or, with `terminating`, the pods being deleted) owned by an object
 * of `kind` (the scenario's), sorted by
 * creationTimestamp then name; `revision` reads the object's `status.updateRevision` / `status.currentRevision`;
 * `node` is an index into `nodeNames` (the cluster's node names, sorted) or a node's name (`spec.nodeName`).
 * @throws Error when the selector picks none (a scenario that cannot act is a broken scenario)
 */
export function selectPods(
  kind: ParityKind,
  state: ClusterState,
  s: PodSelector,
  nodeNames: readonly string[] = [],
): V1Pod[] {
  const node = typeof s.node === 'number' ? (nodeNames[s.node] ?? `<no node ${s.node}>`) : s.node;
  const status = (state.object?.status ?? {}) as { updateRevision?: string; currentRevision?: string };
  const revision =
    s.revision === 'update'
      ? status.updateRevision
      : s.revision === 'current'
        ? status.currentRevision
        : undefined;
  const owned = state.pods
    .filter((p) => Boolean(p.metadata?.deletionTimestamp) === (s.terminating ?? false))
    .filter((p) => kind.podsOfAnyOwner || p.metadata?.ownerReferences?.some((o) => o.kind === kind.kind));
  const live = owned
    .filter((p) => s.marker === undefined || p.metadata?.labels?.[MARKER_LABEL] === s.marker)
    .filter((p) => s.state === undefined || p.metadata?.labels?.[STATE_LABEL] === s.state)
    .filter((p) => revision === undefined || p.metadata?.labels?.[REVISION_LABEL] === revision)
    .filter((p) => node === undefined || p.spec?.nodeName === node)
    .sort((a, b) => time(a) - time(b) || (podName(a) < podName(b) ? -1 : podName(a) > podName(b) ? 1 : 0));
  const picked = s.all ? live : live.slice(s.index ?? 0, (s.index ?? 0) + 1);
  if (picked.length === 0)
    throw new Error(
      `no pod matches ${JSON.stringify(s)} (of ${owned.length} ${s.terminating ? 'terminating' : 'live'} pods)`,
    );
  return picked;
}

/**
 * Waits until the object has observed its generation and nothing observable changed for `quietSeconds` while
 * `busy` (if given) returned false and no pod was {@link beingRemoved} or {@link awaitingSchedulerRetry}.
 * @returns false when `settleTimeoutSeconds` passed first (counted from the last time `busy` returned true)
 */
async function settle(
  cluster: ParityCluster,
  namespace: string,
  name: string,
  scenario: Scenario,
  busy?: () => boolean,
): Promise<boolean> {
  const timeoutMs = scenario.settleTimeoutSeconds * 1000;
  let deadline = Date.now() + timeoutMs;
  let last = '';
  let since = Date.now();
  while (Date.now() < deadline) {
    const state = await cluster.read(namespace, name);
    const obj = state.object;
    const observed =
      !obj ||
      cluster.kind.noObservedGeneration === true ||
      (obj.status?.observedGeneration ?? 0) >= (obj.metadata.generation ?? 0);
    const fingerprint = JSON.stringify({
      ...takeSnapshot(cluster.kind, state, new Set(), { maxPods: 0, minReady: 0 }, true, name),
    });
    const held = busy?.() ?? false;
    if (held) deadline = Math.max(deadline, Date.now() + timeoutMs);
    const transient =
      state.pods.some(beingRemoved) || state.pods.some((p) => awaitingSchedulerRetry(p, state.pvcs));
    if (fingerprint !== last || !observed || held || transient) {
      last = fingerprint;
      since = Date.now();
    } else if (Date.now() - since >= scenario.quietSeconds * 1000) {
      return true;
    }
    await sleep(250);
  }
  return false;
}

/**
 * Whether kwok's `pod-delete` stage is still to remove `pod`: terminating and holding no finalizer. Such a pod is
 * gone a moment later on any cluster, so a checkpoint never counts it as settled state; under CI load kwok took
 * longer than the quiet time to remove one and a run compared a pod that one side had not yet dropped. A pod held
 * by a finalizer stays terminating on purpose and counts.
 */
export function beingRemoved(pod: V1Pod): boolean {
  return Boolean(pod.metadata?.deletionTimestamp) && (pod.metadata?.finalizers ?? []).length === 0;
}

/**
 * Whether the scheduler refused `pod` for a claim that was not yet bound and that claim (every claim the pod mounts)
 * is Bound by now: the scheduler tries the pod again after its backoff (up to 10 s), longer than the quiet time, so
 * a checkpoint taken meanwhile compares a pod one side has not yet placed. Seen in CI on the OpenKruise side of
 * `asts-vct-retain`: `data-retain-1` Bound, `retain-1` still `PodScheduled=False`, `retain-2` not yet created. A pod
 * refused for a claim that stays unbound (a missing StorageClass) or for any other reason counts as settled.
 * @param pvcs the namespace's claims as read with the pods
 */
export function awaitingSchedulerRetry(pod: V1Pod, pvcs: readonly V1PersistentVolumeClaim[]): boolean {
  if (pod.spec?.nodeName || pod.metadata?.deletionTimestamp) return false;
  const refused = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  if (!refused || !/persistentvolumeclaim/i.test(refused.message ?? '')) return false;
  const claims = (pod.spec?.volumes ?? []).flatMap((v) =>
    v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : [],
  );
  const phase = (name: string): string | undefined =>
    pvcs.find((c) => c.metadata?.name === name)?.status?.phase;
  return claims.length > 0 && claims.every((name) => phase(name) === 'Bound');
}

/**
 * Follows the namespace's pods with a watch and keeps the peaks of the current segment: every state the API server
 * went through counts, whatever the controllers' speed (a poll every 200 ms saw OpenKruise's sub-interval
 * transitions only by chance). {@link take} returns the peaks and starts the next segment at the current state.
 */
class Timeline {
  private readonly pods = new Map<string, V1Pod>();
  private peaks: TimelinePeaks = { maxPods: 0, minReady: 0 };
  private abort: AbortController | undefined;
  private stopped = false;

  constructor(
    private readonly cluster: ParityCluster,
    private readonly namespace: string,
  ) {}

  /** Lists the pods, then watches from there; a closed watch is resumed with a fresh list. */
  async start(): Promise<void> {
    const list = await this.cluster.core.listNamespacedPod({ namespace: this.namespace });
    this.pods.clear();
    for (const p of list.items) this.pods.set(p.metadata?.uid ?? '', p);
    this.record();
    if (this.stopped) return;
    this.abort = await new Watch(this.cluster.kc).watch(
      `/api/v1/namespaces/${this.namespace}/pods`,
      { resourceVersion: list.metadata?.resourceVersion, allowWatchBookmarks: true },
      (type: string, obj: V1Pod) => {
        const uid = obj.metadata?.uid ?? '';
        if (type === 'ADDED' || type === 'MODIFIED') this.pods.set(uid, obj);
        else if (type === 'DELETED') this.pods.delete(uid);
        else return;
        this.record();
      },
      () => {
        if (!this.stopped) void this.start().catch(() => undefined);
      },
    );
  }

  private counts(): TimelinePeaks {
    const live = [...this.pods.values()].filter((p) => !p.metadata?.deletionTimestamp);
    const ready = live.filter((p) =>
      p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
    );
    return { maxPods: live.length, minReady: ready.length };
  }

  private record(): void {
    const now = this.counts();
    this.peaks = {
      maxPods: Math.max(this.peaks.maxPods, now.maxPods),
      minReady: Math.min(this.peaks.minReady, now.minReady),
    };
  }

  take(): TimelinePeaks {
    const out = this.peaks;
    this.peaks = this.counts();
    return out;
  }

  stop(): void {
    this.stopped = true;
    this.abort?.abort();
  }
}

function podName(p: V1Pod): string {
  return p.metadata?.name ?? '';
}

function time(p: V1Pod): number {
  const t = p.metadata?.creationTimestamp;
  return t ? new Date(t).getTime() : 0;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
