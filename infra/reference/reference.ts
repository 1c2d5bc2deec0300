/**
 * The OpenKruise reference: the real kruise-manager, built by build.ts, running as a plain background process
 * against a local control plane of its own (infra/local, state folder settings.ts `referenceStateDir()`), so that
 * the repository's `.kruiseless/` cluster used by the tests is never touched.
 *
 * Installation, as OpenKruise's own manifests describe it, adapted to a process outside the cluster:
 * - the module's CRDs (`config/crd/bases`) replace Kruiseless's CloneSet CRD; when the CloneSet CRD serves more
 *   than one version (v1.9.0: v1alpha1 and v1beta1, stored as v1beta1) it gets the conversion settings of
 *   `config/crd/patches/webhook_in_clonesets.yaml`, pointed at service `kruise-webhook-service` in `kruise-system`,
 *   and so does the SidecarSet CRD (`webhook_in_sidecarsets.yaml`; v1.9.0 stores SidecarSets as v1beta1, whose
 *   conversion turns a v1alpha1 `spec.namespace` into a namespaceSelector — without it the API server's `None`
 *   conversion pruned the field and OpenKruise injected every namespace's pods), and every other CRD
 *   `config/crd/kustomization.yaml` patches so (WorkloadSpreads, Advanced StatefulSets, Advanced DaemonSets, …:
 *   {@link conversionPatches}). OpenKruise's Helm chart installs its CRDs as `kustomize build config/crd` makes them,
 *   with these patches (`scripts/generate_helm_crds.sh`);
 * - namespace `kruise-system`;
 * - the webhook configurations of `config/webhook/manifests.yaml`, named `kruise-mutating-webhook-configuration`
 *   and `kruise-validating-webhook-configuration` and pointed at the same service;
 * - kruise-manager with `WEBHOOK_HOST=localhost`: it then generates a certificate for localhost, and rewrites the
 *   webhook configurations and the CRD conversion to `https://localhost:<port>/…` URLs with its CA bundle.
 *
 * Files in the state folder: `run/reference.json` (ReferenceInfo), `run/kruise-manager.pid`,
 * `logs/kruise-manager.log`, `openkruise-certs/`, and the control plane's own files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseAllDocuments, stringify } from 'yaml';
import { binariesUpToDate, run, type Log } from '../local/build.js';
import { kubectl, type ClusterInfo } from '../local/cluster.js';
import { withLock } from '../../lib/core/dirLock.js';
import { provisionerDir, provisionerUpToDate } from '../local/provisioner.js';
import { freePort, probe, waitHealthy } from '../local/net.js';
import { isRunning, logTail, readPidFile, startProcess, stopFromPidFile } from '../local/processes.js';
import { binDir, binPath, CRD_DIR, KUBERNETES_VERSION, LOCAL_DIR, REPO_ROOT } from '../local/versions.js';
import { ensureOpenKruise, openKruiseNotBuiltReason } from './build.js';
import { fmtSecs } from './gomodule.js';
import {
  featureGatesFromEnv,
  referenceStateDir,
  requestedVersion,
  type OpenKruisePaths,
} from './settings.js';
import { errorMessage } from '../../lib/core/errors.js';

/** Namespace kruise-manager believes it runs in (POD_NAMESPACE), where it keeps its webhook certificate secret. */
export const KRUISE_NAMESPACE = 'kruise-system';
/** Service name the webhook configurations and the CRD conversion refer to (OpenKruise's default). */
export const WEBHOOK_SERVICE = 'kruise-webhook-service';
/** Names the webhook configurations get (OpenKruise's install names them so; the manager looks them up by name). */
export const WEBHOOK_CONFIGS = {
  mutating: 'kruise-mutating-webhook-configuration',
  validating: 'kruise-validating-webhook-configuration',
} as const;
/** Annotation put on every CRD the reference installs: `openkruise-<version>`. */
export const REFERENCE_ANNOTATION = 'kruiseless.io/reference';
/** Field manager of the reference's server-side applies. */
const FIELD_MANAGER = 'kruiseless-reference';
const CLONESET_CRD = 'clonesets.apps.kruise.io';
/** The one CloneSet version Kruiseless's CRD (infra/crds) serves and stores. */
const KRUISELESS_VERSION = 'v1alpha1';
const PROBE_NAME = 'kruiseless-reference-probe';

/** What `run/reference.json` records about a running reference (and what referenceUp returns). */
export interface ReferenceInfo {
  /** admin kubeconfig of the reference's control plane */
  kubeconfig: string;
  /** API server URL */
  server: string;
  /** state folder of the reference's control plane */
  stateDir: string;
  /** OpenKruise version running (the fallback when the requested one could not be downloaded) */
  version: string;
  /** `--feature-gates` value given to kruise-manager ('' = none) */
  featureGates: string;
  /** loopback ports of kruise-manager: webhook server (HTTPS), metrics, healthz/readyz */
  ports: { webhook: number; metrics: number; health: number };
  /** pid of kruise-manager */
  pid: number;
  /** kruise-manager's log file */
  log: string;
  /** ISO time kruise-manager was started */
  startedAt: string;
}

/** Options of referenceUp. */
export interface ReferenceUpOptions {
  /** OpenKruise version (default: env KRUISELESS_OPENKRUISE_VERSION, else v1.9.0, falling back to v1.8.2) */
  version?: string;
  /** kruise-manager `--feature-gates` value, e.g. `CloneSetPartitionRollback=true` (default: env KRUISELESS_FEATURE_GATES) */
  featureGates?: string;
  /**
   * Extra kube-controller-manager controllers for the reference's control plane when this call starts it (passed as
   * env KRUISELESS_KCM_CONTROLLERS, e.g. `deployment-controller,replicaset-controller`).
   */
  kcmControllers?: string;
  /**
   * Restart kruise-manager even when the running one has this version and these gates (its in-process state is then
   * new, e.g. the custom-workload whitelist its pod webhook reads once).
   */
  restart?: boolean;
  /** progress lines (default console.log) */
  log?: Log;
}

const stateDir = (): string => referenceStateDir();
const runDir = (): string => path.join(stateDir(), 'run');
const infoFile = (): string => path.join(runDir(), 'reference.json');
const managerPidFile = (): string => path.join(runDir(), 'kruise-manager.pid');
const managerLog = (): string => path.join(stateDir(), 'logs', 'kruise-manager.log');
const kubeconfigFile = (): string => path.join(stateDir(), 'kubeconfig');

/**
 * Runs `npm run cluster:<cmd>`'s code (infra/local/cli.ts) in a child process whose KRUISELESS_STATE_DIR is the
 * reference's state folder, so that this process's own environment (and its default cluster) is left alone.
 * @throws Error with the output tail when it fails
 */
async function localCluster(cmd: 'up' | 'down', log: Log, env: NodeJS.ProcessEnv = {}): Promise<void> {
  await run(process.execPath, ['--import', 'tsx', path.join(LOCAL_DIR, 'cli.ts'), cmd], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, KRUISELESS_STATE_DIR: stateDir() },
    onLine: (l) => l && log(`  ${l}`),
  });
}

/** True when the reference's control plane answers /readyz (5 s). */
async function clusterAnswers(): Promise<boolean> {
  if (!fs.existsSync(kubeconfigFile())) return false;
  try {
    await kubectl(['get', '--raw', '/readyz', '--request-timeout=5s'], kubeconfigFile());
    return true;
  } catch {
    return false;
  }
}

/**
 * The running reference: `run/reference.json` of the state folder, when kruise-manager is the recorded live process
 * and answers /readyz. Reads only; changes nothing.
 * @returns undefined when no reference runs
 */
export async function referenceInfo(): Promise<ReferenceInfo | undefined> {
  let info: ReferenceInfo;
  try {
    info = JSON.parse(fs.readFileSync(infoFile(), 'utf8')) as ReferenceInfo;
  } catch {
    return undefined;
  }
  const rec = readPidFile(managerPidFile());
  if (!rec || rec.pid !== info.pid || !isRunning(rec)) return undefined;
  const ready = await probe(`http://127.0.0.1:${info.ports.health}/readyz`);
  return ready?.status === 200 ? info : undefined;
}

/**
 * Builds (cached) and starts OpenKruise on the reference's control plane, or reuses it when the same version runs
 * with the same feature gates and `opts.restart` is not set (otherwise the manager is restarted). Waits until
 * kruise-manager's /readyz answers 200 and a CloneSet can be created, edited and deleted and a pod passes the webhooks
 * (server-side dry run).
 * @returns the running reference and whether this call started kruise-manager
 * @throws Error from the build, the control plane or kubectl, or when kruise-manager exits or is not ready within
 *   3 min (with the tail of its log)
 */
export async function referenceUp(
  opts: ReferenceUpOptions = {},
): Promise<{ info: ReferenceInfo; started: boolean }> {
  const log = opts.log ?? console.log;
  const featureGates = (opts.featureGates ?? featureGatesFromEnv()).trim();
  const t0 = Date.now();
  const build = await ensureOpenKruise({ version: opts.version, log });
  const tBuild = Date.now();
  fs.mkdirSync(stateDir(), { recursive: true });
  return withLock(path.join(stateDir(), '.reference.lock'), log, async () => {
    log(`[reference] control plane in ${stateDir()}`);
    await localCluster(
      'up',
      log,
      opts.kcmControllers ? { KRUISELESS_KCM_CONTROLLERS: opts.kcmControllers } : {},
    );
    const cluster = JSON.parse(fs.readFileSync(path.join(runDir(), 'cluster.json'), 'utf8')) as ClusterInfo;
    const tCluster = Date.now();
    const existing = await referenceInfo();
    if (
      !opts.restart &&
      existing &&
      existing.version === build.version &&
      existing.featureGates === featureGates &&
      existing.server === cluster.server
    ) {
      log(`[reference] OpenKruise ${existing.version} already running (pid ${existing.pid})`);
      log(`[reference] kubeconfig: ${existing.kubeconfig}`);
      return { info: existing, started: false };
    }
    await stopManager(log, cluster.kubeconfig);
    await installOpenKruiseCrds(build.version, build.paths, cluster.kubeconfig, log);
    await kubectl(['create', 'namespace', KRUISE_NAMESPACE], cluster.kubeconfig).catch((e: unknown) => {
      if (!String(e).includes('AlreadyExists')) throw e;
    });
    await applyWebhooks(build.paths, cluster.kubeconfig);
    const tInstall = Date.now();
    const info = await startManager(build.version, build.paths, featureGates, cluster, log);
    const tReady = Date.now();
    log(`[reference] kubeconfig: ${info.kubeconfig}`);
    log(`[reference] kubectl: KRUISELESS_STATE_DIR=${stateDir()} npm run kubectl -- get clone -A`);
    log(
      `[reference] OpenKruise ${info.version} ready in ${fmtSecs(tReady - t0)} (build ${build.built ? fmtSecs(tBuild - t0) : 'cached'}, ` +
        `control plane ${fmtSecs(tCluster - tBuild)}, install ${fmtSecs(tInstall - tCluster)}, manager ${fmtSecs(tReady - tInstall)}), ` +
        `pid ${info.pid}, webhook :${info.ports.webhook}, gates ${featureGates || 'none'}`,
    );
    return { info, started: true };
  });
}

/**
 * What referenceUp would have to build first (for CI and tests that must not spend ~10 min building): the
 * OpenKruise `version` (default: env KRUISELESS_OPENKRUISE_VERSION, else v1.9.0; no fallback) or the control
 * plane's binaries, and why (see referenceSkipReason). Builds and starts nothing.
 * @returns the missing component, its version (OpenKruise's, or Kubernetes' for the control plane) and the
 *   sentence, or undefined when both are cached
 */
export async function referenceNotBuilt(
  version: string = requestedVersion(),
): Promise<{ component: 'openkruise' | 'control-plane'; version: string; reason: string } | undefined> {
  const kruise = await openKruiseNotBuiltReason(version);
  if (kruise) {
    return { component: 'openkruise', version, reason: `${kruise}; \`npm run reference:build\` builds it` };
  }
  if (!(await binariesUpToDate()) || !(await provisionerUpToDate())) {
    const reason = `the control plane binaries are not built in ${binDir()} (or ${provisionerDir()}); \`npm run cluster:build\` builds them`;
    return { component: 'control-plane', version: KUBERNETES_VERSION, reason };
  }
  return undefined;
}

/**
 * Why referenceUp would have to build something first: the OpenKruise `version` or the control plane's binaries
 * are not in the cache (referenceNotBuilt's sentence). Builds and starts nothing.
 * @returns one sentence, or undefined when both are cached
 */
export async function referenceSkipReason(version: string = requestedVersion()): Promise<string | undefined> {
  return (await referenceNotBuilt(version))?.reason;
}

/** Line printed (and logged) when referenceUpIfCached skips: `not built, skipping: <reason>`. */
export const SKIP_PREFIX = 'not built, skipping: ';

/**
 * referenceUp, but only when nothing has to be built (see referenceSkipReason); otherwise logs
 * `[reference] not built, skipping: <reason>` and starts nothing. `npm run reference:up -- --if-cached`.
 * @returns referenceUp's result, or `{ skipped: reason }`
 * @throws what referenceUp throws
 */
export async function referenceUpIfCached(
  opts: ReferenceUpOptions = {},
): Promise<{ info: ReferenceInfo; started: boolean } | { skipped: string }> {
  const log = opts.log ?? console.log;
  const version = opts.version ?? requestedVersion();
  const reason = await referenceSkipReason(version);
  if (reason) {
    log(`[reference] ${SKIP_PREFIX}${reason}`);
    return { skipped: reason };
  }
  return referenceUp({ ...opts, version });
}

/** Reads every YAML document of a file as plain objects (empty documents dropped). */
function readDocs(file: string): Record<string, unknown>[] {
  return parseAllDocuments(fs.readFileSync(file, 'utf8'))
    .map((d) => d.toJS() as unknown)
    .filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null);
}

interface CrdShape {
  metadata: { name: string; annotations?: Record<string, string>; resourceVersion?: string };
  spec: { versions: { name: string }[]; conversion?: Record<string, unknown> };
  status?: { storedVersions?: string[] };
}

/**
 * Runs kubectl and returns its whole output (cluster.ts `kubectl` keeps only the last 40 lines, too few for JSON).
 * @throws Error from kubectl
 */
async function kubectlJson<T>(args: string[], kubeconfig: string): Promise<T | undefined> {
  const lines: string[] = [];
  await run(binPath('kubectl'), [`--kubeconfig=${kubeconfig}`, ...args, '-o', 'json'], {
    onLine: (l) => lines.push(l),
  });
  const text = lines.join('\n').trim();
  return text ? (JSON.parse(text) as T) : undefined;
}

/** The CRD `name` as the API server has it, or undefined when absent. */
function getCrd(name: string, kubeconfig: string): Promise<CrdShape | undefined> {
  return kubectlJson<CrdShape>(['get', 'crd', name, '--ignore-not-found'], kubeconfig);
}

/**
 * Puts `crd` in place exactly as given: a PUT over the current definition at its resourceVersion (`kubectl
 * replace`), so that no field of the earlier one survives and the custom objects stay; then waits until it is
 * Established. (kubectl, not the typed client: its schema type would drop the `x-kubernetes-*` keys.)
 * @throws Error from kubectl, e.g. when a version in status.storedVersions would no longer be served
 */
async function replaceCrd(crd: CrdShape, kubeconfig: string): Promise<void> {
  const current = await getCrd(crd.metadata.name, kubeconfig);
  const body = { ...crd, metadata: { ...crd.metadata, resourceVersion: current?.metadata.resourceVersion } };
  const file = path.join(runDir(), `replace-${crd.metadata.name}.yaml`);
  fs.mkdirSync(runDir(), { recursive: true });
  fs.writeFileSync(file, stringify(body));
  await kubectl([current ? 'replace' : 'create', '-f', file], kubeconfig);
  await kubectl(
    ['wait', '--for=condition=Established', '--timeout=60s', `crd/${crd.metadata.name}`],
    kubeconfig,
  );
}

/**
 * Installs the module's CRDs (server-side apply) and waits until they are Established. A CloneSet CRD that is not
 * this version's (Kruiseless's, or another reference version's) is first replaced whole, keeping its CloneSets, when
 * every version it stored is one the module's CRD serves (Kruiseless's v1alpha1 under v1.9.0); otherwise it is
 * deleted, and its CloneSets with it (v1beta1-stored under v1.8.2).
 */
async function installOpenKruiseCrds(
  version: string,
  paths: OpenKruisePaths,
  kubeconfig: string,
  log: Log,
): Promise<void> {
  const mark = `openkruise-${version}`;
  const current = await getCrd(CLONESET_CRD, kubeconfig);
  if (current?.metadata.annotations?.[REFERENCE_ANNOTATION] === mark) {
    // Installed by an earlier start. Not re-applied: kruise-manager has since written the conversion webhook's
    // `url` (its own field), and our `service` next to it would make the CRD invalid. A new manager rewrites the url.
    log(`[reference] CRDs of OpenKruise ${version} already installed`);
    await ensureConversions(paths, kubeconfig, log);
    return;
  }
  const crds: CrdShape[] = [];
  for (const f of fs
    .readdirSync(paths.crdBases)
    .filter((n) => n.endsWith('.yaml'))
    .sort()) {
    crds.push(...(readDocs(path.join(paths.crdBases, f)) as unknown as CrdShape[]));
  }
  const patches = conversionPatches(paths);
  for (const crd of crds) {
    crd.metadata.annotations = { ...crd.metadata.annotations, [REFERENCE_ANNOTATION]: mark };
    const patchFile = patches[crd.metadata.name];
    if (patchFile && crd.spec.versions.length > 1) crd.spec.conversion = conversionOf(patchFile);
  }
  const cloneSetCrd = crds.find((c) => c.metadata.name === CLONESET_CRD);
  if (current && cloneSetCrd) {
    const owner = current.metadata.annotations?.[REFERENCE_ANNOTATION] ?? 'Kruiseless';
    const stored = current.status?.storedVersions ?? [];
    if (stored.every((v) => cloneSetCrd.spec.versions.some((sv) => sv.name === v))) {
      // Every stored version stays readable: the definition is replaced whole and the CloneSets stay.
      log(
        `[reference] taking over the CloneSet CRD (${owner}) with its CloneSets (stored as ${stored.join(',')})`,
      );
      await replaceCrd(cloneSetCrd, kubeconfig);
    } else {
      log(
        `[reference] replacing the CloneSet CRD (${owner}, stored as ${stored.join(',')}) and its CloneSets`,
      );
      await kubectl(['delete', 'crd', CLONESET_CRD, '--wait=true', '--timeout=60s'], kubeconfig);
    }
  }
  const file = path.join(runDir(), 'openkruise-crds.yaml');
  fs.writeFileSync(file, crds.map((c) => stringify(c)).join('---\n'));
  await kubectl(
    ['apply', '--server-side', '--force-conflicts', `--field-manager=${FIELD_MANAGER}`, '-f', file],
    kubeconfig,
  );
  const names = crds.map((c) => `crd/${c.metadata.name}`);
  await kubectl(['wait', '--for=condition=Established', '--timeout=60s', ...names], kubeconfig);
  log(`[reference] ${crds.length} CRDs of OpenKruise ${version} installed`);
}

/**
 * The CRDs OpenKruise's install gives a conversion webhook, each with its patch file: the `patches/webhook_in_*.yaml`
 * entries of the module's `config/crd/kustomization.yaml` (`patchesStrategicMerge`; those it comments out are not
 * entries), keyed by the CRD name each patch names. In v1.9.0: CloneSets, SidecarSets, Advanced StatefulSets,
 * UnitedDeployments, Advanced DaemonSets, ContainerRecreateRequests, ResourceDistributions, PersistentPodStates and
 * WorkloadSpreads.
 * @throws Error when the kustomization or a patch it lists cannot be read
 */
export function conversionPatches(paths: Pick<OpenKruisePaths, 'crdKustomization'>): Record<string, string> {
  const kustomization = readDocs(paths.crdKustomization)[0] ?? {};
  const listed = kustomization.patchesStrategicMerge;
  const out: Record<string, string> = {};
  for (const entry of Array.isArray(listed) ? listed : []) {
    if (typeof entry !== 'string' || !/^patches\/webhook_in_[\w.-]+\.yaml$/.test(entry)) continue;
    const file = path.join(path.dirname(paths.crdKustomization), entry);
    const name = (readDocs(file)[0] as { metadata?: { name?: unknown } } | undefined)?.metadata?.name;
    if (typeof name !== 'string') throw new Error(`${file}: no metadata.name`);
    out[name] = file;
  }
  return out;
}

/**
 * The `spec.conversion` of a `config/crd/patches/webhook_in_*.yaml` file, its service pointed at
 * `kruise-webhook-service` in `kruise-system` (kruise-manager rewrites it to its URL when it starts).
 * @throws Error when the file has no `spec.conversion.webhook.clientConfig.service`
 */
function conversionOf(patchFile: string): Record<string, unknown> {
  const patch = readDocs(patchFile)[0] as unknown as CrdShape;
  const conversion = structuredClone(patch.spec.conversion) as {
    webhook?: { clientConfig?: { service?: Record<string, unknown> } };
  };
  const svc = conversion.webhook?.clientConfig?.service;
  if (!svc) throw new Error(`${patchFile}: no spec.conversion.webhook.clientConfig.service`);
  svc.name = WEBHOOK_SERVICE;
  svc.namespace = KRUISE_NAMESPACE;
  return conversion;
}

/**
 * A reference installed before a CRD got its conversion settings (before 2026-12-07 only CloneSets' and
 * SidecarSets' were set): adds them (a merge patch) to each CRD of {@link conversionPatches} that serves more than
 * one version and has none. Called while kruise-manager is stopped, which rewrites them to its URL when it starts.
 */
async function ensureConversions(paths: OpenKruisePaths, kubeconfig: string, log: Log): Promise<void> {
  for (const [name, file] of Object.entries(conversionPatches(paths))) {
    const crd = await getCrd(name, kubeconfig);
    if (!crd || crd.spec.versions.length < 2 || crd.spec.conversion?.strategy === 'Webhook') continue;
    const patch = JSON.stringify({ spec: { conversion: conversionOf(file) } });
    await kubectl(['patch', 'crd', name, '--type', 'merge', '-p', patch], kubeconfig);
    log(`[reference] conversion webhook set on ${name}`);
  }
}

/** Applies the module's two webhook configurations under OpenKruise's install names, pointed at its service. */
async function applyWebhooks(paths: OpenKruisePaths, kubeconfig: string): Promise<void> {
  type Hook = { clientConfig?: { service?: Record<string, unknown> } };
  const docs = readDocs(paths.webhookManifests) as {
    kind: string;
    metadata: { name: string };
    webhooks?: Hook[];
  }[];
  for (const doc of docs) {
    if (doc.kind === 'MutatingWebhookConfiguration') doc.metadata.name = WEBHOOK_CONFIGS.mutating;
    else if (doc.kind === 'ValidatingWebhookConfiguration') doc.metadata.name = WEBHOOK_CONFIGS.validating;
    else throw new Error(`${paths.webhookManifests}: unexpected kind ${doc.kind}`);
    for (const hook of doc.webhooks ?? []) {
      const svc = hook.clientConfig?.service;
      if (!svc) continue;
      svc.name = WEBHOOK_SERVICE;
      svc.namespace = KRUISE_NAMESPACE;
    }
  }
  const file = path.join(runDir(), 'openkruise-webhooks.yaml');
  fs.writeFileSync(file, docs.map((d) => stringify(d)).join('---\n'));
  await kubectl(
    ['apply', '--server-side', '--force-conflicts', `--field-manager=${FIELD_MANAGER}`, '-f', file],
    kubeconfig,
  );
}

/** Deletes the two kruise-* webhook configurations (with failurePolicy Fail they block writes once no one serves them). */
async function deleteWebhooks(kubeconfig: string): Promise<void> {
  await kubectl(
    [
      'delete',
      '--ignore-not-found',
      `mutatingwebhookconfiguration/${WEBHOOK_CONFIGS.mutating}`,
      `validatingwebhookconfiguration/${WEBHOOK_CONFIGS.validating}`,
    ],
    kubeconfig,
  );
}

/** Webhooks first (when the cluster answers), then the manager process (by pid file). */
async function stopManager(log: Log, kubeconfig: string | undefined): Promise<void> {
  if (kubeconfig) await deleteWebhooks(kubeconfig);
  if (await stopFromPidFile(managerPidFile(), 15000)) log('[reference] stopped kruise-manager');
  fs.rmSync(infoFile(), { force: true });
}

async function startManager(
  version: string,
  paths: OpenKruisePaths,
  featureGates: string,
  cluster: ClusterInfo,
  log: Log,
): Promise<ReferenceInfo> {
  const ports = { webhook: await freePort(), metrics: await freePort(), health: await freePort() };
  const certDir = path.join(stateDir(), 'openkruise-certs');
  fs.rmSync(certDir, { recursive: true, force: true });
  fs.mkdirSync(certDir, { recursive: true });
  const args = [
    '--enable-leader-election=false',
    `--metrics-addr=127.0.0.1:${ports.metrics}`,
    `--health-probe-addr=127.0.0.1:${ports.health}`,
    '--enable-pprof=false',
  ];
  if (featureGates) args.push(`--feature-gates=${featureGates}`);
  const rec = startProcess({
    name: 'kruise-manager',
    cmd: paths.manager,
    args,
    logFile: managerLog(),
    pidFile: managerPidFile(),
    env: {
      ...process.env,
      KUBECONFIG: cluster.kubeconfig,
      POD_NAMESPACE: KRUISE_NAMESPACE,
      WEBHOOK_HOST: 'localhost',
      WEBHOOK_PORT: String(ports.webhook),
      WEBHOOK_CERT_DIR: certDir,
    },
  });
  const info: ReferenceInfo = {
    kubeconfig: cluster.kubeconfig,
    server: cluster.server,
    stateDir: stateDir(),
    version,
    featureGates,
    ports,
    pid: rec.pid,
    log: managerLog(),
    startedAt: new Date().toISOString(),
  };
  const t0 = Date.now();
  const deadline = t0 + 180000;
  const dead = (): boolean => !isRunning(rec);
  const fail = async (why: string): Promise<never> => {
    await stopManager(log, cluster.kubeconfig);
    throw new Error(`kruise-manager ${why}; last lines of ${managerLog()}:\n${logTail(managerLog())}`);
  };
  log(`[reference] kruise-manager started (pid ${rec.pid}); waiting for /readyz and the webhooks`);
  // /readyz only: v1.8.2's probe server has no /healthz (404); /readyz is its webhook-ready check in both versions.
  const url = `http://127.0.0.1:${ports.health}/readyz`;
  if (!(await waitHealthy(url, Math.max(deadline - Date.now(), 0), undefined, dead))) {
    return fail(dead() ? 'exited' : `not ready at ${url} after ${fmtSecs(Date.now() - t0)}`);
  }
  const tHealthy = Date.now();
  for (;;) {
    if (dead()) return fail('exited');
    let lastError: string;
    try {
      await webhookProbe(cluster.kubeconfig);
      break;
    } catch (e) {
      lastError = errorMessage(e);
    }
    if (Date.now() > deadline)
      return fail(`webhooks do not answer after ${fmtSecs(Date.now() - t0)}: ${lastError}`);
    await sleep(1000);
  }
  log(
    `[reference] kruise-manager ready after ${fmtSecs(tHealthy - t0)}, webhooks answer after ${fmtSecs(Date.now() - t0)}`,
  );
  fs.writeFileSync(infoFile(), `${JSON.stringify(info, null, 2)}\n`);
  return info;
}

/**
 * Proves that the webhooks (and, for v1.9.0, the CRD conversion) answer: a CloneSet of 0 replicas is created,
 * edited and deleted in kruise-system, and a pod is created as a server-side dry run (so it passes the pod webhooks).
 * @throws Error from kubectl (typically "failed calling webhook") while they do not answer yet
 */
async function webhookProbe(kubeconfig: string): Promise<void> {
  const cs = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: PROBE_NAME, namespace: KRUISE_NAMESPACE },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: PROBE_NAME } },
      template: {
        metadata: { labels: { app: PROBE_NAME } },
        spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
      },
      updateStrategy: { type: 'InPlaceIfPossible' },
    },
  };
  const file = path.join(runDir(), 'probe-cloneset.yaml');
  fs.writeFileSync(file, stringify(cs));
  await kubectl(['apply', '-f', file], kubeconfig);
  await kubectl(
    [
      '-n',
      KRUISE_NAMESPACE,
      'patch',
      'clonesets.apps.kruise.io',
      PROBE_NAME,
      '--type=merge',
      '-p',
      '{"spec":{"minReadySeconds":1}}',
    ],
    kubeconfig,
  );
  await kubectl(
    ['-n', KRUISE_NAMESPACE, 'delete', 'clonesets.apps.kruise.io', PROBE_NAME, '--wait=true'],
    kubeconfig,
  );
  await kubectl(
    [
      '-n',
      KRUISE_NAMESPACE,
      'run',
      PROBE_NAME,
      '--image=nginx:alpine',
      '--restart=Never',
      '--dry-run=server',
    ],
    kubeconfig,
  );
}

/** Options of referenceDown. */
export interface ReferenceDownOptions {
  /**
   * Keep the reference's control plane running: then the reference's CRDs are removed and Kruiseless's CloneSet CRD
   * (infra/crds) is put back. CloneSets survive only when every version they were stored in is one Kruiseless's
   * CRD serves (v1.8.2); after v1.9.0 (stored as v1beta1) the CRD is deleted and re-created, so they are gone.
   */
  keepCluster?: boolean;
  log?: Log;
}

/**
 * Stops the reference: deletes the two kruise-* webhook configurations first (failurePolicy Fail would refuse every
 * pod and CloneSet write once no one serves them), stops kruise-manager, then stops the reference's control plane
 * (or, with keepCluster, puts Kruiseless's CRD back). A no-op for parts that do not run.
 * @throws Error from kubectl or from stopping the control plane
 */
export async function referenceDown(opts: ReferenceDownOptions = {}): Promise<void> {
  const log = opts.log ?? console.log;
  fs.mkdirSync(stateDir(), { recursive: true });
  await withLock(path.join(stateDir(), '.reference.lock'), log, async () => {
    const answers = await clusterAnswers();
    if (opts.keepCluster && answers && (await referenceInfo())) {
      // while kruise-manager still converts: every CloneSet rewritten in the version Kruiseless's CRD serves
      await storeCloneSetsAs(KRUISELESS_VERSION, kubeconfigFile(), log);
    }
    await stopManager(log, answers ? kubeconfigFile() : undefined);
    if (answers) log('[reference] webhook configurations deleted');
    if (!opts.keepCluster) {
      await localCluster('down', log);
      log('[reference] down: kruise-manager and its control plane stopped');
      return;
    }
    if (!answers) {
      log('[reference] down: kruise-manager stopped (no control plane answers)');
      return;
    }
    await restoreKruiselessCrd(kubeconfigFile(), log);
    await kubectl(
      ['delete', 'namespace', KRUISE_NAMESPACE, '--ignore-not-found', '--wait=false'],
      kubeconfigFile(),
    );
    log("[reference] down: kruise-manager stopped, control plane kept with Kruiseless's CRD");
  });
}

/**
 * Re-stores every CloneSet as `version` while kruise-manager still serves the conversion webhook: the CRD's storage
 * version becomes `version`, each CloneSet gets an empty merge patch (which the API server writes back in the new
 * storage version), and `version` becomes the only stored version, so that a CRD serving only `version` may then
 * replace OpenKruise's. A no-op when `version` is the only stored version already.
 * Kubernetes doc: "Upgrade existing objects to a new stored version" (custom-resource-definition-versioning).
 * @throws Error from kubectl (e.g. the conversion webhook not answering)
 */
async function storeCloneSetsAs(version: string, kubeconfig: string, log: Log): Promise<void> {
  const crd = await getCrd(CLONESET_CRD, kubeconfig);
  const stored = crd?.status?.storedVersions ?? [];
  if (!crd || (stored.length === 1 && stored[0] === version)) return;
  if (!crd.spec.versions.some((v) => v.name === version)) {
    throw new Error(`the CloneSet CRD serves no ${version}; its CloneSets cannot be re-stored as ${version}`);
  }
  const ops = crd.spec.versions.map((v, i) => ({
    op: 'replace',
    path: `/spec/versions/${i}/storage`,
    value: v.name === version,
  }));
  await kubectl(['patch', 'crd', CLONESET_CRD, '--type=json', '-p', JSON.stringify(ops)], kubeconfig);
  // the API server switches the storage version when its CRD informer sees the change
  await sleep(2000);
  type Item = { metadata: { name: string; namespace: string } };
  const list = await kubectlJson<{ items: Item[] }>(['get', 'clonesets.apps.kruise.io', '-A'], kubeconfig);
  for (const cs of list?.items ?? []) {
    await kubectl(
      [
        '-n',
        cs.metadata.namespace,
        'patch',
        'clonesets.apps.kruise.io',
        cs.metadata.name,
        '--type=merge',
        '-p',
        '{}',
      ],
      kubeconfig,
    );
  }
  await kubectl(
    [
      'patch',
      'crd',
      CLONESET_CRD,
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status: { storedVersions: [version] } }),
    ],
    kubeconfig,
  );
  log(
    `[reference] ${list?.items.length ?? 0} CloneSet(s) re-stored as ${version} (were ${stored.join(',')})`,
  );
}

/**
 * Removes the CRDs the reference installed and puts infra/crds in place whole (replaceCrd), each of its CRDs. A CRD
 * infra/crds also defines is replaced, keeping its objects, when every version it stored is one Kruiseless's serves
 * (the CloneSet CRD after storeCloneSetsAs; the Advanced StatefulSet CRD, v1beta1-stored on both sides, always);
 * otherwise it is deleted first, and its objects with it. The reference's other CRDs are deleted.
 */
async function restoreKruiselessCrd(kubeconfig: string, log: Log): Promise<void> {
  const list = (await kubectlJson<{ items: CrdShape[] }>(['get', 'crd'], kubeconfig)) ?? { items: [] };
  const ours = new Map<string, CrdShape>();
  for (const f of fs
    .readdirSync(CRD_DIR)
    .filter((n) => n.endsWith('.yaml'))
    .sort()) {
    for (const crd of readDocs(path.join(CRD_DIR, f)) as unknown as CrdShape[])
      ours.set(crd.metadata.name, crd);
  }
  for (const crd of list.items) {
    if (!crd.metadata.annotations?.[REFERENCE_ANNOTATION]) continue;
    const stored = crd.status?.storedVersions ?? [];
    const mine = ours.get(crd.metadata.name);
    if (mine && stored.every((v) => mine.spec.versions.some((sv) => sv.name === v))) continue;
    if (mine) {
      log(
        `[reference] ${crd.metadata.name} CRD stored as ${stored.join(',')}: deleting it (and its objects) before putting ours back`,
      );
    }
    await kubectl(['delete', 'crd', crd.metadata.name, '--wait=true', '--timeout=60s'], kubeconfig);
  }
  const cloneSets = ours.get(CLONESET_CRD);
  // the CloneSet CRD first, as before: the others (ImagePullJob, Advanced StatefulSet) follow in file order
  for (const crd of [...(cloneSets ? [cloneSets] : []), ...[...ours.values()].filter((c) => c !== cloneSets)])
    await replaceCrd(crd, kubeconfig);
  log('[reference] Kruiseless CloneSet CRD (infra/crds) back in place');
}
