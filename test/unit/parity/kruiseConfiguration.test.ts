/**
 * The parity runner's `kruiseConfiguration` step: its schema, and the ledger that puts every entry a scenario set back
 * as it was, on a fake ConfigMap store.
 */
import {
  KruiseConfigurationLedger,
  type KruiseConfigurationStore,
} from '../../parity/kruiseConfiguration.js';
import { workloadSpread } from '../../parity/kinds/workloadspread/index.js';
import { loadScenarios, StepSchema } from '../../parity/scenario.js';

/** A ConfigMap's data in memory (undefined: no ConfigMap), with every write recorded. */
function fakeStore(data: Record<string, string> | undefined, failWrites = 0) {
  const state = { data, writes: [] as Record<string, string | null>[], failWrites };
  const store: KruiseConfigurationStore = {
    kruiseConfiguration: (keys) =>
      Promise.resolve(
        state.data === undefined
          ? undefined
          : Object.fromEntries(keys.map((k) => [k, state.data?.[k] ?? null])),
      ),
    patchKruiseConfiguration: (entries) => {
      state.writes.push(entries);
      if (state.failWrites > 0) {
        state.failWrites--;
        return Promise.reject(new Error('conflict'));
      }
      const next = { ...(state.data ?? {}) };
      for (const [k, v] of Object.entries(entries)) {
        if (v === null) delete next[k];
        else next[k] = v;
      }
      state.data = next;
      return Promise.resolve();
    },
  };
  return { state, store };
}

describe('the kruiseConfiguration step', () => {
  it('takes text or null by key, and at least one key', () => {
    expect(StepSchema.safeParse({ kruiseConfiguration: { a: '{}', b: null } }).success).toBe(true);
    expect(StepSchema.safeParse({ kruiseConfiguration: {} }).success).toBe(false);
    expect(StepSchema.safeParse({ kruiseConfiguration: { a: 1 } }).success).toBe(false);
  });

  it('may come before the scenario creates its object (every WorkloadSpread scenario loads)', () => {
    const scenario = loadScenarios(workloadSpread).find((s) => s.name === 'ws-whitelist-builtin');
    expect(scenario?.steps[0]).toHaveProperty('kruiseConfiguration');
  });

  it('puts each key back as it was before the first change, removing the ones that were absent', async () => {
    const { state, store } = fakeStore({ whitelist: 'upstream', other: 'kept' });
    const ledger = new KruiseConfigurationLedger(store);
    await ledger.set({ whitelist: 'first', added: 'x' });
    await ledger.set({ whitelist: 'second' });
    expect(state.data).toEqual({ whitelist: 'second', other: 'kept', added: 'x' });
    await ledger.restore();
    expect(state.data).toEqual({ whitelist: 'upstream', other: 'kept' });
    expect(state.writes).toEqual([
      { whitelist: 'first', added: 'x' },
      { whitelist: 'second' },
      { whitelist: 'upstream', added: null },
    ]);
    // nothing left to put back
    await ledger.restore();
    expect(state.writes).toHaveLength(3);
  });

  it('restores nothing when no step ran; a missing ConfigMap is left empty', async () => {
    const untouched = fakeStore({ a: '1' });
    await new KruiseConfigurationLedger(untouched.store).restore();
    expect(untouched.state.writes).toEqual([]);
    const missing = fakeStore(undefined);
    const ledger = new KruiseConfigurationLedger(missing.store);
    await ledger.set({ a: 'x' });
    await ledger.restore();
    expect(missing.state.data).toEqual({});
  });

  it('a failed write keeps what to put back: the set’s key after its own failure, the restore’s for a retry', async () => {
    const { state, store } = fakeStore({ a: 'orig' }, 1);
    const ledger = new KruiseConfigurationLedger(store);
    await expect(ledger.set({ a: 'x' })).rejects.toThrow('conflict');
    await ledger.restore();
    expect(state.data).toEqual({ a: 'orig' });
    const again = fakeStore({ a: 'orig' });
    const second = new KruiseConfigurationLedger(again.store);
    await second.set({ a: 'x' });
    again.state.failWrites = 1;
    await expect(second.restore()).rejects.toThrow('conflict');
    await second.restore();
    expect(again.state.data).toEqual({ a: 'orig' });
  });
});
