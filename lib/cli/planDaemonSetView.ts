/**
 * `kruiseless plan ds/<name>` output (docs/cli.md#plan): the writes the next Advanced DaemonSet pass would make, in
 * the order its executor makes them (lib/controllers/daemonset/execute.ts: the revision create or renumber, the image
 * pre-download, the in-place patches, the pods held by their preDelete hook, the creates in slow-start batches, the
 * deletes, the revisions beyond `revisionHistoryLimit`, the `KruisePodReady` patches, the status), each with why; an
 * invalid DaemonSet's errors; nothing while pending expectations hold the pass. Pure: a
 * {@link DaemonSetPassPreview} in, text out. The why of a create or a delete is told from what the pass read of
 * that pod and its node (the planner's decision itself is not re-made here).
 */
import { LifecycleState } from '../api/keys.js';
import type { Node } from '../api/node.js';
import type { Pod } from '../api/types.js';
import { daemonSetStatusChanged } from '../controllers/daemonset/execute.js';
import type { DaemonSet, DaemonSetStatus } from '../controllers/daemonset/api/types.js';
import type { SyncPlan } from '../controllers/daemonset/plan/index.js';
import { nodeShouldRunDaemonPod } from '../controllers/daemonset/plan/nodes.js';
import type { DaemonSetPassPreview } from '../controllers/daemonset/preview.js';
import { assignedNode } from '../podset/nodePin.js';
import { lifecycleState } from '../podset/pods.js';
import { changedFields, PATCH_WHY, pendingText, sharedActionWrites, type PlannedWrite } from './writeWhy.js';

/** The status fields whose change the report names. */
const STATUS_FIELDS = [
  'desiredNumberScheduled',
  'currentNumberScheduled',
  'numberMisscheduled',
  'numberReady',
  'updatedNumberScheduled',
  'numberAvailable',
  'numberUnavailable',
  'observedGeneration',
  'updateRevision',
  'collisionCount',
] as const satisfies readonly (keyof DaemonSetStatus)[];

/** The changed status fields as `field old→new`, comma-separated; `other fields` when none of them changed. */
export function daemonSetStatusChanges(
  before: Partial<DaemonSetStatus> | undefined,
  after: DaemonSetStatus,
): string {
  return changedFields(STATUS_FIELDS, before as DaemonSetStatus | undefined, after, 'other fields');
}

/** The revision hash label of a pod (`controller-revision-hash`), `-` when it has none. */
const revisionOf = (pod: Pod): string => pod.metadata.labels?.['controller-revision-hash'] ?? '-';

/** Why a pod is created on `node`: the node has no pod, or only one at an old revision (a surge). */
function createWhy(p: DaemonSetPassPreview, plan: SyncPlan, node: string, batch: number): string {
  const there = p.pods.filter((x) => assignedNode(x) === node && !x.metadata.deletionTimestamp);
  const at = `at the update revision ${plan.hash}, slow-start batch ${batch}`;
  if (there.length === 0) return `node ${node} should run the pod and has none: created ${at}`;
  const old = there.map((x) => `${x.metadata.name ?? ''} (revision ${revisionOf(x)})`).join(', ');
  return `rolling update with surge: created ${at} beside ${old}, deleted once the new pod is available`;
}

/** Why a pod is deleted, from what the pass read of it and its node (the first that holds). */
function deleteWhy(p: DaemonSetPassPreview, plan: SyncPlan, name: string, nodes: Map<string, Node>): string {
  const pod = p.pods.find((x) => x.metadata.name === name);
  if (!pod) return 'not among the pods read';
  const nodeName = assignedNode(pod);
  const node = nodes.get(nodeName);
  if (pod.status?.phase === 'Failed') return `Failed on node ${nodeName}: deleted to be created again`;
  if (lifecycleState(pod) === LifecycleState.PreparingDelete)
    return 'its preDelete lifecycle hook was released';
  if (!node) return `node ${nodeName} does not exist`;
  if (!nodeShouldRunDaemonPod(node, p.ds).shouldContinueRunning)
    return `node ${nodeName} should no longer run the pod (nodeSelector, node affinity or a NoExecute taint)`;
  const others = p.pods.filter(
    (x) => x !== pod && assignedNode(x) === nodeName && !x.metadata.deletionTimestamp,
  );
  const rev = revisionOf(pod);
  if (rev !== plan.hash) {
    const surge = others.some((x) => revisionOf(x) === plan.hash);
    return surge
      ? `rolling update: the new pod beside it on node ${nodeName} is available`
      : `rolling update: at revision ${rev}, created again at ${plan.hash}`;
  }
  return others.length > 0 ? `more than one pod on node ${nodeName}` : `on node ${nodeName}`;
}

/**
 * Every write of the pass, in the executor's order: a Sync pass's (none while expectations are pending), an invalid
 * DaemonSet's status (lib/reconcile/failedValidation.ts), nothing else.
 */
export function plannedDaemonSetWrites(p: DaemonSetPassPreview): PlannedWrite[] {
  const plan = p.plan;
  const name = p.ds.metadata.name ?? '';
  if (plan.type === 'Invalid')
    return [
      {
        write: `update daemonset/status ${name}`,
        why: 'FailedValidation condition and its Warning Event, unless the stored condition already says it',
      },
    ];
  if (plan.type !== 'Sync' || p.waiting) return [];
  const out: PlannedWrite[] = [];
  for (const a of plan.dedup?.relabel ?? [])
    out.push({ write: `patch pod ${a.pod.name}`, why: PATCH_WHY[a.reason] });
  for (const r of plan.dedup?.deleteRevisions ?? [])
    out.push({
      write: `delete controllerrevision ${r}`,
      why: `records the template too: a duplicate of ${plan.currentRevision}`,
    });
  if (plan.createRevision)
    out.push({
      write: `create controllerrevision ${plan.createRevision.metadata.name ?? ''}`,
      why: 'the template has no revision yet: new update revision',
    });
  if (plan.renumberRevision)
    out.push({
      write: `patch controllerrevision ${plan.renumberRevision.metadata.name ?? ''}`,
      why: `the template went back to this revision: renumbered ${plan.renumberRevision.revision ?? 0}`,
    });
  const pre = plan.preDownload;
  for (const job of pre?.createJobs ?? [])
    out.push({
      write: `create imagepulljob ${job.metadata.name ?? ''}`,
      why: `pre-download ${job.spec.image} for the update`,
    });
  if (pre?.revisionLabel)
    out.push({
      write: `patch controllerrevision ${pre.revisionLabel.revision}`,
      why: `label ${pre.revisionLabel.key}${pre.ignoredBecause ? `: no pre-download (${pre.ignoredBecause})` : ''}`,
    });
  for (const job of pre?.deleteJobs ?? [])
    out.push({ write: `delete imagepulljob ${job.name}`, why: 'every pod is at one revision' });
  for (const a of plan.inPlace) out.push(...sharedActionWrites(a, p.resizeWrite));
  for (const a of plan.preparingDelete)
    out.push(
      ...sharedActionWrites(a, p.resizeWrite).map((w) => ({
        ...w,
        why: `${w.why}: held in PreparingDelete by its preDelete lifecycle hook instead of deleted`,
      })),
    );
  for (const c of plan.creates)
    out.push({ write: `create pod ${c.pod.metadata.name ?? ''}`, why: createWhy(p, plan, c.node, c.batch) });
  const nodes = new Map(p.nodes.map((n) => [n.metadata.name ?? '', n]));
  for (const d of plan.deletes)
    out.push({ write: `delete pod ${d.name}`, why: deleteWhy(p, plan, d.name, nodes) });
  for (const n of plan.deleteRevisions)
    out.push({ write: `delete controllerrevision ${n}`, why: 'beyond revisionHistoryLimit' });
  for (const a of [...plan.readyPatches, ...plan.createdReadyPatches])
    out.push(...sharedActionWrites(a, p.resizeWrite));
  if (daemonSetStatusChanged(p.ds, plan.status))
    out.push({
      write: `update daemonset/status ${name}`,
      why: daemonSetStatusChanges(p.ds.status, plan.status),
    });
  return out;
}

/** `RollingUpdate Standard, maxUnavailable 1, maxSurge 0, partition 2, selector …, paused`, or `OnDelete: …`. */
function strategyText(ds: DaemonSet): string {
  const s = ds.spec.updateStrategy;
  if (s?.type === 'OnDelete') return 'OnDelete: pods are updated only when deleted';
  const ru = s?.rollingUpdate;
  const parts = [
    `RollingUpdate ${ru?.rollingUpdateType ?? 'Standard'}`,
    `maxUnavailable ${ru?.maxUnavailable ?? 1}`,
    `maxSurge ${ru?.maxSurge ?? 0}`,
    ...(ru?.partition !== undefined ? [`partition ${ru.partition}`] : []),
    ...(ru?.selector ? [`selector ${JSON.stringify(ru.selector)}`] : []),
    ...(ru?.paused ? ['paused'] : []),
  ];
  return parts.join(', ');
}

/**
 * The whole `plan` report of an Advanced DaemonSet. `stateNote` says where expectations came from (or that they
 * were not read). Ends with a newline.
 */
export function daemonSetPlanReport(p: DaemonSetPassPreview, stateNote: string): string {
  const ds = p.ds;
  const plan = p.plan;
  const lines = [
    `DaemonSet ${ds.metadata.namespace ?? ''}/${ds.metadata.name ?? ''}`,
    `  state:            ${stateNote}`,
  ];
  if (plan.type === 'Sync') {
    lines.push(
      `  update revision:  ${plan.currentRevision} (hash ${plan.hash})${plan.createRevision ? ' (new)' : ''}`,
      `  nodes:            ${p.nodes.length}, ${plan.status.desiredNumberScheduled} should run the pod`,
    );
  }
  lines.push(
    `  update strategy:  ${strategyText(ds)}${ds.spec.minReadySeconds ? `, minReadySeconds ${ds.spec.minReadySeconds}` : ''}`,
    `  pods:             ${p.pods.length} owned, ${p.revisions.length} revisions${p.claimWrites > 0 ? `, ${p.claimWrites} orphan writes first (adopt or release)` : ''}`,
    `  expectations:     ${pendingText(p.observed.pending)}`,
  );
  if (p.waiting)
    lines.push('  stops:            pending expectations: the pass writes nothing and looks again');
  if (plan.type === 'Skip') lines.push('Being deleted: nothing is written');
  if (plan.type === 'SelectingAll')
    lines.push('An empty selector selects every pod: only the Warning is written');
  if (plan.type === 'Invalid') {
    lines.push('Invalid DaemonSet (nothing else is changed until it is fixed):');
    for (const e of plan.errors) lines.push(`  ${e.path}: ${e.message}`);
  }
  const writes = plannedDaemonSetWrites(p);
  lines.push(writes.length > 0 ? 'Writes, in order:' : 'Writes: none');
  writes.forEach((w, i) => lines.push(`  ${i + 1}. ${w.write}: ${w.why}`));
  const events = p.waiting || (plan.type !== 'Sync' && plan.type !== 'SelectingAll') ? [] : plan.events;
  if (events.length > 0) {
    lines.push('Events:');
    for (const e of events) lines.push(`  ${e.type} ${e.reason}: ${e.message}`);
  }
  if (!p.waiting && plan.type === 'Sync' && plan.requeueAfterSeconds !== undefined)
    lines.push(`Then look again after ${plan.requeueAfterSeconds}s`);
  return `${lines.join('\n')}\n`;
}
