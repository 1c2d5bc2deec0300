/**
 * OpenKruise: none (Kruiseless's stand-in for kruise-daemon, which pulls the images of OpenKruise's ImagePullJobs on
 * each node; the decision when to pull is `createImagePullJobsForInPlaceUpdate`'s, see ./jobs.ts).
 *
 * Pre-pull pods (docs/behaviour/cloneset.md#image-pre-download): with gate `PreDownloadImageWithPods` on and no node
 * agent in the cluster, one short-lived pod per node whose CloneSet pods are still to be updated, running the new
 * images with a command that exits at once, so that the kubelet pulls them before the in-place update needs them.
 * Pure.
 */
import type { IntOrString, Pod, PodSpec } from '../../../../api/types.js';
import { scaledValueFromIntOrPercent } from '../../../../api/intOrPercent.js';
import { LABEL_REVISION_HASH } from '../../../../api/keys.js';
import { cloneSetControllerRef } from '../ownership.js';
import { isPodActive, podMatchesRevision, podRef } from '../../../../podset/pods.js';
import { fnv1a_32 } from '../../../../podset/revision/goJson.js';
import { sortUpdateIndexes } from '../sync/updateSort.js';
import type { PhaseContext, PrePullPlan } from '../types.js';
import { ignoreReason, minUpdatedReadyReached } from './jobs.js';
import { changedImages } from '../../../../podset/predownload/imagePullJobs.js';
import { preDownloadSettings } from '../../../../podset/predownload/settings.js';

/** Pre-pull pod label: the UID of the CloneSet it pulls for (how the reconciler lists them). */
export const LABEL_PREPULL_FOR = 'kruiseless.io/image-prepull-for';
/** Pre-pull pod label: the hash of the update revision whose images it pulls. */
export const LABEL_PREPULL_REVISION = 'kruiseless.io/image-prepull-revision';
/** While pre-pull pods are in flight, look again after this many seconds (their changes trigger no reconcile). */
export const PREPULL_RECHECK_SECONDS = 5;
/** The pre-pull container's command: exits at once wherever the image has a shell (else it fails to start, pulled). */
const PREPULL_COMMAND = ['sh', '-c', 'exit 0'];

/** What {@link planPrePullPods} reads. */
export type PrePullContext = Pick<
  PhaseContext,
  'cloneSet' | 'strategy' | 'currentRevision' | 'updateRevision' | 'options' | 'pods' | 'now'
>;

/** Whether `pod` is a pre-pull pod (any CloneSet's). */
export function isPrePullPod(pod: Pod): boolean {
  return LABEL_PREPULL_FOR in (pod.metadata.labels ?? {});
}

/**
 * Whether a pre-pull pod has done its work: it ended (Succeeded, or Failed — a container that cannot start was still
 * pulled, and a pull that kept failing ended at `activeDeadlineSeconds`), every container has started, or it is older
 * than the pull timeout.
 */
export function prePullDone(pod: Pod, now: Date, timeoutSeconds: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return true;
  const statuses = pod.status?.containerStatuses ?? [];
  const started = (s: { state?: Record<string, unknown> }) => !!(s.state?.running ?? s.state?.terminated);
  if (statuses.length > 0 && statuses.length === pod.spec.containers.length && statuses.every(started))
    return true;
  const created = Date.parse(pod.metadata.creationTimestamp ?? '');
  return Number.isFinite(created) && now.getTime() - created >= timeoutSeconds * 1000;
}

/** Pulls at once: the parallelism as a count, a percentage of `nodes` rounded up, at least 1. */
function pullsAtOnce(parallelism: IntOrString, nodes: number): number {
  try {
    return Math.max(1, scaledValueFromIntOrPercent(parallelism, nodes, 'up'));
  } catch {
    return 1;
  }
}

/**
 * Nodes of the CloneSet's active pods not yet at the update revision, in the order the update phase takes the pods
 * (docs/behaviour/cloneset.md#update-phase), each once.
 */
function nodesToPull(ctx: PrePullContext): string[] {
  const name = ctx.updateRevision.metadata.name ?? '';
  const pods = ctx.pods;
  const candidates = pods
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => isPodActive(p) && !podMatchesRevision(p, name) && !!p.spec.nodeName)
    .map(({ i }) => i);
  const order = sortUpdateIndexes(pods, candidates, ctx.cloneSet.spec.updateStrategy);
  return [...new Set(order.map((i) => pods[i].spec.nodeName ?? ''))];
}

/** The pre-pull pod for `node`: the changed images of the update template, on that node, exiting at once. */
function prePullPod(ctx: PrePullContext, node: string, images: [string, string][]): Pod {
  const { cloneSet: cs, updateRevision } = ctx;
  const template = cs.spec.template.spec;
  const settings = preDownloadSettings(cs);
  const ownerRef = { ...cloneSetControllerRef(cs), controller: false, blockOwnerDeletion: false };
  const spec: PodSpec = {
    nodeName: node,
    restartPolicy: 'Never',
    activeDeadlineSeconds: settings.timeoutSeconds,
    terminationGracePeriodSeconds: 0,
    automountServiceAccountToken: false,
    enableServiceLinks: false,
    containers: images.map(([name, image]) => {
      const pullPolicy = template.containers.find((c) => c.name === name)?.imagePullPolicy;
      return {
        name,
        image,
        ...(pullPolicy ? { imagePullPolicy: pullPolicy } : {}),
        command: PREPULL_COMMAND,
      };
    }),
    ...(template.imagePullSecrets ? { imagePullSecrets: structuredClone(template.imagePullSecrets) } : {}),
    ...(template.tolerations ? { tolerations: structuredClone(template.tolerations) } : {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      namespace: cs.metadata.namespace ?? '',
      name: `${updateRevision.metadata.name ?? ''}-prepull-${fnv1a_32(new TextEncoder().encode(node)).toString(36)}`,
      labels: {
        [LABEL_PREPULL_FOR]: cs.metadata.uid ?? '',
        [LABEL_PREPULL_REVISION]: updateRevision.metadata.labels?.[LABEL_REVISION_HASH] ?? '',
      },
      ownerReferences: [ownerRef],
    },
    spec,
  };
}

/**
 * The pre-pull step of one reconcile (docs/behaviour/cloneset.md#image-pre-download). When pre-pull applies — gates
 * `PreDownloadImageForInPlaceUpdate`, `KruiseDaemon` and `PreDownloadImageWithPods` on, and no node agent — and the
 * update revision is due for pre-download by the same rules as the ImagePullJobs (min-updated-ready-pods reached,
 * not ignored): one pod per node of the pods still to update, in update order, at most the parallelism annotation
 * in flight at once ({@link prePullDone} ends a pull), each node once per revision. Finished pods stay, as the
 * record of which nodes pulled, until every pod is at one revision; pods of another revision are deleted at once,
 * and all of them when pre-pull no longer applies (a node agent appeared).
 * @param prePulls the CloneSet's pre-pull pods; undefined when not listed (the pods gate is off)
 * @param nodeAgent whether the cluster has a node agent (kruise-daemon's NodeImages exist)
 * @returns creates, deletes and a recheck delay; never throws
 */
export function planPrePullPods(
  ctx: PrePullContext,
  prePulls: readonly Pod[] | undefined,
  nodeAgent: boolean,
): PrePullPlan {
  const plan: PrePullPlan = { create: [], delete: [] };
  if (!prePulls || ctx.cloneSet.metadata.deletionTimestamp) return plan;
  const { options } = ctx;
  const on =
    options.preDownloadImageForInPlaceUpdate &&
    options.kruiseDaemon &&
    options.preDownloadImageWithPods &&
    !nodeAgent;
  const update = ctx.updateRevision;
  const hash = update.metadata.labels?.[LABEL_REVISION_HASH] ?? '';
  const rollingOut = ctx.currentRevision.metadata.name !== update.metadata.name;
  const mine = prePulls.filter(
    (p) => on && rollingOut && p.metadata.labels?.[LABEL_PREPULL_REVISION] === hash,
  );
  plan.delete = prePulls.filter((p) => !mine.includes(p) && !p.metadata.deletionTimestamp).map(podRef);
  if (!on || !rollingOut || !minUpdatedReadyReached(ctx.cloneSet, update.metadata.name ?? '')) return plan;
  if (ignoreReason(ctx) !== undefined) return plan;
  const images = changedImages(ctx.currentRevision, update);
  if (images.length === 0) return plan;

  const settings = preDownloadSettings(ctx.cloneSet);
  const nodes = nodesToPull(ctx);
  const byNode = new Map(mine.map((p) => [p.spec.nodeName ?? '', p]));
  const inFlight = mine.filter((p) => !prePullDone(p, ctx.now, settings.timeoutSeconds)).length;
  const waiting = nodes.filter((n) => !byNode.has(n));
  const room = Math.max(0, pullsAtOnce(settings.parallelism, nodes.length) - inFlight);
  plan.create = waiting.slice(0, room).map((n) => prePullPod(ctx, n, images));
  if (inFlight > 0 || plan.create.length > 0) plan.requeueAfterSeconds = PREPULL_RECHECK_SECONDS;
  return plan;
}
