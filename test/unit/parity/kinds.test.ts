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
  it('lists cloneset, the one kind today; without --kind every kind runs', () => {
    expect(PARITY_KINDS.map((k) => k.name)).toEqual(['cloneset']);
    expect(selectKinds(undefined)).toEqual(PARITY_KINDS);
  });

  it('takes the lower-case kind name (case is ignored)', () => {
    expect(selectKinds('cloneset')).toEqual([cloneSet]);
    expect(selectKinds('CloneSet')).toEqual([cloneSet]);
  });

  it('refuses an unknown kind in one line naming the known ones', () => {
    expect(() => selectKinds('statefulset')).toThrow(UnknownKindError);
    expect(() => selectKinds('statefulset')).toThrow('unknown kind "statefulset" (known: cloneset)');
  });
});

describe('scenario files declare their kind', () => {
  it("each kind's scenarios are in its own folder", () => {
    expect(scenarioDir(cloneSet)).toBe(path.join(SCENARIO_DIR, 'cloneset'));
    expect(loadScenarios(cloneSet).every((s) => s.kind === 'cloneset')).toBe(true);
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
    expect(cloneSet.upstreamE2e).toEqual({ focusFile: 'test/e2e/apps/v1alpha1/cloneset.go' });
  });
});
