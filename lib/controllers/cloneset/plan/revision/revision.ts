/**
 * OpenKruise: pkg/controller/cloneset/revision/cloneset_revision.go `NewRevision`, `ApplyRevision`,
 * `getPatch`; pkg/controller/cloneset/cloneset_controller.go `getActiveRevisions`, `truncateHistory`;
 * pkg/util/volumeclaimtemplate/volume_templates_hash.go; Kubernetes pkg/controller/history
 * `FindEqualRevisions`.
 *
 * ControllerRevisions of a CloneSet (docs/behaviour/cloneset.md#revisions,
 * docs/behaviour/cloneset.md#controller-revisions): revision data, choosing the current and update revisions,
 * applying a revision, and history truncation; the hash, name, order and equality rules are the pod-set
 * toolkit's (lib/podset/revision/history.ts). Pure: writes are returned as data ({@link RevisionPlan}) for the
 * reconciler to perform.
 */
import { ANNOTATION_VCT_HASH } from '../../../../api/keys.js';
import { InvalidRevisionDataError } from '../../../../api/errors.js';
import { selectorMatches } from '../../../../api/selector.js';
import {
  isJsonObject,
  type CloneSet,
  type ControllerRevision,
  type Pod,
  type PodTemplateSpec,
} from '../../../../api/types.js';
import { podMatchesRevision } from '../../../../podset/pods.js';
import {
  fnv1a_32,
  goJson,
  goSpewBytes,
  goTypedPvcListJson,
  utf8,
} from '../../../../podset/revision/goJson.js';
import { newTemplateRevision, templateRevisionData } from '../../../../podset/revision/templateData.js';
import {
  hashRevision,
  revisionName,
  revisionsEqual,
  sortRevisions,
} from '../../../../podset/revision/history.js';
import { cloneSetControllerRef } from '../ownership.js';
import type { RevisionPlan } from '../types.js';

/**
 * The `data` of a CloneSet ControllerRevision (docs/behaviour/cloneset.md#revisions): the pod-set toolkit's
 * {@link templateRevisionData}, which Advanced StatefulSet's revisions share.
 */
export const revisionData = templateRevisionData;

/**
 * The `kruise.io/cloneset-volumeclaimtemplate-hash` value (docs/behaviour/cloneset.md#controller-revisions):
 * `""` without volumeClaimTemplates, else the decimal FNV-1a 32 sum of the go-spew rendering of the Go JSON
 * of the templates reduced to name + spec, sorted by name — what upstream hashes (see
 * {@link goTypedPvcListJson} for the serialisation caveats). Templates are hashed as stored: Kruise hashes
 * them after its webhook defaulted them (e.g. `volumeMode: Filesystem`), so a template that omits such a
 * field hashes differently from a Kruise-made revision (which only makes the annotation get rewritten).
 */
export function vctHash(cs: CloneSet): string {
  const vcts = cs.spec.volumeClaimTemplates ?? [];
  if (vcts.length === 0) return '';
  const items = vcts
    .map((v) => ({ name: v.metadata?.name ?? '', spec: v.spec }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return String(fnv1a_32(utf8(goSpewBytes(goTypedPvcListJson(items)))));
}

/**
 * A new ControllerRevision for the CloneSet's live template (docs/behaviour/cloneset.md#controller-revisions,
 * docs/behaviour/cloneset.md#revisions): name `<cs>-<hash>`, namespace of the CloneSet, labels = template
 * labels + `controller.kubernetes.io/hash`, annotations = every CloneSet annotation + the VCT hash,
 * controller owner reference to the CloneSet.
 * @param revisionNumber the `revision` sequence number
 * @param collisionCount hash probe (docs/behaviour/cloneset.md#revisions)
 */
export function newRevision(
  cs: CloneSet,
  revisionNumber: number,
  collisionCount: number,
): ControllerRevision {
  return newTemplateRevision(cs, cloneSetControllerRef(cs), revisionNumber, collisionCount, {
    [ANNOTATION_VCT_HASH]: vctHash(cs),
  });
}

/**
 * Revisions that belong to the CloneSet (docs/behaviour/cloneset.md#reconcile-order): labels match
 * `spec.selector`, and the controller owner reference is absent or points to the CloneSet's UID.
 * @throws InvalidSelectorError when the selector is invalid
 */
export function filterOwnedRevisions(
  cs: CloneSet,
  list: readonly ControllerRevision[],
): ControllerRevision[] {
  return list.filter((r) => {
    if (!selectorMatches(cs.spec.selector, r.metadata.labels)) return false;
    const ref = r.metadata.ownerReferences?.find((o) => o.controller);
    return !ref || ref.uid === cs.metadata.uid;
  });
}

/** Result of {@link computeRevisions}. */
export interface RevisionComputation {
  /** Names, collision count and the single write needed (create or update), without history truncation. */
  plan: Omit<RevisionPlan, 'deleteNames'>;
  /** The current revision (status.currentRevision if listed, else the update revision). */
  current: ControllerRevision;
  /** The update revision, as it will be after the plan's write. */
  update: ControllerRevision;
  /**
   * The owned listed revisions, sorted (docs/behaviour/cloneset.md#reconcile-order); does not include a
   * revision created by the plan.
   */
  sorted: ControllerRevision[];
}

/**
 * Chooses the current and update revisions (docs/behaviour/cloneset.md#revisions):
 * the newest owned revision equal to the live template is reused as is; an older equal one (template
 * reverted) gets the next revision number and a corrected VCT-hash annotation (returned as `plan.update`);
 * otherwise a new revision is created (`plan.create`). A name taken by a listed revision with different data
 * bumps `collisionCount` and is retried; one with the same data is used as is.
 *
 * Name collisions are found only among `listed`. A collision with a revision that was not listed surfaces as
 * `AlreadyExists` when the reconciler creates it; the reconciler should then GET that object, add it to
 * `listed` and plan again.
 * @param cs the defaulted CloneSet
 * @param listed ControllerRevisions of the namespace (any order; filtered and sorted here)
 * @throws InvalidSelectorError when the selector is invalid
 */
export function computeRevisions(cs: CloneSet, listed: readonly ControllerRevision[]): RevisionComputation {
  const sorted = sortRevisions(filterOwnedRevisions(cs, listed));
  let collisionCount = cs.status?.collisionCount ?? 0;
  const nextNumber = sorted.length > 0 ? sorted[sorted.length - 1].revision + 1 : 1;
  const candidate = newRevision(cs, nextNumber, collisionCount);
  const raw = goJson(candidate.data);
  const equal = sorted.filter((r) => revisionsEqual(r, candidate, raw));

  let update: ControllerRevision;
  let create: ControllerRevision | undefined;
  let updated: ControllerRevision | undefined;
  const newest = sorted[sorted.length - 1];
  const lastEqual = equal[equal.length - 1];
  if (lastEqual && revisionsEqual(newest, lastEqual)) {
    update = newest;
  } else if (lastEqual) {
    const wanted = candidate.metadata.annotations?.[ANNOTATION_VCT_HASH] ?? '';
    const annotations = { ...(lastEqual.metadata.annotations ?? {}) };
    if (annotations[ANNOTATION_VCT_HASH] !== wanted) annotations[ANNOTATION_VCT_HASH] = wanted;
    updated = { ...structuredClone(lastEqual), revision: nextNumber };
    updated.metadata.annotations = annotations;
    update = updated;
  } else {
    const csName = cs.metadata.name ?? '';
    let name = candidate.metadata.name ?? '';
    let existing = listed.find((r) => r.metadata.name === name);
    while (existing && goJson(existing.data) !== raw) {
      collisionCount++;
      name = revisionName(csName, hashRevision(raw, collisionCount));
      existing = listed.find((r) => r.metadata.name === name);
    }
    if (existing) {
      update = existing;
    } else {
      // as upstream: only the name moves with the probe; the hash label keeps the first-try hash
      create = { ...candidate, metadata: { ...candidate.metadata, name } };
      update = create;
    }
  }
  const current = sorted.find((r) => r.metadata.name === cs.status?.currentRevision) ?? update;
  const updateName = update.metadata.name ?? '';
  return {
    plan: {
      updateRevision: updateName,
      currentRevision: current.metadata.name ?? '',
      collisionCount,
      ...(create ? { create } : {}),
      ...(updated ? { update: updated } : {}),
    },
    current,
    update,
    sorted,
  };
}

/**
 * Names of revisions to delete (docs/behaviour/cloneset.md#revisions): revisions that are neither current nor
 * update and that no claimed pod matches (revision-label rule of docs/behaviour/cloneset.md#pod-labels) are
 * deleted oldest first until at most `revisionHistoryLimit` (absent ⇒ 10, negative ⇒ 0) of them remain.
 * @param sorted owned revisions in ascending order ({@link RevisionComputation.sorted})
 * @param pods claimed active pods
 */
export function truncateHistory(
  cs: CloneSet,
  sorted: readonly ControllerRevision[],
  pods: readonly Pod[],
  currentName: string,
  updateName: string,
): string[] {
  const historic = sorted
    .map((r) => r.metadata.name ?? '')
    .filter((name) => name !== currentName && name !== updateName)
    .filter((name) => !pods.some((p) => podMatchesRevision(p, name)));
  const limit = Math.max(cs.spec.revisionHistoryLimit ?? 10, 0);
  return historic.length <= limit ? [] : historic.slice(0, historic.length - limit);
}

/**
 * The CloneSet as it was at `revision` (docs/behaviour/cloneset.md#revisions): a copy of the live object
 * whose `spec.template` is replaced wholesale by the revision's template (without the `$patch` directive);
 * replicas, VCTs, strategies and lifecycle stay live.
 * @throws InvalidRevisionDataError when the data has no `spec.template` object
 */
export function applyRevision(cs: CloneSet, revision: ControllerRevision): CloneSet {
  const data = revision.data;
  const spec = isJsonObject(data) ? data.spec : undefined;
  const template = isJsonObject(spec) ? spec.template : undefined;
  if (!isJsonObject(template) || !isJsonObject(template.spec)) {
    throw new InvalidRevisionDataError(
      revision.metadata.name ?? '',
      'spec.template is missing or not an object',
    );
  }
  const copy = structuredClone(template);
  delete copy.$patch;
  const out = structuredClone(cs);
  out.spec.template = copy as unknown as PodTemplateSpec;
  return out;
}
