/**
 * `kruiseless install` (docs/cli.md#install): onboards a cluster — server-side applies the CRDs (infra/crds), the
 * RBAC of the two Kubernetes groups (infra/rbac/kruiseless-rbac.yaml), the pod guard (unless `--no-pod-guard`),
 * optionally the namespace opt-in and the admission webhook, waits for the CRDs to be Established, then proves the access with SubjectAccessReview: every call the
 * functions make is allowed, and what they must not do is denied (lib/kube/access.ts). Exit 1 when the check fails.
 */
import {
  ApiextensionsV1Api,
  AuthorizationV1Api,
  type KubeConfig,
  type KubernetesObject,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import type { Command } from 'commander';
import {
  ADMISSION_GROUP,
  CONTROLLER_GROUP,
  WATCHER_GROUP,
  accessLabel,
  reviewAccess,
  type ResourceAccess,
} from '../kube/access.js';
import { CONTROLLER_ACCESS, DENIED_TO_ALL, WATCHER_ACCESS, WATCHER_DENIED } from '../controllers/access.js';
import { ADMISSION_ACCESS, ADMISSION_DENIED } from '../controllers/podWebhookAccess.js';
import type { Controller } from '../controllers/controller.js';
import { CRD_CONVERTERS } from '../controllers/conversions.js';
import { CONTROLLERS } from '../controllers/index.js';
import { applyServerSide } from '../kube/apply.js';
import { connect, type ConnectionOptions } from './connect.js';
import { CliError, readFeatureGates, runCommand, type CliIO } from './io.js';
import { ANNOTATION_CONVERSION_WEBHOOK, crdNameOf } from '../api/conversion/crd.js';
import {
  admissionConvertUrl,
  admissionManifests,
  crdManifests,
  defaultingWebhookManifests,
  validatingWebhookManifests,
  namespaceManifests,
  namespaceOptInManifests,
  objectRef,
  podGuardManifests,
  rbacManifests,
  withConversionWebhook,
} from './manifests.js';
import { conversionOutcomeLine, kruiselessConversions, releaseStaleConversions } from './staleConversions.js';
import { plainVersionsFor, webhookVersionsFor } from './webhookVersions.js';
import { claimTemplateRuleOn, syncClaimTemplatePolicies } from './claimTemplatePolicies.js';
import { PUB_SETTINGS } from '../controllers/podunavailablebudget/settings.js';

/** The field manager of every object `install` applies (visible in `kubectl get -o yaml --show-managed-fields`). */
export const INSTALL_FIELD_MANAGER = 'kruiseless-install';
/** How long `install` waits for a CRD to be Established (seconds). */
const ESTABLISHED_TIMEOUT_S = 60;
/** The user name of the access reviews; only the groups matter to the bindings. */
const REVIEW_USER = 'kruiseless-install-check';

interface InstallOptions extends ConnectionOptions {
  /** false with `--no-pod-guard`; the guard is applied otherwise. */
  podGuard?: boolean;
  namespaceOptIn?: boolean;
  admissionUrl?: string;
  admissionPathSecret?: string;
  clusterName?: string;
  skipCrds?: boolean;
  checkOnly?: boolean;
  dryRun?: boolean;
  /** OpenKruise's `--feature-gates` as the deployment sets them; given, the claim-template policies follow them. */
  featureGates?: string;
  /**
   * With `admissionUrl`: also register the pod webhooks, `mpod.kb.io` at the function's `/mutate-pod` and
   * `vpod.kb.io`, `vpodeviction.kb.io` at its `/validate-pod`.
   */
  podWebhooks?: boolean;
}

/** One expectation of the access check and its answer. */
export interface AccessCheck {
  groups: readonly string[];
  access: ResourceAccess;
  expected: boolean;
  allowed: boolean;
}

/**
 * The reviews `install` asks for: what each group needs (allowed) and must not have (denied) — the admission
 * group's whether or not `--pod-webhooks` registers them, since infra/rbac/kruiseless-rbac.yaml always grants them.
 */
export function accessExpectations(): Omit<AccessCheck, 'allowed'>[] {
  return [
    ...CONTROLLER_ACCESS.map((access) => ({ groups: [CONTROLLER_GROUP], access, expected: true })),
    ...WATCHER_ACCESS.map((access) => ({ groups: [WATCHER_GROUP], access, expected: true })),
    ...WATCHER_DENIED.map((access) => ({ groups: [WATCHER_GROUP], access, expected: false })),
    ...ADMISSION_ACCESS.map((access) => ({ groups: [ADMISSION_GROUP], access, expected: true })),
    ...ADMISSION_DENIED.map((access) => ({ groups: [ADMISSION_GROUP], access, expected: false })),
    ...DENIED_TO_ALL.map((access) => ({
      groups: [CONTROLLER_GROUP, WATCHER_GROUP, ADMISSION_GROUP],
      access,
      expected: false,
    })),
  ];
}

/**
 * Refuses to replace a CloneSet CRD that serves versions ours does not, stores a version ours neither stores nor
 * serves in its own shape through a converter (a stored v1alpha1 SidecarSet is read through /convert), or converts
 * through a webhook that is not
 * Kruiseless's (no `kruiseless.io/conversion-webhook` annotation): that is OpenKruise's, and its stored objects
 * would become unreadable (README "Switching from OpenKruise").
 * @throws CliError naming the versions and the way out
 */
export function checkCrdTakeover(current: V1CustomResourceDefinition, ours: KubernetesObject): void {
  const oursVersions =
    (ours as { spec?: { versions?: { name: string; storage?: boolean }[] } }).spec?.versions ?? [];
  const oursServed = new Set(oursVersions.map((v) => v.name));
  const oursStored = oursVersions.find((v) => v.storage)?.name;
  const served = current.spec.versions.map((v) => v.name);
  const stored = current.status?.storedVersions ?? [];
  const name = current.metadata?.name ?? '';
  // a version stored there but not by ours needs a conversion ours may not have (CloneSet: v1beta1 then), unless
  // ours serves it in its own shape with a converter (SidecarSet: stored as v1alpha1 by an earlier Kruiseless); a
  // version whose shape changes with the webhook (CloneSet's v1beta1, ./webhookVersions.ts) is not such a one
  const ownShape = (v: string): boolean =>
    oursServed.has(v) &&
    CRD_CONVERTERS.some((c) => crdNameOf(c) === name && c.versions.includes(v)) &&
    webhookVersionsFor(name) === undefined;
  const foreign = [
    ...new Set([
      ...served.filter((v) => !oursServed.has(v)),
      ...stored.filter((v) => v !== oursStored && !ownShape(v)),
    ]),
  ];
  const webhook =
    current.spec.conversion?.strategy === 'Webhook' &&
    current.metadata?.annotations?.[ANNOTATION_CONVERSION_WEBHOOK] === undefined;
  if (foreign.length === 0 && !webhook) return;
  throw new CliError(
    `${current.metadata?.name ?? 'the CRD'} in this cluster serves or stores ${foreign.join(', ') || 'versions'}` +
      `${webhook ? ' through a conversion webhook' : ''} (OpenKruise's): switch over first as the README's ` +
      `"Switching from OpenKruise" says, or keep it with --skip-crds`,
  );
}

/**
 * The CRDs of infra/crds `install` applies, given those already in the cluster (by name): a registered controller's
 * CRD must pass {@link checkCrdTakeover} (else the install stops); another one (a CRD no registered controller
 * reconciles, e.g. Advanced StatefulSet's while it is not registered) that the cluster already has in a form
 * {@link checkCrdTakeover} refuses (OpenKruise's, converting through its webhook) is kept as it is, so `install`
 * neither breaks OpenKruise's objects of that kind nor refuses to onboard the cluster.
 * @param controllers the registered controllers (their resources' group and Kind name their CRDs)
 * @throws CliError from {@link checkCrdTakeover} for a registered controller's CRD
 */
export function crdsToApply(
  crds: readonly KubernetesObject[],
  current: ReadonlyMap<string, V1CustomResourceDefinition>,
  controllers: readonly Pick<Controller, 'resource'>[] = CONTROLLERS,
): { apply: KubernetesObject[]; kept: string[] } {
  const reconciled = new Set(controllers.map((c) => `${c.resource.group}/${c.resource.kind}`));
  const apply: KubernetesObject[] = [];
  const kept: string[] = [];
  for (const crd of crds) {
    const name = crd.metadata?.name ?? '';
    const found = current.get(name);
    const spec = (crd as { spec?: { group?: string; names?: { kind?: string } } }).spec;
    if (found && !reconciled.has(`${spec?.group ?? ''}/${spec?.names?.kind ?? ''}`)) {
      try {
        checkCrdTakeover(found, crd);
      } catch (e) {
        if (!(e instanceof CliError)) throw e;
        kept.push(name);
        continue;
      }
    } else if (found) checkCrdTakeover(found, crd);
    apply.push(crd);
  }
  return { apply, kept };
}

/** Server-side applies `objects`, printing kubectl's `<ref> serverside-applied` line for each. */
function applyAll(kc: KubeConfig, objects: KubernetesObject[], io: CliIO, dryRun: boolean): Promise<void> {
  return applyServerSide(kc, objects, INSTALL_FIELD_MANAGER, {
    dryRun,
    onApplied: (o) => io.out(`${objectRef(o)} serverside-applied${dryRun ? ' (server dry run)' : ''}\n`),
  });
}

/** Waits until every CRD named is Established. @throws CliError after ESTABLISHED_TIMEOUT_S */
async function waitEstablished(ext: ApiextensionsV1Api, names: string[], io: CliIO): Promise<void> {
  const deadline = Date.now() + ESTABLISHED_TIMEOUT_S * 1000;
  for (const name of names) {
    for (;;) {
      const crd = await ext.readCustomResourceDefinition({ name });
      if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (Date.now() > deadline)
        throw new CliError(
          `customresourcedefinition ${name} not Established after ${ESTABLISHED_TIMEOUT_S}s`,
        );
      await new Promise((r) => setTimeout(r, 500));
    }
    io.out(`customresourcedefinition.apiextensions.k8s.io/${name} condition met (Established)\n`);
  }
}

/** Asks every review of {@link accessExpectations} (in parallel). */
export async function checkAccess(kc: KubeConfig, namespace: string): Promise<AccessCheck[]> {
  const authz = kc.makeApiClient(AuthorizationV1Api);
  return Promise.all(
    accessExpectations().map(async (e) => ({
      ...e,
      allowed: await reviewAccess(authz, { user: REVIEW_USER, groups: e.groups }, e.access, namespace),
    })),
  );
}

/** {@link claimTemplateRuleOn}, a malformed list as a CliError. */
function gateOn(featureGates: string): boolean {
  return readFeatureGates(() => claimTemplateRuleOn(featureGates));
}

/**
 * Gate `PodUnavailableBudgetUpdateGate` of the deployment's gates (off when not given, OpenKruise's default): on, the
 * pod webhook `vpod.kb.io` also takes pod UPDATE (in-place updates checked against the budget). A malformed list is
 * a CliError.
 */
export function pubUpdateGateOn(featureGates: string | undefined): boolean {
  if (featureGates === undefined) return false;
  return readFeatureGates(() => PUB_SETTINGS.parse({ featureGates, flags: {} }).settings.updateGate ?? false);
}

/** `1 of 17` style count of the checks that came out as expected. */
function tally(checks: AccessCheck[]): { ok: number; total: number } {
  return { ok: checks.filter((c) => c.allowed === c.expected).length, total: checks.length };
}

async function install(io: CliIO, opts: InstallOptions): Promise<number> {
  const settings = opts.admissionUrl
    ? {
        url: opts.admissionUrl,
        pathSecret: opts.admissionPathSecret ?? io.env.KRUISELESS_ADMISSION_PATH_SECRET ?? '',
        clusterName:
          opts.clusterName ??
          (() => {
            throw new CliError('--admission-url needs --cluster-name (the name in the cluster registry)');
          })(),
      }
    : undefined;
  // the admission function also converts (the CRD patch below) and stores OpenKruise's defaults (its /mutate)
  const admission = settings
    ? [
        ...admissionManifests(settings),
        ...defaultingWebhookManifests(settings, { enabled: opts.podWebhooks === true }),
        ...validatingWebhookManifests(settings, {
          enabled: opts.podWebhooks === true,
          updates: pubUpdateGateOn(opts.featureGates),
        }),
      ]
    : [];
  // read before anything is applied: a malformed gate list changes nothing
  const claimRuleOn = opts.featureGates === undefined ? undefined : gateOn(opts.featureGates);
  const conn = connect(opts, io);
  const dryRun = opts.dryRun === true;
  // with the admission function, the two-version CRDs (Advanced StatefulSet) convert through its /convert
  const crds = opts.skipCrds
    ? []
    : settings
      ? withConversionWebhook(crdManifests(), { url: admissionConvertUrl(settings), server: 'admission' })
      : crdManifests();
  const rbac = rbacManifests();
  const guard = opts.podGuard === false ? [] : podGuardManifests();
  const optIn = opts.namespaceOptIn ? namespaceOptInManifests() : [];
  if (!opts.checkOnly) {
    const ext = conn.kc.makeApiClient(ApiextensionsV1Api);
    const current = new Map<string, V1CustomResourceDefinition>();
    for (const crd of crds) {
      const found = await ext
        .readCustomResourceDefinition({ name: crd.metadata?.name ?? '' })
        .catch((e: { code?: number }) => {
          if (e.code === 404) return undefined;
          throw e;
        });
      if (found) current.set(crd.metadata?.name ?? '', found);
    }
    const { apply, kept } = crdsToApply(crds, current);
    for (const name of kept)
      io.out(
        `customresourcedefinition.apiextensions.k8s.io/${name} left as it is (OpenKruise's, not reconciled here)\n`,
      );
    await applyAll(conn.kc, apply, io, dryRun);
    if (!dryRun)
      await waitEstablished(
        ext,
        apply.map((c) => c.metadata?.name ?? ''),
        io,
      );
    if (!settings) {
      // a webhook Kruiseless set that no longer answers (a killed `kruiseless local`) would fail every read of the
      // CRD's other version: put those CRDs back to no conversion, as infra/crds has them
      const applied = new Set(apply.map((c) => c.metadata?.name ?? ''));
      const ours = kruiselessConversions(new Map([...current].filter(([name]) => applied.has(name))));
      for (const o of await releaseStaleConversions(conn.kube, ours, plainVersionsFor, { dryRun }))
        io.out(`${conversionOutcomeLine(o)}\n`);
    }
    await applyAll(conn.kc, [...namespaceManifests(), ...rbac, ...guard, ...optIn, ...admission], io, dryRun);
  }
  let claimPolicies = '';
  if (claimRuleOn !== undefined && !opts.checkOnly) {
    const sync = await syncClaimTemplatePolicies(conn.kc, claimRuleOn, { dryRun });
    for (const o of sync.objects) io.out(`${o} ${sync.action}${dryRun ? ' (server dry run)' : ''}\n`);
    claimPolicies = `, volumeClaimTemplate update policies ${sync.action}`;
  }
  const applied =
    `${crds.length} CRD(s), ${rbac.length} RBAC object(s), pod guard ${guard.length > 0 ? 'yes' : 'no'}, ` +
    `namespace opt-in ${optIn.length > 0 ? 'yes' : 'no'}, ` +
    `admission webhook ${admission.length > 0 ? 'yes' : 'no'}${claimPolicies}`;
  if (dryRun) {
    io.out(`install: ${applied} (server dry run; access not checked, nothing was stored)\n`);
    return 0;
  }
  const checks = await checkAccess(conn.kc, conn.namespace);
  const wrong = checks.filter((c) => c.allowed !== c.expected);
  for (const c of wrong) {
    io.err(
      `access: ${c.groups.join('+')} ${c.allowed ? 'may' : 'may not'} ${accessLabel(c.access)}` +
        ` (expected ${c.expected ? 'allowed' : 'denied'})\n`,
    );
  }
  const { ok, total } = tally(checks);
  io.out(
    `install: ${opts.checkOnly ? 'nothing applied (--check-only)' : applied}; access ${ok}/${total} as expected\n`,
  );
  return wrong.length === 0 ? 0 : 1;
}

/** Registers `install`. */
export function registerInstall(program: Command, io: CliIO): void {
  program
    .command('install')
    .description(
      'onboard a cluster: apply the CRDs, RBAC and pod guard (optionally the namespace opt-in and the admission webhook), then check the access with SubjectAccessReview',
    )
    .option('--kubeconfig <file>', 'kubeconfig of the cluster (an administrator of it)')
    .option(
      '-n, --namespace <ns>',
      "namespace of the namespaced access checks (default: the context's, or default)",
    )
    .option('--pod-guard', 'apply infra/rbac/kruiseless-pod-guard.yaml (the default; Kubernetes >= 1.30)')
    .option(
      '--no-pod-guard',
      'leave the pod guard out (Kubernetes < 1.30): a stolen reconcile role is then cluster-admin',
    )
    .option(
      '--namespace-opt-in',
      'also apply infra/rbac/kruiseless-namespace-opt-in.yaml: pods only in namespaces labelled kruiseless.io/managed=true',
    )
    .option('--admission-url <url>', "the stack's AdmissionUrl output: also apply the admission webhook")
    .option(
      '--admission-path-secret <secret>',
      "the stage's admission master secret, the SSM parameter's value (default: env KRUISELESS_ADMISSION_PATH_SECRET); the webhook gets this cluster's secret derived from it; never printed",
    )
    .option('--cluster-name <name>', "this cluster's name in the cluster registry (with --admission-url)")
    .option(
      '--pod-webhooks',
      "with --admission-url: also register the pod webhooks, failurePolicy Fail as OpenKruise's: mpod.kb.io (pod create: WorkloadSpread, SidecarSet injection, container launch priority, the PodUnavailableBudget annotation) at the function's /mutate-pod, vpod.kb.io and vpodeviction.kb.io (PodUnavailableBudget, the WorkloadSpread deletion record) at its /validate-pod; the function must then reach this cluster (registry record, and an EKS access entry mapping AdmissionRoleArn to kruiseless:admission)",
    )
    .option(
      '--feature-gates <gates>',
      "the deployment's featureGates (serverless.yml parameter): with StatefulSetAutoResizePVCGate on, apply infra/rbac/kruiseless-asts-claim-templates.yaml (OpenKruise's volumeClaimTemplate update rule), off: remove it; with PodUnavailableBudgetUpdateGate on (and --admission-url), the pod webhook vpod.kb.io also checks pod updates",
    )
    .option('--skip-crds', 'leave the CRDs as they are')
    .option('--check-only', 'apply nothing, only check the access')
    .option('--dry-run', 'server-side dry run: the API server validates every object and stores none')
    .action((opts: InstallOptions) => runCommand(io, () => install(io, opts)));
}
