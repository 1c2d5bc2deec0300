/**
 * Settings and on-disk locations of the OpenKruise reference (the real kruise-manager run beside the local
 * control plane so that Kruiseless can be compared with it). See infra/reference/README.md.
 */
import os from 'node:os';
import path from 'node:path';

/** Go module path of OpenKruise (the manager is built from its root package). */
export const OPENKRUISE_MODULE = 'github.com/openkruise/kruise';
/** Version used when KRUISELESS_OPENKRUISE_VERSION is unset: the newest tag the Go module proxy serves. */
export const DEFAULT_OPENKRUISE_VERSION = 'v1.9.0';
/** Version used when the default's download fails (v1.8.2 has no v1beta1 CloneSet and no conversion webhook). */
export const FALLBACK_OPENKRUISE_VERSION = 'v1.8.2';
/**
 * Versions the Go checksum database has no entry for: downloaded with GONOSUMDB=github.com/openkruise/kruise
 * (their go.sum lines are then trusted from the module proxy alone).
 */
export const NOT_IN_SUMDB: ReadonlySet<string> = new Set(['v1.9.0']);

/** The OpenKruise version asked for: env KRUISELESS_OPENKRUISE_VERSION, else DEFAULT_OPENKRUISE_VERSION. */
export function requestedVersion(): string {
  const v = process.env.KRUISELESS_OPENKRUISE_VERSION?.trim();
  return v ? v : DEFAULT_OPENKRUISE_VERSION;
}

/** Cache root shared with the control plane (`$KRUISELESS_CACHE`, default `~/.cache/kruiseless`). */
export function cacheRoot(): string {
  return process.env.KRUISELESS_CACHE ?? path.join(os.homedir(), '.cache', 'kruiseless');
}

/** Paths of one OpenKruise version in the cache. */
export interface OpenKruisePaths {
  /** `<cache>/openkruise-<version>` */
  dir: string;
  /** writable copy of the module (its `replace` directives apply when building inside it) */
  src: string;
  /** the built manager binary */
  manager: string;
  /** build stamp (JSON): present and equal to the expected stamp means "built" */
  stamp: string;
  /** OpenKruise's e2e suite compiled (`go test -c ./test/e2e` inside `src`), used by `npm run parity:upstream-e2e` */
  e2e: string;
  /** build stamp of `e2e` */
  e2eStamp: string;
  /** the module's CRDs (`config/crd/bases`, one file per CRD) */
  crdBases: string;
  /** the module's webhook configurations (`config/webhook/manifests.yaml`) */
  webhookManifests: string;
  /**
   * the module's CRD kustomization (`config/crd/kustomization.yaml`): the `patches/webhook_in_<plural>.yaml` it lists
   * are the CRDs OpenKruise's install gives a conversion webhook
   */
  crdKustomization: string;
}

/** Cache paths of `version` (nothing is checked or created). */
export function openKruisePaths(version: string): OpenKruisePaths {
  const dir = path.join(cacheRoot(), `openkruise-${version}`);
  const src = path.join(dir, 'src');
  return {
    dir,
    src,
    manager: path.join(dir, 'kruise-manager'),
    stamp: path.join(dir, '.stamp'),
    e2e: path.join(dir, 'kruise-e2e.test'),
    e2eStamp: path.join(dir, '.e2e-stamp'),
    crdBases: path.join(src, 'config', 'crd', 'bases'),
    webhookManifests: path.join(src, 'config', 'webhook', 'manifests.yaml'),
    crdKustomization: path.join(src, 'config', 'crd', 'kustomization.yaml'),
  };
}

/**
 * State folder of the reference's own control plane (kubeconfig, PKI, etcd, logs, pid files), separate from the
 * repository's `.kruiseless/`: env KRUISELESS_REFERENCE_STATE_DIR, default `<cache>/reference-cluster`.
 */
export function referenceStateDir(): string {
  return process.env.KRUISELESS_REFERENCE_STATE_DIR ?? path.join(cacheRoot(), 'reference-cluster');
}

/** Feature gates for kruise-manager in OpenKruise's spelling (`A=true,B=false`): env KRUISELESS_FEATURE_GATES. */
export function featureGatesFromEnv(): string {
  return (process.env.KRUISELESS_FEATURE_GATES ?? '').trim();
}
