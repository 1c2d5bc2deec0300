/**
 * OpenKruise: pkg/controller/daemonset/daemonset_controller.go `getDaemonPods` (`ClaimPods` with the DaemonSet's
 * selector) and daemonset_history.go `controlledHistories` (`ClaimControllerRevisions`).
 *
 * A DaemonSet takes the orphans its selector matches: pods and ControllerRevisions of its namespace without a
 * controller reference — what a DaemonSet deleted with `--cascade=orphan` leaves, the way to change its immutable
 * selector — get its controller reference before the pass plans, so the DaemonSet created again keeps the pods and
 * the revision it finds instead of adding a second pod per node (and instead of failing on its revision's name, taken
 * by the orphan, with AlreadyExists on every pass). A pod it controls that its selector no longer matches is released,
 * as upstream. Nothing is adopted or released while the DaemonSet is being deleted, nor with an empty or invalid
 * selector (the pass reports that instead), nor with one its template's labels do not match. A finished or terminating orphan pod is not adopted.
 * Before its first adoption a pass reads the DaemonSet again (a quorum GET) and adopts nothing if it is gone, being
 * deleted or another object by now, as upstream's `RecheckDeletionTimestamp`: the pass read the DaemonSet before its
 * pods, and a `--cascade=orphan` delete in between leaves orphans that must not get the deleted set's reference back
 * (the garbage collector would then delete them). The pass then plans nothing from that read (`withdrawn`): without the
 * orphans it would see nodes without a pod and create pods for the deleted set, which the garbage collector removes
 * before any later pass sees them.
 */
import { isEmptySelector, selectorMatches } from '../../api/selector.js';
import type { ControllerRevision, OwnerReference, Pod } from '../../api/types.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import { claimPods, controllerRef, isAdoption, newControllerRef } from '../../podset/ownership.js';
import { ownerRecheck } from '../../reconcile/pods/ownerRecheck.js';
import { writePodPatch } from '../../reconcile/pods/patchPod.js';
import { DAEMONSET_API_VERSION, DAEMONSET_KIND_NAME, DAEMONSET_RESOURCE } from './api/resource.js';
import type { DaemonSet } from './api/types.js';

/** The DaemonSet's pods and revisions after the claim, and the writes it made. */
export interface Claimed {
  /** Every pod it controls now (any phase, terminating included), adopted ones with its reference added. */
  pods: Pod[];
  /** Every ControllerRevision it controls now. */
  revisions: ControllerRevision[];
  /** Pod and revision writes made (adoptions and releases). */
  writes: number;
  /**
   * The read again before the first adoption found the DaemonSet gone, being deleted or another object: nothing was
   * adopted, and the pass must not plan from this read (its orphans look like nodes without a pod). Upstream's
   * `ClaimPods` then fails the sync.
   */
  withdrawn?: true;
}

/** `o` with `ref` added to its owner references. */
function withOwner<T extends Pod | ControllerRevision>(o: T, ref: OwnerReference): T {
  return { ...o, metadata: { ...o.metadata, ownerReferences: [...(o.metadata.ownerReferences ?? []), ref] } };
}

/**
 * The selector when the DaemonSet may claim with it: not being deleted, its selector set, valid, not empty, and
 * matching the template's labels — OpenKruise's validating webhook refuses a DaemonSet whose selector does not, and
 * Kruiseless serves no such webhook: claiming with it would release every pod the DaemonSet creates and create it
 * again, pass after pass.
 */
function claimSelector(ds: DaemonSet): DaemonSet['spec']['selector'] | undefined {
  const selector = ds.spec.selector;
  if (ds.metadata.deletionTimestamp || !selector || isEmptySelector(selector)) return undefined;
  try {
    if (!selectorMatches(selector, ds.spec.template.metadata?.labels)) return undefined;
  } catch {
    return undefined; // an invalid selector claims nothing
  }
  return selector;
}

/**
 * Claim `listed` — the namespace's pods and ControllerRevisions that the DaemonSet controls or that have no
 * controller — for `ds` (see the module doc): orphans it selects are adopted (a strategic-merge patch of the pod with
 * its UID as precondition; a revision replaced at its read resourceVersion with the reference added), pods it controls
 * and no longer selects are released.
 * @returns what it controls now
 * @throws KubeApiError when an adoption or release fails (the pass fails and is retried with backoff)
 */
export async function claimOrphans(
  kube: Pick<KubeClient, 'get' | 'patch' | 'replace' | 'serverVersion'>,
  ds: DaemonSet,
  listed: { pods: readonly Pod[]; revisions: readonly ControllerRevision[] },
): Promise<Claimed> {
  const uid = ds.metadata.uid ?? '';
  const namespace = ds.metadata.namespace ?? '';
  const owned = <T extends Pod | ControllerRevision>(o: T) =>
    !!uid && controllerRef(o.metadata.ownerReferences)?.uid === uid;
  const selector = claimSelector(ds);
  if (!selector)
    return { pods: listed.pods.filter(owned), revisions: listed.revisions.filter(owned), writes: 0 };
  const ref = newControllerRef(DAEMONSET_API_VERSION, DAEMONSET_KIND_NAME, ds);
  let writes = 0;
  /** Whether the DaemonSet may still adopt: read again once, before the first adoption (see the module doc). */
  const mayAdopt = ownerRecheck(kube, DAEMONSET_RESOURCE, ds);

  const { claimed, actions } = claimPods(
    { controllerRef: ref, selector, deleting: false, includeInactive: true },
    [...listed.pods],
  );
  const adopted = new Set<string>();
  const refused = new Set<string>();
  let withdrawn = false;
  for (const a of actions) {
    if (a.type !== 'PatchPod') continue;
    const adoption = isAdoption(a);
    if (adoption && !(await mayAdopt())) {
      refused.add(a.pod.name);
      withdrawn = true;
      continue;
    }
    writes += (await writePodPatch(kube, namespace, a)).writes;
    if (adoption) adopted.add(a.pod.name);
  }
  const pods = claimed
    .filter((p) => !refused.has(p.metadata.name ?? ''))
    .map((p) => (adopted.has(p.metadata.name ?? '') ? withOwner(p, ref) : p));

  const revisions: ControllerRevision[] = [];
  for (const r of listed.revisions) {
    if (owned(r)) {
      revisions.push(r);
      continue;
    }
    if (controllerRef(r.metadata.ownerReferences) || !selectorMatches(selector, r.metadata.labels)) continue;
    if (!(await mayAdopt())) {
      withdrawn = true;
      continue;
    }
    const taken = withOwner(r, ref);
    await kube.replace(RESOURCES.controllerrevisions, taken);
    writes++;
    revisions.push(taken);
  }
  return { pods, revisions, writes, ...(withdrawn ? { withdrawn: true as const } : {}) };
}
