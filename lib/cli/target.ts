/**
 * Which workload a `NAME` or `TYPE/NAME` argument of `kruiseless rollout` and `plan` names, with the spellings
 * kubectl accepts for each resource (plural, singular, `<resource>.<group>`, `<resource>.<version>.<group>`, the
 * CRD's short names).
 * A bare `NAME` is a CloneSet, as it always was. `statefulset`/`sts` without the group are apps/v1's StatefulSet to
 * kubectl (a built-in resource wins a short name over a CRD's), so they are refused with the spelling that works.
 * `daemonset`/`daemonsets`/`ds` are apps/v1's DaemonSet to kubectl too, but Kruiseless takes them for the Advanced
 * DaemonSet (the only DaemonSet it has a command for; issue 20 asks for `ds/<name>`): only the grouped
 * `daemonsets.apps` spellings, which can mean nothing else, are refused.
 */
import { CliError } from './io.js';

/** The kinds `kruiseless rollout` and `plan` handle, by controller name (lib/controllers `name`). */
export type RolloutKind = 'cloneset' | 'statefulset' | 'daemonset';

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
  daemonset: new Set([
    'ds',
    'ads',
    'daemon',
    'daemonset',
    'daemonsets',
    'daemonset.apps.kruise.io',
    'daemonsets.apps.kruise.io',
    'ads.apps.kruise.io',
    'daemon.apps.kruise.io',
    'daemonset.v1beta1.apps.kruise.io',
    'daemonsets.v1beta1.apps.kruise.io',
    'daemonset.v1alpha1.apps.kruise.io',
    'daemonsets.v1alpha1.apps.kruise.io',
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

/** Spellings that name apps/v1's DaemonSet by its group (the ungrouped ones are the Advanced DaemonSet here). */
const BUILTIN_DAEMONSET = new Set([
  'ds.apps',
  'daemonset.apps',
  'daemonsets.apps',
  'daemonset.v1.apps',
  'daemonsets.v1.apps',
]);

/**
 * The workload of a `NAME` or `TYPE/NAME` argument.
 * @throws CliError for apps/v1's StatefulSet or grouped DaemonSet (naming the Kruise spelling), any other type, or
 *   an empty name
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
  if (BUILTIN_DAEMONSET.has(type)) {
    throw new CliError(
      `"${type}" is apps/v1's DaemonSet, which kube-controller-manager runs; an Advanced DaemonSet is daemonset.apps.kruise.io/${name} (or ds/${name})`,
    );
  }
  throw new CliError(
    `"${type}" is not a CloneSet, an Advanced StatefulSet or an Advanced DaemonSet: kruiseless handles clonesets.apps.kruise.io, statefulsets.apps.kruise.io and daemonsets.apps.kruise.io`,
  );
}
