/**
 * The bad-input corpus (docs/reliability.md, "Bad-input corpus"): every file under test/corpus is a list of inputs, each with its expected outcome
 * beside it, run here against the real code over the recording API server and the recording in-memory stores of
 * test/unit/controllers/cloneset/reconcile/support. A case without an outcome, or of an unknown kind, fails.
 *
 * Kinds (the `kind` of a file):
 * - `event`: an EventBridge event to the reconcile handler; expected `error` (the exact InvalidEventError message,
 *   and then no API call and no state-store call at all) or `result` (the control case).
 * - `cloneset`: the seed CloneSet (examples/cs-no-pvc-sample.yaml, running with 2 ready pods) changed by a JSON
 *   Patch so it breaks validation; expected the exact validation errors and the exact journal of the reconcile
 *   (status and Warning Event only), with pods, PVCs and revisions untouched.
 * - `objects`: cluster objects with holes (pods without labels, foreign controllers, 5,000 pods, ...); expected the
 *   result, the exact journal (or, for huge inputs, its counts), and the pods left.
 * After every reconcile of the last two kinds the stores are settled: lease free, no pending expectation, no open
 * scale-down intent.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Logger } from '@aws-lambda-powertools/logger';
import { KubeConfig } from '@kubernetes/client-node';
import jsonpatch from 'fast-json-patch';
import { parse } from 'yaml';
import type { CloneSet, Pod } from '../../../lib/api/types.js';
import { describeFieldErrors, type FieldError } from '../../../lib/core/errors.js';
import { InvalidEventError } from '../../../lib/requests/index.js';
import { reconcileCloneSet } from '../../../lib/controllers/cloneset/index.js';
import { reconcileHandler } from '../../../lib/runtime/handlers/reconcile.js';
import type { Runtime } from '../../../lib/runtime/types.js';
import type { StateStores } from '../../../lib/state/index.js';
import {
  harness,
  REQUEST,
  seedCloneSet,
  type Harness,
} from '../controllers/cloneset/reconcile/support/harness.js';
import { recordingStores, type Journal } from '../controllers/cloneset/reconcile/support/recordingKube.js';

const CORPUS = fileURLToPath(new URL('../../corpus/', import.meta.url));
/** Every corpus file: a file added or lost shows here. */
const CORPUS_FILES = [
  'cloneset/objects/holes.yaml',
  'cloneset/objects/huge.yaml',
  'cloneset/objects/unvalidated.yaml',
  'cloneset/validation.yaml',
  'events/detail.yaml',
  'events/envelope.yaml',
];

interface Case {
  name: string;
  input?: unknown;
  patch?: jsonpatch.Operation[];
  /** objects: pods to add to the cluster (after the seed's own, if `seeded`). */
  pods?: Pod[];
  /**
   * objects: `count` copies of `pod` (or of the pod named `from` already in the cluster), named `<prefix>-<i>`,
   * uid `<prefix>-<i>-uid`.
   */
  generate?: { count: number; prefix: string; pod?: Pod; from?: string };
  /** objects: reconcile the seed to 2 ready pods first. */
  seeded?: boolean;
  /** objects: JSON Patches to apply to pods already in the cluster (after `seeded`), by pod name. */
  podPatches?: Record<string, jsonpatch.Operation[]>;
  expect?: Expectation;
}

interface Expectation {
  error?: string;
  result?: string;
  errors?: FieldError[];
  journal?: string[];
  /** Journal lines counted by their first word (`create`, `delete`, `patch`, ...) plus the lease/store calls. */
  journalCounts?: Record<string, number>;
  /** Pods left, by name, with the uid of their controller owner (or null). */
  pods?: Record<string, string | null>;
  podCount?: number;
  status?: Record<string, unknown>;
}

interface CorpusFile {
  kind: 'event' | 'cloneset' | 'objects';
  base?: unknown;
  cases: Case[];
}

/** `{$repeat: [text, times]}` anywhere in a value becomes `text` repeated `times` times. */
function expand(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expand);
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const rep = o.$repeat;
    if (Array.isArray(rep) && Object.keys(o).length === 1) return String(rep[0]).repeat(Number(rep[1]));
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, expand(v)]));
  }
  return value;
}

function corpusFiles(dir = CORPUS): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? corpusFiles(join(dir, e.name))
        : /\.(ya?ml|json)$/.test(e.name)
          ? [join(dir, e.name)]
          : [],
    )
    .sort();
}

function load(file: string): CorpusFile {
  return parse(readFileSync(file, 'utf8')) as CorpusFile;
}

/** The case's input: `input` as written, or `base` with `patch` (default none) applied (both expanded). */
function inputOf(file: CorpusFile, c: Case, base: unknown = file.base): unknown {
  if (c.patch || c.input === undefined) {
    return jsonpatch.applyPatch(structuredClone(base), expand(c.patch ?? []) as jsonpatch.Operation[])
      .newDocument;
  }
  return expand(c.input);
}

/** A proxy that journals every method call as `<name>.<method>` (and fails nothing). */
function recorder<T extends object>(name: string, target: T, journal: Journal): T {
  return new Proxy(target, {
    get(t, prop, receiver) {
      const value = Reflect.get(t, prop, receiver) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return (...args: unknown[]) => {
        journal.push(`${name}.${prop}`);
        return (value as (...a: unknown[]) => unknown).apply(t, args);
      };
    },
  });
}

/** A runtime over the harness whose every adapter call lands in `calls`. */
function recordingRuntime(h: Harness, calls: Journal): Runtime {
  const stores: StateStores = {
    ...recordingStores(h.stores, calls),
    clusters: recorder('clusters', {} as StateStores['clusters'], calls),
    watches: recorder('watches', {} as StateStores['watches'], calls),
  };
  const kube = recorder('kube', h.kube, calls);
  return {
    stores,
    publisher: recorder('publisher', {} as Runtime['publisher'], calls),
    requeue: recorder('requeue', { requeueAfter: async () => undefined }, calls),
    clusterNames: async () => {
      calls.push('runtime.clusterNames');
      return ['test'];
    },
    cluster: async (name) => {
      calls.push(`runtime.cluster ${name}`);
      return { name, kc: new KubeConfig(), kube };
    },
    admissionSecret: async () => {
      calls.push('runtime.admissionSecret');
      return undefined;
    },
  };
}

async function runEvent(file: CorpusFile, c: Case, expected: Expectation): Promise<void> {
  const h = harness();
  h.kube.apply(seedCloneSet());
  const calls: Journal = [];
  const handler = reconcileHandler(() => recordingRuntime(h, calls), new Logger({ logLevel: 'SILENT' }));
  const event = inputOf(file, c);
  if (expected.error !== undefined) {
    const error = await handler(event).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidEventError);
    expect((error as Error).message).toBe(expected.error);
    expect(calls).toEqual([]);
    expect(h.journal).toEqual([]);
    expect(h.kube.pods.size).toBe(0);
  } else {
    const summary = await handler(event);
    expect(summary.result).toBe(expected.result);
    expect(calls.slice(0, 2)).toEqual(['runtime.cluster test', 'lease.acquire']);
    expect(calls).toContain('kube.get');
    expect(calls).toContain('kube.create');
    expect(h.kube.pods.size).toBe(2);
  }
}

/** The seed CloneSet reconciled to 2 ready pods and once more to a steady state, journal cleared, clock 30 s on. */
async function seeded(h: Harness): Promise<void> {
  h.kube.apply(seedCloneSet());
  await reconcileCloneSet(h.deps(), REQUEST);
  h.kube.kubelet();
  h.clock.now += 30_000;
  await reconcileCloneSet(h.deps({ deadlineMs: h.clock.now + 60_000 }), REQUEST);
  h.journal.length = 0;
  h.kube.events.length = 0;
  h.clock.now += 30_000;
}

const KEY = {
  cluster: REQUEST.cluster,
  kind: REQUEST.kind,
  namespace: REQUEST.namespace,
  name: REQUEST.name,
};

/** After an invocation: the lease is free, no expectation is left pending and no scale-down intent is left open. */
async function storesSettled(h: Harness): Promise<void> {
  const probe = await h.stores.leases.acquire(KEY, 'probe', 1000, h.clock.now);
  expect(probe.acquired).toBe(true);
  if (probe.acquired) await h.stores.leases.release(probe.lease);
  const { creates, deletes, updates } = await h.stores.expectations.get(KEY);
  expect({ creates, deletes, updates }).toEqual({ creates: [], deletes: [], updates: [] });
  expect(await h.stores.ledger.get(KEY)).toBeUndefined();
}

function snapshot(h: Harness): unknown {
  return structuredClone({
    pods: [...h.kube.pods.entries()],
    pvcs: [...h.kube.pvcs.entries()],
    revisions: [...h.kube.revisions.entries()],
  });
}

async function runCloneSet(file: CorpusFile, c: Case, expected: Expectation): Promise<void> {
  const h = harness();
  await seeded(h);
  const before = snapshot(h);
  const cs = inputOf(file, c, seedCloneSet()) as CloneSet;
  h.kube.apply(cs);
  const out = await reconcileCloneSet(h.deps({ deadlineMs: h.clock.now + 60_000 }), REQUEST);
  expect(out.result).toBe('reconciled');
  expect(out.plan?.validationErrors).toEqual(expected.errors);
  expect(h.journal).toEqual(expected.journal);
  expect(snapshot(h)).toEqual(before);
  const message = describeFieldErrors(expected.errors ?? []);
  expect(h.kube.events).toEqual([{ type: 'Warning', reason: 'FailedValidation', message }]);
  const stored = h.kube.cloneSets.get(REQUEST.name);
  const condition = stored?.status?.conditions?.find((x) => x.type === 'FailedValidation');
  expect(condition).toMatchObject({ status: 'True', reason: 'InvalidSpec', message });
  // level-triggered: the same invalid spec again writes nothing and records no second Event
  h.journal.length = 0;
  await reconcileCloneSet(h.deps({ deadlineMs: h.clock.now + 60_000 }), REQUEST);
  expect(h.journal.filter((l) => !/^(lease|expectations|ledger)\./.test(l))).toEqual([]);
  expect(h.kube.events).toHaveLength(1);
  expect(snapshot(h)).toEqual(before);
  await storesSettled(h);
}

function countsOf(journal: Journal): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of journal) {
    const word = line.split(' ')[0];
    counts[word] = (counts[word] ?? 0) + 1;
  }
  return counts;
}

async function runObjects(file: CorpusFile, c: Case, expected: Expectation): Promise<void> {
  const h = harness();
  if (c.seeded) await seeded(h);
  const cs = inputOf(file, c, seedCloneSet()) as CloneSet;
  h.kube.apply(cs);
  for (const [name, ops] of Object.entries(c.podPatches ?? {})) {
    const pod = h.kube.pods.get(name);
    if (!pod) throw new Error(`corpus case "${c.name}": no pod ${name} to patch`);
    h.kube.pods.set(name, jsonpatch.applyPatch(structuredClone(pod), ops).newDocument);
  }
  const pods = [...(c.pods ?? [])];
  if (c.generate) {
    const template = c.generate.pod ?? h.kube.pods.get(c.generate.from ?? '');
    if (!template)
      throw new Error(`corpus case "${c.name}": generate needs a pod or an existing pod to copy`);
    for (let i = 0; i < c.generate.count; i++) {
      const pod = structuredClone(template);
      pod.metadata.name = `${c.generate.prefix}-${i}`;
      pod.metadata.uid = `${pod.metadata.name}-uid`;
      pods.push(pod);
    }
  }
  for (const pod of pods) {
    // what the API server sets on every stored pod; everything else is as the corpus wrote it
    pod.metadata.namespace ??= REQUEST.namespace;
    pod.metadata.uid ??= `${pod.metadata.name}-uid`;
    pod.metadata.resourceVersion ??= '1';
    h.kube.pods.set(pod.metadata.name ?? '', pod);
  }
  const out = await reconcileCloneSet(h.deps({ deadlineMs: h.clock.now + 60_000 }), REQUEST);
  if (expected.result !== undefined) expect(out.result).toBe(expected.result);
  if (expected.journal) expect(h.journal).toEqual(expected.journal);
  if (expected.journalCounts) expect(countsOf(h.journal)).toEqual(expected.journalCounts);
  if (expected.podCount !== undefined) expect(h.kube.pods.size).toBe(expected.podCount);
  if (expected.pods) {
    const left = Object.fromEntries(
      [...h.kube.pods.values()].map((p) => [
        p.metadata.name,
        p.metadata.ownerReferences?.find((r) => r.controller)?.uid ?? null,
      ]),
    );
    expect(left).toEqual(expected.pods);
  }
  if (expected.status) {
    const stored = h.kube.cloneSets.get(REQUEST.name);
    expect(stored?.status).toMatchObject(expected.status);
  }
  await storesSettled(h);
}

/** Runs one case against its expected outcome; throws for a case without one or a file of an unknown kind. */
async function runCase(file: CorpusFile, c: Case): Promise<void> {
  const expected = c.expect;
  if (!expected) throw new Error(`corpus case "${c.name}" has no expected outcome`);
  if (file.kind === 'event') await runEvent(file, c, expected);
  else if (file.kind === 'cloneset') await runCloneSet(file, c, expected);
  else if (file.kind === 'objects') await runObjects(file, c, expected);
  else throw new Error(`corpus kind "${String(file.kind)}" is unknown`);
}

const files = corpusFiles();

describe('the corpus runner', () => {
  test('finds the corpus files', () => {
    expect(files.map((f) => f.slice(CORPUS.length))).toEqual(CORPUS_FILES);
  });

  test('fails a case without an expected outcome, and a file of an unknown kind', async () => {
    await expect(runCase({ kind: 'event', cases: [] }, { name: 'x', input: {} })).rejects.toThrow(
      'corpus case "x" has no expected outcome',
    );
    const unknown = { kind: 'pods', cases: [] } as unknown as CorpusFile;
    await expect(runCase(unknown, { name: 'y', expect: {} })).rejects.toThrow(
      'corpus kind "pods" is unknown',
    );
  });

  test('fails an event case whose outcome does not match', async () => {
    const file: CorpusFile = { kind: 'event', cases: [] };
    await expect(
      runCase(file, { name: 'z', input: null, expect: { error: 'something else' } }),
    ).rejects.toThrow();
  });
});

describe.each(files.map((f) => [f.slice(CORPUS.length), f]))('%s', (_rel, path) => {
  const file = load(path);
  test.each(file.cases.map((c) => [c.name, c]))('%s', async (_name, c) => {
    await runCase(file, c);
  });
});
