/**
 * WorkloadSpread in the parity harness: `apps.kruise.io/v1beta1 workloadspreads` (the version both OpenKruise and
 * Kruiseless's CRD store, and the only one Kruiseless reads until it converts v1alpha1), its target created by a
 * `createWorkload` step after it (a CloneSet or a Deployment, run by each side's own controller) and scaled by
 * `scaleWorkload`. The snapshot holds every pod of the namespace: the subset each was placed in (node terms,
 * tolerations, patch, the matched-workloadspread annotation) and its deletion cost. Scenarios name the WorkloadSpread
 * as its target, so the target's pods are `<name>-<instance id>` (CloneSet) or `<name>-<pod-template-hash>-<5>`
 * (Deployment), normalised to `<name>-<id>`. No field names pods to delete. OpenKruise's WorkloadSpread e2e specs:
 * the v1alpha1 file (10 specs) and the v1beta1 one (3), in one suite run, with the Deployment, ReplicaSet and
 * StatefulSet controllers two of them need, after upstream's e2e setup (the TFJob CRD and test/kruise-e2e-config.yaml).
 * Scenarios: `test/parity/scenarios/workloadspread/`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parse } from 'yaml';
import type { ParityKind } from '../../kind.js';
import { DeliberateSchema } from '../../scenario.js';

/** The WorkloadSpread's parity entry. */
export const workloadSpread: ParityKind = {
  name: 'workloadspread',
  kind: 'WorkloadSpread',
  resource: { group: 'apps.kruise.io', version: 'v1beta1', plural: 'workloadspreads' },
  // a CloneSet target's pods carry OpenKruise's `appspub.CloneSetInstanceID`
  instanceIdLabel: 'apps.kruise.io/cloneset-instance-id',
  // a CloneSet's 5-character instance id, or a Deployment's ReplicaSet hash and the pod's 5 characters
  nameSuffixPattern: '(?:[a-z0-9]{6,10}-)?[a-z0-9]{5}',
  perReconcileEventReasons: new Set(),
  conflictOnlyConditionTypes: new Set(),
  deliberate: z
    .array(DeliberateSchema)
    .parse(parse(readFileSync(new URL('deliberate.yaml', import.meta.url), 'utf8'))),
  upstreamE2e: {
    focusFiles: ['test/e2e/apps/v1alpha1/workloadspread.go', 'test/e2e/apps/v1beta1/workloadspread.go'],
    // `elastic deploy for deployment` spreads a Deployment, `manage statefulset pods only with patch` a StatefulSet
    kcmControllers: ['deployment-controller', 'replicaset-controller', 'statefulset-controller'],
    // upstream's e2e setup, which `job-like custom workload` needs: the TFJob CRD, as tools/hack/run-kruise-e2e-test.sh
    // applies it (training-operator's v1.8 branch; v1.8.1 is its release on the Go module proxy), then its CI's
    // test/kruise-e2e-config.yaml: the `kruise-configuration` whitelist of TFJob and Advanced DaemonSet as custom
    // workloads, and `get tfjobs` for kruise-manager
    manifests: [
      {
        from: 'goModule',
        module: 'github.com/kubeflow/training-operator',
        version: 'v1.8.1',
        file: 'manifests/base/crds/kubeflow.org_tfjobs.yaml',
      },
      { from: 'openkruise', file: 'test/kruise-e2e-config.yaml' },
    ],
  },
};
