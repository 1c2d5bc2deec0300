/**
 * `kruiseless plan` output (docs/cli.md#plan): the writes the next reconcile pass would make, in the order the
 * reconciler makes them (docs/architecture.md#write-order), each with why. Pure: a {@link PassPreview} in, text
 * out.
 */
import type { CloneSetStatus } from '../api/types.js';
import type { Plan } from '../controllers/cloneset/plan/index.js';
import type { Action } from '../podset/actions.js';
import type { PassPreview } from '../controllers/cloneset/preview.js';
import type { ResizeWrite } from '../reconcile/pods/patchPod.js';
import { DELETE_WHY, changedFields, pendingText, sharedActionWrites, type PlannedWrite } from './writeWhy.js';

export type { PlannedWrite } from './writeWhy.js';

/** Placeholder instance ids of pods the pass would create (their real ids are random): `<new-1>`, `<new-2>`, … */
export function placeholderIds(): () => string {
  let n = 0;
  return () => `<new-${++n}>`;
}

/** The writes of one action, in the order the executor makes them. */
function actionWrites(a: Action, plan: Plan, resizeWrite: ResizeWrite): PlannedWrite[] {
  switch (a.type) {
    case 'CreatePod': {
      const at = a.revision === plan.revisions.updateRevision ? 'update revision' : 'current revision';
      const why = `scale up: fewer pods than replicas (scaleUpNum ${plan.diff.scaleUpNum}), at the ${at} ${a.revision}, slow-start batch ${a.batch}`;
      return [
        ...a.pvcs.map((p) => ({
          write: `create pvc ${p.metadata.name ?? ''}`,
          why: `volume claim of pod ${a.pod.metadata.name ?? ''}`,
        })),
        { write: `create pod ${a.pod.metadata.name ?? ''}`, why },
      ];
    }
    case 'DeletePod':
      return [
        { write: `delete pod ${a.pod.name}`, why: DELETE_WHY[a.reason] },
        ...a.pvcNames.map((n) => ({
          write: `delete pvc ${n}`,
          why: `volume claim of deleted pod ${a.pod.name}`,
        })),
      ];
    case 'PatchPVCOwner':
      return [{ write: `patch pvc ${a.name}`, why: 'owner references follow the pod' }];
    case 'PatchPod':
    case 'PatchPodStatus':
    case 'CreatePVC':
    case 'DeletePVC':
    case 'ResizePVC':
      return sharedActionWrites(a, resizeWrite);
  }
}

const STATUS_FIELDS = [
  'replicas',
  'readyReplicas',
  'availableReplicas',
  'updatedReplicas',
  'updatedReadyReplicas',
  'updatedAvailableReplicas',
  'expectedUpdatedReplicas',
  'observedGeneration',
  'updateRevision',
  'currentRevision',
] as const satisfies readonly (keyof CloneSetStatus)[];

/** The changed status fields as `field old→new`, comma-separated (`conditions` when none of them changed). */
export function statusChanges(before: CloneSetStatus | undefined, after: CloneSetStatus): string {
  return changedFields(STATUS_FIELDS, before, after, 'conditions');
}

/** Every write of the pass, in order (the recorded-scale-down case lists the deletes that pass finishes). */
export function plannedWrites(p: PassPreview): PlannedWrite[] {
  const { effective: plan, world } = p;
  const name = world.cloneSet.metadata.name ?? '';
  if (p.intent) {
    const live = new Set(world.pods.filter((x) => !x.metadata.deletionTimestamp).map((x) => x.metadata.uid));
    return p.intent.pods
      .filter((x) => live.has(x.uid))
      .map((x) => ({
        write: `delete pod ${x.name}`,
        why: `recorded scale-down ${p.intent?.intentId ?? ''}: ${x.reason}`,
      }));
  }
  const out: PlannedWrite[] = [];
  const r = plan.revisions;
  if (r.create)
    out.push({
      write: `create controllerrevision ${r.create.metadata.name ?? ''}`,
      why: 'the template changed: new update revision',
    });
  if (r.update)
    out.push({
      write: `update controllerrevision ${r.update.metadata.name ?? ''}`,
      why: 'the template went back to this revision: renumbered',
    });
  for (const a of plan.actions) out.push(...actionWrites(a, plan, p.resizeWrite));
  if (plan.statusChanged)
    out.push({
      write: `update cloneset/status ${name}`,
      why: statusChanges(world.cloneSet.status, plan.status),
    });
  if (plan.podsToDelete)
    out.push({ write: `patch cloneset ${name}`, why: 'drop podsToDelete names that are gone' });
  for (const n of r.deleteNames)
    out.push({ write: `delete controllerrevision ${n}`, why: 'beyond revisionHistoryLimit' });
  return out;
}

/** Non-zero fields of the diff record as `name=value`, or `none`. */
function diffText(plan: Plan): string {
  const parts = Object.entries(plan.diff)
    .filter(([, v]) => v !== 0)
    .map(([k, v]) => `${k}=${String(v)}`);
  return parts.length > 0 ? parts.join(' ') : 'none';
}

/**
 * The whole `plan` report. `stateNote` says where expectations and the ledger came from (or that they were not
 * read). Ends with a newline.
 */
export function planReport(p: PassPreview, stateNote: string): string {
  const cs = p.world.cloneSet;
  const plan = p.plan;
  const lines = [
    `CloneSet ${cs.metadata.namespace ?? ''}/${cs.metadata.name ?? ''}`,
    `  state:            ${stateNote}`,
    `  update revision:  ${plan.revisions.updateRevision}${plan.revisions.create ? ' (new)' : ''}`,
    `  current revision: ${plan.revisions.currentRevision}`,
    `  pods:             ${p.world.pods.length} owned, ${p.world.pvcs.length} pvcs, ${p.world.revisions.length} revisions`,
    `  expectations:     ${pendingText(p.observed.pending)}`,
    `  scale-down:       ${p.intent ? `recorded ${p.intent.intentId}: the next pass finishes it and plans nothing else` : 'nothing recorded'}`,
    `  phase:            ${plan.phase}`,
    `  diff:             ${diffText(plan)}`,
  ];
  if (plan.validationErrors.length > 0) {
    lines.push('Invalid CloneSet (nothing is changed until it is fixed):');
    for (const e of plan.validationErrors) lines.push(`  ${e.path}: ${e.message}`);
  }
  const writes = plannedWrites(p);
  lines.push(writes.length > 0 ? 'Writes, in order:' : 'Writes: none');
  writes.forEach((w, i) => lines.push(`  ${i + 1}. ${w.write}: ${w.why}`));
  if (!p.intent && p.effective.events.length > 0) {
    lines.push('Events:');
    for (const e of p.effective.events) lines.push(`  ${e.type} ${e.reason}: ${e.message}`);
  }
  if (!p.intent && plan.requeueAfterSeconds !== undefined)
    lines.push(`Then look again after ${plan.requeueAfterSeconds}s`);
  return `${lines.join('\n')}\n`;
}
