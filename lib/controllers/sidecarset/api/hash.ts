/**
 * The two SidecarSet hashes OpenKruise's SidecarSet webhook stores in the SidecarSet's annotations and its pod
 * webhook copies into each injected pod (`SidecarSetHash`, `SidecarSetHashWithoutImage` in
 * `pkg/control/sidecarcontrol/hash.go`): SHA-256 of Go's JSON of `{"containers": …, "initContainers": …}` (the init
 * containers only when one of them is a native sidecar), hex, then apimachinery's `rand.SafeEncodeString`. Pure.
 */
import { createHash } from 'node:crypto';
import type { JsonValue } from '../../../api/types.js';
import { safeEncodeString } from '../../../podset/revision/goJson.js';
import { goSidecarContainersJson } from './goTypedJson.js';
import { RESTART_POLICY_ALWAYS } from './keys.js';
import type { SidecarContainer, SidecarSetSpec } from './types.js';

/** Whether an init container is a native sidecar (`IsSidecarContainer`: `restartPolicy: Always`). */
export function isNativeSidecar(c: Pick<SidecarContainer, 'restartPolicy'>): boolean {
  return c.restartPolicy === RESTART_POLICY_ALWAYS;
}

/** The hashed text, as OpenKruise's `encodeSidecarSet` (Go map keys sorted: `containers` before `initContainers`). */
function encoded(spec: Pick<SidecarSetSpec, 'containers' | 'initContainers'>): string {
  const containers = goSidecarContainersJson(spec.containers as JsonValue[] | undefined);
  const init = spec.initContainers ?? [];
  if (!init.some(isNativeSidecar)) return `{"containers":${containers}}`;
  return `{"containers":${containers},"initContainers":${goSidecarContainersJson(init as JsonValue[])}}`;
}

const hashOf = (text: string): string =>
  safeEncodeString(createHash('sha256').update(text, 'utf8').digest('hex'));

/**
 * `kruise.io/sidecarset-hash` of a defaulted spec (./defaults.ts): 64 characters of `bcdfghjklmnpqrstvwxz2456789`.
 */
export function sidecarSetHash(spec: Pick<SidecarSetSpec, 'containers' | 'initContainers'>): string {
  return hashOf(encoded(spec));
}

/** `kruise.io/sidecarset-hash-without-image`: {@link sidecarSetHash} with every container's image blanked. */
export function sidecarSetHashWithoutImage(
  spec: Pick<SidecarSetSpec, 'containers' | 'initContainers'>,
): string {
  const blank = (cs: SidecarContainer[] | undefined): SidecarContainer[] | undefined =>
    cs?.map((c) => ({ ...c, image: '' }));
  return hashOf(encoded({ containers: blank(spec.containers), initContainers: blank(spec.initContainers) }));
}
