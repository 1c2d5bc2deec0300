/**
 * OpenKruise: pkg/controller/broadcastjob/broadcastjob_controller.go `createPod` (with `addLabelToPodTemplate`,
 * `asOwner`); Kubernetes pkg/controller/controller_utils.go `GetPodFromTemplate`; the API server's `generateName`
 * (`names.SimpleNameGenerator`).
 *
 * The pod a job creates on a node.
 */
import type { Affinity } from '../../../api/node.js';
import type { Pod } from '../../../api/types.js';
import { replaceNodeNameAffinity } from '../../../podset/nodePin.js';
import { newControllerRef } from '../../../podset/ownership.js';
import { injectKruisePodReadyGate } from '../../../podset/podReadiness.js';
import { LABEL_CONTROLLER_UID, LABEL_JOB_NAME } from '../api/keys.js';
import { BROADCASTJOB_API_VERSION, BROADCASTJOB_KIND_NAME } from '../api/resource.js';
import type { BroadcastJob } from '../api/types.js';
import { generatedName } from '../../../api/generatedName.js';

/** The labels every pod of `job` carries (`labelsAsMap`): `broadcastjob-name` and `broadcastjob-controller-uid`. */
export function jobPodLabels(job: BroadcastJob): Record<string, string> {
  return { [LABEL_JOB_NAME]: job.metadata.name ?? '', [LABEL_CONTROLLER_UID]: job.metadata.uid ?? '' };
}

/** `<job>-`: the pods' `generateName` (`getPodsPrefix`; a job name is a DNS subdomain, so the dash fits). */
export function podPrefix(job: BroadcastJob): string {
  return `${job.metadata.name ?? ''}-`;
}

/**
 * The pod of `job` for `nodeName`: the template's labels plus {@link jobPodLabels}, its annotations and finalizers,
 * `generateName` `<job>-` and — generated here so that the create expectation has a name — `name` the API server
 * would give it (the prefix cut to 58 characters, then `suffix`); the job's controller reference
 * (`apps.kruise.io/v1beta1` BroadcastJob, `controller` and `blockOwnerDeletion` true); the template's spec with the
 * required node affinity replaced by the pin to `nodeName` (`--assign-bcj-pods-by-scheduler=true`); and the
 * `KruisePodReady` readiness gate OpenKruise's pod webhook adds to the pods of `apps.kruise.io` owners.
 * @param suffix 5 characters of `SAFE_ALPHABET`
 */
export function buildJobPod(job: BroadcastJob, nodeName: string, suffix: string): Pod {
  const tpl = structuredClone(job.spec.template);
  const meta = tpl.metadata ?? {};
  const prefix = podPrefix(job);
  const spec = {
    ...tpl.spec,
    affinity: replaceNodeNameAffinity(tpl.spec.affinity as Affinity | undefined, nodeName),
  };
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: generatedName(prefix, suffix),
      generateName: prefix,
      namespace: job.metadata.namespace,
      labels: { ...(meta.labels ?? {}), ...jobPodLabels(job) },
      ...(meta.annotations && Object.keys(meta.annotations).length > 0
        ? { annotations: { ...meta.annotations } }
        : {}),
      ...(meta.finalizers && meta.finalizers.length > 0 ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [newControllerRef(BROADCASTJOB_API_VERSION, BROADCASTJOB_KIND_NAME, job)],
    },
    spec,
  };
  return injectKruisePodReadyGate(pod);
}
