/**
 * The local control plane: etcd -> kube-apiserver -> CRDs and StorageClasses -> kube-controller-manager ->
 * hostpath-provisioner -> kube-scheduler -> kwok with fake nodes, all on free loopback ports, state in `.kruiseless/`
 * (see versions.ts `stateDir()`): `kubeconfig`, `pki/`, `logs/<component>.log`, `run/<component>.pid`,
 * `run/cluster.json`, `etcd/`, `volumes/` (the provisioner's folders).
 *
 * Volumes (what OpenKruise's Advanced StatefulSet e2e needs, docs/research §1.5): the StorageClasses of
 * `storage-classes.yaml` (a default one and `allow-volume-expansion` / `disallow-volume-expansion`), dynamic
 * provisioning by `hostpath-provisioner` (provisioner.ts), binding by kube-controller-manager's
 * persistentvolume-binder-controller, `status.capacity` following a resize by the kwok stage `pvc-resize`; a resize
 * on a class without allowVolumeExpansion is refused by the API server's PersistentVolumeClaimResize admission.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureBinaries, run, type Log } from './build.js';
import { withLock } from '../../lib/core/dirLock.js';
import { parseManifests } from '../../lib/kube/apply.js';
import { freeLoopbackPort, saysAddressInUse } from '../../lib/core/loopbackPort.js';
import { probe, waitHealthy, type TlsFiles } from './net.js';
import { ensurePki, pkiPaths, type Pki } from './pki.js';
import { PROVISIONER_NAME, provisionerBinary } from './provisioner.js';
import { isRunning, logTail, readPidFile, startProcess, stopFromPidFile } from './processes.js';
import {
  binPath,
  CRD_DIR,
  kubeconfigPath,
  LOCAL_DIR,
  REPO_ROOT,
  stateDir,
  type Component,
} from './versions.js';

/** Components in start order; `cluster:down` stops them in reverse. */
export const COMPONENTS: readonly Component[] = [
  'etcd',
  'kube-apiserver',
  'kube-controller-manager',
  'hostpath-provisioner',
  'kube-scheduler',
  'kwok',
];

/**
 * Number of fake kwok nodes (kwok-node-0 ...): 3, what OpenKruise's WorkloadSpread and Advanced StatefulSet e2e
 * specs assume (docs/research §1.5 "Cluster shape"); nothing of CloneSet depends on the count.
 */
export const NODE_COUNT = 3;

/** What `run/cluster.json` records about a running cluster. */
export interface ClusterInfo {
  kubeconfig: string;
  server: string;
  ports: Record<'etcd' | 'etcdPeer' | 'apiserver' | 'controllerManager' | 'scheduler', number>;
  /**
   * kube-controller-manager's `--controllers` list as this cluster was started with it ({@link kcmControllers}):
   * `KRUISELESS_KCM_CONTROLLERS` is read only at start, so this is how a later process learns what a running
   * cluster's controller manager runs ({@link runningControllers}). Absent in a cluster.json written before it was
   * recorded.
   */
  controllers?: string[];
  /**
   * sha256 of the kwok stages the running kwok was started with ({@link kwokStagesDigest}). kwok reads its stages
   * once, at start: a control plane started by another checkout, or before infra/local/kwok-stages.yaml changed,
   * emulates the old stages until kwok is restarted ({@link clusterUp} does that). Absent in a cluster.json written
   * before it was recorded.
   */
  kwokStages?: string;
  startedAt: string;
}

/** This checkout's kwok stages (infra/local/kwok-stages.yaml). */
const KWOK_STAGES = path.join(LOCAL_DIR, 'kwok-stages.yaml');

/**
 * sha256 (hex) of a kwok stage file's bytes.
 * @param file default: this checkout's infra/local/kwok-stages.yaml
 * @throws Error when the file cannot be read
 */
export function kwokStagesDigest(file: string = KWOK_STAGES): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/**
 * Whether a running cluster's kwok emulates other stages than `file`: its recorded digest differs, or none is
 * recorded (a cluster started before the record, whose stages are unknown).
 */
export function kwokStagesStale(info: Pick<ClusterInfo, 'kwokStages'>, file: string = KWOK_STAGES): boolean {
  return info.kwokStages !== kwokStagesDigest(file);
}

const runDir = (): string => path.join(stateDir(), 'run');
const logDir = (): string => path.join(stateDir(), 'logs');
const pidFile = (c: Component): string => path.join(runDir(), `${c}.pid`);
const logFile = (c: Component): string => path.join(logDir(), `${c}.log`);
const infoFile = (): string => path.join(runDir(), 'cluster.json');
const adminTls = (pki: Pki): TlsFiles => ({ ca: pki.caCert, cert: pki.adminCert, key: pki.adminKey });

/**
 * The running cluster started from this state folder, if every component is alive and /readyz answers.
 * @returns its info, or undefined when nothing (healthy) runs
 */
export async function runningCluster(): Promise<ClusterInfo | undefined> {
  if (!fs.existsSync(infoFile())) return undefined;
  const info = JSON.parse(fs.readFileSync(infoFile(), 'utf8')) as ClusterInfo;
  for (const c of COMPONENTS) {
    const rec = readPidFile(pidFile(c));
    if (!rec || !isRunning(rec)) return undefined;
  }
  const ready = await probe(`${info.server}/readyz`, adminTls(pkiPaths(path.join(stateDir(), 'pki'))));
  return ready?.status === 200 ? info : undefined;
}

/** Stops every process this state folder has a pid file for (reverse start order). */
async function stopAll(log: Log): Promise<void> {
  for (const c of [...COMPONENTS].reverse()) {
    if (await stopFromPidFile(pidFile(c))) log(`[down] stopped ${c}`);
  }
  fs.rmSync(infoFile(), { force: true });
}

/**
 * Starts the control plane unless it already runs (then a no-op). Leftovers of a dead run (stale pid
 * files, processes of a half-dead cluster, old etcd data) are stopped and wiped first. Builds the binaries
 * when missing. On failure everything started here is stopped again.
 * @returns the cluster info and whether this call started it
 * @throws Error naming the component that failed, with the tail of its log
 */
export async function clusterUp(log: Log = console.log): Promise<{ info: ClusterInfo; started: boolean }> {
  fs.mkdirSync(stateDir(), { recursive: true });
  return withLock(path.join(stateDir(), '.lock'), log, async () => {
    const existing = await runningCluster();
    if (existing) {
      log(`[up] already running: ${existing.server} (kubeconfig ${existing.kubeconfig})`);
      // a control plane started by another checkout, or before a kind or a namespace was added, gets the CRDs and
      // namespaces it lacks now (a parity run against it met 404 for a kind it did not know); a CRD it has is left
      // as it is: a running `kruiseless local` may have pointed it at its conversion webhook
      await applyMissingCrds(existing.kubeconfig, log);
      await applyNamespaces(existing.kubeconfig, log);
      // and kwok, which read its stages at start, emulates this checkout's (an e2e run against a control plane left
      // by an earlier checkout emulated the stages of that one)
      const info = kwokStagesStale(existing) ? await restartKwok(existing, log) : existing;
      return { info, started: false };
    }
    await stopAll(log); // stale or half-dead run
    await ensureBinaries(log);
    const t0 = Date.now();
    try {
      const info = await start(log);
      log(`[up] control plane ready in ${((Date.now() - t0) / 1000).toFixed(1)}s: ${info.server}`);
      log(`[up] kubeconfig: ${info.kubeconfig}   logs: ${logDir()}`);
      return { info, started: true };
    } catch (e) {
      await stopAll(log);
      throw e;
    }
  });
}

/**
 * Server-side applies infra/crds and waits until every CRD is Established. Idempotent; fields other managers set
 * (a conversion webhook `kruiseless local` points a CRD at) are left as they are.
 * @throws Error when kubectl fails or a CRD is not Established within 60 s
 */
async function applyCrds(kubeconfig: string, log: Log): Promise<void> {
  log('[up] installing CRDs from infra/crds');
  await kubectl(['apply', '--server-side', '--force-conflicts', '-f', CRD_DIR], kubeconfig);
  await kubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd', '--all'], kubeconfig);
}

/**
 * Server-side applies the files of infra/crds whose CRDs the cluster does not have, and waits for them.
 * @throws Error when kubectl fails or a CRD is not Established within 60 s
 */
async function applyMissingCrds(kubeconfig: string, log: Log): Promise<void> {
  const files = fs
    .readdirSync(CRD_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => ({
      file: f,
      names: parseManifests(fs.readFileSync(path.join(CRD_DIR, f), 'utf8'), `infra/crds/${f}`).map(
        (crd) => crd.metadata?.name ?? '',
      ),
    }));
  // only ours are asked for: `run` keeps the last 40 lines of output
  const present = new Set(
    await kubectl(
      ['get', 'crd', '--ignore-not-found', '-o', 'name', ...files.flatMap((f) => f.names)],
      kubeconfig,
    ),
  );
  const missing = files
    .filter((f) => f.names.some((n) => !present.has(`customresourcedefinition.apiextensions.k8s.io/${n}`)))
    .map((f) => f.file);
  if (missing.length === 0) return;
  log(`[up] installing the CRDs this control plane lacks: ${missing.join(', ')}`);
  await kubectl(
    ['apply', '--server-side', '--force-conflicts', ...missing.flatMap((f) => ['-f', path.join(CRD_DIR, f)])],
    kubeconfig,
  );
  await kubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd', '--all'], kubeconfig);
}

/**
 * Applies infra/namespaces.yaml (the namespaces an OpenKruise installation creates that Kruiseless writes
 * into: kruise-system, for SidecarSet ControllerRevisions). Idempotent.
 * @throws Error when kubectl fails
 */
async function applyNamespaces(kubeconfig: string, log: Log): Promise<void> {
  log('[up] applying namespaces from infra/namespaces.yaml');
  await kubectl(['apply', '-f', path.join(REPO_ROOT, 'infra', 'namespaces.yaml')], kubeconfig);
}

/** Stops the processes `clusterUp` started (by pid file) and wipes etcd data; keeps PKI and logs. */
export async function clusterDown(log: Log = console.log): Promise<void> {
  fs.mkdirSync(stateDir(), { recursive: true });
  await withLock(path.join(stateDir(), '.lock'), log, async () => {
    await stopAll(log);
    fs.rmSync(path.join(stateDir(), 'etcd'), { recursive: true, force: true });
    log('[down] control plane stopped');
  });
}

/** Runs the built kubectl against the local cluster; throws with its output on failure. */
export function kubectl(args: string[], kubeconfig = kubeconfigPath()): Promise<string[]> {
  return run(binPath('kubectl'), [`--kubeconfig=${kubeconfig}`, ...args]);
}

async function start(log: Log): Promise<ClusterInfo> {
  const pki = await ensurePki(path.join(stateDir(), 'pki'));
  const etcdDir = path.join(stateDir(), 'etcd');
  fs.rmSync(etcdDir, { recursive: true, force: true });
  fs.mkdirSync(logDir(), { recursive: true });
  const [etcdPort, etcdPeerPort] = await launchOnFreePorts(log, 'etcd', 2, ([client, peer]) => {
    fs.rmSync(etcdDir, { recursive: true, force: true });
    const clientUrl = `http://127.0.0.1:${client}`;
    const peerUrl = `http://127.0.0.1:${peer}`;
    return {
      health: { url: `${clientUrl}/readyz`, timeoutMs: 30000 },
      args: [
        '--name=kruiseless',
        `--data-dir=${etcdDir}`,
        `--listen-client-urls=${clientUrl}`,
        `--advertise-client-urls=${clientUrl}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=kruiseless=${peerUrl}`,
        '--unsafe-no-fsync=true',
        '--log-level=warn',
      ],
    };
  });
  const etcdUrl = `http://127.0.0.1:${etcdPort}`;
  const kubeconfig = kubeconfigPath();
  const [apiserverPort] = await launchOnFreePorts(log, 'kube-apiserver', 1, ([port]) => {
    writeKubeconfig(kubeconfig, `https://127.0.0.1:${port}`, pki);
    return {
      health: { url: `https://127.0.0.1:${port}/readyz`, timeoutMs: 90000, tls: adminTls(pki) },
      args: [
        `--etcd-servers=${etcdUrl}`,
        '--bind-address=127.0.0.1',
        `--secure-port=${port}`,
        `--tls-cert-file=${pki.serverCert}`,
        `--tls-private-key-file=${pki.serverKey}`,
        `--client-ca-file=${pki.caCert}`,
        '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
        `--service-account-key-file=${pki.saPub}`,
        `--service-account-signing-key-file=${pki.saKey}`,
        '--service-cluster-ip-range=10.96.0.0/16',
        '--authorization-mode=RBAC',
        '--disable-admission-plugins=ServiceAccount,TaintNodesByCondition',
        '--allow-privileged=true',
        '--endpoint-reconciler-type=none',
        '--profiling=false',
        // compact etcd every 10 s (default 5 min) so that "too old resourceVersion" (410 Gone), which a watch pump
        // must survive, happens within seconds on a fresh cluster too
        '--etcd-compaction-interval=10s',
        // configmaps (unused by Kruiseless) are watched straight from etcd, so a watch from a compacted
        // resourceVersion really gets 410 (the watch cache would accept revisions as old as its own start)
        '--watch-cache-sizes=configmaps#0',
        ...auditArgs(),
      ],
    };
  });
  const server = `https://127.0.0.1:${apiserverPort}`;
  // CRDs before the controller manager: its garbage collector re-discovers resources only every 30 s.
  await applyCrds(kubeconfig, log);
  log('[up] installing StorageClasses from infra/local/storage-classes.yaml');
  await kubectl(['apply', '-f', path.join(LOCAL_DIR, 'storage-classes.yaml')], kubeconfig);
  await applyNamespaces(kubeconfig, log);
  const componentArgs = (port: number): string[] => [
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    '--leader-elect=false',
  ];
  let controllerManagerArgs: string[] = [];
  const [controllerManagerPort] = await launchOnFreePorts(log, 'kube-controller-manager', 1, ([port]) => {
    controllerManagerArgs = [...componentArgs(port), `--controllers=${kcmControllers()}`];
    return {
      health: { url: `https://127.0.0.1:${port}/healthz`, timeoutMs: 60000 },
      args: controllerManagerArgs,
    };
  });
  await launch(log, 'hostpath-provisioner', { cmd: provisionerBinary() }, [
    `--kubeconfig=${kubeconfig}`,
    `--provisioner-name=${PROVISIONER_NAME}`,
    `--root=${path.join(stateDir(), 'volumes')}`,
  ]);
  const [schedulerPort] = await launchOnFreePorts(log, 'kube-scheduler', 1, ([port]) => ({
    health: { url: `https://127.0.0.1:${port}/healthz`, timeoutMs: 60000 },
    args: componentArgs(port),
  }));
  const kwokStages = await launchKwok(kubeconfig, log);
  log(`[up] creating ${NODE_COUNT} fake nodes, waiting for Ready`);
  const nodesFile = path.join(runDir(), 'nodes.yaml');
  fs.writeFileSync(nodesFile, fakeNodes(NODE_COUNT));
  await kubectl(['apply', '-f', nodesFile], kubeconfig);
  try {
    await kubectl(['wait', '--for=condition=Ready', '--timeout=60s', 'node', '--all'], kubeconfig);
  } catch (e) {
    throw new Error(
      `fake nodes did not become Ready (kwok log tail):\n${logTail(logFile('kwok'))}\n${String(e)}`,
      { cause: e },
    );
  }
  const ports = {
    etcd: etcdPort,
    etcdPeer: etcdPeerPort,
    apiserver: apiserverPort,
    controllerManager: controllerManagerPort,
    scheduler: schedulerPort,
  };
  const info: ClusterInfo = {
    kubeconfig,
    server,
    ports,
    controllers: controllersOf(controllerManagerArgs),
    kwokStages,
    startedAt: new Date().toISOString(),
  };
  fs.writeFileSync(infoFile(), JSON.stringify(info, null, 2));
  return info;
}

/**
 * Starts kwok with a copy of this checkout's stages in the state folder (`run/kwok-stages.yaml`: the running kwok
 * never depends on a checkout that may be gone or changed).
 * @returns the digest of the stages it runs ({@link kwokStagesDigest})
 * @throws Error when kwok does not start
 */
async function launchKwok(kubeconfig: string, log: Log): Promise<string> {
  const stages = path.join(runDir(), 'kwok-stages.yaml');
  fs.copyFileSync(KWOK_STAGES, stages);
  await launch(log, 'kwok', {}, [
    `--kubeconfig=${kubeconfig}`,
    `--config=${stages}`,
    '--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake',
    '--node-ip=127.0.0.1',
    '--cidr=10.244.0.0/16',
    '--node-lease-duration-seconds=0',
  ]);
  return kwokStagesDigest(stages);
}

/**
 * Restarts the kwok of a running cluster with this checkout's stages and records them in `run/cluster.json`. The
 * nodes and pods stay: kwok keeps no state of its own.
 * @returns the cluster's info with the new record
 * @throws Error when kwok does not start again, or the nodes are not Ready within 60 s
 */
async function restartKwok(info: ClusterInfo, log: Log): Promise<ClusterInfo> {
  log(
    '[up] kwok runs other stages than infra/local/kwok-stages.yaml of this checkout: restarting it with them',
  );
  await stopFromPidFile(pidFile('kwok'));
  const next: ClusterInfo = { ...info, kwokStages: await launchKwok(info.kubeconfig, log) };
  await kubectl(['wait', '--for=condition=Ready', '--timeout=60s', 'node', '--all'], info.kubeconfig);
  fs.writeFileSync(infoFile(), JSON.stringify(next, null, 2));
  return next;
}

/** Where a component answers once it is up, and how long to wait for that. */
interface HealthCheck {
  /** An endpoint that answers 200 when the component is ready, e.g. `https://127.0.0.1:6443/readyz`. */
  url: string;
  /** How long to wait, ms. */
  timeoutMs: number;
  /** Client certificate for an endpoint that asks for one (the API server's). */
  tls?: TlsFiles;
}

/**
 * Starts one component with `args` and waits for `opts.health` (without one, "still running" is enough).
 * @param opts.cmd the executable (default: the component's in the Kubernetes cache folder, versions.ts `binPath`)
 * @throws Error naming the component, with the tail of its log, when it dies or is not healthy in time
 */
async function launch(
  log: Log,
  name: Component,
  opts: { health?: HealthCheck; cmd?: string },
  args: string[],
): Promise<void> {
  const { health } = opts;
  const t0 = Date.now();
  const rec = startProcess({
    name,
    cmd: opts.cmd ?? binPath(name as Exclude<Component, 'hostpath-provisioner'>),
    args,
    logFile: logFile(name),
    pidFile: pidFile(name),
  });
  const dead = (): boolean => !isRunning(rec);
  const ok = health ? await waitHealthy(health.url, health.timeoutMs, health.tls, dead) : !dead();
  if (!ok || dead()) {
    const why = dead() ? 'exited' : `not healthy at ${health?.url} after ${(health?.timeoutMs ?? 0) / 1000}s`;
    throw new Error(
      `${name} failed to start (${why}); last lines of ${logFile(name)}:\n${logTail(logFile(name))}`,
    );
  }
  log(`[up] ${name} running (pid ${rec.pid}, ${((Date.now() - t0) / 1000).toFixed(1)}s)`);
}

/** How often a component is started on fresh ports after it could not bind the ones drawn. */
export const PORT_CLASH_ATTEMPTS = 3;

/**
 * Starts a component that listens on `count` ports: draws free loopback ports (lib/core/loopbackPort.ts), builds the
 * component's health check and arguments from them with `build`, and launches it; when the component dies saying
 * its address is in use (another process bound the port in between), starts it again on freshly drawn ports, at
 * most {@link PORT_CLASH_ATTEMPTS} times in all.
 * @returns the ports the running component listens on, in the order `build` got them
 * @throws Error from {@link launch} when the component fails for another reason or clashes on every attempt
 */
async function launchOnFreePorts(
  log: Log,
  name: Component,
  count: number,
  build: (ports: number[]) => { health: HealthCheck; args: string[] },
): Promise<number[]> {
  for (let attempt = 1; ; attempt++) {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) ports.push(await freeLoopbackPort());
    const { health, args } = build(ports);
    try {
      await launch(log, name, { health }, args);
      return ports;
    } catch (e) {
      if (attempt >= PORT_CLASH_ATTEMPTS || !saysAddressInUse(logTail(logFile(name), 5))) throw e;
      await stopFromPidFile(pidFile(name));
      log(`[up] ${name} could not bind ${ports.join(', ')} (address already in use); again on other ports`);
    }
  }
}

/**
 * The audit policy of {@link auditArgs}: one event per finished request (`RequestReceived` and `ResponseStarted`
 * omitted, so a watch gives one event when it ends), at level Metadata (user, user agent, verb, resource,
 * subresource, namespace, name, response code: no bodies) for every resource request and for `GET /metrics` (the
 * bench's scrapes, which mark its measuring windows); other non-resource requests (`/readyz`, discovery) at None.
 * With `bodies`, writes of pods and their subresources at level Request (the patch or object sent too), to see
 * what a write changed. Upstream: k8s.io/apiserver/pkg/apis/audit/v1 `Policy` (kube-apiserver's
 * `--audit-policy-file`).
 */
export function auditPolicy(bodies: boolean): string {
  const podWrites = bodies
    ? `  - level: Request
    verbs: [create, update, patch]
    resources: [{ group: '', resources: [pods, pods/status, pods/resize] }]
`
    : '';
  return `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived, ResponseStarted]
rules:
  - level: Metadata
    nonResourceURLs: [/metrics]
  - level: None
    nonResourceURLs: ['*']
${podWrites}  - level: Metadata
`;
}

/**
 * kube-apiserver's audit flags when env KRUISELESS_AUDIT_LOG is `1`, or `bodies` for pod writes with their bodies
 * (read when the control plane starts; off by default, so a normal start is unchanged): the policy
 * {@link auditPolicy} written to `run/audit-policy.yaml`, the
 * log to `logs/audit.log` as JSON lines (kube-apiserver's `--audit-log-path`, `--audit-log-format=json`, batching
 * off so the log is complete when a run ends; one 1 GB file, no rotation). Who sent each request is its
 * `userAgent`: the API server's request metric has no client label (BENCHMARKS.md#cloneset-audit).
 * @returns the flags, or none
 */
export function auditArgs(env: NodeJS.ProcessEnv = process.env): string[] {
  const mode = env.KRUISELESS_AUDIT_LOG;
  if (mode !== '1' && mode !== 'bodies') return [];
  const policy = path.join(runDir(), 'audit-policy.yaml');
  fs.mkdirSync(runDir(), { recursive: true });
  fs.writeFileSync(policy, auditPolicy(mode === 'bodies'));
  return [
    `--audit-policy-file=${policy}`,
    `--audit-log-path=${auditLogFile()}`,
    '--audit-log-format=json',
    '--audit-log-mode=blocking',
    '--audit-log-maxsize=1000',
    '--audit-log-maxbackup=0',
  ];
}

/** Where kube-apiserver writes its audit log when {@link auditArgs} turned it on. */
export function auditLogFile(): string {
  return path.join(logDir(), 'audit.log');
}

/**
 * Controllers kube-controller-manager always runs (the rest of the cluster's work is Kruiseless's, kwok's or the
 * provisioner's): the PV controller binds claims to the volumes hostpath-provisioner creates and releases them,
 * the protection controllers remove the `kubernetes.io/pvc-protection` / `pv-protection` finalizers once unused,
 * and the Job controller runs the batch/v1 Jobs an AdvancedCronJob with a `jobTemplate` creates.
 */
export const DEFAULT_KCM_CONTROLLERS = [
  'garbage-collector-controller',
  'namespace-controller',
  'persistentvolumeclaim-protection-controller',
  'persistentvolume-binder-controller',
  'persistentvolume-protection-controller',
  'job-controller',
] as const;

/**
 * The `--controllers` value of kube-controller-manager: DEFAULT_KCM_CONTROLLERS plus the comma-separated names in
 * env KRUISELESS_KCM_CONTROLLERS (kube-controller-manager's own spelling, e.g.
 * `deployment-controller,replicaset-controller` for a Deployment reference). Read when the cluster starts: a
 * cluster that already runs keeps its controllers until `cluster:down`.
 */
export function kcmControllers(): string {
  const extra = (process.env.KRUISELESS_KCM_CONTROLLERS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return [...new Set([...DEFAULT_KCM_CONTROLLERS, ...extra])].join(',');
}

/**
 * The `--controllers` list of a kube-controller-manager command line (`--controllers=a,b` or `--controllers a,b`,
 * the last one winning as with pflag); `['*']`, kube-controller-manager's default, when there is none.
 * @param args the command line after the program name
 */
export function controllersOf(args: readonly string[]): string[] {
  let value = '*';
  args.forEach((a, i) => {
    if (a.startsWith('--controllers=')) value = a.slice('--controllers='.length);
    else if (a === '--controllers' && i + 1 < args.length) value = args[i + 1];
  });
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * What the kube-controller-manager of the control plane in state folder `dir` runs, its `--controllers` list (the
 * one place that knows: the bench, for one, must not reuse a control plane without the Deployment controller).
 * Read from `run/cluster.json` (recorded at start, {@link ClusterInfo.controllers}); for a cluster started before
 * that was recorded, from the command line (`/proc/<pid>/cmdline`) of the process its pid file names, when that is
 * still the recorded process. Reads only.
 * @param dir state folder (default: this process's, versions.ts `stateDir()`)
 * @returns undefined when no kube-controller-manager is recorded as running there, or neither source can be read
 */
export function runningControllers(dir: string = stateDir()): string[] | undefined {
  const rec = readPidFile(path.join(dir, 'run', 'kube-controller-manager.pid'));
  if (!rec || !isRunning(rec)) return undefined;
  try {
    const info = JSON.parse(fs.readFileSync(path.join(dir, 'run', 'cluster.json'), 'utf8')) as ClusterInfo;
    if (Array.isArray(info.controllers)) return info.controllers;
  } catch {
    // no cluster.json (yet): the command line tells
  }
  try {
    const argv = fs
      .readFileSync(`/proc/${rec.pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((s) => s !== '');
    return controllersOf(argv.slice(1));
  } catch {
    return undefined;
  }
}

/** Admin kubeconfig (client certificate in system:masters) for `server`. */
function writeKubeconfig(file: string, server: string, pki: Pki): void {
  const yaml = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: kruiseless-local`,
    `  cluster: {server: "${server}", certificate-authority: "${pki.caCert}"}`,
    'users:',
    '- name: admin',
    `  user: {client-certificate: "${pki.adminCert}", client-key: "${pki.adminKey}"}`,
    'contexts:',
    '- name: kruiseless-local',
    '  context: {cluster: kruiseless-local, user: admin}',
    'current-context: kruiseless-local',
    '',
  ].join('\n');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, yaml, { mode: 0o600 });
}

/** Node objects kwok manages (annotation kwok.x-k8s.io/node=fake); no taints, so pods need no tolerations. */
function fakeNodes(count: number): string {
  return Array.from({ length: count }, (_, i) => {
    const name = `kwok-node-${i}`;
    return [
      'apiVersion: v1',
      'kind: Node',
      'metadata:',
      `  name: ${name}`,
      `  labels: {type: kwok, kubernetes.io/hostname: ${name}, kubernetes.io/os: linux, kubernetes.io/arch: amd64}`,
      '  annotations: {kwok.x-k8s.io/node: fake, node.alpha.kubernetes.io/ttl: "0"}',
      'status:',
      '  allocatable: {cpu: "32", memory: 256Gi, pods: "110"}',
      '  capacity: {cpu: "32", memory: 256Gi, pods: "110"}',
    ].join('\n');
  }).join('\n---\n');
}
