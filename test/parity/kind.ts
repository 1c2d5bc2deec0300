/**
 * What the parity harness knows of one kind, and nothing else does: where its objects are served, how it names and
 * owns its pods, which of its Events and conditions depend on timing alone, the differences chosen on purpose for
 * all its scenarios, and which of OpenKruise's own e2e specs cover it. One entry per kind in
 * `test/parity/kinds/<name>/`, listed in `test/parity/kinds/index.ts` (as a controller is one line of OpenKruise's
 * `pkg/controller/controllers.go`); the runner, snapshot, comparison and report read a kind only through this.
 */
import type { Deliberate } from './scenario.js';
import type { PodView } from './snapshot.js';

/** OpenKruise's own e2e specs of a kind (`npm run parity:upstream-e2e -- --kind <name>`). */
export interface UpstreamE2eSpecs {
  /**
   * `-ginkgo.focus-file`, once per entry: the spec files, relative to the OpenKruise module, e.g.
   * `['test/e2e/apps/v1alpha1/cloneset.go']`; a kind with specs in two API versions' folders lists both, and its run
   * stays one run (one table, one summary line)
   */
  focusFiles: string[];
  /** `-ginkgo.focus`: regex of spec names within the file (default: every spec of the file) */
  focus?: string;
  /**
   * kube-controller-manager controllers the specs need that the shared control planes do not run, e.g.
   * `['deployment-controller', 'replicaset-controller']`: a second manager runs them on each side for the run
   * (./extraControllers.ts)
   */
  kcmControllers?: string[];
  /**
   * Manifest files applied to each side after it is up and before the suite runs, in order, as upstream's own e2e
   * setup applies them before its suite (tools/hack/run-kruise-e2e-test.sh, its CI workflows): e.g. WorkloadSpread's
   * TFJob CRD and `test/kruise-e2e-config.yaml`. Applied server-side by ./upstreamE2eSetup.ts, a CRD waited for
   * until Established, a missing namespace created. `npm run parity` applies them too, before the kind's scenarios,
   * so that both referees see the same cluster (WorkloadSpread's custom-workload scenarios need the whitelist).
   * Absent: nothing is applied.
   */
  manifests?: UpstreamE2eManifest[];
}

/**
 * One manifest file of an upstream e2e setup ({@link UpstreamE2eSpecs.manifests}), read from a Go module, never from
 * the network at large or a copy in this repository:
 * - `openkruise`: a file of the OpenKruise module the suite is built from (its copy in the cache,
 *   infra/reference/build.ts `ensureOpenKruiseE2e`'s `moduleDir`), e.g. `test/kruise-e2e-config.yaml`;
 * - `goModule`: a file of another module at a version the Go module proxy serves (`go mod download`, infra/local/build.ts
 *   `goModDownload`), e.g. `github.com/kubeflow/training-operator` `v1.8.1`
 *   `manifests/base/crds/kubeflow.org_tfjobs.yaml`.
 * `file` is relative to the module root, `/`-separated, without `..`.
 */
export type UpstreamE2eManifest =
  { from: 'openkruise'; file: string } | { from: 'goModule'; module: string; version: string; file: string };

/** One kind as the parity harness sees it. */
export interface ParityKind {
  /** Lower-case kind name: the `--kind` value, the scenarios' folder and their `kind:` field, e.g. `cloneset`. */
  name: string;
  /** The kind as the API spells it, e.g. `CloneSet`: manifests, owner references, Events' `involvedObject.kind`. */
  kind: string;
  /** Where the scenarios' objects are served, as users write them. */
  resource: { group: string; version: string; plural: string };
  /**
   * The object is cluster-scoped (SidecarSet): it is created without a namespace, deleted after the run (the
   * namespace's deletion does not take it), and the scenario creates the pods it acts on (`createPod` steps).
   */
  clusterScoped?: boolean;
  /**
   * Where the kind keeps its ControllerRevisions when not in the object's namespace (SidecarSet: OpenKruise's manager
   * namespace `kruise-system`), and the label naming the object they belong to (`kruise.io/sidecarset-name`): the
   * snapshot then holds the revisions of the scenario's object from there. Absent: the scenario namespace's.
   */
  revisionsIn?: { namespace: string; objectNameLabel: string };
  /** Pod and PVC label holding a random per-instance id, normalised to `<id>` (absent: the kind has none). */
  instanceIdLabel?: string;
  /**
   * Length of the random suffix of pod and PVC names after `<object name>-` (normalised to `<id>`), e.g. 5 for
   * CloneSet's `<name>-<instance id>`; absent: names are compared as they are (e.g. ordinals).
   */
  randomNameSuffix?: number;
  /**
   * A regex (source) of the generated part of child names after `<object name>-`, normalised to `<id>` like a random
   * suffix and used instead of it; e.g. AdvancedCronJob's Jobs `<name>-<Unix seconds of the scheduled time>` and
   * their pods `<name>-<seconds>-<5 random characters>`.
   */
  nameSuffixPattern?: string;
  /**
   * Event reasons the controller records on every reconcile while a limit holds: how often is a matter of timing,
   * so only whether one was recorded is compared (docs/parity.md#what-is-compared).
   */
  perReconcileEventReasons: ReadonlySet<string>;
  /**
   * Status condition types left out of the snapshot when their message only reports what a controller meets by
   * chance (snapshot.ts `TIMING_ONLY_MESSAGES`): the API server's optimistic-concurrency conflict, or a create of a
   * name still held by a pod being deleted.
   */
  conflictOnlyConditionTypes: ReadonlySet<string>;
  /**
   * The merge patch that names pods for deletion (steps `podsToDelete` and, with `replicas`, `scaleDown`);
   * absent: the kind has no such field and scenarios using those steps are refused when loaded.
   * @param names pod names, in selection order
   * @param replicas the new `spec.replicas`, written in the same update (OpenKruise's e2e does so)
   */
  deletePodsPatch?: (names: string[], replicas?: number) => Record<string, unknown>;
  /**
   * What the snapshot orders pods by (they carry no name in it), when not the whole normalised view: a field that
   * differs on purpose between the sides must not decide the order, or every later pod is compared with the wrong
   * one. The view itself, and so the difference, is kept.
   */
  podSortKey?: (view: PodView) => unknown;
  /**
   * The kind's status has no `observedGeneration` (AdvancedCronJob, BroadcastJob): settling then waits only for quiet, not for the
   * generation to be observed (which would never happen, and every checkpoint would wait out its timeout).
   */
  noObservedGeneration?: true;
  /**
   * The kind owns no pods (PodUnavailableBudget, SidecarSet): pod steps pick among every pod of the namespace, whoever owns it
   * (bare pods, a CloneSet's, a StatefulSet's), instead of the pods an object of the kind owns.
   */
  podsOfAnyOwner?: true;
  /**
   * Object keys are normalised as values are (PodUnavailableBudget's `status.disruptedPods` is keyed by pod name, a
   * CloneSet pod's name is random): two keys that normalise alike merge into one.
   */
  normaliseKeys?: true;
  /**
   * Pod annotations whose values are an object's resourceVersion at the moment of a write (SidecarSet's hot-upgrade
   * `version.sidecarset.kruise.io/<container>` and `versionalt.…`): random per cluster, so each pod's distinct such
   * values are replaced by their rank, `<rv1>` the lowest (which annotations share a version, and their order, stay
   * compared); the `fixed` values (the injection's `0` and `1`) are kept as they are.
   */
  resourceVersionAnnotations?: { keys: RegExp; fixed: ReadonlySet<string> };
  /** Differences chosen on purpose for every scenario of the kind (each scenario may add its own). */
  deliberate: readonly Deliberate[];
  /** OpenKruise's own e2e specs of the kind, when it has some. */
  upstreamE2e?: UpstreamE2eSpecs;
}
