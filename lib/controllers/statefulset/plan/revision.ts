/**
 * OpenKruise: pkg/controller/statefulset/stateful_set_utils.go `newRevision`, `ApplyRevision`, `nextRevision`;
 * stateful_set_control.go `getStatefulSetRevisions`, `truncateHistory`; Kubernetes pkg/controller/history
 * `NewControllerRevision`, `FindEqualRevisions`, `CreateControllerRevision` (the collision probe).
 *
 * ControllerRevisions of an Advanced StatefulSet: data, hash, name and order are the pod-set toolkit's
 * (lib/podset/revision); what is chosen, created, bumped or deleted is decided here, as data.
 */
import { selectorMatches } from '../../../api/selector.js';
import type { ControllerRevision, Pod, PodTemplateSpec } from '../../../api/types.js';
import { newControllerRef } from '../../../podset/ownership.js';
import { goJson } from '../../../podset/revision/goJson.js';
import {
  hashRevision,
  revisionName,
  revisionsEqual,
  sortRevisions,
} from '../../../podset/revision/history.js';
import { newTemplateRevision } from '../../../podset/revision/templateData.js';
import { templateOf } from '../../../podset/inplace/spec.js';
import { STATEFULSET_API_VERSION, STATEFULSET_KIND_NAME } from '../api/resource.js';
import type { StatefulSet } from '../api/types.js';
import { statefulPodRevision } from './podState.js';

/**
 * A new ControllerRevision of the set's template (upstream `newRevision`): data `{"spec":{"template":…,
 * "$patch":"replace"}}`, name `<set>-<hash>` with the hash of the data and `collisionCount`, the template's labels
 * plus `controller.kubernetes.io/hash`, the set's annotations, its controller reference.
 */
export function newRevision(sts: StatefulSet, revision: number, collisionCount: number): ControllerRevision {
  return newTemplateRevision(
    sts,
    newControllerRef(STATEFULSET_API_VERSION, STATEFULSET_KIND_NAME, sts),
    revision,
    collisionCount,
  );
}

/** The set as it was at `revision` (upstream `ApplyRevision`: the revision's template replaces the set's). */
export function applyRevision(sts: StatefulSet, revision: ControllerRevision): StatefulSet {
  const out = structuredClone(sts);
  const tpl = templateOf(revision) as (PodTemplateSpec & { $patch?: string }) | undefined;
  if (tpl) {
    delete tpl.$patch;
    out.spec.template = tpl;
  }
  return out;
}

/** The revision decision of one pass. */
export interface StatefulSetRevisions {
  current: ControllerRevision;
  update: ControllerRevision;
  collisionCount: number;
  /** A new revision to create (the template is new). */
  create?: ControllerRevision;
  /** An older equal revision brought forward: its new `revision` number (the template was rolled back). */
  bump?: { name: string; revision: number };
  /** The owned revisions, sorted oldest first (the created one not included). */
  sorted: ControllerRevision[];
}

/**
 * Owned revisions (selector matches, controller reference absent or the set's UID), sorted; then upstream's
 * `getStatefulSetRevisions`: the newest revision equal to the template is the update revision; an older equal
 * one is bumped to the next number; else a new one is created, probing `collisionCount` past listed names held by
 * different data. The current revision is `status.currentRevision` when listed, else the update revision.
 */
export function chooseRevisions(
  sts: StatefulSet,
  listed: readonly ControllerRevision[],
): StatefulSetRevisions {
  const selector = sts.spec.selector ?? {};
  const sorted = sortRevisions(
    listed.filter((r) => {
      if (!selectorMatches(selector, r.metadata.labels)) return false;
      const ref = r.metadata.ownerReferences?.find((o) => o.controller);
      return !ref || ref.uid === sts.metadata.uid;
    }),
  );
  let collisionCount = sts.status?.collisionCount ?? 0;
  const next = sorted.length > 0 ? sorted[sorted.length - 1].revision + 1 : 1;
  const candidate = newRevision(sts, next, collisionCount);
  const raw = goJson(candidate.data);
  const equal = sorted.filter((r) => revisionsEqual(r, candidate, raw));
  const newest = sorted[sorted.length - 1];
  const lastEqual = equal[equal.length - 1];
  let update: ControllerRevision;
  let create: ControllerRevision | undefined;
  let bump: StatefulSetRevisions['bump'];
  if (lastEqual && revisionsEqual(newest, lastEqual)) {
    update = newest;
  } else if (lastEqual) {
    update = { ...lastEqual, revision: next };
    bump = { name: lastEqual.metadata.name ?? '', revision: next };
  } else {
    let name = candidate.metadata.name ?? '';
    let existing = listed.find((r) => r.metadata.name === name);
    while (existing && goJson(existing.data) !== raw) {
      collisionCount++;
      name = revisionName(sts.metadata.name ?? '', hashRevision(raw, collisionCount));
      existing = listed.find((r) => r.metadata.name === name);
    }
    if (existing) update = existing;
    else {
      create = { ...candidate, metadata: { ...candidate.metadata, name } };
      update = create;
    }
  }
  const current = sorted.find((r) => r.metadata.name === sts.status?.currentRevision) ?? update;
  return {
    current,
    update,
    collisionCount,
    sorted,
    ...(create ? { create } : {}),
    ...(bump ? { bump } : {}),
  };
}

/**
 * Revisions to delete (upstream `truncateHistory`): those neither current, update nor any pod's
 * `controller-revision-hash`, oldest first, beyond `revisionHistoryLimit`.
 * @param sorted the owned revisions, oldest first
 */
export function revisionsToDelete(
  sts: StatefulSet,
  pods: readonly Pod[],
  sorted: readonly ControllerRevision[],
  current: string,
  update: string,
): string[] {
  const live = new Set([current, update, ...pods.map(statefulPodRevision)]);
  const history = sorted.filter((r) => !live.has(r.metadata.name ?? ''));
  const limit = Math.max(sts.spec.revisionHistoryLimit ?? 10, 0);
  return history.slice(0, Math.max(history.length - limit, 0)).map((r) => r.metadata.name ?? '');
}
