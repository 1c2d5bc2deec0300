/**
 * The pod mutating webhook (`/mutate-pod`, OpenKruise's `mpod.kb.io`: pods CREATE): reads the SidecarSets and the pod's
 * namespace, and for a matching SidecarSet pinned by `injectionStrategy.revision` its ControllerRevision in
 * `kruise-system` (./plan/pinnedRevision.ts chooses it or the latest), asks the pure injector (./plan/inject.ts) for
 * the pod to store, and answers with the JSON Patch. This is the injection step of the pod webhook's steps
 * (lib/controllers/podMutations.ts puts it among the other controllers' in OpenKruise's `PodCreateHandler.Handle`
 * order). A pod UPDATE is left alone, as OpenKruise's update path ends at `IsPodAvailabilityChanged`, false in its
 * open-source SidecarSet control.
 */
import type { MutationAnswer } from '../../api/admission/mutation.js';
import {
  answerPodMutationReview,
  type PodMutationContext,
  type PodMutationResult,
  type PodMutationStep,
} from '../../api/admission/podMutation.js';
import type { ControllerRevision, Pod } from '../../api/types.js';
import { errorMessage } from '../../core/errors.js';
import { classifyWriteError } from '../../kube/errors.js';
import { listAll, type KubeClient } from '../../kube/index.js';
import { isNotFound } from '../../kube/index.js';
import { RESOURCES } from '../../kube/resources.js';
import { sortRevisions } from '../../podset/revision/history.js';
import {
  LABEL_SIDECARSET_CUSTOM_VERSION,
  LABEL_SIDECARSET_NAME,
  SIDECARSET_REVISION_NAMESPACE,
} from './api/keys.js';
import { NAMESPACE_RESOURCE, SIDECARSET_RESOURCE } from './api/resource.js';
import type { SidecarSet } from './api/types.js';
import type { SidecarSetSettings } from './settings.js';
import { SidecarInjectionError } from './plan/errors.js';
import { injectSidecars } from './plan/inject.js';
import { isActivePod, matchingSidecarSets } from './plan/match.js';
import { ResourcesPolicyError } from './plan/resourcesPolicy.js';
import { injectedRevision, restoreSidecarSet, revisionPin } from './plan/pinnedRevision.js';

/** The path the pod webhook is served on, as OpenKruise's. */
export const POD_MUTATE_PATH = '/mutate-pod';

/** What the webhook reads for one pod. */
export interface PodInjectionReads {
  /** Every SidecarSet; none when the resource is not served (no CRD). */
  sidecarSets(): Promise<SidecarSet[]>;
  /** The labels of namespace `name`; undefined when it does not exist. */
  namespaceLabels(name: string): Promise<Record<string, string> | undefined>;
  /** The SidecarSet ControllerRevision `name` of `kruise-system`; undefined when it does not exist. */
  revision(name: string): Promise<ControllerRevision | undefined>;
  /** The revisions of `kruise-system` labelled with the SidecarSet's name and the custom version, any order. */
  customVersionRevisions(sidecarSetName: string, customVersion: string): Promise<ControllerRevision[]>;
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
    revision(name) {
      return kube.get(RESOURCES.controllerrevisions, { namespace: SIDECARSET_REVISION_NAMESPACE, name });
    },
    async customVersionRevisions(sidecarSetName, customVersion) {
      const listed = await listAll(kube, RESOURCES.controllerrevisions, {
        namespace: SIDECARSET_REVISION_NAMESPACE,
        labelSelector: `${LABEL_SIDECARSET_NAME}=${sidecarSetName},${LABEL_SIDECARSET_CUSTOM_VERSION}=${customVersion}`,
      });
      return listed.items;
    },
  };
}

/**
 * The SidecarSets with each pinned one that matches the pod replaced by the revision to inject
 * (`getSuitableRevisionSidecarSet`, CREATE): the pinned revision is read (by name, or the newest labelled with the
 * custom version) and ./plan/pinnedRevision.ts chooses between it and the latest. SidecarSets that do not match,
 * and all of them for an inactive pod, are left as they are (upstream reads no revision for them).
 * @throws SidecarInjectionError when a pinned revision does not exist (upstream answers NotFound, a 500) or the
 *   choice fails; KubeApiError when a read fails
 */
export async function withPinnedRevisions(
  reads: PodInjectionReads,
  pod: Pod,
  namespace: string,
  namespaceLabels: Record<string, string> | undefined,
  sidecarSets: readonly SidecarSet[],
  random: () => number = Math.random,
): Promise<SidecarSet[]> {
  if (!isActivePod(pod)) return [...sidecarSets];
  const matched = new Set(matchingSidecarSets(pod, namespace, namespaceLabels, sidecarSets));
  const out: SidecarSet[] = [];
  for (const s of sidecarSets) {
    const pin = matched.has(s) ? revisionPin(s) : undefined;
    if (!pin) {
      out.push(s);
      continue;
    }
    const name = s.metadata.name ?? '';
    let revision: ControllerRevision | undefined;
    if ('revisionName' in pin) revision = await reads.revision(pin.revisionName);
    else revision = sortRevisions(await reads.customVersionRevisions(name, pin.customVersion)).at(-1);
    if (!revision)
      throw new SidecarInjectionError(
        'revisionName' in pin
          ? `controllerrevisions.apps "${pin.revisionName}" not found`
          : `ControllerRevision.apps "${name}" not found`,
      );
    out.push(injectedRevision(s, restoreSidecarSet(s, revision), pod.metadata.labels, random));
  }
  return out;
}

/** The two reads of one request every injection needs: every SidecarSet, and the labels of the pod's namespace. */
type InjectionInputs = [SidecarSet[], Record<string, string> | undefined];

/** The SidecarSet step of the pod webhook, and a step that starts its reads early: {@link sidecarSetPodSteps}. */
export interface SidecarSetPodSteps {
  /** Starts the injection's two reads for this request and hands the pod on unchanged. */
  prefetch: PodMutationStep;
  /** The injection (reads started by `prefetch` for the same request are used, else it starts them). */
  inject: PodMutationStep;
}

/**
 * SidecarSet injection as steps of the pod mutating webhook (lib/api/admission/podMutation.ts): `inject` reads the
 * SidecarSets and the pod's namespace, applies pinned revisions and the pure injector; `prefetch`, put before the
 * steps that run first (WorkloadSpread's), starts those two reads so that their round trip overlaps the earlier
 * steps' instead of following it — a stateless handler reads the API server where OpenKruise reads its informer
 * cache, so each sequential round trip adds to every pod CREATE (BENCHMARKS.md#pod-webhook). The reads are kept per
 * request (keyed by the request's context object, which `answerPodMutationReview` makes once per review), never
 * from one request to the next: steps built once (`kruiseless local`) read afresh for each pod.
 * @param now the `updateTimestamp` written into the hash annotations (default: the time of each call)
 * @param random the draw of a `Partial` injection policy with a percent partition, in [0, 1) (default `Math.random`)
 * @param settings the SidecarSet controller's settings (gate `EnableSortSidecarContainerByName`)
 * @returns steps whose `inject` refuses with code 500 a pod OpenKruise refuses (SidecarInjectionError; a
 *   ResourcesPolicyError with OpenKruise's own message, e.g. `no containers match the regex pattern "^app$"`) and when a
 *   read fails (as OpenKruise's `admission.Errored(500)`: the API server then refuses the pod, failurePolicy does not
 *   apply to an answer); `prefetch` never refuses (a failed read is answered by `inject`)
 */
export function sidecarSetPodSteps(
  reads: PodInjectionReads,
  now?: Date,
  random: () => number = Math.random,
  settings: SidecarSetSettings = {},
): SidecarSetPodSteps {
  const started = new WeakMap<PodMutationContext, Promise<InjectionInputs>>();
  const inputs = (context: PodMutationContext): Promise<InjectionInputs> => {
    let p = started.get(context);
    if (!p) {
      p = Promise.all([reads.sidecarSets(), reads.namespaceLabels(context.namespace)]);
      // a request refused by an earlier step never awaits its reads: their failure must not be unhandled
      p.catch(() => undefined);
      started.set(context, p);
    }
    return p;
  };
  return {
    prefetch: (pod, context) => {
      void inputs(context);
      return Promise.resolve({ pod });
    },
    inject: async (pod, context) => {
      const namespace = context.namespace;
      let sidecarSets: SidecarSet[];
      let namespaceLabels: Record<string, string> | undefined;
      try {
        [sidecarSets, namespaceLabels] = await inputs(context);
      } catch (e) {
        return fail(
          500,
          `sidecar injection could not read SidecarSets or namespace ${namespace}: ${errorMessage(e)}`,
        );
      }
      try {
        const injected = await withPinnedRevisions(
          reads,
          pod,
          namespace,
          namespaceLabels,
          sidecarSets,
          random,
        );
        const result = injectSidecars({
          pod,
          ...(context.requestNamespace ? { requestNamespace: context.requestNamespace } : {}),
          namespaceLabels,
          sidecarSets: injected,
          now: now ?? new Date(),
          ...(settings.sortSidecarContainersByName ? { sortContainersByName: true } : {}),
        });
        return { pod: result.pod };
      } catch (e) {
        // OpenKruise answers its own message for a resources policy (`admission.Errored(500, err)`)
        if (e instanceof ResourcesPolicyError) return fail(500, e.message);
        if (e instanceof SidecarInjectionError) return fail(500, `sidecar injection: ${e.message}`);
        if (classifyWriteError(e) !== 'notApi')
          return fail(500, `sidecar injection could not read a pinned revision: ${errorMessage(e)}`);
        return fail(500, `sidecar injection failed: ${errorMessage(e)}`);
      }
    },
  };
}

/**
 * SidecarSet injection as one step of the pod mutating webhook: {@link sidecarSetPodSteps}' `inject`, starting its
 * reads itself.
 */
export function sidecarSetPodStep(
  reads: PodInjectionReads,
  now?: Date,
  random: () => number = Math.random,
): PodMutationStep {
  return sidecarSetPodSteps(reads, now, random).inject;
}

const fail = (code: number, message: string): PodMutationResult => ({ refuse: { code, message } });

/**
 * Answers one AdmissionReview body for pods with SidecarSet injection only ({@link sidecarSetPodStep} in the frame of
 * lib/api/admission/podMutation.ts): a request that is not a pod CREATE is allowed unchanged, as upstream skips it.
 * @returns never throws: what `answerPodMutationReview` answers
 */
export function answerPodAdmission(
  body: string,
  reads: PodInjectionReads,
  now: Date = new Date(),
  random: () => number = Math.random,
): Promise<MutationAnswer> {
  return answerPodMutationReview(body, [sidecarSetPodStep(reads, now, random)]);
}
