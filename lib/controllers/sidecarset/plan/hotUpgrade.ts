/**
 * A `HotUpgrade` sidecar is injected as two containers, `<name>-1` working and `<name>-2` on the empty image, with
 * version annotations (OpenKruise: `injectHotUpgradeContainers` and `generateHotUpgradeContainers` in
 * `pkg/webhook/pod/mutating/sidecarset_hotupgrade.go`), and a pod's pair is read back from its working-container
 * annotation (`GetPodHotUpgradeInfoInAnnotations`, `GetPodHotUpgradeContainers`, `IsHotUpgradeContainer` in
 * `pkg/control/sidecarcontrol/util_hotupgrade.go`). Pure.
 */
import { compareGoKeys, goJsonString } from '../../../api/goJson.js';
import type { Container, Pod } from '../../../api/types.js';
import type { SidecarContainer } from '../api/types.js';

/** Pod annotation: which of the pair works, `{"<sidecar>": "<sidecar>-1"}` (`SidecarSetWorkingHotUpgradeContainer`). */
export const ANNOTATION_WORKING_HOT_UPGRADE_CONTAINER = 'kruise.io/sidecarset-working-hotupgrade-container';
/** Env var of each of the pair, from the pod annotation `version.sidecarset.kruise.io/<container>`. */
export const ENV_SIDECARSET_VERSION = 'SIDECARSET_VERSION';
/** Env var of each of the pair, from the pod annotation `versionalt.sidecarset.kruise.io/<container>`. */
export const ENV_SIDECARSET_VERSION_ALT = 'SIDECARSET_VERSION_ALT';

/** `version.sidecarset.kruise.io/<container>` (`GetPodSidecarSetVersionAnnotation`). */
export const versionAnnotation = (container: string): string => `version.sidecarset.kruise.io/${container}`;
/** `versionalt.sidecarset.kruise.io/<container>` (`GetPodSidecarSetVersionAltAnnotation`). */
export const versionAltAnnotation = (container: string): string =>
  `versionalt.sidecarset.kruise.io/${container}`;

function withVersionEnv(c: Container): Container {
  const ref = (fieldPath: string): { fieldRef: { fieldPath: string } } => ({ fieldRef: { fieldPath } });
  return {
    ...c,
    env: [
      ...(c.env ?? []),
      {
        name: ENV_SIDECARSET_VERSION,
        valueFrom: ref(`metadata.annotations['${versionAnnotation(c.name)}']`),
      },
      {
        name: ENV_SIDECARSET_VERSION_ALT,
        valueFrom: ref(`metadata.annotations['${versionAltAnnotation(c.name)}']`),
      },
    ],
  };
}

/**
 * The pair for `container` (already merged with IS_INJECTED and shared mounts) and the four version annotations;
 * the caller records `{name: name-1}` in {@link ANNOTATION_WORKING_HOT_UPGRADE_CONTAINER}.
 */
export function hotUpgradePair(
  container: Container,
  emptyImage: string | undefined,
): { containers: [Container, Container]; annotations: Record<string, string> } {
  const first = withVersionEnv({ ...container, name: `${container.name}-1` });
  const empty: Container = { ...container, name: `${container.name}-2`, image: emptyImage ?? '' };
  if (!empty.image) delete empty.image; // Go's omitempty
  const second = withVersionEnv(empty);
  return {
    containers: [first, second],
    annotations: {
      [versionAnnotation(first.name)]: '1',
      [versionAltAnnotation(first.name)]: '0',
      [versionAnnotation(second.name)]: '0',
      [versionAltAnnotation(second.name)]: '1',
    },
  };
}

/** Whether a SidecarSet container is upgraded hot, as a pair (`IsHotUpgradeContainer`). */
export function isHotUpgradeContainer(sidecar: Pick<SidecarContainer, 'upgradeStrategy'>): boolean {
  return sidecar.upgradeStrategy?.upgradeType === 'HotUpgrade';
}

/**
 * The working-container annotation's map, sidecar name → pod container name, as Go's `json.Unmarshal` into
 * `map[string]string` leaves it: an entry whose value is not a string is kept with '' (Go records the type error
 * and goes on), and an unreadable value counts as empty.
 */
export function parseWorkingContainers(value: string | undefined): Map<string, string> {
  try {
    const parsed: unknown = value ? JSON.parse(value) : {};
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return new Map();
    return new Map(Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : '']));
  } catch {
    return new Map();
  }
}

/** The working-container annotation's value as Go's `json.Marshal` of a `map[string]string` writes it (keys sorted). */
export function encodeWorkingContainers(working: ReadonlyMap<string, string>): string {
  const keys = [...working.keys()].sort(compareGoKeys);
  return `{${keys.map((k) => `${goJsonString(k)}:${goJsonString(working.get(k) ?? '')}`).join(',')}}`;
}

/** A hot-upgrade sidecar's two pod containers: the one working now and the other (empty, or the older one mid-upgrade). */
export interface HotUpgradeContainers {
  working: string;
  other: string;
}

/**
 * The pod's pair for sidecar `name` (`GetPodHotUpgradeContainers`): `<name>-1` works when the working-container
 * annotation names it, otherwise `<name>-2` does (also with no or an unreadable annotation).
 */
export function podHotUpgradeContainers(name: string, pod: Pod): HotUpgradeContainers {
  const first = `${name}-1`;
  const second = `${name}-2`;
  const working = parseWorkingContainers(
    pod.metadata.annotations?.[ANNOTATION_WORKING_HOT_UPGRADE_CONTAINER],
  );
  return working.get(name) === first ? { working: first, other: second } : { working: second, other: first };
}
