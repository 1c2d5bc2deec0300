/**
 * `kruiseless plan` output (docs/cli.md#plan): the writes the next reconcile pass would make, in the order the
 * reconciler makes them (docs/architecture.md#write-order), each with why. Pure: a {@link PassPreview} in, text
 * out.
 */
import type { CloneSetStatus } from '../api/types.js';
import type { Plan } from '../controllers/cloneset/plan/index.js';
import type { Action, DeleteReason, PatchReason } from '../podset/actions.js';
import type { PassPreview } from '../controllers/cloneset/preview.js';

/** One write: `<verb> <resource> <name>` (the form the tests compare with recorded API calls) and why. */
export interface PlannedWrite {
  write: string;
  why: string;
}

/** Placeholder instance ids of pods the pass would create (their real ids are random): `<new-1>`, `<new-2>`, … */
export function placeholderIds(): () => string {
  let n = 0;
  return () => `<new-${++n}>`;
}

const DELETE_WHY: Record<DeleteReason, string> = {
  ScaleDown: 'scale down: more pods than replicas',
  SpecifiedDelete:
    'specified delete: listed in scaleStrategy.podsToDelete or labelled apps.kruise.io/specified-delete',
  PreDeleteHookReleased: 'its pre-delete lifecycle hook was released',
  ReplicasZero: 'replicas is 0',
  RecreateUpdate: 'recreate update: deleted to be created again at the update revision',
  PodFailed: 'the pod Failed or Succeeded: deleted to be created again',
};

const PATCH_WHY: Record<PatchReason | Extract<Action, { type: 'PatchPodStatus' }>['reason'], string> = {
  LifecycleTransition: 'lifecycle state change',
  BackfillPodTemplateHash: 'backfill the pod-template-hash label',
  RecreateUpdate: 'recreate update: mark for deletion at the update revision',
  InPlaceUpdate: 'in-place update to the update revision',
  InPlaceUpdateGraceExpired: 'in-place update: grace period over, apply the held spec',
  InPlaceUpdateNextBatch: 'in-place update: next container batch',
  CancelPreDelete: 'cancel PreparingDelete: the pod is wanted again',
  ReleaseOwnership: 'release: the pod no longer matches the selector',
  UpdateIdentity: 'restore the pod-name and pod-index labels',
  InPlaceUpdateReady: 'in-place update finished: InPlaceUpdateReady=True',
  StartInPlaceUpdate: 'in-place update starts: InPlaceUpdateReady=False',
  MarkPodNotReady: 'mark not ready before the update (KruisePodReady=False)',
  MarkPodReady: 'mark ready again (KruisePodReady=True)',
  InitKruisePodReady: 'new pod with the KruisePodReady gate: condition set True',
};

/** The writes of one action, in the order the executor makes them. */
function actionWrites(a: Action, plan: Plan): PlannedWrite[] {
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
    case 'PatchPod':
      return [{ write: `patch pod ${a.pod.name}`, why: PATCH_WHY[a.reason] }];
    case 'PatchPodStatus':
      return [{ write: `patch pod/status ${a.pod.name}`, why: PATCH_WHY[a.reason] }];
    case 'CreatePVC':
      return [
        { write: `create pvc ${a.pvc.metadata.name ?? ''}`, why: `missing volume claim of pod ${a.podName}` },
      ];
    case 'DeletePVC':
      return [{ write: `delete pvc ${a.name}`, why: 'owned claim not used by any pod' }];
    case 'PatchPVCOwner':
      return [{ write: `patch pvc ${a.name}`, why: 'owner references follow the pod' }];
    case 'ResizePVC':
      return [
        {
          write: `patch pvc ${a.name}`,
          why: `grown to its template's request before pod ${a.pod.name} is updated (volumeClaimUpdateStrategy OnPodRollingUpdate)`,
        },
      ];
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

/** The changed status fields as `field old→new`, comma-separated. */
export function statusChanges(before: CloneSetStatus | undefined, after: CloneSetStatus): string {
  const changes = STATUS_FIELDS.filter((f) => before?.[f] !== after[f]).map(
    (f) => `${f} ${String(before?.[f] ?? '-')}→${String(after[f] ?? '-')}`,
  );
  return changes.length > 0 ? changes.join(', ') : 'conditions';
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
  for (const a of plan.actions) out.push(...actionWrites(a, plan));
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

/** Pending expectations as `create a, b; delete c`, or `none pending`. */
function pendingText(p: PassPreview): string {
  const { creates, deletes, updates } = p.observed.pending;
  const items = (
    [
      ['create', creates],
      ['delete', deletes],
      ['update', updates],
    ] as const
  )
    .filter(([, ops]) => ops.length > 0)
    .map(([verb, ops]) => `${verb} ${ops.map((o) => o.name).join(', ')}`);
  return items.length > 0 ? `${items.join('; ')} not yet seen: pod writes wait` : 'none pending';
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
    `  expectations:     ${pendingText(p)}`,
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
