/**
 * PodUnavailableBudget in the parity harness: `policy.kruise.io/v1beta1 podunavailablebudgets` (the version both
 * OpenKruise and Kruiseless's CRD store), pods the scenario creates itself (`createPod`, bare) or its workloads'
 * (`createWorkload`: pod steps pick any pod of the namespace, as no pod is the PUB's own), no instance-id label, no
 * field naming pods to delete, the differences of `deliberate.yaml`. Deletes and evictions go through each side's
 * pod webhook (OpenKruise's `vpod.kb.io`, Kruiseless's `/validate-pod` under the same name), which consumes the
 * budget, so a refusal is compared as the step's error.
 * OpenKruise's PodUnavailableBudget e2e specs: the v1alpha1 file (10 specs), with the Deployment and ReplicaSet
 * controllers six of them need. Scenarios:
 * `test/parity/scenarios/podunavailablebudget/`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parse } from 'yaml';
import type { ParityKind } from '../../kind.js';
import { DeliberateSchema } from '../../scenario.js';

/** The PodUnavailableBudget's parity entry. */
export const podUnavailableBudget: ParityKind = {
  name: 'podunavailablebudget',
  kind: 'PodUnavailableBudget',
  resource: { group: 'policy.kruise.io', version: 'v1beta1', plural: 'podunavailablebudgets' },
  // OpenKruise records `NoPods` on every reconcile of a budget that covers no pod
  perReconcileEventReasons: new Set(['NoPods']),
  conflictOnlyConditionTypes: new Set(),
  // pod steps pick among the namespace's pods: bare ones, or those of the workload a scenario creates
  podsOfAnyOwner: true,
  // a CloneSet's pods are `<name>-<instance id>`: with the PUB named as the CloneSet, their names (also the keys of
  // status.disruptedPods / unavailablePods) normalise to `<name>-<id>`
  instanceIdLabel: 'apps.kruise.io/cloneset-instance-id',
  randomNameSuffix: 5,
  normaliseKeys: true,
  deliberate: z
    .array(DeliberateSchema)
    .parse(parse(readFileSync(new URL('deliberate.yaml', import.meta.url), 'utf8'))),
  upstreamE2e: {
    // v1.9.0's suite (test/e2e/e2e_test.go) does not import test/e2e/policy/v1beta1: its one spec is not compiled in
    focusFiles: ['test/e2e/policy/v1alpha1/podunavailablebudget.go'],
    // six of the ten specs protect a Deployment's pods
    kcmControllers: ['deployment-controller', 'replicaset-controller'],
  },
};
