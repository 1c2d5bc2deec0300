/**
 * Kubernetes' checks of a container's `securityContext` (`ValidateSecurityContext` in `pkg/apis/core/validation`,
 * v1.32 as OpenKruise v1.9.0 builds it), with their paths and messages:
 * - `runAsUser` and `runAsGroup` between 0 and 2147483647;
 * - `procMount` `Default` or `Unmasked`, and `Unmasked` only when the pod sets `hostUsers: false`;
 * - `seccompProfile.type` required and one of Localhost, RuntimeDefault, Unconfined; a Localhost profile names a
 *   relative path without `..`;
 * - `appArmorProfile.type` required and one of Localhost, RuntimeDefault, Unconfined; a Localhost profile named and not
 *   padded with whitespace, no profile named for the other types.
 * `privileged: true` is allowed, as kruise-manager's `--allow-privileged` defaults to true. Not checked: the rules
 * whose message prints a Go struct with pointers (a seccomp profile named for a type other than Localhost,
 * `allowPrivilegeEscalation: false` beside `privileged` or `CAP_SYS_ADMIN`), the length of an AppArmor profile, and
 * `windowsOptions`.
 */
import type { FieldError } from './errors.js';
import { invalid, notSupported, required } from './fieldValidation.js';
import { isJsonObject } from './types.js';

const MAX_ID = 2147483647;
const ID_RANGE_MESSAGE = `must be between 0 and ${MAX_ID}, inclusive`;
const PROC_MOUNTS = ['Default', 'Unmasked'] as const;
const PROFILE_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'] as const;

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json | undefined => (isJsonObject(v) ? v : undefined);

/** `validateLocalDescendingPath`: relative, no `..` segment. */
function localPathErrors(target: string, p: string): FieldError[] {
  const out: FieldError[] = [];
  if (target.startsWith('/')) out.push(invalid(p, target, 'must be a relative path'));
  if (target.split('/').includes('..')) out.push(invalid(p, target, "must not contain '..'"));
  return out;
}

/** `validateSeccompProfileField` (the rules listed in the module doc). */
function seccompErrors(profile: Json, p: string): FieldError[] {
  const out: FieldError[] = [];
  const type = typeof profile.type === 'string' ? profile.type : '';
  if (type === '') out.push(required(`${p}.type`, 'type is required when seccompProfile is set'));
  else if (!(PROFILE_TYPES as readonly string[]).includes(type))
    out.push(notSupported(`${p}.type`, type, PROFILE_TYPES));
  if (type === 'Localhost') {
    const local = profile.localhostProfile;
    if (typeof local !== 'string')
      out.push(required(`${p}.localhostProfile`, 'must be set when seccomp type is Localhost'));
    else out.push(...localPathErrors(local, `${p}.localhostProfile`));
  }
  return out;
}

/** `ValidateAppArmorProfileField` (the rules listed in the module doc). */
function appArmorErrors(profile: Json, p: string): FieldError[] {
  const type = typeof profile.type === 'string' ? profile.type : '';
  const local = profile.localhostProfile;
  const lp = `${p}.localhostProfile`;
  if (type === 'Localhost') {
    if (typeof local !== 'string') return [required(lp, 'must be set when AppArmor type is Localhost')];
    if (local.trim() !== local) return [invalid(lp, local, 'must not be padded with whitespace')];
    if (local === '') return [required(lp, 'must be set when AppArmor type is Localhost')];
    return [];
  }
  if (type === 'RuntimeDefault' || type === 'Unconfined')
    return typeof local === 'string'
      ? [invalid(lp, local, 'can only be set when AppArmor type is Localhost')]
      : [];
  if (type === '') return [required(`${p}.type`, 'type is required when appArmorProfile is set')];
  return [notSupported(`${p}.type`, type, PROFILE_TYPES)];
}

/**
 * The errors of a container's `securityContext` (see the module doc); none when it is absent.
 * @param p the path of the field, e.g. `spec.containers[0].securityContext`
 * @param hostUsers whether the pod runs in the host's user namespace (true unless its `securityContext.hostUsers`
 *   is false)
 */
export function securityContextErrors(securityContext: unknown, p: string, hostUsers: boolean): FieldError[] {
  const sc = asObject(securityContext);
  if (!sc) return [];
  const out: FieldError[] = [];
  for (const field of ['runAsUser', 'runAsGroup'] as const) {
    const id = sc[field];
    if (typeof id === 'number' && (id < 0 || id > MAX_ID))
      out.push(invalid(`${p}.${field}`, id, ID_RANGE_MESSAGE));
  }
  const procMount = sc.procMount;
  if (typeof procMount === 'string') {
    if (!(PROC_MOUNTS as readonly string[]).includes(procMount))
      out.push(notSupported(`${p}.procMount`, procMount, PROC_MOUNTS));
    if (hostUsers && procMount === 'Unmasked')
      out.push(invalid(`${p}.procMount`, procMount, '`hostUsers` must be false to use `Unmasked`'));
  }
  const seccomp = asObject(sc.seccompProfile);
  if (seccomp) out.push(...seccompErrors(seccomp, `${p}.seccompProfile`));
  const appArmor = asObject(sc.appArmorProfile);
  if (appArmor) out.push(...appArmorErrors(appArmor, `${p}.appArmorProfile`));
  return out;
}
