/**
 * OpenKruise: pkg/controller/containerlaunchpriority/container_launch_priority_controller.go `Reconcile` / `handle`
 * (v1.9.0), with the informer cache replaced by quorum reads.
 *
 * The container launch priority concern's work on one pod (lib/controllers/podConcern.ts: the pod registration's pass
 * reads the pod, by a quorum GET, and hands it here when ./predicate.ts selects it) →
 * lib/podset/launchPriority.ts `planLaunchStep` (pure) → add the key of the highest
 * pending priority to its barrier ConfigMap (`<pod>-barrier`), creating it owned by the pod when it is missing → mark
 * the pod completed once the barrier holds the lowest pending key too. Upstream reads the barrier from its cache
 * first; Kruiseless may not read ConfigMaps at all (lib/kube/access.ts `DENIED_TO_ALL_SHARED`: they hold
 * configuration), so the pass writes the key whether or not it is there (a patch that changes nothing stores
 * nothing) and reads the barrier from the write's answer — the same barriers and marks as upstream, in one request
 * more when a key was there already. Upstream creates the barrier empty and adds the key on its next pass; this
 * creates it with the key, in one write. The pass asks for nothing more: the pod's next container turning ready is a
 * pod change, which wakes it again. Upstream records no Event here, and neither does this.
 */
import type { PassResult as LoopPassResult } from '../../reconcile/reconcile.js';
import type { ConfigMap, Pod } from '../../api/types.js';
import { namespaceOf, objectKeyText, type ObjectKey } from '../../core/objectKey.js';
import { classifyWriteError } from '../../kube/errors.js';
import { RESOURCES } from '../../kube/resources.js';
import {
  ANNOTATION_LAUNCH_PRIORITY_COMPLETED,
  barrierName,
  isReleased,
  planLaunchStep,
  type LaunchStep,
} from '../../podset/launchPriority.js';
import type { PodConcernDeps } from '../podConcern.js';

/** What the work did: the loop's {@link LoopPassResult} with the step it took. */
export type PassResult = LoopPassResult<LaunchStep>;

/** The empty barrier of `pod`, owned by it (not as its controller), as upstream creates it. */
export function newBarrier(pod: Pod): ConfigMap {
  const name = pod.metadata.name ?? '';
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: barrierName(name),
      namespace: pod.metadata.namespace ?? '',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name, uid: pod.metadata.uid ?? '' }],
    },
  };
}

/**
 * The barrier of `pod` with `key` released: a strategic-merge patch adding it (a key there already changes nothing),
 * or, when the barrier does not exist, its creation with that key (AlreadyExists: someone created it meanwhile, so
 * the patch again).
 * @returns the barrier as the write answered it
 * @throws KubeApiError of the writes
 */
async function release(kube: PodConcernDeps['kube'], pod: Pod, key: string): Promise<ConfigMap> {
  const ref = { namespace: pod.metadata.namespace ?? '', name: barrierName(pod.metadata.name ?? '') };
  const patch = () =>
    kube.patch(RESOURCES.configmaps, ref, { type: 'strategic-merge', body: { data: { [key]: 'true' } } });
  try {
    return await patch();
  } catch (e) {
    if (classifyWriteError(e) !== 'notFound') throw e;
  }
  try {
    return await kube.create(RESOURCES.configmaps, { ...newBarrier(pod), data: { [key]: 'true' } });
  } catch (e) {
    if (classifyWriteError(e) !== 'alreadyExists') throw e;
    return patch();
  }
}

/**
 * The work on one pod (see the module doc).
 * @param pod the pod as the pass read it
 * @returns `gone` when the pod goes during the work; a write's API error in `error` (the loop backs off)
 * @throws non-API errors
 */
export async function runLaunchPriority(deps: PodConcernDeps, key: ObjectKey, pod: Pod): Promise<PassResult> {
  const namespace = namespaceOf(key);
  const step = planLaunchStep(pod);
  let writes = 0;
  let completed = false;
  const log = (fields: Record<string, unknown>) =>
    deps.log.info('reconciled', {
      key: objectKeyText(key),
      writes,
      ...('release' in step ? { release: step.release } : {}),
      ...(completed ? { completed } : {}),
      ...fields,
    });
  try {
    if ('release' in step) {
      const barrier = await release(deps.kube, pod, step.release);
      writes++;
      completed = isReleased(barrier, step.lowest);
    } else completed = true;
    if (completed) {
      await deps.kube.patch(
        RESOURCES.pods,
        { namespace, name: key.name },
        {
          type: 'strategic-merge',
          body: { metadata: { annotations: { [ANNOTATION_LAUNCH_PRIORITY_COMPLETED]: 'true' } } },
        },
      );
      writes++;
    }
    log({});
    return { gone: false, writes, acted: false, plan: step };
  } catch (e) {
    const kind = classifyWriteError(e);
    if (kind === 'notApi') throw e;
    // the pod went meanwhile: nothing is left to start
    if (kind === 'notFound') return { gone: true, writes, acted: false };
    const error = (e as Error).message;
    log({ error });
    return { gone: false, writes, acted: false, error, plan: step };
  }
}
