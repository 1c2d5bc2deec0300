/**
 * Pinned versions and on-disk locations of the local control plane.
 * The Go tools module (go.mod / go.sum / main.go next to this file) pins Kubernetes and etcd;
 * the constants here must agree with it (the build stamp hashes both, so a change rebuilds).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** k8s.io/kubernetes version of kube-apiserver, kube-controller-manager, kube-scheduler and kubectl. */
export const KUBERNETES_VERSION = 'v1.34.4';
/** go.etcd.io/etcd/server/v3 version (what k8s.io/apiserver v0.34.4 requires). */
export const ETCD_VERSION = 'v3.6.4';
/** sigs.k8s.io/kwok version, installed with `go install` outside the tools module. */
export const KWOK_VERSION = 'v0.7.0';
/**
 * How long the cold build of the control plane takes (k8stools and kwok, empty Go caches, 2 cores; measured in
 * infra/local/README.md): the one estimate the build output, README.md and .ci/run give.
 */
export const COLD_BUILD_ESTIMATE = 'about 7 min on 2 cores';

/** Absolute path of infra/local (where the Go tools module and the stage file live). */
export const LOCAL_DIR = path.dirname(fileURLToPath(import.meta.url));
/** Absolute path of the repository root. */
export const REPO_ROOT = path.resolve(LOCAL_DIR, '..', '..');
/** Folder of the CRDs installed by `cluster:up`. */
export const CRD_DIR = path.join(REPO_ROOT, 'infra', 'crds');

/**
 * Cache folder for built binaries, outside the repository:
 * `$KRUISELESS_CACHE/k8s-<version>` (default `~/.cache/kruiseless/k8s-<version>`).
 */
export function binDir(): string {
  const base = process.env.KRUISELESS_CACHE ?? path.join(os.homedir(), '.cache', 'kruiseless');
  return path.join(base, `k8s-${KUBERNETES_VERSION}`);
}

/** Names of the components linked into the multi-call binary (each is a symlink to `k8stools`). */
export const MULTICALL_NAMES = [
  'etcd',
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kubectl',
] as const;
export type Component = (typeof MULTICALL_NAMES)[number] | 'kwok' | 'hostpath-provisioner';

/**
 * Absolute path of a Kubernetes component's executable in the cache folder (the provisioner has its own:
 * provisioner.ts `provisionerBinary()`).
 */
export function binPath(name: Exclude<Component, 'hostpath-provisioner'> | 'k8stools'): string {
  return path.join(binDir(), name);
}

/**
 * Per-checkout state folder (gitignored): kubeconfig, PKI, logs, pid files, etcd data.
 * Overridable with KRUISELESS_STATE_DIR (absolute path) to run a second cluster.
 */
export function stateDir(): string {
  return process.env.KRUISELESS_STATE_DIR ?? path.join(REPO_ROOT, '.kruiseless');
}

/** Admin kubeconfig written by `cluster:up`. */
export function kubeconfigPath(): string {
  return path.join(stateDir(), 'kubeconfig');
}
