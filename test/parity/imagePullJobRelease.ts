/**
 * The one piece of kruise-daemon's part in ImagePullJob deletion the local control plane stands in for: OpenKruise's
 * ImagePullJob controller puts the finalizer `apps.kruise.io/deletion-protection` on each job and, with no
 * kruise-daemon (no NodeImage reports its pulls), never takes it off, so a namespace that had a pre-download stays
 * terminating for good. The parity runner and the upstream e2e harness remove it from jobs that are already being
 * deleted, and only from those: what a job does while it lives is still the controllers'. Kruiseless adds no such
 * finalizer, so this acts on the OpenKruise side only.
 */
import { CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';

/** The finalizer OpenKruise's ImagePullJob controller puts on each job. */
export const IMAGE_PULL_JOB_PROTECTION = 'apps.kruise.io/deletion-protection';
/** The ImagePullJob resource. */
export const IMAGE_PULL_JOBS = {
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  plural: 'imagepulljobs',
} as const;

/** An ImagePullJob's metadata as the release reads it. */
interface JobMeta {
  metadata: { name?: string; namespace?: string; deletionTimestamp?: string; finalizers?: string[] };
}

/** The HTTP status of a client-node ApiException, if it is one. */
function statusCode(e: unknown): number | undefined {
  return (e as { code?: unknown }).code as number | undefined;
}

/**
 * Removes {@link IMAGE_PULL_JOB_PROTECTION} from every ImagePullJob being deleted, in `namespace` or (undefined) in
 * every namespace. Best effort: a job gone meanwhile, a conflict or an unserved resource (404: no ImagePullJob CRD)
 * is left for the next call.
 * @returns how many jobs were released
 */
export async function releaseImagePullJobs(custom: CustomObjectsApi, namespace?: string): Promise<number> {
  const listed = await (
    namespace === undefined
      ? custom.listClusterCustomObject({ ...IMAGE_PULL_JOBS })
      : custom.listNamespacedCustomObject({ ...IMAGE_PULL_JOBS, namespace })
  )
    .then((l) => (l as { items: JobMeta[] }).items)
    .catch((e: unknown) => {
      if (statusCode(e) === 404) return [];
      throw e;
    });
  let released = 0;
  for (const job of listed) {
    const finalizers = job.metadata.finalizers ?? [];
    if (!job.metadata.deletionTimestamp || !finalizers.includes(IMAGE_PULL_JOB_PROTECTION)) continue;
    const ok = await custom
      .patchNamespacedCustomObject(
        {
          ...IMAGE_PULL_JOBS,
          namespace: job.metadata.namespace ?? namespace ?? '',
          name: job.metadata.name ?? '',
          body: [
            {
              op: 'replace',
              path: '/metadata/finalizers',
              value: finalizers.filter((f) => f !== IMAGE_PULL_JOB_PROTECTION),
            },
          ],
        },
        setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
      )
      .then(() => true)
      .catch(() => false);
    if (ok) released += 1;
  }
  return released;
}

/**
 * Calls {@link releaseImagePullJobs} over every namespace of the cluster of `kc` every `intervalMs` until stopped
 * (a failed round is ignored; the next one tries again).
 * @returns stop: ends the loop, resolving after the round in progress; and how many jobs were released so far
 */
export function keepReleasingImagePullJobs(
  kc: KubeConfig,
  intervalMs = 2000,
): { stop: () => Promise<void>; released: () => number } {
  const custom = kc.makeApiClient(CustomObjectsApi);
  let stopped = false;
  let count = 0;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  const tick = (): void => {
    round = releaseImagePullJobs(custom)
      .then((n) => void (count += n))
      .catch(() => undefined)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  tick();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await round;
    },
    released: () => count,
  };
}
