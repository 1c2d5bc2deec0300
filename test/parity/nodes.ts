/**
 * Node steps of the parity runner (`labelNode`, `taintNode`, `untaintNode`, `cordonNode`, `uncordonNode`) and what
 * puts the nodes back. Nodes are cluster-wide and both control planes have the same kwok nodes, which every scenario
 * (and every other kind's runs) shares: a scenario that changes one must leave it as it found it. {@link NodeLedger}
 * remembers each touched node's labels, taints and `spec.unschedulable` before the first change, in memory and in a
 * journal file beside the cluster's kubeconfig, so a run killed before its clean-up is put right by the next one.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { V1Node, V1Taint } from '@kubernetes/client-node';
import { z } from 'zod';

/** What a scenario may change on a node, as it was or is. */
export interface NodeState {
  labels: Record<string, string>;
  taints: V1Taint[];
  unschedulable: boolean;
}

const NodeStateSchema = z
  .object({
    labels: z.record(z.string(), z.string()),
    taints: z.array(
      z.object({ key: z.string(), value: z.string().optional(), effect: z.string() }).passthrough(),
    ),
    unschedulable: z.boolean(),
  })
  .strict();

/** The journal: node name → state before the scenario's first change. */
const JournalSchema = z.record(z.string(), NodeStateSchema);

/** The part of `node` a scenario may change. */
export function nodeState(node: V1Node): NodeState {
  return {
    labels: { ...(node.metadata?.labels ?? {}) },
    taints: (node.spec?.taints ?? []).map((t) => ({ ...t })),
    unschedulable: node.spec?.unschedulable === true,
  };
}

/** A taint as a scenario writes it (`effect` NoSchedule, PreferNoSchedule or NoExecute). */
export interface TaintSpec {
  key: string;
  value?: string;
  effect: string;
}

/** A taint to remove: by key, and by effect when given. */
export interface TaintRef {
  key: string;
  effect?: string;
}

/** `taints` with each of `added` in place of a taint of the same key and effect (`kubectl taint` does so). */
export function taintsWith(taints: readonly V1Taint[], added: readonly TaintSpec[]): V1Taint[] {
  const kept = taints.filter((t) => !added.some((a) => a.key === t.key && a.effect === t.effect));
  return [
    ...kept,
    ...added.map((a) => ({
      key: a.key,
      effect: a.effect,
      ...(a.value === undefined ? {} : { value: a.value }),
    })),
  ];
}

/** `taints` without those `removed` names (every effect of a key when the reference has none, as `kubectl taint k-`). */
export function taintsWithout(taints: readonly V1Taint[], removed: readonly TaintRef[]): V1Taint[] {
  return taints.filter((t) => !removed.some((r) => r.key === t.key && (r.effect ?? t.effect) === t.effect));
}

/**
 * The JSON merge patch that turns a node now in state `current` back into `original`: every label added since
 * removed (null), every label changed or removed written back, the taint list replaced whole (a merge patch replaces
 * lists), `unschedulable` written back (null for false, as a node that never was cordoned has no field).
 * @returns undefined when nothing differs
 */
export function restorePatch(original: NodeState, current: NodeState): Record<string, unknown> | undefined {
  const labels: Record<string, string | null> = {};
  for (const k of Object.keys(current.labels)) if (!(k in original.labels)) labels[k] = null;
  for (const [k, v] of Object.entries(original.labels)) if (current.labels[k] !== v) labels[k] = v;
  const spec: Record<string, unknown> = {};
  if (JSON.stringify(sortedTaints(original.taints)) !== JSON.stringify(sortedTaints(current.taints)))
    spec.taints = original.taints.length > 0 ? original.taints : null;
  if (original.unschedulable !== current.unschedulable) spec.unschedulable = original.unschedulable || null;
  const patch: Record<string, unknown> = {};
  if (Object.keys(labels).length > 0) patch.metadata = { labels };
  if (Object.keys(spec).length > 0) patch.spec = spec;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

function sortedTaints(taints: readonly V1Taint[]): string[] {
  return taints.map((t) => `${t.key}=${t.value ?? ''}:${t.effect}`).sort();
}

/** How the ledger reads and patches nodes (a ParityCluster's, or a fake in unit tests). */
export interface NodeAccess {
  readNode(name: string): Promise<V1Node>;
  patchNode(name: string, patch: Record<string, unknown>): Promise<void>;
}

/**
 * The nodes one scenario run touched, with their state before its first change, kept in memory and in the journal
 * file `journal` (when given) until {@link restore} has put every one back.
 */
export class NodeLedger {
  private readonly originals = new Map<string, NodeState>();

  /**
   * @param access reads and patches the cluster's nodes
   * @param journal file kept while nodes are changed (absent: memory only)
   */
  constructor(
    private readonly access: NodeAccess,
    private readonly journal?: string,
  ) {}

  /**
   * Remembers `name`'s state before a change, once per run (the first state is the one to go back to); written to
   * the journal before the caller changes the node.
   */
  async remember(name: string): Promise<void> {
    if (this.originals.has(name)) return;
    this.originals.set(name, nodeState(await this.access.readNode(name)));
    if (this.journal)
      writeFileSync(this.journal, JSON.stringify(Object.fromEntries(this.originals), null, 2));
  }

  /** Names of the nodes remembered so far. */
  touched(): string[] {
    return [...this.originals.keys()];
  }

  /**
   * Puts every remembered node back (only what differs is patched), then forgets them and removes the journal.
   * Each node is tried even when another fails.
   * @throws Error naming every node that could not be restored (those stay remembered and in the journal)
   */
  async restore(): Promise<void> {
    const failed: string[] = [];
    for (const [name, original] of [...this.originals]) {
      try {
        const patch = restorePatch(original, nodeState(await this.access.readNode(name)));
        if (patch) await this.access.patchNode(name, patch);
        this.originals.delete(name);
      } catch (e) {
        failed.push(`${name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (this.journal) {
      if (this.originals.size === 0) rmSync(this.journal, { force: true });
      else writeFileSync(this.journal, JSON.stringify(Object.fromEntries(this.originals), null, 2));
    }
    if (failed.length > 0) throw new Error(`could not restore node(s): ${failed.join('; ')}`);
  }

  /**
   * Loads the nodes a previous run left in the journal (killed before its clean-up) so that {@link restore} puts
   * them back. A journal that does not parse is an error, not ignored: the nodes' state is then unknown.
   * @returns the node names it held
   */
  loadJournal(): string[] {
    if (!this.journal || !existsSync(this.journal)) return [];
    const parsed = JournalSchema.parse(JSON.parse(readFileSync(this.journal, 'utf8')));
    for (const [name, state] of Object.entries(parsed))
      if (!this.originals.has(name)) this.originals.set(name, state);
    return Object.keys(parsed);
  }
}
