/**
 * OpenKruise: pkg/util/controllerfinder/controller_finder.go (`verifyGroupKind`, the finders' kinds),
 * pkg/control/pubcontrol/pub_control_utils.go `IsReferenceEqual` and
 * pkg/controller/podunavailablebudget/pub_pod_event_handler.go `GetPubForPod` (v1.9.0).
 *
 * Which workload a reference names, and which PUB covers a pod: pure decisions over objects already read.
 */
import type { LabelSelector, Pod } from '../../../api/types.js';
import { isEmptySelector, selectorMatches } from '../../../api/selector.js';
import { PUB_WORKLOAD_RESOURCES, type PubWorkloadKind } from '../api/resource.js';
import type { PodUnavailableBudget, PubTargetReference } from '../api/types.js';

/** The group of an apiVersion (`apps/v1` → `apps`, `v1` → `''`). */
export function groupOf(apiVersion: string | undefined): string {
  const v = apiVersion ?? '';
  const slash = v.indexOf('/');
  return slash < 0 ? '' : v.slice(0, slash);
}

/**
 * The workload kind a reference names, by group and Kind (the version is ignored, as `verifyGroupKind`); undefined
 * for any other kind (then read through its scale subresource, lib/kube/scaleFinder.ts, as OpenKruise does).
 */
export function workloadKindOf(
  apiVersion: string | undefined,
  kind: string | undefined,
): PubWorkloadKind | undefined {
  const group = groupOf(apiVersion);
  for (const [key, r] of Object.entries(PUB_WORKLOAD_RESOURCES) as [
    PubWorkloadKind,
    (typeof PUB_WORKLOAD_RESOURCES)[PubWorkloadKind],
  ][]) {
    if (r.group === group && r.kind === kind) return key;
  }
  return undefined;
}

/** Whether two references name the same object: same group (any version), Kind and name. */
export function isReferenceEqual(a: PubTargetReference, b: PubTargetReference): boolean {
  return groupOf(a.apiVersion) === groupOf(b.apiVersion) && a.kind === b.kind && a.name === b.name;
}

/** Whether a PUB's selector picks `labels`: an absent or empty selector picks nothing; an invalid one nothing. */
export function pubSelectorMatches(
  selector: LabelSelector | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  if (!selector || isEmptySelector(selector)) return false;
  try {
    return selectorMatches(selector, labels);
  } catch {
    return false;
  }
}

/**
 * The PUB that covers a pod: the first of `pubs` (list order) whose `targetRef` names the pod's workload, or, for a
 * PUB without `targetRef` (or when the pod's workload is unknown), whose selector matches the pod's labels.
 * @param workload the pod's top workload (a Deployment for a ReplicaSet's pod), undefined when it has none known
 */
export function pubForPod(
  pubs: readonly PodUnavailableBudget[],
  pod: Pick<Pod, 'metadata'>,
  workload: PubTargetReference | undefined,
): PodUnavailableBudget | undefined {
  for (const pub of pubs) {
    const ref = pub.spec?.targetRef;
    if (ref && workload) {
      if (isReferenceEqual(workload, ref)) return pub;
    } else if (pubSelectorMatches(pub.spec?.selector, pod.metadata.labels)) return pub;
  }
  return undefined;
}
