/**
 * The pod mutating webhook's frame (`/mutate-pod`, OpenKruise's `mpod.kb.io`): pkg/webhook/pod/mutating/
 * pod_create_update_handler.go `PodCreateHandler.Handle` (v1.9.0). It reads a pod CREATE, runs the steps each
 * controller contributes in OpenKruise's order (WorkloadSpread before SidecarSet injection, …) on one pod, each step
 * seeing the previous one's result, and answers with one JSON Patch from the pod sent to the pod the last step
 * returned. A step that refuses ends the chain with its refusal (upstream's `admission.Errored`). The steps come from
 * the registry's caller (lib/local, the admission function); this frame names no kind.
 */
import { isJsonObject, type JsonObject, type Pod } from '../types.js';
import {
  patchAnswer,
  readAdmissionReview,
  refusal,
  type AdmissionRequest,
  type MutationAnswer,
} from './mutation.js';

/** What a step knows of the request besides the pod. */
export interface PodMutationContext {
  /** The pod's namespace: its own, else the request's, else `default`. */
  namespace: string;
  /** The request's namespace, when it has one. */
  requestNamespace?: string;
  /** The create is a dry run (`dryRun` or `options.dryRun` set): nothing may be written. */
  dryRun: boolean;
}

/** A step's outcome: the pod to hand on (the same object when unchanged), or a refusal of the pod. */
export type PodMutationResult = { pod: Pod } | { refuse: { code: number; message: string } };

/**
 * One controller's part of pod creation.
 * @returns never rejects for what OpenKruise answers with a refusal; a rejection is answered as a 500 refusal
 */
export type PodMutationStep = (pod: Pod, context: PodMutationContext) => Promise<PodMutationResult>;

function dryRunOf(body: string): boolean {
  const request = (JSON.parse(body) as { request?: { dryRun?: unknown; options?: unknown } }).request ?? {};
  const options = isJsonObject(request.options) ? request.options : {};
  return request.dryRun === true || (Array.isArray(options.dryRun) && options.dryRun.length > 0);
}

function isPodCreate(req: AdmissionRequest): boolean {
  return (
    req.resource.group === '' &&
    req.resource.resource === 'pods' &&
    !req.subResource &&
    req.operation === 'CREATE'
  );
}

/**
 * Answers one AdmissionReview body for pods with `steps` in order. A request that is not a pod CREATE (another
 * resource, a subresource, another operation) or without an object is allowed unchanged.
 * @returns never throws: 400/413 for a body that is not an AdmissionReview v1; 200 with a refusal, code 400, for an
 *   object that is not a pod; a step's refusal; a 500 refusal when a step throws; else 200 allowed, with the patch
 *   when a step changed the pod
 */
export async function answerPodMutationReview(
  body: string,
  steps: readonly PodMutationStep[],
): Promise<MutationAnswer> {
  const read = readAdmissionReview(body);
  if ('answer' in read) return read.answer;
  const req = read.request;
  if (!isPodCreate(req) || req.object === null || req.object === undefined)
    return patchAnswer(req.uid, {}, {});
  const object = req.object as JsonObject;
  const spec = object.spec;
  if (!isJsonObject(object.metadata) || !isJsonObject(spec) || !Array.isArray(spec.containers))
    return refusal(req.uid, 400, 'the object is not a Pod: metadata, spec and spec.containers are required');
  let pod = object as unknown as Pod;
  const context: PodMutationContext = {
    namespace: pod.metadata.namespace || req.namespace || 'default',
    ...(req.namespace ? { requestNamespace: req.namespace } : {}),
    dryRun: dryRunOf(body),
  };
  for (const step of steps) {
    let result: PodMutationResult;
    try {
      result = await step(pod, context);
    } catch (e) {
      return refusal(req.uid, 500, e instanceof Error ? e.message : String(e));
    }
    if ('refuse' in result) return refusal(req.uid, result.refuse.code, result.refuse.message);
    pod = result.pod;
  }
  return patchAnswer(req.uid, object, pod as unknown as JsonObject);
}
