/**
 * What the next Advanced DaemonSet pass would do, without doing it: the pass's own reads (./pass.ts: the stored
 * expectations, the DaemonSet, its pods and ControllerRevisions with the orphans it selects, the Nodes) and its own
 * planning step ({@link readNodesAndPlan}), with no lease taken and nothing written — the orphans it would adopt are
 * claimed in memory only. The read side of `kruiseless plan ds/<name>` (docs/cli.md#plan).
 */
import { ownExpectations } from '../../reconcile/pods/expectationsOwner.js';
import type { Node } from '../../api/node.js';
import type { ControllerRevision, Pod } from '../../api/types.js';
import { namespaceOf, type ObjectKey } from '../../core/objectKey.js';
import type { KubeClient } from '../../kube/types.js';
import { resizeWriteFor, type ResizeWrite } from '../../reconcile/pods/patchPod.js';
import {
  EXPECTATION_TIMEOUT_SECONDS,
  isSatisfied,
  observeExpectations,
  type ObservedExpectations,
} from '../../reconcile/pods/observeExpectations.js';
import { claimOrphans } from './adopt.js';
import { DAEMONSET_RESOURCE } from './api/resource.js';
import type { DaemonSet } from './api/types.js';
import { listOwnedOrOrphan, readNodesAndPlan, type PassDeps } from './pass.js';
import type { DaemonSetPlan } from './plan/index.js';

/** What a preview reads: a pass's reads and planner options, without the lease and the logger. */
export type DaemonSetPreviewDeps = Pick<
  PassDeps,
  'kube' | 'expectations' | 'clock' | 'options' | 'expectationTimeoutSeconds' | 'newSuffix'
>;

/** The inputs of the next pass and its plan. */
export interface DaemonSetPassPreview {
  ds: DaemonSet;
  /** The pods it controls after the claim (orphans it would adopt included). */
  pods: Pod[];
  revisions: ControllerRevision[];
  nodes: Node[];
  /** Pod and revision writes the claim would make (adoptions and releases), before the plan. */
  claimWrites: number;
  /** The stored expectations as the next pass would observe them (nothing is written back). */
  observed: ObservedExpectations;
  /** Whether pending expectations stop the pass before it plans (then it writes nothing but the claim). */
  waiting: boolean;
  /** What the planner plans on these reads (what the pass executes unless `waiting`). */
  plan: DaemonSetPlan;
  /** How an in-place cpu/memory change is written on this API server (its version, as the pass reads it). */
  resizeWrite: ResizeWrite;
}

/**
 * `kube` with its writes left out: a PATCH answers the object as read, a PUT the object sent. For the claim of a
 * preview, whose writes are only counted.
 */
function withoutWrites(
  kube: DaemonSetPreviewDeps['kube'],
): Pick<KubeClient, 'get' | 'patch' | 'replace' | 'serverVersion'> {
  return {
    get: (resource, ref) => kube.get(resource, ref),
    serverVersion: () => kube.serverVersion(),
    patch: async (resource, ref) => {
      const o = await kube.get(resource, ref);
      if (!o) throw new Error(`${ref.name} is gone`);
      return o;
    },
    replace: (_resource, object) => Promise.resolve(object),
  };
}

/**
 * Read the inputs of the next pass over `key` and plan it, read-only (the module doc).
 * @returns undefined when the DaemonSet does not exist
 * @throws KubeApiError when a read fails; StateStoreError when the state table cannot be read
 */
export async function previewDaemonSetPass(
  deps: DaemonSetPreviewDeps,
  key: ObjectKey,
): Promise<DaemonSetPassPreview | undefined> {
  const namespace = namespaceOf(key);
  const stored = await deps.expectations.get(key);
  const ds = await deps.kube.get(DAEMONSET_RESOURCE, { namespace, name: key.name });
  if (!ds) return undefined;
  const listed = await listOwnedOrOrphan(deps.kube, namespace, ds.metadata.uid ?? '');
  const claimed = await claimOrphans(withoutWrites(deps.kube), ds, listed);
  const observed = observeExpectations(
    ownExpectations(stored, ds.metadata.uid ?? ''),
    claimed.pods,
    [],
    deps.clock(),
    (deps.expectationTimeoutSeconds ?? EXPECTATION_TIMEOUT_SECONDS) * 1000,
  );
  const [{ nodes, plan }, version] = await Promise.all([
    readNodesAndPlan(deps, ds, claimed.pods, claimed.revisions, observed.pending.backoffs),
    deps.kube.serverVersion(),
  ]);
  return {
    ds,
    pods: claimed.pods,
    revisions: claimed.revisions,
    nodes,
    claimWrites: claimed.writes,
    observed,
    waiting: !isSatisfied(observed.pending),
    plan,
    resizeWrite: resizeWriteFor(version),
  };
}
