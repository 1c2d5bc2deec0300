/**
 * The parity runner's `kruiseConfiguration` step (./scenario.ts): entries of OpenKruise's
 * `kruise-system/kruise-configuration` ConfigMap, which both controllers read, set for one scenario and put back after
 * it. The ConfigMap is shared by every scenario of a cluster, so each key a scenario sets is remembered as it was
 * before the scenario's first change to it and written back after the run, whether it passed or failed.
 */

/** Where the entries are read and written (./cluster.ts `ParityCluster`). */
export interface KruiseConfigurationStore {
  /** The entries at `keys`, null for a key the ConfigMap lacks; undefined when there is no ConfigMap. */
  kruiseConfiguration(keys: readonly string[]): Promise<Record<string, string | null> | undefined>;
  /** Merges `entries` into the ConfigMap's data (null removes a key), creating it when missing. */
  patchKruiseConfiguration(entries: Record<string, string | null>): Promise<void>;
}

/** The entries one scenario changed on one cluster, and what they go back to. */
export class KruiseConfigurationLedger {
  /** The text of each changed key before the scenario's first change to it; null: the key was absent. */
  private readonly before = new Map<string, string | null>();

  constructor(private readonly store: KruiseConfigurationStore) {}

  /**
   * Sets `entries` (null removes a key), first remembering each key this ledger has not changed yet.
   * @throws the store's error; a key read before a failed write is still put back by {@link restore}
   */
  async set(entries: Record<string, string | null>): Promise<void> {
    const fresh = Object.keys(entries).filter((k) => !this.before.has(k));
    if (fresh.length > 0) {
      const found = await this.store.kruiseConfiguration(fresh);
      for (const k of fresh) this.before.set(k, found?.[k] ?? null);
    }
    await this.store.patchKruiseConfiguration(entries);
  }

  /**
   * Writes every changed key back as it was (a key that was absent is removed; a ConfigMap the scenario created is
   * left, empty, which both controllers read as a missing one), in one patch; nothing when no key changed.
   * @throws the store's error: the entries stay remembered, so a later call tries again
   */
  async restore(): Promise<void> {
    if (this.before.size === 0) return;
    await this.store.patchKruiseConfiguration(Object.fromEntries(this.before));
    this.before.clear();
  }
}
