/**
 * `kruiseless plan asts/<name>` output (docs/cli.md#plan): the writes the next Advanced StatefulSet pass would make,
 * in the order its executor makes them (lib/controllers/statefulset/execute.ts: the revision create or bump, the
 * pod and PVC writes of `executionSteps`, the status, the history beyond `revisionHistoryLimit`), each with why;
 * for an invalid set, the `FailedValidation` status write only (lib/controllers/statefulset/pass.ts). Pure: a
 * {@link StatefulSetPassPreview} in, text out.
 */
import { executionSteps } from '../controllers/statefulset/execute.js';
import { invalidMessage, reportsInvalid } from '../controllers/statefulset/pass.js';
import { parentAndOrdinal } from '../controllers/statefulset/plan/ordinals.js';
import type { StatefulSetPlan } from '../controllers/statefulset/plan/index.js';
import type { StatefulSetPassPreview } from '../controllers/statefulset/preview.js';
import type { StatefulSet, StatefulSetStatus } from '../controllers/statefulset/api/types.js';
import type { Action, DeleteReason } from '../podset/actions.js';
import type { ResizeWrite } from '../reconcile/pods/patchPod.js';
import { DELETE_WHY, changedFields, pendingText, sharedActionWrites, type PlannedWrite } from './writeWhy.js';

/** Why an Advanced StatefulSet deletes a pod (its planner's reasons, lib/controllers/statefulset/plan/scale.ts). */
const STS_DELETE_WHY: Readonly<Record<DeleteReason, string>> = {
  ...DELETE_WHY,
  ScaleDown:
    'condemned: its ordinal is outside the range the replicas keep (scale down, highest ordinal first)',
  SpecifiedDelete: 'specified delete: labelled apps.kruise.io/specified-delete',
};

/** The status fields whose change the report names (those upstream's `inconsistentStatus` compares, and more). */
const STATUS_FIELDS = [
  'replicas',
  'readyReplicas',
  'availableReplicas',
  'currentReplicas',
  'updatedReplicas',
  'updatedReadyReplicas',
  'updatedAvailableReplicas',
  'observedGeneration',
  'currentRevision',
  'updateRevision',
  'collisionCount',
] as const satisfies readonly (keyof StatefulSetStatus)[];

/**
 * The changed status fields as `field old→new`, comma-separated; `conditions or volumeClaims` when none of them
 * changed.
 */
export function statefulSetStatusChanges(
  before: StatefulSetStatus | undefined,
  after: StatefulSetStatus,
): string {
  return changedFields(STATUS_FIELDS, before, after, 'conditions or volumeClaims');
}

/** The writes of one action, in the order the executor makes them (a create: its PVCs, then the pod). */
function actionWrites(a: Action, plan: StatefulSetPlan, resizeWrite: ResizeWrite): PlannedWrite[] {
  switch (a.type) {
    case 'CreatePod': {
      const name = a.pod.metadata.name ?? '';
      const { ordinal } = parentAndOrdinal(name);
      const at =
        a.revision === plan.revisions.updateRevision
          ? 'the update revision'
          : 'the current revision (inside the partition)';
      return [
        ...a.pvcs.map((p) => ({
          write: `create pvc ${p.metadata.name ?? ''}`,
          why: `volume claim of pod ${name}, created before it`,
        })),
        { write: `create pod ${name}`, why: `ordinal ${ordinal} has no pod: created at ${at} ${a.revision}` },
      ];
    }
    case 'DeletePod':
      // the set's claims stay (persistentVolumeClaimRetentionPolicy acts through owner references)
      return [{ write: `delete pod ${a.pod.name}`, why: STS_DELETE_WHY[a.reason] }];
    case 'PatchPVCOwner':
      return [
        { write: `patch pvc ${a.name}`, why: 'owner references follow persistentVolumeClaimRetentionPolicy' },
      ];
    case 'PatchPod':
    case 'PatchPodStatus':
    case 'CreatePVC':
    case 'DeletePVC':
    case 'ResizePVC':
      return sharedActionWrites(a, resizeWrite);
  }
}

/**
 * Every write of the pass, in order. An invalid set: its status with the `FailedValidation` condition, unless the
 * stored status already says so (then nothing).
 */
export function plannedStatefulSetWrites(p: StatefulSetPassPreview): PlannedWrite[] {
  const sts = p.world.statefulSet;
  const name = sts.metadata.name ?? '';
  const plan = p.effective;
  if (plan.errors.length > 0)
    return reportsInvalid(sts, plan)
      ? [
          {
            write: `update statefulset/status ${name}`,
            why: `FailedValidation condition: ${invalidMessage(plan)}`,
          },
        ]
      : [];
  const out: PlannedWrite[] = [];
  const r = plan.revisions;
  if (r.create)
    out.push({
      write: `create controllerrevision ${r.create.metadata.name ?? ''}`,
      why: 'the template changed: new update revision',
    });
  if (r.bump)
    out.push({
      write: `patch controllerrevision ${r.bump.name}`,
      why: `the template went back to this revision: renumbered ${r.bump.revision}`,
    });
  const pre = plan.preDownload;
  for (const job of pre?.createJobs ?? [])
    out.push({
      write: `create imagepulljob ${job.metadata.name ?? ''}`,
      why: `pre-download ${job.spec.image} for the in-place update`,
    });
  if (pre?.revisionLabel)
    out.push({
      write: `patch controllerrevision ${pre.revisionLabel.revision}`,
      why: `label ${pre.revisionLabel.key}${pre.ignoredBecause ? `: no pre-download (${pre.ignoredBecause})` : ''}`,
    });
  for (const job of pre?.deleteJobs ?? [])
    out.push({ write: `delete imagepulljob ${job.name}`, why: 'every pod is at one revision' });
  for (const a of executionSteps(plan.actions).flat()) out.push(...actionWrites(a, plan, p.resizeWrite));
  if (plan.statusChanged)
    out.push({
      write: `update statefulset/status ${name}`,
      why: statefulSetStatusChanges(sts.status, plan.status),
    });
  for (const n of r.deleteNames)
    out.push({ write: `delete controllerrevision ${n}`, why: 'beyond revisionHistoryLimit' });
  return out;
}

/** `RollingUpdate partition 1, podUpdatePolicy InPlaceIfPossible, paused`, or `OnDelete`. */
function strategyText(sts: StatefulSet): string {
  const s = sts.spec.updateStrategy;
  if (s?.type === 'OnDelete') return 'OnDelete: pods are updated only when deleted';
  const ru = s?.rollingUpdate;
  const parts = [
    `RollingUpdate partition ${ru?.partition ?? 0}`,
    `podUpdatePolicy ${ru?.podUpdatePolicy ?? 'ReCreate'}`,
    ...(ru?.unorderedUpdate ? ['unorderedUpdate'] : []),
    ...(ru?.paused ? ['paused'] : []),
  ];
  return parts.join(', ');
}

/** The owned pods' names by ordinal, or `none`. */
function podNames(p: StatefulSetPassPreview): string {
  const names = p.world.pods
    .map((x) => x.metadata.name ?? '')
    .sort((a, b) => parentAndOrdinal(a).ordinal - parentAndOrdinal(b).ordinal);
  return names.length > 0 ? names.join(', ') : 'none';
}

/** Why the pass stops early: pending expectations, the planner's halt, or not at all. */
function stopsText(p: StatefulSetPassPreview): string {
  if (p.waiting)
    return 'pending expectations hold the pod and revision writes back (the status is still written)';
  return p.plan.halt ?? 'no: the pass runs to the end';
}

/**
 * The whole `plan` report of an Advanced StatefulSet. `stateNote` says where expectations came from (or that they
 * were not read); `gatesNote` which feature gates the planner ran with. Ends with a newline.
 */
export function statefulSetPlanReport(
  p: StatefulSetPassPreview,
  stateNote: string,
  gatesNote: string,
): string {
  const sts = p.world.statefulSet;
  const plan = p.plan;
  const lines = [
    `StatefulSet ${sts.metadata.namespace ?? ''}/${sts.metadata.name ?? ''}`,
    `  state:            ${stateNote}`,
    `  feature gates:    ${gatesNote}`,
    `  update revision:  ${plan.revisions.updateRevision}${p.effective.revisions.create && plan.errors.length === 0 ? ' (new)' : ''}`,
    `  current revision: ${plan.revisions.currentRevision}`,
    `  replicas:         ${sts.spec.replicas ?? 1} (${sts.spec.podManagementPolicy ?? 'OrderedReady'})`,
    `  update strategy:  ${strategyText(sts)}`,
    `  pods:             ${p.world.pods.length} owned (${podNames(p)}), ${p.world.pvcs.length} pvcs, ${p.world.revisions.length} revisions`,
    `  expectations:     ${pendingText(p.observed.pending)}`,
    `  stops:            ${stopsText(p)}`,
  ];
  if (plan.errors.length > 0) {
    lines.push('Invalid StatefulSet (nothing else is changed until it is fixed):');
    for (const e of plan.errors) lines.push(`  ${e.path}: ${e.message}`);
  }
  if (plan.error) lines.push(`Error: ${plan.error}`);
  const writes = plannedStatefulSetWrites(p);
  lines.push(writes.length > 0 ? 'Writes, in order:' : 'Writes: none');
  writes.forEach((w, i) => lines.push(`  ${i + 1}. ${w.write}: ${w.why}`));
  const events = plan.errors.length > 0 ? [] : (p.effective.events ?? []);
  if (events.length > 0) {
    lines.push('Events:');
    for (const e of events) lines.push(`  ${e.type} ${e.reason}: ${e.message}`);
  }
  if (!p.waiting && plan.errors.length === 0 && plan.requeueAfterSeconds !== undefined)
    lines.push(`Then look again after ${plan.requeueAfterSeconds}s`);
  return `${lines.join('\n')}\n`;
}
