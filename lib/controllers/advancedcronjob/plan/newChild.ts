/**
 * OpenKruise: `constructJobForCronJob` (advancedcronjob_job_controller.go) and `constructBrJobForCronJob`
 * (advancedcronjob_broadcastjob_controller.go).
 *
 * The child of one scheduled time: named `<acj name>-<scheduled time, Unix seconds>` (so one scheduled time makes
 * one child, whoever creates it), the template's labels and annotations plus `apps.kruise.io/scheduled-at`, the
 * template's spec (with the webhook's pod-template defaults, ./plan.ts), and the AdvancedCronJob as controller owner.
 */
import { metaTime } from '../../../api/time.js';
import { ANNOTATION_SCHEDULED_AT } from '../api/keys.js';
import { ACJ_API_VERSION, ACJ_KIND_NAME } from '../api/resource.js';
import type { AdvancedCronJob, ChildTemplate, CronChild } from '../api/types.js';

/** `<acj name>-<Unix seconds of scheduledMs>`. */
export function childName(acjName: string, scheduledMs: number): string {
  return `${acjName}-${Math.floor(scheduledMs / 1000)}`;
}

/**
 * The child to create for `scheduledMs` from `template`.
 * @param apiVersion the child's apiVersion (`batch/v1`, `apps.kruise.io/v1beta1`)
 * @param kind the child's Kind (`Job`, `BroadcastJob`)
 */
export function newChild(
  acj: AdvancedCronJob,
  template: ChildTemplate,
  scheduledMs: number,
  apiVersion: string,
  kind: string,
): CronChild {
  const labels = { ...template.metadata?.labels };
  return {
    apiVersion,
    kind,
    metadata: {
      name: childName(acj.metadata.name ?? '', scheduledMs),
      namespace: acj.metadata.namespace ?? '',
      ...(Object.keys(labels).length > 0 ? { labels } : {}),
      annotations: {
        ...template.metadata?.annotations,
        // the controller's zone is UTC, so Go's RFC 3339 text of the scheduled time is UTC
        [ANNOTATION_SCHEDULED_AT]: metaTime(new Date(scheduledMs)),
      },
      ownerReferences: [
        {
          apiVersion: ACJ_API_VERSION,
          kind: ACJ_KIND_NAME,
          name: acj.metadata.name ?? '',
          uid: acj.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: structuredClone(template.spec ?? {}),
  };
}
