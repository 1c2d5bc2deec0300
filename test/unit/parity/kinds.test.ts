/**
 * The parity harness per kind: `--kind` selection, scenarios declaring their kind, a kind's own steps and
 * normalisation, and the per-kind summary lines of parity and of the upstream e2e run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { ParityKind } from '../../parity/kind.js';
import { cloneSet } from '../../parity/kinds/cloneset/index.js';
import { PARITY_KINDS, selectKinds, UnknownKindError } from '../../parity/kinds/index.js';
import { statefulSet } from '../../parity/kinds/statefulset/index.js';
import { daemonSet } from '../../parity/kinds/daemonset/index.js';
import { advancedCronJob } from '../../parity/kinds/advancedcronjob/index.js';
import { podUnavailableBudget } from '../../parity/kinds/podunavailablebudget/index.js';
import { sidecarSet } from '../../parity/kinds/sidecarset/index.js';
import { workloadSpread } from '../../parity/kinds/workloadspread/index.js';
import { loadScenario, loadScenarios, scenarioDir, SCENARIO_DIR } from '../../parity/scenario.js';
import { takeSnapshot } from '../../parity/snapshot.js';
import { upstreamE2eSummary, type SpecResult } from '../../parity/upstreamE2eReport.js';

/** A made-up kind with none of CloneSet's particulars (no instance id, no podsToDelete). */
const widget: ParityKind = {
  name: 'widget',
  kind: 'Widget',
  resource: { group: 'example.io', version: 'v1', plural: 'widgets' },
  perReconcileEventReasons: new Set(),
  conflictOnlyConditionTypes: new Set(),
  deliberate: [],
};

const tmp = mkdtempSync(path.join(os.tmpdir(), 'parity-kinds-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Writes a scenario file `<name>.yaml` into the temporary folder. */
function scenarioFile(name: string, kind: string, steps: string): string {
  const file = path.join(tmp, `${name}.yaml`);
  writeFileSync(file, `name: ${name}\nkind: ${kind}\ndescription: d\nsource: s\nsteps:\n${steps}`);
  return file;
}

describe('--kind', () => {
  it('lists cloneset and statefulset, in run order; without --kind every kind runs', () => {
    expect(PARITY_KINDS.map((k) => k.name)).toEqual([
      'cloneset',
      'statefulset',
      'broadcastjob',
      'sidecarset',
      'advancedcronjob',
      'daemonset',
      'podunavailablebudget',
      'workloadspread',
    ]);
    expect(selectKinds(undefined)).toEqual(PARITY_KINDS);
  });

  it('takes the lower-case kind name (case is ignored)', () => {
    expect(selectKinds('cloneset')).toEqual([cloneSet]);
    expect(selectKinds('CloneSet')).toEqual([cloneSet]);
    expect(selectKinds('StatefulSet')).toEqual([statefulSet]);
  });

  it('refuses an unknown kind in one line naming the known ones', () => {
    expect(() => selectKinds('uniteddeployment')).toThrow(UnknownKindError);
    expect(() => selectKinds('uniteddeployment')).toThrow(
      'unknown kind "uniteddeployment" (known: cloneset, statefulset, broadcastjob, sidecarset, advancedcronjob, daemonset, podunavailablebudget, workloadspread)',
    );
  });
});

describe('scenario files declare their kind', () => {
  it("each kind's scenarios are in its own folder", () => {
    expect(scenarioDir(cloneSet)).toBe(path.join(SCENARIO_DIR, 'cloneset'));
    expect(loadScenarios(cloneSet).every((s) => s.kind === 'cloneset')).toBe(true);
    expect(scenarioDir(statefulSet)).toBe(path.join(SCENARIO_DIR, 'statefulset'));
    expect(loadScenarios(statefulSet).every((s) => s.kind === 'statefulset')).toBe(true);
  });

  it('a scenario without a kind, or of another kind than its folder, is refused', () => {
    const steps = '  - create: {kind: CloneSet, metadata: {name: x}}\n  - checkpoint: created\n';
    expect(loadScenario(scenarioFile('ok', 'cloneset', steps), cloneSet).kind).toBe('cloneset');
    expect(() => loadScenario(scenarioFile('other', 'widget', steps), cloneSet)).toThrow(
      /other\.yaml: kind "widget" in the folder of kind "cloneset"$/,
    );
    const noKind = path.join(tmp, 'nokind.yaml');
    writeFileSync(noKind, 'name: nokind\ndescription: d\nsource: s\nsteps:\n  - checkpoint: c\n');
    expect(() => loadScenario(noKind, cloneSet)).toThrow(/nokind\.yaml: kind: /);
  });

  it('a step on the object before the step that creates it is refused; pods, workloads and sleeps may come first', () => {
    const early =
      '  - sleep: 1\n  - checkpoint: c\n  - patch: {spec: {replicas: 2}}\n' +
      '  - create: {kind: CloneSet, metadata: {name: x}}\n';
    expect(() => loadScenario(scenarioFile('early', 'cloneset', early), cloneSet)).toThrow(
      /early\.yaml: patch: a step on the CloneSet before the step that creates it$/,
    );
    const setup =
      '  - createWorkload: {apiVersion: v1, kind: ConfigMap, metadata: {name: m}}\n  - sleep: 1\n' +
      '  - createPod: {apiVersion: v1, kind: Pod, metadata: {name: p}}\n' +
      '  - create: {kind: CloneSet, metadata: {name: x}}\n  - checkpoint: c\n';
    expect(loadScenario(scenarioFile('setup', 'cloneset', setup), cloneSet).steps).toHaveLength(5);
  });

  it('a step naming pods to delete is refused for a kind without such a field', () => {
    const steps =
      '  - create: {kind: Widget, metadata: {name: w}}\n  - podsToDelete: {index: 0}\n  - checkpoint: c\n';
    expect(() => loadScenario(scenarioFile('deletes', 'widget', steps), widget)).toThrow(
      /deletes\.yaml: podsToDelete: Widget has no field naming pods to delete$/,
    );
  });

  it('CloneSet names pods to delete in scaleStrategy.podsToDelete, with replicas in the same update', () => {
    expect(cloneSet.deletePodsPatch?.(['a', 'b'])).toEqual({
      spec: { scaleStrategy: { podsToDelete: ['a', 'b'] } },
    });
    expect(cloneSet.deletePodsPatch?.(['a'], 2)).toEqual({
      spec: { replicas: 2, scaleStrategy: { podsToDelete: ['a'] } },
    });
  });
});

describe('takeSnapshot per kind', () => {
  const pod = (name: string, owner: string): V1Pod => ({
    metadata: {
      name,
      uid: '00000000-1111-2222-3333-444444444444',
      labels: { 'apps.kruise.io/cloneset-instance-id': name.slice(-5) },
      ownerReferences: [{ apiVersion: 'v1', kind: owner, name: 'w', uid: 'u', controller: true }],
    },
    spec: { containers: [{ name: 'main', image: 'nginx' }] },
  });
  const state = (owner: string) => ({
    object: { metadata: { name: 'w' }, spec: {}, status: {} },
    pods: [pod('w-ab3cd', owner)],
    pvcs: [],
    revisions: [],
    imagePullJobs: [],
    events: [
      { metadata: {}, involvedObject: { kind: 'Widget' }, reason: 'Made', message: 'pod w-ab3cd', count: 2 },
      { metadata: {}, involvedObject: { kind: 'CloneSet' }, reason: 'Other', message: 'x' },
    ],
  });
  const peaks = { maxPods: 1, minReady: 1 };

  it("keeps what is random only by CloneSet's rules: a kind without instance ids keeps names and labels", () => {
    const snap = takeSnapshot(widget, state('Widget'), new Set(), peaks, true);
    expect(snap.pods[0]?.labels).toEqual({ 'apps.kruise.io/cloneset-instance-id': 'ab3cd' });
    expect(snap.events).toEqual({ ' Made: pod w-ab3cd': 2 });
    const cs = takeSnapshot(cloneSet, state('CloneSet'), new Set(), peaks, true);
    expect(cs.pods[0]?.labels).toEqual({ 'apps.kruise.io/cloneset-instance-id': '<id>' });
    expect(cs.events).toEqual({ ' Other: x': 1 });
  });
});

describe('Advanced StatefulSet', () => {
  const owner = (kind: string, name: string, controller: boolean) => ({
    apiVersion: 'v1',
    kind,
    name,
    uid: '00000000-1111-2222-3333-444444444444',
    controller,
  });
  const pod = (name: string): V1Pod => ({
    metadata: {
      name,
      uid: `00000000-1111-2222-3333-00000000000${name.slice(-1)}`,
      labels: { 'statefulset.kubernetes.io/pod-name': name, 'apps.kruise.io/pod-index': name.slice(-1) },
      ownerReferences: [owner('StatefulSet', 'web', true)],
    },
    spec: { containers: [{ name: 'main', image: 'nginx' }] },
  });

  it('is served as apps.kruise.io/v1beta1 statefulsets, with no instance id, random suffix or podsToDelete', () => {
    expect(statefulSet.resource).toEqual({
      group: 'apps.kruise.io',
      version: 'v1beta1',
      plural: 'statefulsets',
    });
    expect(statefulSet.kind).toBe('StatefulSet');
    expect(statefulSet.instanceIdLabel).toBeUndefined();
    expect(statefulSet.randomNameSuffix).toBeUndefined();
    expect(statefulSet.deletePodsPatch).toBeUndefined();
    expect([...statefulSet.conflictOnlyConditionTypes]).toEqual(['FailedUpdatePod']);
  });

  it('keeps ordinal pod names and PVC names <template>-<pod>, with owners, phase and capacity', () => {
    const snap = takeSnapshot(
      statefulSet,
      {
        object: { metadata: { name: 'web' }, spec: {}, status: {} },
        pods: [pod('web-1'), pod('web-0')],
        pvcs: [
          {
            metadata: {
              name: 'www-web-0',
              labels: { app: 'web' },
              ownerReferences: [owner('Pod', 'web-0', false)],
            },
            spec: { storageClassName: 'standard', volumeName: 'pvc-00000000-1111-2222-3333-444444444444' },
            status: { phase: 'Bound', capacity: { storage: '1Gi' } },
          },
        ],
        revisions: [
          {
            metadata: { name: 'web-7f9c6d8b5', ownerReferences: [owner('StatefulSet', 'web', true)] },
            revision: 1,
          },
        ],
        imagePullJobs: [],
        events: [
          {
            metadata: {},
            involvedObject: { kind: 'StatefulSet' },
            type: 'Normal',
            reason: 'SuccessfulCreate',
            message: 'create Pod web-0 in StatefulSet web successful',
          },
        ],
      },
      new Set(),
      { maxPods: 2, minReady: 2 },
      true,
    );
    expect(snap.pods.map((p) => p.labels['statefulset.kubernetes.io/pod-name'])).toEqual(['web-0', 'web-1']);
    expect(snap.pvcs).toEqual([
      {
        capacity: { storage: '1Gi' },
        labels: { app: 'web' },
        name: 'www-web-0',
        owners: ['Pod/web-0 controller=false'],
        phase: 'Bound',
        spec: { storageClassName: 'standard' },
        terminating: false,
      },
    ]);
    expect(snap.revisions).toEqual(['web-7f9c6d8b5 #1']);
    expect(snap.events).toEqual({
      'Normal SuccessfulCreate: create Pod web-0 in StatefulSet web successful': 1,
    });
  });
});

describe('AdvancedCronJob', () => {
  it("normalises its Jobs' scheduled-time names and their pods' suffixes; a status reference's resourceVersion", () => {
    const jobPod: V1Pod = {
      metadata: {
        name: 'hello-1796256060-x7k2p',
        uid: '00000000-1111-2222-3333-000000000001',
        labels: { 'job-name': 'hello-1796256060' },
        ownerReferences: [
          { apiVersion: 'batch/v1', kind: 'Job', name: 'hello-1796256060', uid: 'u', controller: true },
        ],
      },
      spec: { containers: [{ name: 'box', image: 'busybox' }] },
    };
    const snap = takeSnapshot(
      advancedCronJob,
      {
        object: {
          metadata: { name: 'hello' },
          spec: {},
          status: {
            type: 'Job',
            active: [{ kind: 'Job', name: 'hello-1796256060', resourceVersion: '812' }],
            lastScheduleTime: '2026-12-03T00:01:00Z',
          },
        },
        pods: [jobPod],
        pvcs: [],
        revisions: [],
        imagePullJobs: [],
        events: [],
      },
      new Set(),
      { maxPods: 1, minReady: 0 },
      true,
    );
    expect(snap.object).toEqual({
      spec: {},
      status: {
        type: 'Job',
        active: [{ kind: 'Job', name: 'hello-<id>', resourceVersion: '<rv>' }],
        lastScheduleTime: '<time>',
      },
    });
    expect(snap.pods.map((p) => [p.labels['job-name'], p.owners])).toEqual([
      ['hello-<id>', ['Job/hello-<id> controller=true']],
    ]);
  });
});

describe('upstream e2e summary per kind', () => {
  const spec = (name: string, state: SpecResult['state']): SpecResult => ({ name, state, seconds: 1 });
  const a = { openkruise: [spec('a1', 'passed'), spec('a2', 'failed')], kruiseless: [spec('a1', 'passed')] };
  const b = { openkruise: [spec('b1', 'passed')], kruiseless: [spec('b1', 'failed')] };

  it("one kind's line, and the total of several kinds' runs", () => {
    expect(upstreamE2eSummary(a, 'cloneset')).toBe(
      'upstream-e2e cloneset: 2 specs, OpenKruise 1 passed, Kruiseless 1 passed, 0 pass on OpenKruise only',
    );
    expect(upstreamE2eSummary([a, b])).toBe(
      'upstream-e2e: 3 specs, OpenKruise 2 passed, Kruiseless 1 passed, 1 pass on OpenKruise only',
    );
  });

  it("CloneSet's specs are OpenKruise's v1alpha1 CloneSet e2e file", () => {
    expect(cloneSet.upstreamE2e).toEqual({ focusFiles: ['test/e2e/apps/v1alpha1/cloneset.go'] });
  });

  it("Advanced StatefulSet's specs are OpenKruise's v1beta1 StatefulSet e2e file", () => {
    expect(statefulSet.upstreamE2e).toEqual({ focusFiles: ['test/e2e/apps/v1beta1/statefulset.go'] });
  });

  it("Advanced DaemonSet's specs are both of OpenKruise's DaemonSet e2e files, v1alpha1 and v1beta1", () => {
    expect(daemonSet.upstreamE2e).toEqual({
      focusFiles: ['test/e2e/apps/v1alpha1/daemonset.go', 'test/e2e/apps/v1beta1/daemonset.go'],
    });
  });

  it("PodUnavailableBudget's specs are OpenKruise's v1alpha1 PodUnavailableBudget e2e file (the suite has no other)", () => {
    expect(podUnavailableBudget.upstreamE2e).toEqual({
      focusFiles: ['test/e2e/policy/v1alpha1/podunavailablebudget.go'],
      kcmControllers: ['deployment-controller', 'replicaset-controller'],
    });
  });

  it("WorkloadSpread's specs are OpenKruise's v1alpha1 and v1beta1 WorkloadSpread e2e files", () => {
    expect(workloadSpread.upstreamE2e).toEqual({
      focusFiles: ['test/e2e/apps/v1alpha1/workloadspread.go', 'test/e2e/apps/v1beta1/workloadspread.go'],
      kcmControllers: ['deployment-controller', 'replicaset-controller', 'statefulset-controller'],
      // upstream's e2e setup (test/unit/parity/upstreamE2eSetup.test.ts)
      manifests: expect.any(Array),
    });
  });

  it("SidecarSet's specs are OpenKruise's v1alpha1 and v1beta1 SidecarSet e2e files (not the SidecarTerminator's)", () => {
    expect(sidecarSet.upstreamE2e).toEqual({
      focusFiles: ['v1alpha1', 'v1beta1'].flatMap((v) =>
        ['sidecarset', 'sidecarset_hotupgrade', 'sidecarset_resources_policy'].map(
          (f) => `test/e2e/apps/${v}/${f}.go`,
        ),
      ),
      kcmControllers: ['deployment-controller', 'replicaset-controller'],
    });
  });
});
