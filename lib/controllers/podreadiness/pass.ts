/**
 * OpenKruise: pkg/controller/podreadiness/pod_readiness_controller.go `Reconcile` (v1.9.0), with the informer cache
 * replaced by a quorum read.
 *
 * The pod readiness concern's work on one pod (lib/controllers/podConcern.ts: the pod registration's pass reads the
 * pod and hands it here when ./predicate.ts selects it): the pods/status strategic-merge patch that gives it the
 * condition `KruisePodReady` True (lib/podset/podReadiness.ts `initKruisePodReady`, the patch the workloads' passes
 * write too), so that a pod with the readiness gate can become Ready. Upstream records no Event here, and neither
 * does this.
 */
import type { Pod } from '../../api/types.js';
import { namespaceOf, objectKeyText, type ObjectKey } from '../../core/objectKey.js';
import { classifyWriteError } from '../../kube/errors.js';
import { RESOURCES } from '../../kube/resources.js';
import type { Action } from '../../podset/actions.js';
import { initKruisePodReady } from '../../podset/podReadiness.js';
import type { PassResult } from '../../reconcile/reconcile.js';
import type { PodConcernDeps } from '../podConcern.js';

/** The work's plan: the status patch it wrote, or none for a pod that does not wait for the condition. */
export type PodReadinessStep = Extract<Action, { type: 'PatchPodStatus' }> | undefined;

/**
 * The work on one pod (see the module doc).
 * @param pod the pod as the pass read it
 * @returns `gone` when the pod goes before the patch; the patch's API error in `error` (the loop backs off); no
 *   write for a pod that is terminating, has the condition already or has no gate
 * @throws non-API errors
 */
export async function runPodReadiness(
  deps: PodConcernDeps,
  key: ObjectKey,
  pod: Pod,
): Promise<PassResult<PodReadinessStep>> {
  const [patch] = initKruisePodReady([pod], new Set(), new Date(deps.clock()));
  if (!patch) return { gone: false, writes: 0, acted: false };
  try {
    await deps.kube.patch(
      RESOURCES.pods,
      { namespace: namespaceOf(key), name: key.name },
      { type: 'strategic-merge', body: patch.patch },
      { subresource: 'status' },
    );
    deps.log.info('reconciled', { key: objectKeyText(key), writes: 1, kruisePodReady: 'True' });
    return { gone: false, writes: 1, acted: false, plan: patch };
  } catch (e) {
    const kind = classifyWriteError(e);
    if (kind === 'notApi') throw e;
    // the pod went meanwhile: nothing is left to make ready
    if (kind === 'notFound') return { gone: true, writes: 0, acted: false };
    const error = (e as Error).message;
    deps.log.info('reconciled', { key: objectKeyText(key), writes: 0, error });
    return { gone: false, writes: 0, acted: false, error, plan: patch };
  }
}
