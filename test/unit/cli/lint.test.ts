/** `kruiseless lint` offline: exact `path: message` lines, exit codes, wrong kind, missing file. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { runCli } from '../../../lib/cli/program.js';

const dir = mkdtempSync(path.join(tmpdir(), 'kruiseless-lint-'));
function file(name: string, text: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}
const TEMPLATE = `  selector: {matchLabels: {app: x}}
  template:
    metadata: {labels: {app: x}}
    spec: {containers: [{name: c, image: nginx}]}
`;

describe('kruiseless lint', () => {
  it('accepts the Advanced StatefulSet example', async () => {
    expect(await runCli(['lint', '-f', 'examples/asts-web-sample.yaml'], {})).toEqual({
      code: 0,
      stdout: 'statefulset "web" is valid\n',
      stderr: '',
    });
  });

  it('accepts the seed example', async () => {
    expect(await runCli(['lint', '-f', 'examples/cs-no-pvc-sample.yaml'], {})).toEqual({
      code: 0,
      stdout: 'cloneset "cs-no-pvc-sample" is valid\n',
      stderr: '',
    });
  });

  it("prints OpenKruise's messages as path: message lines and exits 1", async () => {
    const bad = file(
      'bad.yaml',
      `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: web}
spec:
  replicas: -1
  selector: {matchLabels: {app: x}}
  template:
    metadata: {labels: {app: y}}
    spec: {containers: [{name: c, image: nginx}]}
  updateStrategy: {type: InPlaceOnly, maxSurge: 1}
`,
    );
    expect(await runCli(['lint', '-f', bad], {})).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'spec.replicas: Invalid value: -1: must be greater than or equal to 0\n' +
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"y"}: `selector` does not match template `labels`\n' +
        'spec.updateStrategy.maxSurge: Invalid value: "1": can not use maxSurge with strategy type InPlaceOnly\n',
    });
  });

  it('OnDelete: rejected in v1alpha1 (as the webhook), valid through v1beta1', async () => {
    const alpha = file(
      'a.yaml',
      `apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata: {name: a}\nspec:\n${TEMPLATE}  updateStrategy: {type: OnDelete}\n`,
    );
    const run = await runCli(['lint', '-f', alpha], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^spec\.updateStrategy\.type: /);
    const beta = file(
      'b.yaml',
      `apiVersion: apps.kruise.io/v1beta1\nkind: CloneSet\nmetadata: {name: b}\nspec:\n${TEMPLATE}  updateStrategy: {type: OnDelete}\n`,
    );
    expect(await runCli(['lint', '-f', beta], {})).toEqual({
      code: 0,
      stdout: 'cloneset "b" is valid\n',
      stderr: '',
    });
  });

  it('names each CloneSet of a multi-document file that has errors', async () => {
    const two = file(
      'two.yaml',
      `apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata: {name: ok}\nspec:\n${TEMPLATE}---\napiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata: {name: neg}\nspec:\n  replicas: -2\n${TEMPLATE}`,
    );
    expect(await runCli(['lint', '-f', two], {})).toEqual({
      code: 1,
      stdout: 'cloneset "ok" is valid\n',
      stderr: 'cloneset "neg":\nspec.replicas: Invalid value: -2: must be greater than or equal to 0\n',
    });
  });

  it("lints Advanced DaemonSets (v1alpha1 converted), BroadcastJobs and AdvancedCronJobs with their webhooks' rules", async () => {
    const multi = file(
      'jobs.yaml',
      `apiVersion: apps.kruise.io/v1alpha1
kind: DaemonSet
metadata: {name: agent}
spec:
${TEMPLATE}  updateStrategy: {rollingUpdate: {rollingUpdateType: Surging, maxUnavailable: 0, maxSurge: 0}}
---
apiVersion: apps.kruise.io/v1beta1
kind: BroadcastJob
metadata: {name: once}
spec:
  template:
    spec: {containers: [{name: c, image: busybox}], restartPolicy: Never}
---
apiVersion: apps.kruise.io/v1beta1
kind: AdvancedCronJob
metadata: {name: nightly}
spec:
  schedule: "0 25 * * *"
  template:
    jobTemplate:
      spec:
        template:
          spec: {containers: [{name: c, image: busybox}], restartPolicy: Never}
`,
    );
    expect(await runCli(['lint', '-f', multi], {})).toEqual({
      code: 1,
      stdout: 'broadcastjob "once" is valid\n',
      stderr:
        'daemonset "agent":\n' +
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0\n' +
        'advancedcronjob "nightly":\n' +
        'spec.schedule: Invalid value: "0 25 * * *": end of range (25) above maximum (23): 25\n',
    });
  });

  it("lints v1alpha1 SidecarSets, defaulted, with OpenKruise's webhook rules and messages (no other SidecarSet)", async () => {
    const sidecars = file(
      'sidecarsets.yaml',
      `apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: logger}
spec:
  selector: {matchLabels: {app: web}}
  containers: [{name: fluentd, image: fluentd:1, transferEnv: [{sourceContainerName: main, envName: LEVEL}]}]
  volumes: [{name: logs}]
---
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: side_car}
spec:
  selector: {}
  initContainers: [{name: init, image: busybox, restartPolicy: Always}]
  updateStrategy: {partition: -1}
  volumes: [{name: logs, emptyDir: {}, hostPath: {path: /var/log}}]
`,
    );
    expect(await runCli(['lint', '-f', sidecars], {})).toEqual({
      code: 1,
      stdout: 'sidecarset "logger" is valid\n',
      stderr:
        'sidecarset "side_car":\n' +
        `metadata.name: Invalid value: "side_car": sidecarset name must consist of alphanumeric characters or '-' (e.g. 'example-com', regex used for validation is '^[a-zA-Z0-9\\-]+$')\n` +
        'spec.updateStrategy: Required value: The initContainer in-place upgrade is not currently supported.\n' +
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is not valid for sidecarset.\n' +
        'spec.updateStrategy.partition: Invalid value: -1: must be greater than or equal to 0\n' +
        'spec.volumes[0].emptyDir: Forbidden: may not specify more than 1 volume type\n',
    });
    const beta = file(
      'sidecarset-beta.yaml',
      'apiVersion: apps.kruise.io/v1beta1\nkind: SidecarSet\nmetadata: {name: s}\nspec: {}\n',
    );
    expect(await runCli(['lint', '-f', beta], {})).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: document 1: apiVersion apps.kruise.io/v1beta1 is not apps.kruise.io/v1alpha1 for a SidecarSet\n',
    });
  });

  it('wrong kind, missing file and missing flag are errors', async () => {
    const dep = file('dep.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n');
    expect(await runCli(['lint', '-f', dep], {})).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: document 1: kind Deployment is not a CloneSet, StatefulSet, DaemonSet, BroadcastJob, AdvancedCronJob, SidecarSet, PodUnavailableBudget or WorkloadSpread\n',
    });
    expect(await runCli(['lint', '-f', '/nonexistent.yaml'], {})).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: the path "/nonexistent.yaml" does not exist\n',
    });
    expect(await runCli(['lint'], {})).toEqual({
      code: 1,
      stdout: '',
      stderr: "error: required option '-f, --filename <file>' not specified\n",
    });
  });
  it('lints a v1beta1 Advanced StatefulSet with its webhook rules and messages', async () => {
    const ok = file(
      'asts.yaml',
      `apiVersion: apps.kruise.io/v1beta1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n${TEMPLATE}  reserveOrdinals: [1, "3-5"]\n`,
    );
    expect(await runCli(['lint', '-f', ok], {})).toEqual({
      code: 0,
      stdout: 'statefulset "db" is valid\n',
      stderr: '',
    });
    const bad = file(
      'asts-bad.yaml',
      `apiVersion: apps.kruise.io/v1beta1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n${TEMPLATE}  updateStrategy: {rollingUpdate: {maxUnavailable: 2, podUpdatePolicy: InPlaceOnly}}\n`,
    );
    expect(await runCli(['lint', '-f', bad], {})).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:2, StrVal:""}: can only work with Parallel PodManagementPolicyType\n' +
        'spec.template.spec.readinessGates: Invalid value: []v1.PodReadinessGate(nil): must contains InPlaceUpdateReady when podUpdatePolicy is InPlaceOnly\n',
    });
  });

  it('lints a v1alpha1 Advanced StatefulSet converted to v1beta1, as the CRD stores it', async () => {
    const ok = file(
      'asts-alpha.yaml',
      `apiVersion: apps.kruise.io/v1alpha1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n${TEMPLATE}  podManagementPolicy: Parallel\n  updateStrategy: {rollingUpdate: {maxUnavailable: 2}}\n`,
    );
    expect(await runCli(['lint', '-f', ok], {})).toEqual({
      code: 0,
      stdout: 'statefulset "db" is valid\n',
      stderr: '',
    });
    const bad = file(
      'asts-alpha-bad.yaml',
      `apiVersion: apps.kruise.io/v1alpha1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n${TEMPLATE}  updateStrategy: {rollingUpdate: {maxUnavailable: 2}}\n`,
    );
    expect(await runCli(['lint', '-f', bad], {})).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:2, StrVal:""}: can only work with Parallel PodManagementPolicyType\n',
    });
  });
  it("lints PodUnavailableBudgets with OpenKruise's webhook rules (v1alpha1 annotations moved into the spec)", async () => {
    const ok = file(
      'pub.yaml',
      'apiVersion: policy.kruise.io/v1beta1\nkind: PodUnavailableBudget\nmetadata: {name: web}\nspec:\n  targetRef: {apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet, name: web}\n  maxUnavailable: 1\n',
    );
    expect(await runCli(['lint', '-f', ok], {})).toEqual({
      code: 0,
      stdout: 'podunavailablebudget "web" is valid\n',
      stderr: '',
    });
    const bad = file(
      'pub-bad.yaml',
      'apiVersion: policy.kruise.io/v1beta1\nkind: PodUnavailableBudget\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  maxUnavailable: 1\n  minAvailable: 1\n',
    );
    expect(await runCli(['lint', '-f', bad], {})).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'spec.maxUnavailable, minAvailable: Required value: maxUnavailable and minAvailable are mutually exclusive\n',
    });
    const alpha = file(
      'pub-alpha.yaml',
      "apiVersion: policy.kruise.io/v1alpha1\nkind: PodUnavailableBudget\nmetadata: {name: web, annotations: {kruise.io/pub-protect-operations: 'DELETE,KILL'}}\nspec:\n  selector: {matchLabels: {app: web}}\n  maxUnavailable: 1\n",
    );
    expect(await runCli(['lint', '-f', alpha], {})).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'metadata.annotations: failed to convert v1alpha1 PUB to v1beta1: invalid kruise.io/pub-protect-operations value "KILL"\n',
    });
  });

  it("lints WorkloadSpreads with OpenKruise's webhook rules (v1alpha1 converted; no other WorkloadSpread read)", async () => {
    const ok = file(
      'ws.yaml',
      'apiVersion: apps.kruise.io/v1alpha1\nkind: WorkloadSpread\nmetadata: {name: web}\nspec:\n  targetRef: {apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet, name: web}\n  subsets:\n    - name: a\n      requiredNodeSelectorTerm: {matchExpressions: [{key: zone, operator: In, values: [a]}]}\n      maxReplicas: 2\n    - name: b\n',
    );
    expect(await runCli(['lint', '-f', ok], {})).toEqual({
      code: 0,
      stdout: 'workloadspread "web" is valid\n',
      stderr: '',
    });
    const bad = file(
      'ws-bad.yaml',
      "apiVersion: apps.kruise.io/v1beta1\nkind: WorkloadSpread\nmetadata: {name: web}\nspec:\n  targetRef: {apiVersion: apps/v1, kind: StatefulSet, name: web}\n  subsets:\n    - name: a\n      requiredNodeSelector: {matchExpressions: [{key: zone, operator: In}]}\n      maxReplicas: '100%'\n",
    );
    expect(await runCli(['lint', '-f', bad], {})).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "spec.subsets[0].requiredNodeSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'\nspec.subsets[0].maxReplicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"100%\"}: the maxReplicas type must be Int for StatefulSet\n",
    });
  });

  it('--kruise-configuration: the ConfigMap whitelists apply to WorkloadSpread targets and SidecarSet patches', async () => {
    const tfjob = file(
      'ws-tfjob.yaml',
      'apiVersion: apps.kruise.io/v1beta1\nkind: WorkloadSpread\nmetadata: {name: train}\nspec:\n  targetRef: {apiVersion: kubeflow.org/v1, kind: TFJob, name: mnist}\n  subsets:\n    - name: a\n      maxReplicas: 1\n',
    );
    const patching = file(
      'sc-patch.yaml',
      `apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: logger, labels: {team: infra}}
spec:
  selector: {matchLabels: {app: web}}
  containers: [{name: fluentd, image: fluentd:1}]
  patchPodMetadata: [{annotations: {"oom-score": '{"log-agent": 1}'}, patchPolicy: MergePatchJson}]
`,
    );
    const config = file(
      'kruise-configuration.yaml',
      `apiVersion: v1
kind: ConfigMap
metadata: {name: kruise-configuration, namespace: kruise-system}
data:
  WorkloadSpread_Watch_Custom_Workload_WhiteList: |
    {"workloads": [{"Group": "kubeflow.org", "Kind": "TFJob", "ReplicasPath": "spec.tfReplicaSpecs.MASTER.replicas"}]}
  SidecarSet_PatchPodMetadata_WhiteList: |
    {"rules": [{"selector": {"matchLabels": {"team": "infra"}}, "allowedAnnotationKeyExprs": ["oom-score"]}]}
`,
    );
    const emptyConfig = file(
      'kruise-configuration-empty.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kruise-configuration}\n',
    );
    // without the option: no custom workload (OpenKruise's default), the patch whitelist not checked
    const without = await runCli(['lint', '-f', tfjob], {});
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(/^spec\.targetRef: /);
    expect(await runCli(['lint', '-f', patching], {})).toEqual({
      code: 0,
      stdout: 'sidecarset "logger" is valid\n',
      stderr: '',
    });
    // with the ConfigMap: the TFJob is a target, the annotation key is allowed
    expect(await runCli(['lint', '-f', tfjob, '--kruise-configuration', config], {})).toEqual({
      code: 0,
      stdout: 'workloadspread "train" is valid\n',
      stderr: '',
    });
    expect(await runCli(['lint', '-f', patching, '--kruise-configuration', config], {})).toEqual({
      code: 0,
      stdout: 'sidecarset "logger" is valid\n',
      stderr: '',
    });
    // a ConfigMap without the entries: the target refused as without it, the patch refused for want of a whitelist
    expect(await runCli(['lint', '-f', tfjob, '--kruise-configuration', emptyConfig], {})).toEqual(without);
    const noRules = await runCli(['lint', '-f', patching, '--kruise-configuration', emptyConfig], {});
    expect(noRules.code).toBe(1);
    expect(noRules.stderr).toMatch(/^spec\.patchPodMetadata/);
    // a file that is not such a ConfigMap, or whose entries are not JSON: one clear error, nothing linted
    const notCm = file('not-cm.yaml', 'apiVersion: v1\nkind: Secret\nmetadata: {name: x}\n');
    expect(await runCli(['lint', '-f', tfjob, '--kruise-configuration', notCm], {})).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${notCm}: not a ConfigMap (kubectl get cm -n kruise-system kruise-configuration -o yaml)\n`,
    });
    const badJson = file(
      'bad-json.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {WorkloadSpread_Watch_Custom_Workload_WhiteList: "{workloads"}\n',
    );
    const badWs = await runCli(['lint', '-f', tfjob, '--kruise-configuration', badJson], {});
    expect(badWs.code).toBe(1);
    expect(badWs.stderr).toMatch(
      new RegExp(`^error: ${badJson}: WorkloadSpread_Watch_Custom_Workload_WhiteList: not JSON \\(`),
    );
    const badPatch = file(
      'bad-patch.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {SidecarSet_PatchPodMetadata_WhiteList: "[oops"}\n',
    );
    const badSc = await runCli(['lint', '-f', patching, '--kruise-configuration', badPatch], {});
    expect(badSc.code).toBe(1);
    expect(badSc.stderr).toMatch(
      new RegExp(`^error: ${badPatch}: SidecarSet_PatchPodMetadata_WhiteList: not JSON \\(`),
    );
    expect(await runCli(['lint', '-f', tfjob, '--kruise-configuration', '/nonexistent-cm.yaml'], {})).toEqual(
      {
        code: 1,
        stdout: '',
        stderr: 'error: the path "/nonexistent-cm.yaml" does not exist\n',
      },
    );
  });
});
