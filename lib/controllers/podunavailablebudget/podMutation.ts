/**
 * The PodUnavailableBudget step of the pod mutating webhook (`/mutate-pod`, after container launch priority as in
 * OpenKruise v1.9.0's `PodCreateHandler.Handle`): pkg/webhook/pod/mutating/pod_unavailable_budget.go `pubMutatingPod`
 * over pkg/controller/podunavailablebudget/pub_pod_event_handler.go `GetPubForPod`.
 *
 * When either PUB gate is on (`PodUnavailableBudgetDeleteGate`, on by default, or `PodUnavailableBudgetUpdateGate`),
 * a new pod is annotated with the PUB that covers it — `pub.kruise.io/related-pub` and the older
 * `kruise.io/related-pub`, as upstream's `SetPodRelatedPubAnnotation` — so the budget protects it from its first
 * moment, and the PUB's pass has no pod to mark. The PUB is the first of its namespace's PUBs (list order) whose
 * `targetRef` names the pod's workload (its controller; a ReplicaSet's Deployment), else whose selector matches the
 * pod (./plan/targets.ts `pubForPod`). As upstream, a pod is never refused here: a failed LIST of the PUBs leaves the
 * pod as it is (upstream logs it and goes on), and a failed read of the workload only leaves `targetRef` unmatched.
 * Reads: one LIST of the namespace's PUBs per pod create (upstream's informer cache answers it), and, when the
 * namespace has a PUB and the pod a controller, one GET of the controller (two for a ReplicaSet's Deployment).
 */
import type { PodMutationContext, PodMutationStep } from '../../api/admission/podMutation.js';
import { ANNOTATION_RELATED_PUB, ANNOTATION_RELATED_PUB_DEPRECATED } from './api/keys.js';
import type { PodUnavailableBudget } from './api/types.js';
import { pubOfNewPod, type PubMutationReads } from './podPub.js';
import { pubControllerEnabled, type PubSettings } from './settings.js';

export { kubePubMutationReads, pubOfNewPod, type PubMutationReads } from './podPub.js';

/** The PUB step of `/mutate-pod` in two parts: the prefetch runs first, the annotation in OpenKruise's place. */
export interface PubPodSteps {
  /** Starts the LIST of the pod's namespace's budgets, so that it overlaps the other steps; the pod unchanged. */
  prefetch: PodMutationStep;
  /** Annotates the pod with the PUB that covers it, if one does (see the module doc). */
  annotate: PodMutationStep;
}

/**
 * The PUB step of `/mutate-pod`, as two steps around the others (as SidecarSet injection's reads): the LIST of the
 * namespace's budgets starts with the request and is awaited where upstream runs the step. Both steps never refuse
 * and never reject. Built once, they read afresh for each request (keyed by its context).
 * @param settings the PUB gates (absent: OpenKruise's defaults, the delete gate on)
 */
export function pubPodSteps(reads: PubMutationReads, settings: PubSettings = {}): PubPodSteps {
  const enabled = pubControllerEnabled(settings);
  const started = new WeakMap<PodMutationContext, Promise<PodUnavailableBudget[]>>();
  const pubsOf = (context: PodMutationContext): Promise<PodUnavailableBudget[]> => {
    let p = started.get(context);
    if (!p) {
      p = reads.pubs(context.namespace);
      // a request refused by an earlier step never awaits the LIST: its failure must not be unhandled
      p.catch(() => undefined);
      started.set(context, p);
    }
    return p;
  };
  return {
    prefetch: (pod, context) => {
      if (enabled) void pubsOf(context);
      return Promise.resolve({ pod });
    },
    annotate: async (pod, context) => {
      if (!enabled) return { pod };
      let pub: PodUnavailableBudget | undefined;
      try {
        pub = await pubOfNewPod({ ...reads, pubs: () => pubsOf(context) }, pod, context.namespace);
      } catch {
        // upstream: the error is logged and the pod created as it came
        return { pod };
      }
      const name = pub?.metadata.name;
      if (!name) return { pod };
      return {
        pod: {
          ...pod,
          metadata: {
            ...pod.metadata,
            annotations: {
              ...pod.metadata.annotations,
              [ANNOTATION_RELATED_PUB]: name,
              [ANNOTATION_RELATED_PUB_DEPRECATED]: name,
            },
          },
        },
      };
    },
  };
}
