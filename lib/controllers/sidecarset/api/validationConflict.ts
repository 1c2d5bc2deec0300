/**
 * OpenKruise: `validateSidecarContainerConflict` and `validateSidecarConflict` in
 * `pkg/webhook/sidecarset/validating/sidecarset_create_update_handler.go`, `isSidecarSetNamespaceOverlapping` in
 * `utils.go` (v1.9.0). What an update may not change, and what a SidecarSet may not share with the other SidecarSets
 * that can select the same pods. Pure: the caller lists the other SidecarSets.
 */
import { isDeepStrictEqual } from 'node:util';
import type { FieldError } from '../../../api/errors.js';
import { invalid } from '../../../api/fieldValidation.js';
import { isSelectorOverlapping } from '../../../api/selectorOverlap.js';
import type { LabelSelector, Volume } from '../../../api/types.js';
import { LABEL_METADATA_NAME } from './keys.js';
import type { SidecarContainer, SidecarSet } from './types.js';

/** The SidecarSet canary annotations (`SidecarSetCanaryAnnotation`, `SidecarSetBaseAnnotation` in v1beta1's types). */
export const ANNOTATION_SIDECARSET_CANARY = 'apps.kruise.io/sidecarset-canary';
/** The name of the SidecarSet a canary SidecarSet is a canary of. */
export const ANNOTATION_SIDECARSET_BASE = 'apps.kruise.io/sidecarset-base';

/** Upstream `IsCanarySidecarSet`: the base's name when the SidecarSet is a canary (both annotations set), else undefined. */
export function canaryBase(ss: SidecarSet): string | undefined {
  const a = ss.metadata.annotations ?? {};
  const base = a[ANNOTATION_SIDECARSET_BASE] ?? '';
  return a[ANNOTATION_SIDECARSET_CANARY] === 'true' && base !== '' ? base : undefined;
}

/**
 * The namespace selector of the v1beta1 form the webhook validates (v1alpha1's `ConvertTo`): `namespace` becomes
 * `matchLabels: {kubernetes.io/metadata.name: <namespace>}` and wins over `namespaceSelector`.
 */
export function effectiveNamespaceSelector(ss: SidecarSet): LabelSelector | undefined {
  const ns = ss.spec.namespace;
  if (ns) return { matchLabels: { [LABEL_METADATA_NAME]: ns } };
  return ss.spec.namespaceSelector ?? undefined;
}

/**
 * The update rule: every container of the new spec must be in the old one (by name), and a container's
 * `upgradeStrategy.upgradeType` may not change once set. Init containers are not compared. Paths and messages are
 * upstream's (`spec.containers.name`, `spec.containers.upgradeStrategy.upgradeType`).
 */
export function containerUpdateErrors(
  containers: readonly SidecarContainer[],
  oldContainers: readonly SidecarContainer[],
): FieldError[] {
  const oldType = new Map(oldContainers.map((c) => [c.name, c.upgradeStrategy?.upgradeType ?? '']));
  const out: FieldError[] = [];
  for (const c of containers) {
    const before = oldType.get(c.name);
    if (before === undefined)
      out.push(invalid('spec.containers.name', c.name, `container ${c.name} is not found`));
    else if (before !== '' && (c.upgradeStrategy?.upgradeType ?? '') !== before)
      out.push(
        invalid(
          'spec.containers.upgradeStrategy.upgradeType',
          c.name,
          `container ${c.name} upgradeType is immutable`,
        ),
      );
  }
  return out;
}

/** Whether two SidecarSets may select pods of the same namespace: not when both have disjoint namespace selectors. */
function namespacesOverlap(a: SidecarSet, b: SidecarSet): boolean {
  const x = effectiveNamespaceSelector(a);
  const y = effectiveNamespaceSelector(b);
  return !(x && y && !isSelectorOverlapping(x, y));
}

/**
 * The conflicts with the other SidecarSets whose namespace selector and selector overlap this one's (a canary's base
 * excepted, the SidecarSet itself skipped by name): an init container or container name another has (as an init
 * container, resp. a container; both reported at `spec.containers`), a volume name another has with a different
 * volume, an annotation another patches when either patch overwrites (`Retain` patches never conflict). When several
 * others have the name, the one listed last is named.
 */
export function conflictErrors(ss: SidecarSet, others: readonly SidecarSet[]): FieldError[] {
  const base = canaryBase(ss);
  const name = ss.metadata.name;
  const inits = new Map<string, string>();
  const containers = new Map<string, string>();
  const volumes = new Map<string, { set: string; volume: Volume }>();
  const annotations = new Map<string, { set: string; policy: string }>();
  for (const o of others) {
    if (base !== undefined && o.metadata.name === base) continue;
    if (!namespacesOverlap(ss, o) || !isSelectorOverlapping(ss.spec.selector, o.spec.selector)) continue;
    const other = o.metadata.name ?? '';
    if (other === name) continue;
    for (const c of o.spec.initContainers ?? []) inits.set(c.name, other);
    for (const c of o.spec.containers ?? []) containers.set(c.name, other);
    for (const v of o.spec.volumes ?? []) volumes.set(v.name, { set: other, volume: v });
    for (const p of o.spec.patchPodMetadata ?? []) {
      if (p.patchPolicy === 'Retain') continue;
      for (const k of Object.keys(p.annotations ?? {}))
        annotations.set(k, { set: other, policy: p.patchPolicy ?? '' });
    }
  }
  const out: FieldError[] = [];
  const taken = (n: string, by: Map<string, string>) => {
    const other = by.get(n);
    if (other !== undefined)
      out.push(invalid('spec.containers', n, `container ${n} already exist in ${other}`));
  };
  for (const c of ss.spec.initContainers ?? []) taken(c.name, inits);
  for (const c of ss.spec.containers ?? []) taken(c.name, containers);
  for (const v of ss.spec.volumes ?? []) {
    const other = volumes.get(v.name);
    if (other && !isDeepStrictEqual(v, other.volume))
      out.push(
        invalid('spec.volumes', v.name, `volume ${v.name} is in conflict with sidecarset ${other.set}`),
      );
  }
  for (const p of ss.spec.patchPodMetadata ?? []) {
    if (p.patchPolicy === 'Retain') continue;
    for (const k of Object.keys(p.annotations ?? {})) {
      const other = annotations.get(k);
      if (other && (p.patchPolicy === 'Overwrite' || other.policy === 'Overwrite'))
        out.push(
          invalid('spec.patchPodMetadata', k, `annotation ${k} is in conflict with sidecarset ${other.set}`),
        );
    }
  }
  return out;
}
