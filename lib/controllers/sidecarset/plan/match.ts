/**
 * Which SidecarSets a pod at creation gets, and in which order (OpenKruise: the SidecarSet loop of
 * `sidecarsetMutatingPod` in `pkg/webhook/pod/mutating/sidecarset.go`, `PodMatchedSidecarSet` and `IsActivePod` in
 * `pkg/control/sidecarcontrol/util.go`, and the namespace field index `IndexSidecarSetV1Beta1` in
 * `pkg/util/fieldindex/register.go`). Pure.
 */
import { isEmptySelector, selectorMatches } from '../../../api/selector.js';
import type { LabelSelector, Pod } from '../../../api/types.js';
import { errorMessage } from '../../../core/errors.js';
import { LABEL_METADATA_NAME } from '../api/keys.js';
import { canaryBase } from '../api/validationConflict.js';
import type { SidecarSet } from '../api/types.js';
import { SidecarInjectionError } from './errors.js';

/** `IsActivePod`: not Succeeded, not Failed, not being deleted. */
export function isActivePod(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/**
 * The namespace selector a SidecarSet applies, as OpenKruise's v1beta1 object has it after conversion
 * (`sidecarset_conversion.go`): a v1alpha1 `namespace` wins and becomes `kubernetes.io/metadata.name: <namespace>`.
 */
export function effectiveNamespaceSelector(sidecarSet: SidecarSet): LabelSelector | undefined {
  if (sidecarSet.spec.namespace) return { matchLabels: { [LABEL_METADATA_NAME]: sidecarSet.spec.namespace } };
  return sidecarSet.spec.namespaceSelector ?? undefined;
}

/**
 * The namespaces the namespace field index lists the SidecarSet under: those its namespace selector pins with
 * `kubernetes.io/metadata.name` (by `matchLabels`, or else an `In` expression); undefined for the cluster-scope
 * entry. OpenKruise lists a pod's namespace entry first, then the cluster-scope one.
 */
function indexedNamespaces(sidecarSet: SidecarSet): readonly string[] | undefined {
  const selector = effectiveNamespaceSelector(sidecarSet);
  if (!selector) return undefined;
  const pinned = selector.matchLabels?.[LABEL_METADATA_NAME];
  if (pinned !== undefined) return [pinned];
  const expression = (selector.matchExpressions ?? []).find(
    (e) => e.key === LABEL_METADATA_NAME && e.operator === 'In',
  );
  return expression ? (expression.values ?? []) : undefined;
}

function matches(selector: LabelSelector, labels: Record<string, string> | undefined, what: string): boolean {
  try {
    return selectorMatches(selector, labels);
  } catch (e) {
    throw new SidecarInjectionError(`${what}: ${errorMessage(e)}`);
  }
}

/**
 * `PodMatchedSidecarSet`: the namespace selector (if any) matches the namespace's labels — a namespace that cannot be
 * read matches none — and the pod selector is non-empty and matches the pod's labels.
 * @param namespaceLabels the labels of the pod's namespace; undefined when it could not be read
 * @throws SidecarInjectionError for an invalid pod selector (an invalid namespace selector matches nothing, as upstream)
 */
export function podMatchesSidecarSet(
  pod: Pod,
  namespaceLabels: Record<string, string> | undefined,
  sidecarSet: SidecarSet,
): boolean {
  const nsSelector = effectiveNamespaceSelector(sidecarSet);
  if (nsSelector) {
    if (!namespaceLabels) return false;
    try {
      if (!selectorMatches(nsSelector, namespaceLabels)) return false;
    } catch {
      return false;
    }
  }
  const selector = sidecarSet.spec.selector;
  if (!selector || isEmptySelector(selector)) return false;
  return matches(selector, pod.metadata.labels, `SidecarSet ${sidecarSet.metadata.name ?? ''} spec.selector`);
}

/**
 * The SidecarSets injected into `pod`, in injection order: those not paused (`injectionStrategy.paused`) that match
 * (see {@link podMatchesSidecarSet}); first those the namespace index lists under the pod's namespace, then the
 * cluster-scoped ones; a SidecarSet that a matching canary SidecarSet names as its base (annotations
 * `apps.kruise.io/sidecarset-canary: "true"` and `apps.kruise.io/sidecarset-base`, upstream `IsCanarySidecarSet`) is
 * left out. Upstream the order inside each group is the informer index's (Go map order, i.e. random); here it is by
 * name, so that it is stable.
 * @param namespace the pod's namespace (`default` when the pod has none)
 * @throws SidecarInjectionError for an invalid pod selector of a SidecarSet that is otherwise a candidate
 */
export function matchingSidecarSets(
  pod: Pod,
  namespace: string,
  namespaceLabels: Record<string, string> | undefined,
  sidecarSets: readonly SidecarSet[],
): SidecarSet[] {
  const byName = (a: SidecarSet, b: SidecarSet): number =>
    (a.metadata.name ?? '') < (b.metadata.name ?? '')
      ? -1
      : (a.metadata.name ?? '') > (b.metadata.name ?? '')
        ? 1
        : 0;
  const candidates = sidecarSets.filter((s) => s.spec.injectionStrategy?.paused !== true);
  const local = candidates.filter((s) => indexedNamespaces(s)?.includes(namespace) === true).sort(byName);
  const cluster = candidates.filter((s) => indexedNamespaces(s) === undefined).sort(byName);
  const matched = [...local, ...cluster].filter((s) => podMatchesSidecarSet(pod, namespaceLabels, s));
  // a canary SidecarSet that matches takes its base's place (upstream: `baseSidecarSet` skipped)
  const bases = new Set(matched.flatMap((s) => canaryBase(s) ?? []));
  return matched.filter((s) => !bases.has(s.metadata.name ?? ''));
}
