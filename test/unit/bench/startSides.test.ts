/**
 * What bench/support/sides.ts `startSides` stops when the start goes wrong: a control plane it started is stopped
 * again when a later part fails, and the stop it hands out before starting stops what has started so far (an
 * interrupt while a control plane comes up). Left running, the next run reused it and never stopped it. The
 * `up`/`down` commands and the pipeline are stand-ins; no control plane starts.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it, jest } from '@jest/globals';

const commands: string[] = [];
/** What the stand-in `up` of each command does: resolves unless told otherwise. */
let onUp: Record<string, () => Promise<void>> = {};

jest.unstable_mockModule('../../../test/parity/sides.js', () => ({
  referenceInfoFile: () =>
    path.join(process.env.KRUISELESS_REFERENCE_STATE_DIR ?? '', 'run', 'reference.json'),
  runCommand: async (args: string[]) => {
    const line = `${path.dirname(args[0])} ${args[1]}`;
    commands.push(line);
    await (onUp[line] ?? (async () => undefined))();
  },
}));
let embeddedFails = false;
jest.unstable_mockModule('../../../lib/local/embedded.js', () => ({
  startEmbedded: async () => {
    if (embeddedFails) throw new Error('dynalite did not start');
    return { stop: async () => void commands.push('embedded stop') };
  },
}));
const { startSides, STOPPED_WHILE_STARTING } = await import('../../../bench/support/sides.js');

beforeEach(() => {
  commands.length = 0;
  onUp = {};
  embeddedFails = false;
  // empty state folders: neither control plane runs, so this run would start both
  process.env.KRUISELESS_STATE_DIR = mkdtempSync(path.join(os.tmpdir(), 'bench-sides-'));
  process.env.KRUISELESS_REFERENCE_STATE_DIR = mkdtempSync(path.join(os.tmpdir(), 'bench-sides-ref-'));
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

describe('startSides', () => {
  it('stops both control planes it started when the reference does not come up', async () => {
    onUp['infra/reference up'] = () => Promise.reject(new Error('infra/reference/cli.ts up exited 1'));
    await expect(startSides('/tmp/logs')).rejects.toThrow(new Error('infra/reference/cli.ts up exited 1'));
    expect(commands).toEqual([
      'infra/local up',
      'infra/reference up',
      'infra/reference down',
      'infra/local down',
    ]);
  });

  it('stops them when the pipeline does not start', async () => {
    embeddedFails = true;
    onUp['infra/reference up'] = async () => {
      const dir = path.join(process.env.KRUISELESS_REFERENCE_STATE_DIR ?? '', 'run');
      mkdirSync(dir);
      writeFileSync(
        path.join(dir, 'reference.json'),
        JSON.stringify({ kubeconfig: '/nowhere', version: 'v1.9.0' }),
      );
    };
    await expect(startSides('/tmp/logs')).rejects.toThrow(new Error('dynalite did not start'));
    expect(commands).toEqual([
      'infra/local up',
      'infra/reference up',
      'infra/reference down',
      'infra/local down',
    ]);
  });

  it('hands out a stop that stops what has started so far, before start returns, and starts nothing more', async () => {
    let stopSoFar: (() => Promise<void>) | undefined;
    let release!: () => void;
    onUp['infra/local up'] = () => new Promise<void>((r) => (release = r));
    const starting = startSides('/tmp/logs', [], (stop) => (stopSoFar = stop));
    const failed = expect(starting).rejects.toThrow(new Error(STOPPED_WHILE_STARTING));
    await new Promise((r) => setImmediate(r));
    expect(commands).toEqual(['infra/local up']);
    // an interrupt while Kruiseless's control plane comes up: its `down` waits for the `up` to end
    const stopped = stopSoFar?.();
    await new Promise((r) => setImmediate(r));
    expect(commands).toEqual(['infra/local up']);
    release();
    await stopped;
    await failed;
    expect(commands).toEqual(['infra/local up', 'infra/local down']);
    expect(STOPPED_WHILE_STARTING).toBe('bench: stopped while the control planes came up');
  });
});
