/**
 * What the `plan` reports of both kinds share (docs/cli.md#plan): the shape of one planned write, the words for why
 * a pod is deleted or patched (the reasons of lib/podset/actions.ts), the pending-expectations line and the
 * changed-fields list of a status write. Pure.
 */
import type { Action, DeleteReason, PatchReason } from '../podset/actions.js';
import type { ResizeWrite } from '../reconcile/pods/patchPod.js';
import type { Expectations } from '../state/index.js';

/** One write: `<verb> <resource> <name>` (the form the tests compare with recorded API calls) and why. */
export interface PlannedWrite {
  write: string;
  why: string;
}

/** Why a pod is deleted, by the reason its DeletePod carries (a kind may word some of them its own way). */
export const DELETE_WHY: Readonly<Record<DeleteReason, string>> = {
  ScaleDown: 'scale down: more pods than replicas',
  SpecifiedDelete:
    'specified delete: listed in scaleStrategy.podsToDelete or labelled apps.kruise.io/specified-delete',
  PreDeleteHookReleased: 'its pre-delete lifecycle hook was released',
  ReplicasZero: 'replicas is 0',
  RecreateUpdate: 'recreate update: deleted to be created again at the update revision',
  PodFailed: 'the pod Failed or Succeeded: deleted to be created again',
};

/** Why a pod or its status is patched, by the reason its PatchPod or PatchPodStatus carries. */
export const PATCH_WHY: Readonly<
  Record<PatchReason | Extract<Action, { type: 'PatchPodStatus' }>['reason'], string>
> = {
  LifecycleTransition: 'lifecycle state change',
  BackfillPodTemplateHash: 'backfill the pod-template-hash label',
  RecreateUpdate: 'recreate update: mark for deletion at the update revision',
  InPlaceUpdate: 'in-place update to the update revision',
  InPlaceUpdateGraceExpired: 'in-place update: grace period over, apply the held spec',
  InPlaceUpdateNextBatch: 'in-place update: next container batch',
  CancelPreDelete: 'cancel PreparingDelete: the pod is wanted again',
  ReleaseOwnership: 'release: the pod no longer matches the selector',
  UpdateIdentity: 'restore the pod-name and pod-index labels',
  RelabelDuplicateRevision: 'relabel to the kept current revision before its duplicates are deleted',
  InPlaceUpdateReady: 'in-place update finished: InPlaceUpdateReady=True',
  StartInPlaceUpdate: 'in-place update starts: InPlaceUpdateReady=False',
  MarkPodNotReady: 'mark not ready before the update (KruisePodReady=False)',
  MarkPodReady: 'mark ready again (KruisePodReady=True)',
  InitKruisePodReady: 'new pod with the KruisePodReady gate: condition set True',
};

/** The why of a PVC resize before the update of `pod` (volumeClaimUpdateStrategy OnPodRollingUpdate). */
export const resizeWhy = (pod: string): string =>
  `grown to its template's request before pod ${pod} is updated (volumeClaimUpdateStrategy OnPodRollingUpdate)`;

/**
 * Why an in-place cpu/memory change (gate InPlaceWorkloadVerticalScaling) is written as it is, by the API server's
 * {@link ResizeWrite} (lib/reconcile/pods/patchPod.ts `writePodPatch`): the `pods/resize` write before the pod patch,
 * or the resources inside the pod patch on a server older than 1.32.
 */
export const POD_RESIZE_WHY: Readonly<Record<ResizeWrite, string>> = {
  resize:
    'cpu/memory changed in place through the resize subresource, before the pod patch (InPlaceWorkloadVerticalScaling)',
  resizeThenPodPatch:
    'cpu/memory changed in place through the resize subresource, before the pod patch (InPlaceWorkloadVerticalScaling; the server version is unknown: on 404 the resources go into the pod patch)',
  podPatch:
    'cpu/memory changed in place inside this pod patch: the API server (before Kubernetes 1.32) serves no resize subresource (InPlaceWorkloadVerticalScaling)',
};

/** Pending expectations as `create a, b; delete c … not yet seen: pod writes wait`, or `none pending`. */
export function pendingText(pending: Expectations): string {
  const items = (
    [
      ['create', pending.creates],
      ['delete', pending.deletes],
      ['update', pending.updates],
    ] as const
  )
    .filter(([, ops]) => ops.length > 0)
    .map(([verb, ops]) => `${verb} ${ops.map((o) => o.name).join(', ')}`);
  return items.length > 0 ? `${items.join('; ')} not yet seen: pod writes wait` : 'none pending';
}

/**
 * The `fields` that differ between `before` (absent: all `-`) and `after`, as `field old→new` comma-separated;
 * `otherwise` when none does (the write changes only fields not listed).
 */
export function changedFields<T extends object>(
  fields: readonly (keyof T & string)[],
  before: T | undefined,
  after: T,
  otherwise: string,
): string {
  const show = (v: unknown): string =>
    v === undefined || v === null
      ? '-'
      : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : JSON.stringify(v);
  const changes = fields
    .filter((f) => before?.[f] !== after[f])
    .map((f) => `${f} ${show(before?.[f])}→${show(after[f])}`);
  return changes.length > 0 ? changes.join(', ') : otherwise;
}

/** The actions whose writes read the same for every kind; the kind-specific ones stay in each kind's view. */
type SharedAction = Extract<
  Action,
  { type: 'PatchPod' | 'PatchPodStatus' | 'CreatePVC' | 'DeletePVC' | 'ResizePVC' }
>;

/**
 * The writes of an action every kind plans alike, in the order the executors make them: a pod patch (after its
 * `pods/resize` write when it carries one and `resizeWrite` is not `podPatch`), a pod-status patch, a missing claim created, an unused claim deleted, a
 * claim resized.
 */
export function sharedActionWrites(a: SharedAction, resizeWrite: ResizeWrite): PlannedWrite[] {
  switch (a.type) {
    case 'PatchPod': {
      const patch = { write: `patch pod ${a.pod.name}`, why: PATCH_WHY[a.reason] };
      if (!a.resize) return [patch];
      if (resizeWrite === 'podPatch') return [{ ...patch, why: `${patch.why}; ${POD_RESIZE_WHY.podPatch}` }];
      return [{ write: `patch pod/resize ${a.pod.name}`, why: POD_RESIZE_WHY[resizeWrite] }, patch];
    }
    case 'PatchPodStatus':
      return [{ write: `patch pod/status ${a.pod.name}`, why: PATCH_WHY[a.reason] }];
    case 'CreatePVC':
      return [
        { write: `create pvc ${a.pvc.metadata.name ?? ''}`, why: `missing volume claim of pod ${a.podName}` },
      ];
    case 'DeletePVC':
      return [{ write: `delete pvc ${a.name}`, why: 'owned claim not used by any pod' }];
    case 'ResizePVC':
      return [{ write: `patch pvc ${a.name}`, why: resizeWhy(a.pod.name) }];
  }
}
