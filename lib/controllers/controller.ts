/**
 * The Controller contract (docs/architecture.md#the-controller-contract): what one OpenKruise controller declares so
 * the kind-neutral runtime can run it — as each kind is one `add()` in OpenKruise's `pkg/controller/controllers.go`,
 * with its watches and RBAC markers beside its `Reconcile` (`pkg/controller/cloneset/cloneset_controller.go`).
 * The sources (lib/source) read its watches, the reconcile loop (lib/reconcile/reconcile.ts) calls its pass, and
 * `kruiseless install`, the RBAC manifest, serverless.yml and the SAR test derive from its access rows.
 */
import type { PolicyRule, ResourceAccess } from '../kube/access.js';
import type { Resource } from '../kube/resource.js';
import type { KubeClient } from '../kube/types.js';
import type { ReconcileRequest } from '../requests/index.js';
import type { LoopDeps, ReconcileOutcome } from '../reconcile/reconcile.js';
import type { ExpectationStore, ScaleDownLedger } from '../state/index.js';
import type { WatchSpec, WatchingController } from '../source/watchSpec.js';

/** What the runtime hands every controller's reconcile: the loop's needs, the cluster's client and the stores. */
export interface ControllerDeps extends LoopDeps {
  kube: KubeClient;
  expectations: ExpectationStore;
  ledger: ScaleDownLedger;
  /** Writes in flight at most within a batch of pod writes (lib/core/bounded.ts `DEFAULT_WRITE_CONCURRENCY`). */
  writeConcurrency?: number;
}

/** The settings sources a deployment has: OpenKruise's `--feature-gates` value and named controller flags. */
export interface SettingsInput {
  /** `Name=true,Other=false`, as OpenKruise's `--feature-gates` (empty sets nothing). */
  featureGates: string;
  /**
   * Controller flags by OpenKruise's flag name without dashes, e.g. `cloneset-scaling-exclude-preparing-delete`
   * (Lambda: serverless.yml parameters; `kruiseless local`: its options).
   */
  flags: Readonly<Record<string, boolean>>;
}

/** A controller's settings, parsed once per container from the deployment's {@link SettingsInput}. */
export interface ControllerSettingsParser<S> {
  /**
   * @returns the settings, and the gates of `featureGates` this controller does not know
   * @throws ConfigError-like errors (a KruiselessError) for a malformed gate list
   */
  parse(input: SettingsInput): { settings: S; unknownGates: string[] };
  /** OpenKruise's defaults (no gate, no flag set). */
  readonly defaults: S;
  /**
   * The controller flags it reads: OpenKruise's flag name (`SettingsInput.flags` key) and the Lambda environment
   * variable serverless.yml sets it in (`true`/`false`).
   */
  readonly flags: readonly { name: string; env: string }[];
}

/** The RBAC rows of a controller (lib/kube/access.ts shapes): what each identity must be allowed, and denied. */
export interface ControllerAccess {
  /** Every call its reconcile makes as `kruiseless:controller`. */
  controller: readonly ResourceAccess[];
  /** The reads its watches and resync make as `kruiseless:watcher`. */
  watcher: readonly ResourceAccess[];
  /** Writes the watcher must not be able to make on its resources. */
  watcherDenied: readonly ResourceAccess[];
  /** What no Kruiseless identity may do on its resources (e.g. create or delete the workload itself). */
  deniedToAll: readonly ResourceAccess[];
  /**
   * The ClusterRole rules infra/rbac/kruiseless-rbac.yaml grants for it (scripts/rbac.ts writes the file): they
   * must grant every `controller` / `watcher` row and no `watcherDenied` row (a unit test checks both).
   */
  rules: { controller: readonly PolicyRule[]; watcher: readonly PolicyRule[] };
}

/** Empty for now (issue 16): an admission hook that answers (mutate or deny), for the kinds that will need one. */
export type AdmissionHooks = Record<string, never>;
/** Empty for now (issue 16): CRD conversion (`/convert`) for two-version kinds. */
export type ConvertHooks = Record<string, never>;

/**
 * The light part of a registration (lib/controllers/kinds.ts `CONTROLLER_KINDS`): what the sources, the request
 * parser and the settings need, without the reconcile code, so the watch, resync and admission bundles do not carry
 * the planners.
 */
export type ControllerKind<S = unknown> = Pick<
  Controller<S>,
  'name' | 'kind' | 'resource' | 'watches' | 'crd' | 'settings' | 'selects' | 'needsResync'
>;

/**
 * One controller, as registered in lib/controllers/index.ts.
 * @typeParam S its settings (CloneSet: the planner options feature gates and flags set)
 * @typeParam P its plan type (reported in the outcome)
 */
export interface Controller<S = unknown, P = unknown> extends WatchingController {
  /**
   * Lower-case name: the metrics `controller` dimension and the `--kind` value (`cloneset`); lib/core/objectKey.ts
   * `controllerNameOf(kind)`.
   */
  readonly name: string;
  /** `<group>/<Kind>`, e.g. `apps.kruise.io/CloneSet`: the `kind` of its keys and reconcile requests. */
  readonly kind: string;
  /** Its resource (the `For` watch, the resync list, the CRD `kruiseless install` applies). */
  readonly resource: Resource;
  /** For (self), Owns (pods, PVCs) and Map watches (lib/source/watchSpec.ts). */
  readonly watches: readonly WatchSpec[];
  /**
   * The file under infra/crds/ with its CRD, for `kruiseless install`; absent for a controller of a built-in
   * resource (the `pod` registration's pods, lib/controllers/pod.ts).
   */
  readonly crd?: string;
  readonly access: ControllerAccess;
  readonly settings: ControllerSettingsParser<S>;
  /**
   * One invocation for one of its objects: lib/reconcile/reconcile.ts `reconcileObject` with its own pass (read →
   * pure plan → write). A method, so a `Controller<CloneSetSettings>` is a `Controller` in the registry's list; the
   * runtime only ever passes it the settings its own {@link ControllerSettingsParser.parse} returned.
   * @throws what `reconcileObject` throws
   */
  reconcile(deps: ControllerDeps, request: ReconcileRequest, settings: S): Promise<ReconcileOutcome<P>>;
  readonly admission?: AdmissionHooks;
  readonly convert?: ConvertHooks;
}
