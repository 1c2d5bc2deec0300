/**
 * The API server's version (`GET /version`) and what it tells about the server. OpenKruise reads it once at start
 * (`NewRegistry` in pkg/client/registry.go, `DiscoveryClient.ServerVersion()`) and decides by it whether an in-place
 * cpu/memory change goes through the `pods/resize` subresource (`ShouldUpdateResourceByResize`, same file); this file
 * says what the server serves, lib/reconcile/pods/patchPod.ts decides the writes.
 */

/** The answer of `GET /version` (apimachinery's `version.Info`), the fields Kruiseless reads. */
export interface ServerVersionInfo {
  /** e.g. `1`. */
  major?: string;
  /** e.g. `31`, or `31+` as EKS and GKE report it. */
  minor?: string;
  /** e.g. `v1.31.4-eks-2d98532`, `v1.30.5-gke.1014001`, `v1.34.4`. */
  gitVersion?: string;
}

/** A Kubernetes release as numbers. */
export interface KubernetesVersion {
  major: number;
  minor: number;
  /** 0 when the version names none. */
  patch: number;
}

/** The first release that serves `pods/resize` (kubernetes/kubernetes#128266). */
export const POD_RESIZE_SINCE: KubernetesVersion = { major: 1, minor: 32, patch: 0 };

/** The leading decimal digits of `s` as a number; undefined when `s` does not start with a digit. */
function leadingNumber(s: string | undefined): number | undefined {
  const digits = /^\d+/.exec(s ?? '')?.[0];
  return digits === undefined ? undefined : Number(digits);
}

/**
 * The release `info` names, read as OpenKruise's fixed `ShouldUpdateResourceByResize` reads it (HEAD after v1.9.0,
 * commit "avoid panic in ShouldUpdateResourceByResize on GKE/EKS version strings"): `gitVersion` without its
 * leading `v`, cut at the first two dots into major, minor and the rest, each part cut to its leading digits, so
 * cloud build metadata drops out (`v1.31.4-eks-2d98532` → 1.31.4, `v1.28+gke.1` → 1.28.1). When `gitVersion` has no
 * numeric major and minor, the `major` and `minor` fields are read the same way (`31+` → 31), as OpenKruise v1.9.0
 * read them. Unlike OpenKruise, a version without a patch number (`v1.32`) reads as `.0` rather than as "older".
 * @returns undefined when neither gives a major and a minor number
 */
export function parseServerVersion(info: ServerVersionInfo): KubernetesVersion | undefined {
  const parts = (info.gitVersion ?? '').trim().replace(/^v/, '').split('.');
  const fromGit = {
    major: leadingNumber(parts[0]),
    minor: leadingNumber(parts[1]),
    patch: leadingNumber(parts.slice(2).join('.')),
  };
  if (fromGit.major !== undefined && fromGit.minor !== undefined)
    return { major: fromGit.major, minor: fromGit.minor, patch: fromGit.patch ?? 0 };
  const fromFields = { major: leadingNumber(info.major?.trim()), minor: leadingNumber(info.minor?.trim()) };
  if (fromFields.major !== undefined && fromFields.minor !== undefined)
    return { major: fromFields.major, minor: fromFields.minor, patch: 0 };
  return undefined;
}

/** Whether `v` is `since` or later. */
export function versionAtLeast(v: KubernetesVersion, since: KubernetesVersion): boolean {
  if (v.major !== since.major) return v.major > since.major;
  if (v.minor !== since.minor) return v.minor > since.minor;
  return v.patch >= since.patch;
}

/**
 * Whether a server that answered `info` to `GET /version` serves the `pods/resize` subresource: Kubernetes 1.32 and
 * later (OpenKruise's `ShouldUpdateResourceByResize`, pkg/client/registry.go). Before 1.32 a pod update itself may
 * change container resources; from 1.32 it may not (422).
 * @param info undefined: the version was not read
 * @returns undefined when unknown (not read, or no release in it): the caller chooses its fallback
 */
export function servesPodResize(info: ServerVersionInfo | undefined): boolean | undefined {
  const v = info && parseServerVersion(info);
  return v && versionAtLeast(v, POD_RESIZE_SINCE);
}
