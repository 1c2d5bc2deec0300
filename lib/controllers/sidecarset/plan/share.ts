/**
 * What a sidecar takes from the pod's app containers (OpenKruise: `GetInjectedVolumeMountsAndEnvs`,
 * `GetInjectedVolumeDevices`, `GetSidecarTransferEnvs` and `ExtractContainerNameFromFieldPath` in
 * `pkg/control/sidecarcontrol/util.go`). App containers are the pod's `containers` without `IS_INJECTED=true`; init
 * containers are never shared from. Pure.
 */
import type { Container, EnvVar, Pod } from '../../../api/types.js';
import { ENV_IS_INJECTED } from '../api/keys.js';
import type { SidecarContainer } from '../api/types.js';
import type { VolumeDevice, VolumeMount } from './merge.js';

const appContainers = (pod: Pod): Container[] =>
  pod.spec.containers.filter(
    (c) => !(c.env ?? []).some((e) => e.name === ENV_IS_INJECTED && e.value === 'true'),
  );

/** `$(NAME)` references in a subPathExpr (`SubPathExprEnvReg`). */
const SUB_PATH_EXPR_ENV = /\$\(([-._a-zA-Z][-._a-zA-Z0-9]*)\)/g;

/**
 * With `shareVolumePolicy.type: enabled`, every volumeMount of every app container, in pod order, and for each mount
 * whose `subPathExpr` names `$(VAR)` the app container's first env var `VAR` (skipped when it has none).
 * @returns empty lists when sharing is off
 */
export function sharedVolumeMounts(
  sidecar: SidecarContainer,
  pod: Pod,
): { mounts: VolumeMount[]; envs: EnvVar[] } {
  if (sidecar.shareVolumePolicy?.type !== 'enabled') return { mounts: [], envs: [] };
  const mounts: VolumeMount[] = [];
  const envs: EnvVar[] = [];
  for (const app of appContainers(pod)) {
    for (const mount of (app.volumeMounts ?? []) as VolumeMount[]) {
      mounts.push(mount);
      for (const ref of (mount.subPathExpr ?? '').matchAll(SUB_PATH_EXPR_ENV)) {
        const env = (app.env ?? []).find((e) => e.name === ref[1]);
        if (env) envs.push(env);
      }
    }
  }
  return { mounts, envs };
}

/** With `shareVolumeDevicePolicy.type: enabled`, every volumeDevice of every app container, in pod order. */
export function sharedVolumeDevices(sidecar: SidecarContainer, pod: Pod): VolumeDevice[] {
  if (sidecar.shareVolumeDevicePolicy?.type !== 'enabled') return [];
  return appContainers(pod).flatMap((app) => (app.volumeDevices ?? []) as VolumeDevice[]);
}

const QUALIFIED_NAME =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/**
 * The container name a `sourceContainerNameFrom.fieldRef` reads: `metadata.labels['k']` or `metadata.annotations['k']`
 * of the pod (`""` when absent); undefined for any other field path or an invalid key, which upstream logs and skips.
 */
function sourceContainerFromField(fieldPath: string, pod: Pod): string | undefined {
  const m = /^(metadata\.labels|metadata\.annotations)\['(.*)'\]$/.exec(fieldPath);
  if (!m) return undefined;
  const [, path, key] = m;
  const name = key.includes('/') ? key.slice(key.indexOf('/') + 1) : key;
  const checked = path === 'metadata.annotations' ? key.toLowerCase() : key;
  if (!QUALIFIED_NAME.test(checked) || name.length > 63) return undefined;
  const source = path === 'metadata.labels' ? pod.metadata.labels : pod.metadata.annotations;
  return source?.[key] ?? '';
}

/**
 * `transferEnv`: for each entry, the env vars named by `envName` and `envNames` (as a set, in sorted order) of the
 * source container (`sourceContainerName`, or read from the pod's metadata by `sourceContainerNameFrom`), as the pod's
 * `containers` define them; a name the source container lacks is skipped.
 */
export function transferredEnvs(sidecar: SidecarContainer, pod: Pod): EnvVar[] {
  const out: EnvVar[] = [];
  for (const t of sidecar.transferEnv ?? []) {
    const names = [...new Set([...(t.envName ? [t.envName] : []), ...(t.envNames ?? [])])].sort();
    let source = t.sourceContainerName ?? '';
    const fieldRef = t.sourceContainerNameFrom?.fieldRef;
    if (fieldRef) {
      const fromField = sourceContainerFromField(fieldRef.fieldPath, pod);
      if (fromField === undefined) continue;
      source = fromField;
    }
    const envs = new Map<string, EnvVar>();
    for (const c of pod.spec.containers)
      if (c.name === source) for (const e of c.env ?? []) envs.set(e.name, e);
    for (const name of names) {
      const env = envs.get(name);
      if (env) out.push(env);
    }
  }
  return out;
}
