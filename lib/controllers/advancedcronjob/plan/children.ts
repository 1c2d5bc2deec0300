/**
 * OpenKruise: the first half of advancedcronjob_job_controller.go `reconcileJob` (the same in
 * advancedcronjob_broadcastjob_controller.go): children sorted into active, successful and failed by their finish
 * condition (`isJobFinished`), the latest `apps.kruise.io/scheduled-at` among them (`getScheduledTimeForJob`), the
 * status made of those, and the finished children beyond the history limits.
 */
import { metaTime } from '../../../api/time.js';
import { ANNOTATION_SCHEDULED_AT } from '../api/keys.js';
import type { AdvancedCronJobStatus, ChildReference, CronChild, TemplateKind } from '../api/types.js';

/** Children by state. */
export interface SortedChildren {
  active: CronChild[];
  successful: CronChild[];
  failed: CronChild[];
}

/** `Complete` or `Failed` when a condition of that type is `True` (the first such condition wins), else undefined. */
export function finishedType(child: CronChild): 'Complete' | 'Failed' | undefined {
  for (const c of child.status?.conditions ?? []) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') return c.type;
  }
  return undefined;
}

/** The children sorted by {@link finishedType}, each list by name. */
export function sortChildren(children: readonly CronChild[]): SortedChildren {
  const byName = [...children].sort((a, b) => compare(a.metadata.name ?? '', b.metadata.name ?? ''));
  return {
    active: byName.filter((c) => finishedType(c) === undefined),
    successful: byName.filter((c) => finishedType(c) === 'Complete'),
    failed: byName.filter((c) => finishedType(c) === 'Failed'),
  };
}

/** A child's scheduled time (epoch ms) from its annotation; undefined when absent or unparsable (upstream skips it). */
export function scheduledTimeOf(child: CronChild): number | undefined {
  const raw = child.metadata.annotations?.[ANNOTATION_SCHEDULED_AT];
  if (!raw) return undefined;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The latest scheduled time of `children`, epoch ms. */
export function lastScheduleOf(children: readonly CronChild[]): number | undefined {
  let latest: number | undefined;
  for (const c of children) {
    const t = scheduledTimeOf(c);
    if (t !== undefined && (latest === undefined || t > latest)) latest = t;
  }
  return latest;
}

/** `ref.GetReference` of a child: apiVersion, kind, namespace, name, uid, resourceVersion. */
export function childReference(child: CronChild, apiVersion: string, kind: string): ChildReference {
  return {
    apiVersion,
    kind,
    namespace: child.metadata.namespace ?? '',
    name: child.metadata.name ?? '',
    uid: child.metadata.uid ?? '',
    resourceVersion: child.metadata.resourceVersion ?? '',
  };
}

/**
 * The status upstream writes: `type`, the active children's references (omitted when none) and
 * `lastScheduleTime` (omitted when no child has a scheduled time).
 */
export function statusOf(
  type: TemplateKind,
  sorted: SortedChildren,
  lastScheduleMs: number | undefined,
  childApiVersion: string,
  childKind: string,
): AdvancedCronJobStatus {
  return {
    type,
    ...(sorted.active.length > 0
      ? { active: sorted.active.map((c) => childReference(c, childApiVersion, childKind)) }
      : {}),
    ...(lastScheduleMs !== undefined ? { lastScheduleTime: metaTime(new Date(lastScheduleMs)) } : {}),
  };
}

/**
 * The oldest finished children beyond `limit`: ordered by `status.startTime` (none first; ties by name), all but the
 * last `limit` of them.
 */
export function beyondHistoryLimit(finished: readonly CronChild[], limit: number): CronChild[] {
  const ordered = [...finished].sort((a, b) => {
    const sa = a.status?.startTime;
    const sb = b.status?.startTime;
    if (sa !== sb) {
      if (!sa) return -1;
      if (!sb) return 1;
      const d = Date.parse(sa) - Date.parse(sb);
      if (d !== 0) return d;
    }
    return compare(a.metadata.name ?? '', b.metadata.name ?? '');
  });
  return ordered.slice(0, Math.max(0, ordered.length - limit));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
