/**
 * The cluster reads of the admission function's `/validate` (lib/runtime/handlers/admission.ts): OpenKruise's
 * validating webhooks read their informers for the rules that compare an object with others — SidecarSet conflicts and
 * revision pins, `podsToDelete` naming a CloneSet's pods, the PodUnavailableBudget and WorkloadSpread conflicts
 * (lib/controllers/validations.ts `clusterValidationReads`). The function reads the cluster the call's path names, as
 * the group `kruiseless:admission` (the pod webhooks' role, lib/controllers/podWebhookAccess.ts, which holds every one
 * of these reads but the ConfigMap of the SidecarSet `patchPodMetadata` whitelist, so that rule stays skipped there).
 * That role is bound only where `kruiseless install --pod-webhooks` ran (an EKS access entry it cannot create), so a
 * read may be refused: the handler then validates again without reads, as before the function read the cluster, and
 * says so in its log. The cluster is reached only when a validator reads, so the other kinds' validations cost no
 * request.
 */
import { isNotFound } from '../kube/errors.js';
import type { KubeObject, Resource } from '../kube/resource.js';
import type { KubeClient, Listed, ListOptions, ObjectRef } from '../kube/types.js';
import { clusterValidationReads, type ValidationReads } from '../controllers/validations.js';

/** The reads of one `/validate` call, and what went wrong with them. */
export interface ValidationReadsAttempt {
  reads: ValidationReads;
  /** The first failure of a read (not a 404 LIST: a kind whose CRD is not installed has no objects), if any. */
  failure(): unknown;
}

/**
 * The validators' reads over the client `cluster()` gives, asked for at the first read (and once).
 * @param cluster the client of the call's cluster; a rejection counts as a read's failure
 */
export function lazyValidationReads(
  cluster: () => Promise<Pick<KubeClient, 'list' | 'get'>>,
): ValidationReadsAttempt {
  let client: Promise<Pick<KubeClient, 'list' | 'get'>> | undefined;
  let failed: { error: unknown } | undefined;
  /** `call` on the client, made at the first read; a failure other than a 404 is noted, and thrown on. */
  const through = <R>(call: (k: Pick<KubeClient, 'list' | 'get'>) => Promise<R>): Promise<R> =>
    (client ??= cluster()).then(call).catch((e: unknown) => {
      if (!isNotFound(e)) failed ??= { error: e };
      throw e;
    });
  const kube: Pick<KubeClient, 'list' | 'get'> = {
    list: <T extends KubeObject>(resource: Resource<T>, options?: ListOptions): Promise<Listed<T>> =>
      through((k) => k.list(resource, options)),
    get: <T extends KubeObject>(resource: Resource<T>, ref: ObjectRef): Promise<T | undefined> =>
      through((k) => k.get(resource, ref)),
  };
  return {
    reads: clusterValidationReads(kube),
    failure: () => failed?.error,
  };
}
