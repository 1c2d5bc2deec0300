/**
 * Which workload a `NAME` or `TYPE/NAME` argument of `kruiseless rollout` and `plan` names, with the spellings
 * kubectl accepts for each resource (plural, singular, `<resource>.<group>`, `<resource>.<version>.<group>`, the
 * CRD's short names).
 * A bare `NAME` is a CloneSet, as it always was. `statefulset`/`sts` without the group are apps/v1's StatefulSet to
 * kubectl (a built-in resource wins a short name over a CRD's), so they are refused with the spelling that works.
 */
import { CliError } from './io.js';

/** The kinds `kruiseless rollout` and `plan` handle, by controller name (lib/controllers `name`). */
export type RolloutKind = 'cloneset' | 'statefulset';

/** A workload named on the command line. */
export interface RolloutTarget {
  kind: RolloutKind;
  name: string;
}

/** Type spellings of each kind (lower case), as kubectl resolves them for the CRDs in infra/crds. */
const TYPES: Readonly<Record<RolloutKind, ReadonlySet<string>>> = {
  cloneset: new Set([
    'clone',
    'cloneset',
    'clonesets',
    'cloneset.apps.kruise.io',
    'clonesets.apps.kruise.io',
    'cloneset.v1alpha1.apps.kruise.io',
    'clonesets.v1alpha1.apps.kruise.io',
  ]),
  statefulset: new Set([
    'asts',
    'statefulset.apps.kruise.io',
    'statefulsets.apps.kruise.io',
    'sts.apps.kruise.io',
    'asts.apps.kruise.io',
    'statefulset.v1beta1.apps.kruise.io',
    'statefulsets.v1beta1.apps.kruise.io',
    'statefulset.v1alpha1.apps.kruise.io',
    'statefulsets.v1alpha1.apps.kruise.io',
  ]),
};

/** Spellings kubectl resolves to apps/v1's StatefulSet. */
const BUILTIN_STATEFULSET = new Set([
  'sts',
  'statefulset',
  'statefulsets',
  'statefulset.apps',
  'statefulsets.apps',
]);

/**
 * The workload of a `NAME` or `TYPE/NAME` argument.
 * @throws CliError for apps/v1's StatefulSet (naming the Advanced StatefulSet spelling), any other type, or an
 *   empty name
 */
export function rolloutTarget(arg: string): RolloutTarget {
  const slash = arg.indexOf('/');
  const type = slash < 0 ? undefined : arg.slice(0, slash).toLowerCase();
  const name = slash < 0 ? arg : arg.slice(slash + 1);
  if (!name) throw new CliError(`"${arg}" names no workload`);
  if (type === undefined) return { kind: 'cloneset', name };
  for (const kind of Object.keys(TYPES) as RolloutKind[]) {
    if (TYPES[kind].has(type)) return { kind, name };
  }
  if (BUILTIN_STATEFULSET.has(type)) {
    throw new CliError(
      `"${type}" is apps/v1's StatefulSet, which kube-controller-manager runs; an Advanced StatefulSet is statefulset.apps.kruise.io/${name} (or asts/${name})`,
    );
  }
  throw new CliError(
    `"${type}" is not a CloneSet or an Advanced StatefulSet: kruiseless handles clonesets.apps.kruise.io and statefulsets.apps.kruise.io`,
  );
}
