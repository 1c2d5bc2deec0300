/**
 * Parity scenarios as data: an object of one kind (a CloneSet, …), a list of steps a user (or another controller, or
 * the kubelet) takes, and checkpoints where both clusters are compared once settled. Files live in
 * `test/parity/scenarios/<kind>/*.yaml`, each declaring its `kind`; the format is documented in `docs/parity.md`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';
import type { ParityKind } from './kind.js';

/** Folder of the scenario folders, one per kind (`scenarios/<kind name>/`). */
export const SCENARIO_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'scenarios');
/** Repository root (scenario `apply:` paths are relative to it). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Which pods a step acts on, among the scenario object's live pods (not terminating) sorted by
 * creationTimestamp, then name. `marker` picks pods labelled by an earlier `mark` step; `state` filters by the
 * `lifecycle.apps.kruise.io/state` label; `node` keeps the pods bound to one node (`spec.nodeName`), given as its index
 * among the cluster's nodes in name order or as its name (a BroadcastJob's pods are created together, one per node,
 * so their order is random but their nodes are not); `index` takes one pod of what is left (0 = oldest); `all`
 * takes all. `terminating: true` picks among the pods being deleted instead (e.g. to remove the finalizer that holds
 * one).
 */
export const PodSelectorSchema = z
  .object({
    marker: z.string().optional(),
    state: z.string().optional(),
    revision: z.enum(['update', 'current']).optional(),
    /** Only pods bound to this node: its index among the cluster's nodes in name order (0 = kwok-node-0), or its name. */
    node: z.union([z.number().int().min(0), z.string().min(1)]).optional(),
    /** Pick among the pods being deleted (deletionTimestamp set) rather than the live ones. */
    terminating: z.literal(true).optional(),
    index: z.number().int().min(0).optional(),
    all: z.literal(true).optional(),
  })
  .strict()
  .refine((s) => (s.index === undefined) !== (s.all === undefined), {
    message: 'a pod selector takes exactly one of index or all',
  });
export type PodSelector = z.infer<typeof PodSelectorSchema>;

const JsonObjectSchema = z.record(z.string(), z.unknown());

/** A node of the cluster: its index among the nodes sorted by name (both control planes have the same nodes). */
export const NodeIndexSchema = z.number().int().min(0);

/** A taint a `taintNode` step adds (replacing one of the same key and effect). */
export const TaintSchema = z
  .object({
    key: z.string().min(1),
    value: z.string().optional(),
    effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
  })
  .strict();

/** A taint an `untaintNode` step removes: by key, and by effect when given (else every effect of the key). */
export const TaintRefSchema = z
  .object({
    key: z.string().min(1),
    effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']).optional(),
  })
  .strict();

/** The workloads `createWorkload` and `scaleWorkload` steps address, by Kind. */
export const WORKLOAD_RESOURCES: Readonly<
  Record<string, { group: string; version: string; plural: string }>
> = {
  CloneSet: { group: 'apps.kruise.io', version: 'v1alpha1', plural: 'clonesets' },
  Deployment: { group: 'apps', version: 'v1', plural: 'deployments' },
};

/** The node steps: each changes one node, which the runner restores after the scenario (test/parity/nodes.ts). */
export const NODE_STEP_KEYS = [
  'labelNode',
  'taintNode',
  'untaintNode',
  'cordonNode',
  'uncordonNode',
] as const;

/** One step. Exactly one key per step (a tagged union by key). */
export const StepSchema = z.union([
  z.object({ apply: z.string() }).strict(),
  z.object({ create: JsonObjectSchema }).strict(),
  z.object({ createPod: JsonObjectSchema }).strict(),
  // an object of another kind in the scenario's namespace (apiVersion and kind its own), e.g. the CloneSet a
  // PodUnavailableBudget targets; patched (merge patch) and deleted by apiVersion, kind and name
  z.object({ createWorkload: JsonObjectSchema }).strict(),
  z
    .object({
      patchWorkload: z
        .object({ apiVersion: z.string(), kind: z.string(), name: z.string(), patch: JsonObjectSchema })
        .strict(),
    })
    .strict(),
  z
    .object({
      deleteWorkload: z.object({ apiVersion: z.string(), kind: z.string(), name: z.string() }).strict(),
    })
    .strict(),
  /** Sets `spec.replicas` of such a workload, by kind and name (a merge patch of the object). */
  z
    .object({
      scaleWorkload: z
        .object({ kind: z.string().min(1), name: z.string().min(1), replicas: z.number().int().min(0) })
        .strict(),
    })
    .strict(),
  z.object({ patch: JsonObjectSchema }).strict(),
  /** Deletes the scenario's object (the one created last), leaving what it made. */
  z.object({ deleteObject: z.literal(true) }).strict(),
  z.object({ scale: z.number().int().min(0) }).strict(),
  z.object({ scaleSubresource: z.number().int().min(0) }).strict(),
  z.object({ mark: z.object({ pod: PodSelectorSchema, marker: z.string() }).strict() }).strict(),
  z
    .object({
      label: z
        .object({ pod: PodSelectorSchema, labels: z.record(z.string(), z.string().nullable()) })
        .strict(),
    })
    .strict(),
  z
    .object({
      annotate: z
        .object({ pod: PodSelectorSchema, annotations: z.record(z.string(), z.string().nullable()) })
        .strict(),
    })
    .strict(),
  // a pod status condition, e.g. the one a readiness gate waits for (kwok's pod-readiness-gates stage then turns Ready)
  z
    .object({
      podCondition: z
        .object({ pod: PodSelectorSchema, type: z.string().min(1), status: z.enum(['True', 'False']) })
        .strict(),
    })
    .strict(),
  z.object({ deletePod: PodSelectorSchema }).strict(),
  // the pods/eviction subresource (policy/v1 Eviction), as `kubectl drain` evicts
  z.object({ evictPod: PodSelectorSchema }).strict(),
  z.object({ deletePvc: z.string().min(1) }).strict(),
  /**
   * Creates, or replaces the spec of, the ResourceQuota `parity-quota` in the scenario's namespace with these
   * `spec.hard` limits (e.g. `{pods: '3'}`), and waits until the quota controller has taken them up.
   */
  z.object({ resourceQuota: z.object({ hard: z.record(z.string(), z.string()) }).strict() }).strict(),
  z.object({ podsToDelete: PodSelectorSchema }).strict(),
  z
    .object({
      scaleDown: z.object({ replicas: z.number().int().min(0), podsToDelete: PodSelectorSchema }).strict(),
    })
    .strict(),
  z.object({ addFinalizer: z.object({ pod: PodSelectorSchema, finalizer: z.string() }).strict() }).strict(),
  z
    .object({ removeFinalizer: z.object({ pod: PodSelectorSchema, finalizer: z.string() }).strict() })
    .strict(),
  z
    .object({
      labelNode: z
        .object({ node: NodeIndexSchema, labels: z.record(z.string(), z.string().nullable()) })
        .strict(),
    })
    .strict(),
  z
    .object({ taintNode: z.object({ node: NodeIndexSchema, taints: z.array(TaintSchema).min(1) }).strict() })
    .strict(),
  z
    .object({
      untaintNode: z.object({ node: NodeIndexSchema, taints: z.array(TaintRefSchema).min(1) }).strict(),
    })
    .strict(),
  z.object({ cordonNode: NodeIndexSchema }).strict(),
  z.object({ uncordonNode: NodeIndexSchema }).strict(),
  /**
   * Sets entries of OpenKruise's `kruise-system/kruise-configuration` ConfigMap (text by key; null removes one), e.g.
   * a WorkloadSpread whitelist naming a built-in Kind. Both controllers read the same ConfigMap; each key is put back
   * as it was after the scenario, whatever happened (and a killed run's change is undone by the next run's setup,
   * which re-applies upstream's file with conflicts forced).
   */
  z
    .object({ kruiseConfiguration: z.record(z.string().min(1), z.string().nullable()) })
    .strict()
    .refine((s) => Object.keys(s.kruiseConfiguration).length > 0, {
      message: 'kruiseConfiguration: name at least one key',
    }),
  z.object({ sleep: z.number().positive().max(120) }).strict(),
  /**
   * Waits until the wall clock's second within its minute is in [from, before) (./clockSecond.ts): at most 60 s, none
   * when it already is. Before the create of an object whose schedule ticks on the minute.
   */
  z
    .object({
      clockSecond: z
        .object({ from: z.number().int().min(0).max(59), before: z.number().int().min(1).max(60) })
        .strict()
        .refine((w) => w.from < w.before, { message: 'clockSecond: from must be below before' }),
    })
    .strict(),
  z.object({ checkpoint: z.string().regex(/^[a-z0-9-]+$/) }).strict(),
]);
export type Step = z.infer<typeof StepSchema>;

/** A difference chosen on purpose: the snapshot paths (glob `*` per segment) it covers, and why. */
export const DeliberateSchema = z.object({ path: z.string(), reason: z.string().min(10) }).strict();
export type Deliberate = z.infer<typeof DeliberateSchema>;

/** A whole scenario file. */
export const ScenarioSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9-]+$/),
    /** The kind's lower-case name (`cloneset`): the folder the file is in. */
    kind: z.string().regex(/^[a-z0-9]+$/),
    description: z.string(),
    /** Where the behaviour is described: an upstream test or function, or a case id. */
    source: z.string(),
    /** Feature gates both controllers run with, as OpenKruise names them (default: none, i.e. its defaults). */
    gates: z.record(z.string(), z.boolean()).default({}),
    /** Part of the quick subset run by `npm test`. */
    quick: z.boolean().default(false),
    /** Seconds of no observable change that count as settled (default 3). */
    quietSeconds: z.number().positive().max(60).default(3),
    /** Seconds a checkpoint may wait for the cluster to settle (default 90). */
    settleTimeoutSeconds: z.number().positive().max(600).default(90),
    steps: z.array(StepSchema).min(1),
    deliberate: z.array(DeliberateSchema).default([]),
  })
  .strict();
export type Scenario = z.infer<typeof ScenarioSchema>;

/**
 * Steps that do not act on the scenario's own object, so they may come before the step that creates it (a checkpoint
 * there snapshots the namespace's pods, with no object).
 */
const BEFORE_CREATION = new Set<string>([
  'checkpoint',
  'createPod',
  'createWorkload',
  'patchWorkload',
  'deleteWorkload',
  'scaleWorkload',
  'resourceQuota',
  'sleep',
  'clockSecond',
  'kruiseConfiguration',
  ...NODE_STEP_KEYS,
]);

/**
 * Reads and validates one scenario file of `kind`.
 * @throws Error naming the file and the first invalid field path, or a `kind` other than `kind.name`, or a step
 *   the kind does not support, or a step on the object before the step that creates it
 */
export function loadScenario(file: string, kind: ParityKind): Scenario {
  const parsed = ScenarioSchema.safeParse(parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join('.') || '<root>'}: ${issue?.message ?? 'invalid'}`);
  }
  if (`${parsed.data.name}.yaml` !== path.basename(file))
    throw new Error(`${file}: name "${parsed.data.name}" must match the file name`);
  if (parsed.data.kind !== kind.name)
    throw new Error(`${file}: kind "${parsed.data.kind}" in the folder of kind "${kind.name}"`);
  if (!parsed.data.steps.some((s) => 'checkpoint' in s))
    throw new Error(`${file}: a scenario needs at least one checkpoint`);
  const creates = parsed.data.steps.findIndex((s) => 'create' in s || 'apply' in s);
  const early = parsed.data.steps
    .slice(0, creates < 0 ? undefined : creates)
    .find((s) => !BEFORE_CREATION.has(Object.keys(s)[0] ?? ''));
  if (early)
    throw new Error(
      `${file}: ${Object.keys(early)[0] ?? ''}: a step on the ${kind.kind} before the step that creates it`,
    );
  const deletes = parsed.data.steps.find((s) => 'podsToDelete' in s || 'scaleDown' in s);
  if (deletes && !kind.deletePodsPatch)
    throw new Error(
      `${file}: ${Object.keys(deletes)[0] ?? ''}: ${kind.kind} has no field naming pods to delete`,
    );
  return parsed.data;
}

/** Folder of `kind`'s scenarios: `<SCENARIO_DIR>/<kind name>`. */
export function scenarioDir(kind: ParityKind): string {
  return path.join(SCENARIO_DIR, kind.name);
}

/** All scenarios of `kind` (the files of its folder), sorted by name. @throws as {@link loadScenario} */
export function loadScenarios(kind: ParityKind, dir: string = scenarioDir(kind)): Scenario[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => loadScenario(path.join(dir, f), kind));
}
