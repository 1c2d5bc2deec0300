/**
 * The WorkloadSpread step of the pod mutating webhook (`/mutate-pod`, before SidecarSet injection as in OpenKruise's
 * `PodCreateHandler.Handle`): pkg/webhook/pod/mutating/workloadspread.go over pkg/util/workloadspread/workloadspread.go
 * `HandlePodCreation`, `isReferenceEqual` and `acquireSuitableSubset` (v1.9.0).
 *
 * For an active pod (not a dry run; gate `WorkloadSpread` on) whose controller is a CloneSet, Deployment, ReplicaSet,
 * Job or StatefulSet, or of a Kind the custom-workload whitelist of `kruise-configuration` names as a workload or a
 * sub-resource of one (./api/customWorkloads.ts; read only for such an owner, kept 10 s): the first WorkloadSpread
 * of its namespace (list order) whose `targetRef` is the pod's controller or an owner up its chain (a ReplicaSet's Deployment) and whose `targetFilter` selects it. The pure ledger
 * (./plan/ledger.ts) chooses the subset and, for a subset with a maximum, records the pod in the WorkloadSpread's
 * status, written here before answering — the API server is the ledger. A conflict re-reads the WorkloadSpread and
 * decides again, 5 attempts 10/50/250/1250 ms apart as client-go's `retry.DefaultBackoff`. A StatefulSet's pod (an
 * `apps` or `apps.kruise.io` target of Kind StatefulSet) goes to a subset by its ordinal instead, nothing recorded
 * (./plan/ordinal.ts), unless the WorkloadSpread has one subset without a maximum. The pod then gets the
 * subset's node terms, tolerations, patch and the matched-workloadspread annotation (./plan/inject.ts). A failed read
 * or write refuses the pod with code 500 (upstream's `admission.Errored(500)`).
 */
import { randomUUID } from 'node:crypto';
import type { PodMutationResult, PodMutationStep } from '../../api/admission/podMutation.js';
import { selectorMatches } from '../../api/selector.js';
import type { OwnerReference, Pod } from '../../api/types.js';
import { apiErrorMessage, isConflict, isNotFound, KubeApiError } from '../../kube/errors.js';
import { listAll } from '../../kube/list.js';
import type { KubeClient } from '../../kube/types.js';
import { controllerRef } from '../../podset/ownership.js';
import { isPodActive } from '../../podset/pods.js';
import { readWorkloadObject } from '../../kube/scaleFinder.js';
import { kruiseConfigurationEntry } from '../kruiseConfiguration.js';
import {
  CUSTOM_WORKLOAD_WHITELIST_KEY,
  isWhitelistedOwner,
  parseCustomWorkloadWhitelist,
  whitelistedReplicasPathByGroupKind,
  type CustomWorkload,
} from './api/customWorkloads.js';
import {
  groupOf,
  isStatefulTarget,
  specReplicas,
  spreadWorkloadOf,
  WORKLOADSPREAD_RESOURCE,
} from './api/resource.js';
import type { WorkloadSpread, WorkloadSpreadStatus } from './api/types.js';
import {
  decideLedger,
  hasPercentSubset,
  injectSubset,
  podVersion,
  subsetByOrdinal,
  type LedgerOperation,
} from './plan/index.js';
import { workloadSpreadEnabled, type WorkloadSpreadSettings } from './settings.js';
import { replicasAtPaths } from './plan/replicasPath.js';
import { filteredReplicas, getSpreadWorkload } from './targets.js';

/** The waits between attempts after a conflict, ms (client-go's `retry.DefaultBackoff` without its jitter). */
export const LEDGER_RETRY_MS = [10, 50, 250, 1250] as const;

/** The owner kinds whose pods the webhook looks at (upstream's `workloads`; group checked too). */
const OWNER_GROUPS: Readonly<Record<string, readonly string[]>> = {
  Deployment: ['apps'],
  CloneSet: ['apps.kruise.io'],
  ReplicaSet: ['apps'],
  Job: ['batch'],
  StatefulSet: ['apps', 'apps.kruise.io'],
};

const isWorkloadOwner = (ref: { apiVersion?: string; kind?: string }) =>
  OWNER_GROUPS[ref.kind ?? '']?.includes(groupOf(ref.apiVersion)) ?? false;

/**
 * A target's replicas could not be read at the WorkloadSpread's `targetFilter.replicasPathList`; the message is
 * upstream's (./plan/replicasPath.ts), which its pod webhook answers with HTTP 500.
 */
export class WorkloadSpreadReplicasError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkloadSpreadReplicasError';
  }
}

/** What the step reads and writes. */
export interface WorkloadSpreadWebhookDeps {
  /** The WorkloadSpreads of `namespace`; none when the resource is not served. */
  listWorkloadSpreads(namespace: string): Promise<WorkloadSpread[]>;
  /** The WorkloadSpread `name` of `namespace`; undefined when it does not exist. */
  getWorkloadSpread(namespace: string, name: string): Promise<WorkloadSpread | undefined>;
  /**
   * The owner `ref` names in `namespace` (its owner references), of a built-in kind or any kind discovery resolves;
   * undefined when not found.
   * @throws KubeApiError, UnresolvedReferenceError when it cannot be read
   */
  getOwner(
    namespace: string,
    ref: OwnerReference,
  ): Promise<{ metadata: { ownerReferences?: OwnerReference[] } } | undefined>;
  /**
   * The custom-workload whitelist of the `kruise-configuration` ConfigMap (./api/customWorkloads.ts); none when it
   * cannot be read or parsed (upstream's pod webhook then follows the built-in kinds only); absent: none. Never
   * throws.
   */
  customWorkloads?(): Promise<readonly CustomWorkload[]>;
  /**
   * The target's `spec.replicas` (a Job's `spec.parallelism`; 1 when absent; 0 when it does not exist), or the sum
   * at the WorkloadSpread's `targetFilter.replicasPathList`, for percentages; a custom workload's at its whitelisted
   * path (0 when it has none or the path cannot be read, as upstream's `GetReplicasFromCustomWorkload`).
   * @throws WorkloadSpreadReplicasError when a path cannot be read (upstream then refuses the pod with HTTP 500)
   */
  targetReplicas(ws: WorkloadSpread): Promise<number>;
  /**
   * Replace the status (its resourceVersion the precondition).
   * @throws KubeApiError: 409 Conflict when the WorkloadSpread changed since read
   */
  updateStatus(ws: WorkloadSpread, status: WorkloadSpreadStatus): Promise<WorkloadSpread>;
  settings?: WorkloadSpreadSettings;
  /** The time recorded (default: now). */
  now?: () => Date;
  /** The id recorded for a nameless pod (default: a random UUID). */
  newUid?: () => string;
  /** The wait between attempts (default: a real timer). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * How long the webhook keeps the whitelist it read, ms. Upstream reads it once per process; a change here is seen
 * within this time, and a pod of a custom owner costs one ConfigMap read per period and process, not one per pod.
 */
export const CUSTOM_WORKLOADS_TTL_MS = 10_000;

/**
 * The whitelist each cluster client last read, and when (ms): kept across the deps made per admission request (the
 * admission function makes them per request over the cluster's one client).
 */
const keptWhitelists = new WeakMap<object, { at: number; whitelist: readonly CustomWorkload[] }>();

/** {@link WorkloadSpreadWebhookDeps} over the API server: quorum reads (upstream reads its cache) and a status PUT. */
export function kubeWorkloadSpreadWebhookDeps(
  kube: Pick<KubeClient, 'get' | 'list' | 'replace' | 'serverResources'>,
  settings?: WorkloadSpreadSettings,
  now: () => number = Date.now,
): WorkloadSpreadWebhookDeps {
  const customWorkloads = async (): Promise<readonly CustomWorkload[]> => {
    const kept = keptWhitelists.get(kube);
    if (kept && now() - kept.at < CUSTOM_WORKLOADS_TTL_MS) return kept.whitelist;
    try {
      const whitelist = parseCustomWorkloadWhitelist(
        await kruiseConfigurationEntry(kube, CUSTOM_WORKLOAD_WHITELIST_KEY),
      );
      keptWhitelists.set(kube, { at: now(), whitelist });
      return whitelist;
    } catch {
      return [];
    }
  };
  return {
    customWorkloads,
    async listWorkloadSpreads(namespace) {
      try {
        return (await listAll(kube, WORKLOADSPREAD_RESOURCE, { namespace })).items;
      } catch (e) {
        if (isNotFound(e)) return [];
        throw e;
      }
    },
    getWorkloadSpread: (namespace, name) => kube.get(WORKLOADSPREAD_RESOURCE, { namespace, name }),
    async getOwner(namespace, ref) {
      if (!spreadWorkloadOf(ref)) return readWorkloadObject(kube, namespace, ref);
      const found = await getSpreadWorkload(kube, namespace, ref);
      return found?.object;
    },
    async targetReplicas(ws) {
      const ref = ws.spec.targetRef;
      if (!ref) return 0;
      if (!spreadWorkloadOf(ref)) return customTargetReplicas(kube, ws, ref, await customWorkloads());
      const found = await getSpreadWorkload(kube, ws.metadata.namespace ?? '', ref);
      if (!found) return 0;
      const counted = filteredReplicas(ws, found.object, specReplicas(found.kind, found.object));
      if ('error' in counted) throw new WorkloadSpreadReplicasError(counted.error);
      return counted.replicas;
    },
    updateStatus: (ws, status) =>
      kube.replace(WORKLOADSPREAD_RESOURCE, { ...ws, status }, { subresource: 'status' }),
    ...(settings ? { settings } : {}),
  };
}

/**
 * A custom target's replicas for percentages (upstream's `getWorkloadReplicas` over an unstructured object): 0 when
 * it does not exist; the sum at `targetFilter.replicasPathList` when set; else at its whitelisted path (group and
 * Kind), 0 when it has none or it cannot be read.
 * @throws WorkloadSpreadReplicasError when a `targetFilter` path cannot be read; UnresolvedReferenceError,
 *   KubeApiError when the object cannot be read
 */
async function customTargetReplicas(
  kube: Pick<KubeClient, 'get' | 'serverResources'>,
  ws: WorkloadSpread,
  ref: { apiVersion: string; kind: string; name: string },
  whitelist: readonly CustomWorkload[],
): Promise<number> {
  const object = await readWorkloadObject(kube, ws.metadata.namespace ?? '', ref);
  if (!object) return 0;
  const paths = ws.spec.targetFilter?.replicasPathList ?? [];
  if (paths.length > 0) {
    const counted = replicasAtPaths(object, paths);
    if ('error' in counted) throw new WorkloadSpreadReplicasError(counted.error);
    return counted.replicas;
  }
  const path = whitelistedReplicasPathByGroupKind(whitelist, ref);
  if (path === undefined) return 0;
  const counted = replicasAtPaths(object, [path]);
  return 'error' in counted ? 0 : counted.replicas;
}

/**
 * Whether `target` is `owner` or an owner up its controller chain (upstream's `isReferenceEqual`: group, Kind and
 * name compared; only workload owners are followed).
 * @throws KubeApiError when an owner cannot be read; a NotFound owner as KubeApiError 404 (upstream refuses the pod)
 */
async function refersTo(
  deps: WorkloadSpreadWebhookDeps,
  namespace: string,
  target: { apiVersion: string; kind: string; name: string },
  owner: OwnerReference | undefined,
  whitelist: readonly CustomWorkload[],
): Promise<boolean> {
  for (let depth = 0; owner && depth < 8; depth++) {
    if (
      groupOf(target.apiVersion) === groupOf(owner.apiVersion) &&
      target.kind === owner.kind &&
      target.name === owner.name
    )
      return true;
    if (!isWorkloadOwner(owner) && !isWhitelistedOwner(whitelist, owner)) return false;
    const object = await deps.getOwner(namespace, owner);
    if (!object)
      // a missing owner refuses the pod, as upstream's failed GET
      throw new KubeApiError(
        `get ${owner.kind} ${owner.name}`,
        404,
        'NotFound',
        `${owner.kind} "${owner.name}" not found`,
      );
    owner = controllerRef(object.metadata.ownerReferences);
  }
  return false;
}

/** The WorkloadSpread that takes `pod`, or undefined (see the module doc). */
async function matchingWorkloadSpread(
  deps: WorkloadSpreadWebhookDeps,
  namespace: string,
  pod: Pod,
  owner: OwnerReference,
  whitelist: readonly CustomWorkload[],
): Promise<WorkloadSpread | undefined> {
  for (const ws of await deps.listWorkloadSpreads(namespace)) {
    const target = ws.spec?.targetRef;
    if (!target || ws.metadata.deletionTimestamp) continue;
    let refers: boolean;
    try {
      refers = await refersTo(deps, namespace, target, owner, whitelist);
    } catch (e) {
      if (isNotFound(e)) throw e;
      continue;
    }
    // upstream's `IsPodSelected`: no filter selects every pod, a filter without a selector none (labels.Nothing)
    const filter = ws.spec.targetFilter;
    let selected: boolean;
    try {
      selected = !filter || (!!filter.selector && selectorMatches(filter.selector, pod.metadata.labels));
    } catch {
      continue;
    }
    if (refers && selected) return ws;
  }
  return undefined;
}

/**
 * The subset for `pod` with its record written (see the module doc); for a deletion or eviction, the record of the
 * pod leaving `podSubset`.
 * @returns the subset's name ('' for none) and the generated uid ('' for none)
 * @throws KubeApiError when a read or the last write fails
 */
export async function acquireSubset(
  deps: WorkloadSpreadWebhookDeps,
  first: WorkloadSpread,
  pod: Pod,
  operation: LedgerOperation = 'Create',
  podSubset?: string,
): Promise<{ subset: string; uid: string; ws: WorkloadSpread }> {
  const subsets = first.spec.subsets;
  const single = subsets.length === 1 && subsets[0]?.maxReplicas === undefined;
  if (isStatefulTarget(first.spec.targetRef) && !single)
    return { subset: subsetByOrdinal(first, pod) ?? '', uid: '', ws: first };
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const namespace = first.metadata.namespace ?? '';
  let ws: WorkloadSpread | undefined = first;
  const version = podVersion(pod);
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) {
      await sleep(LEDGER_RETRY_MS[attempt - 1] ?? 0);
      ws = await deps.getWorkloadSpread(namespace, first.metadata.name ?? '');
      if (!ws) return { subset: '', uid: '', ws: first };
    }
    const needsReplicas =
      hasPercentSubset(ws) && (ws.status?.versionedSubsetStatuses?.[version]?.length ?? 0) === 0;
    const decision = decideLedger({
      ws,
      operation,
      podName: pod.metadata.name ?? '',
      ...(podSubset !== undefined ? { podSubset } : {}),
      version,
      replicas: needsReplicas ? await deps.targetReplicas(ws) : 0,
      now: (deps.now ?? (() => new Date()))(),
      newUid: (deps.newUid ?? randomUUID)(),
    });
    if (!decision.status) return { subset: decision.subset ?? '', uid: decision.uid, ws };
    try {
      await deps.updateStatus(ws, decision.status);
      return { subset: decision.subset ?? '', uid: decision.uid, ws };
    } catch (e) {
      if (!isConflict(e) || attempt >= LEDGER_RETRY_MS.length) throw e;
    }
  }
}

const refuse500 = (e: unknown): PodMutationResult => ({
  refuse: { code: 500, message: apiErrorMessage(e) },
});

/**
 * The WorkloadSpread step of `/mutate-pod` (see the module doc).
 * @returns a step that hands the pod on unchanged when no WorkloadSpread takes it, and refuses with code 500 when a
 *   read or the ledger write fails
 */
export function workloadSpreadPodStep(deps: WorkloadSpreadWebhookDeps): PodMutationStep {
  return async (pod, context) => {
    if (!workloadSpreadEnabled(deps.settings ?? {}) || context.dryRun || !isPodActive(pod)) return { pod };
    const owner = controllerRef(pod.metadata.ownerReferences);
    if (!owner) return { pod };
    // the whitelist is read only for an owner of another kind
    const builtIn = isWorkloadOwner(owner);
    const whitelist = builtIn ? [] : ((await deps.customWorkloads?.()) ?? []);
    if (!builtIn && !isWhitelistedOwner(whitelist, owner)) return { pod };
    try {
      const ws = await matchingWorkloadSpread(deps, context.namespace, pod, owner, whitelist);
      if (!ws) return { pod };
      const { subset, uid, ws: latest } = await acquireSubset(deps, ws, pod);
      if (subset === '') return { pod };
      return { pod: injectSubset(latest, pod, subset, uid) ?? pod };
    } catch (e) {
      return refuse500(e);
    }
  };
}
