/**
 * What upstream's own e2e runs do to a cluster before the suite, done on each side of `npm run parity:upstream-e2e`
 * after it is up: the manifest files a kind's `upstreamE2e.manifests` names (./kind.ts `UpstreamE2eManifest`) are
 * read from Go modules — the OpenKruise module copy the suite is built in, or another module from the Go module
 * proxy — and applied server-side in order, as OpenKruise's tools/hack/run-kruise-e2e-test.sh applies the TFJob CRD
 * (kubeflow training-operator's `kubeflow.org_tfjobs.yaml`) and its CI applies `test/kruise-e2e-config.yaml`. A CRD
 * is waited for until Established before anything after it; a namespace an object is in is created when missing (the
 * Kruiseless side's control plane need not have `kruise-system`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import { goEnv, goModDownload } from '../../infra/local/build.js';
import { KruiselessError, errorMessage } from '../../lib/core/errors.js';
import { applyServerSide, parseManifests } from '../../lib/kube/apply.js';
import { createKubeClient } from '../../lib/kube/client.js';
import { isAlreadyExists } from '../../lib/kube/errors.js';
import type { KubeObject, Resource } from '../../lib/kube/resource.js';
import { CRD_RESOURCE } from '../../lib/kube/resources.js';
import type { KubeClient } from '../../lib/kube/types.js';
import type { UpstreamE2eManifest } from './kind.js';
import type { Side } from './sides.js';

/** The field manager of every object the setup applies (`kubectl get -o yaml --show-managed-fields` shows it). */
export const SETUP_FIELD_MANAGER = 'kruiseless-upstream-e2e';
/** How long a CRD the setup applies may take to be Established. */
export const ESTABLISHED_TIMEOUT_MS = 60_000;

/** A setup file that cannot be found, read or parsed, or an object of it the cluster did not take. */
export class UpstreamE2eSetupError extends KruiselessError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UpstreamE2eSetupError';
  }
}

/** One manifest file of the setup as read: its path on this machine and its objects in file order. */
export interface SetupManifestFile {
  /** absolute path of the file read (named in errors) */
  file: string;
  /** its non-empty documents, in order (lib/kube/apply.ts `parseManifests`) */
  objects: KubernetesObject[];
}

/** Where {@link readUpstreamE2eManifests} finds the modules. */
export interface ManifestSources {
  /** the OpenKruise module copy the suite was built in (infra/reference/build.ts `ensureOpenKruiseE2e`'s `moduleDir`) */
  openKruiseDir: string;
  /**
   * Downloads `<module>@<version>` and gives its read-only folder. Default: infra/local/build.ts `goModDownload`
   * (`go mod download -json`, from the Go module proxy) with its `goEnv()`.
   */
  download?: (spec: string) => Promise<{ dir: string }>;
}

/** How a manifest is named in messages: `OpenKruise module <file>` or `<module>@<version> <file>`. */
export function manifestLabel(m: UpstreamE2eManifest): string {
  return m.from === 'openkruise' ? `OpenKruise module ${m.file}` : `${m.module}@${m.version} ${m.file}`;
}

/**
 * Where a manifest file is on this machine: under the OpenKruise module copy, or under the folder `go mod download`
 * gives for `<module>@<version>` (downloaded when not in the module cache).
 * @returns the absolute path of an existing file
 * @throws UpstreamE2eSetupError naming the manifest when its `file` is absolute or climbs out with `..`, when the
 *   download fails (go's message), or when the module has no such file
 */
export async function manifestPath(m: UpstreamE2eManifest, sources: ManifestSources): Promise<string> {
  const label = manifestLabel(m);
  if (path.isAbsolute(m.file) || m.file.split('/').includes('..'))
    throw new UpstreamE2eSetupError(`upstream e2e setup: ${label}: not a path inside the module`);
  let root: string;
  if (m.from === 'openkruise') root = sources.openKruiseDir;
  else {
    const download = sources.download ?? ((spec: string) => goModDownload(spec, goEnv()));
    try {
      root = (await download(`${m.module}@${m.version}`)).dir;
    } catch (e) {
      throw new UpstreamE2eSetupError(`upstream e2e setup: ${label}: ${errorMessage(e)}`, { cause: e });
    }
  }
  const file = path.join(root, ...m.file.split('/'));
  if (!existsSync(file)) throw new UpstreamE2eSetupError(`upstream e2e setup: ${label}: no file ${file}`);
  return file;
}

/**
 * Reads every manifest of a kind's setup, in order, before any side is started (so that a missing module or file
 * fails the run at once).
 * @returns one entry per manifest, its objects in file order (empty YAML documents, e.g. after a leading `---`, are
 *   left out)
 * @throws UpstreamE2eSetupError as {@link manifestPath}, or naming the file when it does not parse, a document is not
 *   a Kubernetes object, or it holds no object at all
 */
export async function readUpstreamE2eManifests(
  manifests: readonly UpstreamE2eManifest[],
  sources: ManifestSources,
): Promise<SetupManifestFile[]> {
  const out: SetupManifestFile[] = [];
  for (const m of manifests) {
    const file = await manifestPath(m, sources);
    let objects: KubernetesObject[];
    try {
      objects = parseManifests(readFileSync(file, 'utf8'), file);
    } catch (e) {
      throw new UpstreamE2eSetupError(`upstream e2e setup: ${errorMessage(e)}`, { cause: e });
    }
    if (objects.length === 0) throw new UpstreamE2eSetupError(`upstream e2e setup: ${file}: no object in it`);
    out.push({ file, objects });
  }
  return out;
}

/** `<kind>/<name>` of an object, as the progress lines name it, e.g. `ConfigMap/kruise-configuration`. */
export function objectLabel(o: KubernetesObject): string {
  return `${o.kind ?? '?'}/${o.metadata?.name ?? '?'}`;
}

/** True for an `apiextensions.k8s.io` CustomResourceDefinition (waited for until Established). */
export function isCrd(o: KubernetesObject): boolean {
  return o.kind === 'CustomResourceDefinition' && (o.apiVersion ?? '').startsWith('apiextensions.k8s.io/');
}

/** The namespaces `objects` are in (their `metadata.namespace`), each once, in first-seen order. */
export function namespacesOf(objects: readonly KubernetesObject[]): string[] {
  return [...new Set(objects.flatMap((o) => (o.metadata?.namespace ? [o.metadata.namespace] : [])))];
}

/** One status condition of a CRD, the fields the wait reads. */
interface CrdCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** A CRD as the wait reads it. */
export interface CrdWithStatus extends KubeObject {
  status?: { conditions?: CrdCondition[] };
}

/** Options of {@link waitEstablished}; the clock and sleep are for tests. */
export interface WaitEstablishedOptions {
  /** default {@link ESTABLISHED_TIMEOUT_MS} */
  timeoutMs?: number;
  /** pause between reads; default 500 ms */
  intervalMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** The conditions of a CRD for the timeout message: `NamesAccepted=False (reason: message)`, …, or why there are none. */
function conditionsText(crd: CrdWithStatus | undefined): string {
  if (!crd) return 'not found';
  const conditions = crd.status?.conditions ?? [];
  if (conditions.length === 0) return 'no conditions yet';
  return conditions
    .map((c) => {
      const why = [c.reason, c.message].filter((s) => s).join(': ');
      return `${c.type}=${c.status}${why ? ` (${why})` : ''}`;
    })
    .join(', ');
}

/**
 * Reads the CRD `name` until its `Established` condition is `True` (as `kubectl wait --for=condition=Established`
 * after upstream's `kubectl apply`), at most `timeoutMs`.
 * @param read one read of the CRD; undefined when it does not exist (yet)
 * @throws UpstreamE2eSetupError `CustomResourceDefinition <name> not Established within <s> s (<conditions>)` when the
 *   time is up; whatever `read` throws
 */
export async function waitEstablished(
  read: () => Promise<CrdWithStatus | undefined>,
  name: string,
  opts: WaitEstablishedOptions = {},
): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? ESTABLISHED_TIMEOUT_MS;
  const intervalMs = opts.intervalMs ?? 500;
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = now() + timeoutMs;
  for (;;) {
    const crd = await read();
    if (crd?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return;
    if (now() >= deadline)
      throw new UpstreamE2eSetupError(
        `CustomResourceDefinition ${name} not Established within ${timeoutMs / 1000} s (${conditionsText(crd)})`,
      );
    await sleep(intervalMs);
  }
}

/** core/v1 Namespaces, for the setup's create of a missing one. */
const NAMESPACES: Resource = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  namespaced: false,
  kind: 'Namespace',
};

/**
 * Creates namespace `name` unless it exists (a create that races another is fine).
 * @returns true when this call created it
 * @throws KubeApiError from the API server other than AlreadyExists
 */
async function ensureNamespace(kube: KubeClient, name: string): Promise<boolean> {
  if (await kube.get(NAMESPACES, { name })) return false;
  try {
    await kube.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    return true;
  } catch (e) {
    if (isAlreadyExists(e)) return false;
    throw e;
  }
}

/**
 * Applies a kind's setup files (from {@link readUpstreamE2eManifests}) to one side, file by file and object by object
 * in file order, as upstream's setup does before its suite: the object's namespace created first when missing
 * (`[upstream-e2e] <side>: created Namespace/<name>`), then the object server-side applied (field manager
 * {@link SETUP_FIELD_MANAGER}, conflicts forced, as re-running the setup on a side that has it must succeed), a CRD
 * then waited for until Established; one line `[upstream-e2e] <side>: applied <kind>/<name>` per object (`opts.prefix`
 * in place of `[upstream-e2e]`: `npm run parity` prints `[parity]`).
 * @param kubeconfig the side's kubeconfig file
 * @param side the side's name in the lines and errors, e.g. `openkruise`
 * @returns each object applied, in order, with the time of its latest change as the API server answered the apply
 * @throws UpstreamE2eSetupError `upstream e2e setup on <side>: <file>: <kind>/<name>: <reason>` for the first object
 *   that fails (the ones before stay applied)
 */
export async function applyUpstreamE2eSetup(
  kubeconfig: string,
  files: readonly SetupManifestFile[],
  side: string,
  log: (line: string) => void,
  opts: { establishedTimeoutMs?: number; prefix?: string } = {},
): Promise<AppliedSetupObject[]> {
  const prefix = opts.prefix ?? '[upstream-e2e]';
  const applied: AppliedSetupObject[] = [];
  if (files.length === 0) return applied;
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const kube = createKubeClient(kc);
  const ensured = new Set<string>();
  for (const { file, objects } of files) {
    for (const o of objects) {
      try {
        for (const ns of namespacesOf([o]).filter((n) => !ensured.has(n))) {
          if (await ensureNamespace(kube, ns)) log(`${prefix} ${side}: created Namespace/${ns}`);
          ensured.add(ns);
        }
        await applyServerSide(kc, [o], SETUP_FIELD_MANAGER, {
          onApplied: (_, stored) => applied.push({ label: objectLabel(o), changedAt: lastChangedAt(stored) }),
        });
        if (isCrd(o)) {
          const name = o.metadata?.name ?? '';
          await waitEstablished(() => kube.get<CrdWithStatus>(CRD_RESOURCE, { name }), name, {
            timeoutMs: opts.establishedTimeoutMs,
          });
        }
      } catch (e) {
        throw new UpstreamE2eSetupError(
          `upstream e2e setup on ${side}: ${file}: ${objectLabel(o)}: ${errorMessage(e)}`,
          { cause: e },
        );
      }
      log(`${prefix} ${side}: applied ${objectLabel(o)}`);
    }
  }
  return applied;
}

/** One object {@link applyUpstreamE2eSetup} applied. */
export interface AppliedSetupObject {
  /** `<kind>/<name>`, as {@link objectLabel} */
  label: string;
  /** ms since the epoch of its latest change, see {@link lastChangedAt}; undefined when the server recorded none */
  changedAt?: number;
}

/**
 * When an object last changed as the API server records it: the newest `time` of its `metadata.managedFields` (one
 * entry per field manager and subresource, stamped at each write that changed what that manager owns; whole seconds;
 * a Date where client-node decoded the answer into a typed object, the RFC 3339 text where it did not).
 * @returns ms since the epoch, or undefined when no entry has a time that parses
 */
export function lastChangedAt(o: {
  metadata?: { managedFields?: readonly { time?: Date | string }[] };
}): number | undefined {
  const times = (o.metadata?.managedFields ?? [])
    .map((f) => (f.time === undefined ? NaN : new Date(f.time).getTime()))
    .filter((t) => !Number.isNaN(t));
  return times.length ? Math.max(...times) : undefined;
}

/**
 * The objects of a setup that changed at or after `sinceMs` (e.g. when a controller process started), by label. The
 * server's times are whole seconds, so a change in the same second counts as after it; so does an object without a
 * time, whose change cannot be placed.
 */
export function changedSince(applied: readonly AppliedSetupObject[], sinceMs: number): string[] {
  const second = Math.floor(sinceMs / 1000) * 1000;
  return applied.filter((a) => a.changedAt === undefined || a.changedAt >= second).map((a) => a.label);
}

/**
 * Applies a kind's setup to a started side ({@link applyUpstreamE2eSetup}) and, when the side's controller process
 * can be restarted and a setup object changed since it started, restarts it with one line naming the objects.
 * OpenKruise's manager needs this: its pod webhook reads kruise-configuration's custom-workload whitelist once per
 * process, at the first pod it admits that has an owner (`initializeWorkloadsInWhiteList`), and its WorkloadSpread
 * controller starts its watches of whitelisted Kinds at start. A reference started for an earlier kind (or an earlier
 * run) would otherwise keep a whitelist older than the setup.
 * @throws what applyUpstreamE2eSetup and the side's restart throw
 */
export async function applySetupToSide(
  side: Side,
  files: readonly SetupManifestFile[],
  log: (line: string) => void,
  opts: { establishedTimeoutMs?: number; prefix?: string } = {},
): Promise<void> {
  const applied = await applyUpstreamE2eSetup(side.kubeconfig, files, side.name, log, opts);
  if (!side.restart || side.startedAt === undefined) return;
  const stale = changedSince(applied, side.startedAt);
  if (stale.length === 0) return;
  log(
    `${opts.prefix ?? '[upstream-e2e]'} ${side.name}: ${stale.join(', ')} changed since its manager started at ` +
      `${new Date(side.startedAt).toISOString()}; restarting it (it reads the custom-workload whitelist once)`,
  );
  await side.restart();
}
