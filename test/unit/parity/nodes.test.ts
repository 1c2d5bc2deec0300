/**
 * The parity runner's node steps: their schema, the taint edits, the merge patch that restores a node, and the
 * ledger that restores every touched node (and a journal a killed run left), on a fake node store.
 */
import { mkdtempSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { daemonSet } from '../../parity/kinds/daemonset/index.js';
import {
  NodeLedger,
  nodeState,
  restorePatch,
  taintsWith,
  taintsWithout,
  type NodeAccess,
} from '../../parity/nodes.js';
import { selectPods } from '../../parity/run.js';
import { loadScenario, loadScenarios, StepSchema } from '../../parity/scenario.js';

/** RFC 7386 merge patch on a plain object (what the API server does with a node's merge patch). */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    target && typeof target === 'object' && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** A node store answering reads and merge patches, counting patches; `failOn` names a node whose patch fails. */
class FakeNodes implements NodeAccess {
  readonly nodes = new Map<string, V1Node>();
  patches = 0;
  failOn: string | undefined;

  constructor(names: string[]) {
    for (const name of names)
      this.nodes.set(name, {
        metadata: { name, labels: { type: 'kwok', 'kubernetes.io/hostname': name } },
        spec: {},
      });
  }

  readNode(name: string): Promise<V1Node> {
    const n = this.nodes.get(name);
    return n ? Promise.resolve(structuredClone(n)) : Promise.reject(new Error(`node ${name} not found`));
  }

  patchNode(name: string, patch: Record<string, unknown>): Promise<void> {
    if (name === this.failOn) return Promise.reject(new Error('boom'));
    this.patches += 1;
    this.nodes.set(name, mergePatch(this.nodes.get(name), patch) as V1Node);
    return Promise.resolve();
  }
}

describe('node steps in the scenario schema', () => {
  it('accepts each node step and refuses unknown effects or fields', () => {
    expect(StepSchema.safeParse({ labelNode: { node: 0, labels: { a: 'b', c: null } } }).success).toBe(true);
    expect(
      StepSchema.safeParse({
        taintNode: { node: 2, taints: [{ key: 'k', value: 'v', effect: 'NoExecute' }] },
      }).success,
    ).toBe(true);
    expect(StepSchema.safeParse({ untaintNode: { node: 1, taints: [{ key: 'k' }] } }).success).toBe(true);
    expect(StepSchema.safeParse({ cordonNode: 1 }).success).toBe(true);
    expect(StepSchema.safeParse({ uncordonNode: 1 }).success).toBe(true);
    expect(
      StepSchema.safeParse({ taintNode: { node: 0, taints: [{ key: 'k', effect: 'Sometimes' }] } }).success,
    ).toBe(false);
    expect(StepSchema.safeParse({ taintNode: { node: 0, taints: [] } }).success).toBe(false);
    expect(StepSchema.safeParse({ cordonNode: -1 }).success).toBe(false);
    expect(StepSchema.safeParse({ labelNode: { node: 0, labels: {}, extra: 1 } }).success).toBe(false);
  });

  it('a scenario file with node steps loads', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'parity-nodes-'));
    const file = path.join(dir, 'n.yaml');
    writeFileSync(
      file,
      [
        'name: n',
        'kind: daemonset',
        'description: d',
        'source: s',
        'steps:',
        '  - labelNode: {node: 0, labels: {pool: a}}',
        '  - cordonNode: 2',
        '  - create: {kind: DaemonSet, metadata: {name: d}}',
        '  - deletePod: {node: 2, index: 0}',
        '  - checkpoint: c',
        '',
      ].join('\n'),
    );
    expect(loadScenario(file, daemonSet).steps).toHaveLength(5);
  });

  it('every DaemonSet scenario loads, none of the new ones quick', () => {
    const scenarios = loadScenarios(daemonSet);
    expect(scenarios.length).toBeGreaterThanOrEqual(30);
    expect(scenarios.filter((s) => s.quick).map((s) => s.name)).toEqual(['ads-create']);
  });
});

describe('taint edits', () => {
  it('adds in place of the same key and effect, removes by key or by key and effect', () => {
    const start = [
      { key: 'a', effect: 'NoSchedule' },
      { key: 'a', value: 'x', effect: 'NoExecute' },
    ];
    expect(taintsWith(start, [{ key: 'a', value: 'y', effect: 'NoExecute' }])).toEqual([
      { key: 'a', effect: 'NoSchedule' },
      { key: 'a', value: 'y', effect: 'NoExecute' },
    ]);
    expect(taintsWithout(start, [{ key: 'a', effect: 'NoSchedule' }])).toEqual([
      { key: 'a', value: 'x', effect: 'NoExecute' },
    ]);
    expect(taintsWithout(start, [{ key: 'a' }])).toEqual([]);
  });
});

describe('restorePatch', () => {
  const original = { labels: { type: 'kwok', zone: 'a' }, taints: [], unschedulable: false };

  it('is undefined when nothing changed (taint order aside)', () => {
    expect(restorePatch(original, { ...original, labels: { ...original.labels } })).toBeUndefined();
    const two = [
      { key: 'a', effect: 'NoSchedule' },
      { key: 'b', effect: 'NoExecute' },
    ];
    expect(
      restorePatch({ ...original, taints: two }, { ...original, taints: [...two].reverse() }),
    ).toBeUndefined();
  });

  it('removes added labels, writes back changed and removed ones, clears taints and the cordon', () => {
    expect(
      restorePatch(original, {
        labels: { type: 'other', pool: 'x' },
        taints: [{ key: 'k', effect: 'NoSchedule' }],
        unschedulable: true,
      }),
    ).toEqual({
      metadata: { labels: { pool: null, type: 'kwok', zone: 'a' } },
      spec: { taints: null, unschedulable: null },
    });
  });

  it('writes back the original taints and cordon when the scenario removed them', () => {
    const taints = [{ key: 'k', value: 'v', effect: 'NoExecute' }];
    expect(restorePatch({ ...original, taints, unschedulable: true }, original)).toEqual({
      spec: { taints, unschedulable: true },
    });
  });
});

describe('NodeLedger', () => {
  const journalIn = (): string =>
    path.join(mkdtempSync(path.join(tmpdir(), 'parity-ledger-')), 'journal.json');

  it('restores every touched node to its state before the first change, and only patches what differs', async () => {
    const fake = new FakeNodes(['n0', 'n1', 'n2']);
    const before = nodeState(await fake.readNode('n0'));
    const journal = journalIn();
    const ledger = new NodeLedger(fake, journal);
    await ledger.remember('n0');
    await fake.patchNode('n0', { metadata: { labels: { pool: 'a' } }, spec: { unschedulable: true } });
    await ledger.remember('n0'); // a second change keeps the first state
    await fake.patchNode('n0', { spec: { taints: [{ key: 'k', effect: 'NoExecute' }] } });
    await ledger.remember('n1'); // touched, then put back by the scenario itself
    expect(ledger.touched()).toEqual(['n0', 'n1']);
    expect(Object.keys(JSON.parse(readFileSync(journal, 'utf8')) as object)).toEqual(['n0', 'n1']);
    fake.patches = 0;
    await ledger.restore();
    expect(nodeState(await fake.readNode('n0'))).toEqual(before);
    expect(fake.patches).toBe(1);
    expect(ledger.touched()).toEqual([]);
    expect(existsSync(journal)).toBe(false);
  });

  it('tries every node when one fails, keeps the failed one in the journal, and names it', async () => {
    const fake = new FakeNodes(['n0', 'n1']);
    const journal = journalIn();
    const ledger = new NodeLedger(fake, journal);
    await ledger.remember('n0');
    await ledger.remember('n1');
    await fake.patchNode('n0', { metadata: { labels: { pool: 'a' } } });
    await fake.patchNode('n1', { metadata: { labels: { pool: 'a' } } });
    fake.failOn = 'n0';
    await expect(ledger.restore()).rejects.toThrow('could not restore node(s): n0: boom');
    expect(nodeState(await fake.readNode('n1')).labels).not.toHaveProperty('pool');
    expect(Object.keys(JSON.parse(readFileSync(journal, 'utf8')) as object)).toEqual(['n0']);
    fake.failOn = undefined;
    await ledger.restore();
    expect(nodeState(await fake.readNode('n0')).labels).not.toHaveProperty('pool');
  });

  it("restores what a killed run's journal holds", async () => {
    const fake = new FakeNodes(['n0']);
    const journal = journalIn();
    const killed = new NodeLedger(fake, journal);
    await killed.remember('n0');
    await fake.patchNode('n0', {
      spec: { unschedulable: true, taints: [{ key: 'k', effect: 'NoSchedule' }] },
    });
    // the run dies here; the next one finds the journal
    const next = new NodeLedger(fake, journal);
    expect(next.loadJournal()).toEqual(['n0']);
    await next.restore();
    expect(nodeState(await fake.readNode('n0'))).toEqual({
      labels: { type: 'kwok', 'kubernetes.io/hostname': 'n0' },
      taints: [],
      unschedulable: false,
    });
    expect(existsSync(journal)).toBe(false);
    expect(new NodeLedger(fake, journal).loadJournal()).toEqual([]);
  });
});

describe('selectPods by node', () => {
  const pod = (name: string, node: string): V1Pod => ({
    metadata: {
      name,
      uid: name,
      creationTimestamp: new Date('2026-01-01T00:00:00Z'),
      ownerReferences: [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', name: 'ds', uid: 'u' }],
    },
    spec: { nodeName: node, containers: [] },
  });
  const state = {
    pods: [pod('ds-a', 'kwok-node-0'), pod('ds-b', 'kwok-node-2')],
    pvcs: [],
    revisions: [],
    imagePullJobs: [],
    events: [],
  };
  const names = ['kwok-node-0', 'kwok-node-1', 'kwok-node-2'];

  it('keeps the pods bound to the node at that index in name order', () => {
    expect(selectPods(daemonSet, state, { node: 2, all: true }, names).map((p) => p.metadata?.name)).toEqual([
      'ds-b',
    ]);
    expect(() => selectPods(daemonSet, state, { node: 1, index: 0 }, names)).toThrow(/no pod matches/);
  });
});
