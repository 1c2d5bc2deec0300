/**
 * AdvancedCronJobs in integration tests: the resource's address for the custom-objects client, the every-minute
 * object the wake-up tests create, the first scheduled minute after a creation, and the names of a namespace's Jobs.
 * Test-only.
 */
import type { CustomObjectsApi } from '@kubernetes/client-node';
import type { AdvancedCronJob } from '../../../lib/controllers/advancedcronjob/api/types.js';

/** `apps.kruise.io/v1beta1` advancedcronjobs, as the custom-objects client addresses them. */
export const ACJ_API = { group: 'apps.kruise.io', version: 'v1beta1', plural: 'advancedcronjobs' } as const;

/**
 * An AdvancedCronJob `name` on `*\/1 * * * *` whose Job runs one busybox container once (`restartPolicy: Never`), the
 * last succeeded Job kept (`successfulJobsHistoryLimit: 1`).
 */
export function everyMinuteJob(name: string): AdvancedCronJob {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'AdvancedCronJob',
    metadata: { name },
    spec: {
      schedule: '*/1 * * * *',
      successfulJobsHistoryLimit: 1,
      template: {
        jobTemplate: {
          spec: {
            template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } },
          },
        },
      },
    },
  };
}

/** The first whole minute strictly after `iso` (an RFC 3339 time, e.g. a creationTimestamp), epoch seconds. */
export function nextMinute(iso: string): number {
  return Math.floor(Date.parse(iso) / 60_000) * 60 + 60;
}

/** The names of `namespace`'s batch/v1 Jobs, sorted. @throws ApiException of a failed list */
export async function jobNames(custom: CustomObjectsApi, namespace: string): Promise<string[]> {
  const list = (await custom.listNamespacedCustomObject({
    group: 'batch',
    version: 'v1',
    plural: 'jobs',
    namespace,
  })) as { items: { metadata: { name: string } }[] };
  return list.items.map((j) => j.metadata.name).sort();
}
