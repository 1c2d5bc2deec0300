/**
 * SidecarSet in the parity harness: `apps.kruise.io/v1alpha1 sidecarsets` (cluster-scoped; the version both
 * OpenKruise and Kruiseless's CRD serve), pods the scenario creates itself (`createPod`) and the pod webhook of
 * each side injects, its ControllerRevisions in `kruise-system` (where OpenKruise keeps them), no instance-id label, no field naming pods to delete, the differences of `deliberate.yaml`.
 * Scenarios: `test/parity/scenarios/sidecarset/`. OpenKruise's e2e specs: its SidecarSet files of both API versions.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parse } from 'yaml';
import type { ParityKind } from '../../kind.js';
import { DeliberateSchema } from '../../scenario.js';

/** The SidecarSet's parity entry. */
export const sidecarSet: ParityKind = {
  name: 'sidecarset',
  kind: 'SidecarSet',
  resource: { group: 'apps.kruise.io', version: 'v1alpha1', plural: 'sidecarsets' },
  clusterScoped: true,
  // a SidecarSet owns no pods: pod steps pick among the scenario's own (createPod)
  podsOfAnyOwner: true,
  revisionsIn: { namespace: 'kruise-system', objectNameLabel: 'kruise.io/sidecarset-name' },
  perReconcileEventReasons: new Set(['NotUpgradablePods']),
  conflictOnlyConditionTypes: new Set(),
  // hot upgrade writes the SidecarSet's resourceVersion there (updatePodSidecarContainer); injection writes 0 and 1
  resourceVersionAnnotations: {
    keys: /^version(alt)?\.sidecarset\.kruise\.io\//,
    fixed: new Set(['0', '1']),
  },
  deliberate: z
    .array(DeliberateSchema)
    .parse(parse(readFileSync(new URL('deliberate.yaml', import.meta.url), 'utf8'))),
  upstreamE2e: {
    // sidecarterminator.go is left out: it tests OpenKruise's SidecarTerminator controller (kruise-daemon's
    // container recreate requests), not SidecarSets
    focusFiles: [
      'test/e2e/apps/v1alpha1/sidecarset.go',
      'test/e2e/apps/v1alpha1/sidecarset_hotupgrade.go',
      'test/e2e/apps/v1alpha1/sidecarset_resources_policy.go',
      'test/e2e/apps/v1beta1/sidecarset.go',
      'test/e2e/apps/v1beta1/sidecarset_hotupgrade.go',
      'test/e2e/apps/v1beta1/sidecarset_resources_policy.go',
    ],
    // every spec's pods belong to a Deployment
    kcmControllers: ['deployment-controller', 'replicaset-controller'],
  },
};
