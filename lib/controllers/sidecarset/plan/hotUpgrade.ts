/**
 * A `HotUpgrade` sidecar is injected as two containers, `<name>-1` working and `<name>-2` on the empty image, with
 * version annotations (OpenKruise: `injectHotUpgradeContainers` and `generateHotUpgradeContainers` in
 * `pkg/webhook/pod/mutating/sidecarset_hotupgrade.go`, names in `pkg/control/sidecarcontrol/util_hotupgrade.go`). Pure.
 */
import type { Container } from '../../../api/types.js';

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
