/**
 * The pod mutating webhook (`/mutate-pod`, OpenKruise's `mpod.kb.io`: pods CREATE): reads the SidecarSets and the pod's
 * namespace, asks the pure injector (./plan/inject.ts) for the pod to store, and answers with the JSON Patch. Today it
 * does SidecarSet injection only (OpenKruise's handler `PodCreateHandler.Handle` also runs readiness-gate, WorkloadSpread,
 * launch-priority, PUB, PersistentPodState and probe steps, none of which Kruiseless serves yet).
 */
import {
  patchAnswer,
  readAdmissionReview,
  refusal,
  type MutationAnswer,
} from '../../api/admission/mutation.js';
import { isJsonObject, type JsonObject, type Pod } from '../../api/types.js';
import { errorMessage } from '../../core/errors.js';
import { listAll, type KubeClient } from '../../kube/index.js';
import { isNotFound } from '../../kube/index.js';
import { NAMESPACE_RESOURCE, SIDECARSET_RESOURCE } from './api/resource.js';
import type { SidecarSet } from './api/types.js';
import { SidecarInjectionError } from './plan/errors.js';
import { injectSidecars } from './plan/inject.js';

/** The path the pod webhook is served on, as OpenKruise's. */
export const POD_MUTATE_PATH = '/mutate-pod';

/** What the webhook reads for one pod. */
export interface PodInjectionReads {
  /** Every SidecarSet; none when the resource is not served (no CRD). */
  sidecarSets(): Promise<SidecarSet[]>;
  /** The labels of namespace `name`; undefined when it does not exist. */
  namespaceLabels(name: string): Promise<Record<string, string> | undefined>;
}

/**
 * {@link PodInjectionReads} over the API server: one LIST of SidecarSets (all pages) and one GET of the namespace
 * per call (OpenKruise reads both from its informer cache; a stateless handler has none).
 * @returns reads that throw KubeApiError when the API server fails
 */
export function kubePodInjectionReads(kube: Pick<KubeClient, 'list' | 'get'>): PodInjectionReads {
  return {
    async sidecarSets() {
      try {
        return (await listAll(kube, SIDECARSET_RESOURCE)).items as unknown as SidecarSet[];
      } catch (e) {
        if (isNotFound(e)) return [];
        throw e;
      }
    },
    async namespaceLabels(name) {
      const ns = await kube.get(NAMESPACE_RESOURCE, { name });
      return ns ? (ns.metadata.labels ?? {}) : undefined;
    },
  };
}

/**
 * Answers one AdmissionReview body for pods. A request that is not a pod CREATE (another resource, a subresource,
 * another operation) is allowed unchanged, as upstream skips it.
 * @param now the `updateTimestamp` written into the hash annotations (default: the current time)
 * @returns never throws: 400/413 for a body that is not an AdmissionReview v1 (./mutation.ts); 200 with a refusal,
 *   code 400, for an object that is not a pod or a pod OpenKruise refuses (SidecarInjectionError), code 500 when a read
 *   fails (as OpenKruise's `admission.Errored(500)`, the API server then refuses the pod: failurePolicy does not
 *   apply to an answer); else 200 allowed, with the patch when something is injected
 */
export async function answerPodAdmission(
  body: string,
  reads: PodInjectionReads,
  now: Date = new Date(),
): Promise<MutationAnswer> {
  const read = readAdmissionReview(body);
  if ('answer' in read) return read.answer;
  const req = read.request;
  const isPodCreate =
    req.resource.group === '' &&
    req.resource.resource === 'pods' &&
    !req.subResource &&
    req.operation === 'CREATE';
  if (!isPodCreate || req.object === null || req.object === undefined) return patchAnswer(req.uid, {}, {});
  const object = req.object as JsonObject;
  const spec = object.spec;
  if (!isJsonObject(object.metadata) || !isJsonObject(spec) || !Array.isArray(spec.containers))
    return refusal(req.uid, 400, 'the object is not a Pod: metadata, spec and spec.containers are required');
  const pod = object as unknown as Pod;
  const namespace = pod.metadata.namespace || req.namespace || 'default';
  let sidecarSets: SidecarSet[];
  let namespaceLabels: Record<string, string> | undefined;
  try {
    [sidecarSets, namespaceLabels] = await Promise.all([
      reads.sidecarSets(),
      reads.namespaceLabels(namespace),
    ]);
  } catch (e) {
    return refusal(
      req.uid,
      500,
      `sidecar injection could not read SidecarSets or namespace ${namespace}: ${errorMessage(e)}`,
    );
  }
  try {
    const result = injectSidecars({
      pod,
      ...(req.namespace ? { requestNamespace: req.namespace } : {}),
      namespaceLabels,
      sidecarSets,
      now,
    });
    return patchAnswer(req.uid, object, result.pod as unknown as JsonObject);
  } catch (e) {
    if (e instanceof SidecarInjectionError) return refusal(req.uid, 500, `sidecar injection: ${e.message}`);
    return refusal(req.uid, 500, `sidecar injection failed: ${errorMessage(e)}`);
  }
}
