/**
 * SidecarSet in the parity harness: `apps.kruise.io/v1alpha1 sidecarsets` (cluster-scoped; the version both
 * OpenKruise and Kruiseless's CRD serve), pods the scenario creates itself (`createPod`) and the pod webhook of
 * each side injects, no instance-id label, no field naming pods to delete, the differences of `deliberate.yaml`.
 * Scenarios: `test/parity/scenarios/sidecarset/`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parse } from 'yaml';
import type { ParityKind } from '../../kind.js';
import type { PodView } from '../../snapshot.js';
import { DeliberateSchema } from '../../scenario.js';

/**
 * A pod's view without the `controllerRevision` of its SidecarSet hash entries: OpenKruise writes one and Kruiseless
 * none yet (deliberate.yaml), and with the view's keys sorted it would come first in the entry and decide the pods'
 * order, comparing an updated pod of one side with a not-updated one of the other.
 */
function withoutControllerRevision(view: PodView): unknown {
  const hashes = view.annotations['kruise.io/sidecarset-hash'];
  if (!hashes || typeof hashes !== 'object') return view;
  const entries = Object.entries(hashes as Record<string, unknown>).map(([name, entry]) => {
    if (!entry || typeof entry !== 'object') return [name, entry];
    const { controllerRevision: _, ...rest } = entry as Record<string, unknown>;
    return [name, rest];
  });
  return {
    ...view,
    annotations: { ...view.annotations, 'kruise.io/sidecarset-hash': Object.fromEntries(entries) },
  };
}

/** The SidecarSet's parity entry. */
export const sidecarSet: ParityKind = {
  name: 'sidecarset',
  kind: 'SidecarSet',
  resource: { group: 'apps.kruise.io', version: 'v1alpha1', plural: 'sidecarsets' },
  clusterScoped: true,
  perReconcileEventReasons: new Set(['NotUpgradablePods']),
  conflictOnlyConditionTypes: new Set(),
  podSortKey: withoutControllerRevision,
  deliberate: z
    .array(DeliberateSchema)
    .parse(parse(readFileSync(new URL('deliberate.yaml', import.meta.url), 'utf8'))),
};
