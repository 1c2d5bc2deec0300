/**
 * An interrupted bench stops what it started (bench/support/sides.ts `stopOnInterrupt`): the control planes are
 * detached processes, and a bench stopped with Ctrl-C left both running, to be reused, and never stopped, by the
 * next run.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { stopOnInterrupt } from '../../../bench/support/sides.js';

const offs: (() => void)[] = [];
afterEach(() => {
  for (const off of offs.splice(0)) off();
  jest.restoreAllMocks();
});

describe('stopOnInterrupt', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('stops the sides on %s, then exits 130, once', async (signal) => {
    const calls: string[] = [];
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let exited!: () => void;
    const exit = new Promise<void>((r) => (exited = r));
    offs.push(
      stopOnInterrupt(
        async () => void calls.push('stop'),
        (code) => {
          calls.push(`exit ${code}`);
          exited();
        },
      ),
    );
    const before = process.listenerCount(signal);
    process.emit(signal);
    await exit;
    expect(calls).toEqual(['stop', 'exit 130']);
    expect(errors.mock.calls).toEqual([
      [`[bench] ${signal}: stopping the pipeline and the control planes this run started`],
    ]);
    // a second signal is the default one again (ends the process at once)
    expect(process.listenerCount(signal)).toBe(before - 1);
  });

  it('exits 130 when stopping fails, saying so', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const codes: number[] = [];
    let exited!: () => void;
    const exit = new Promise<void>((r) => (exited = r));
    offs.push(
      stopOnInterrupt(
        () => Promise.reject(new Error('infra/local/cli.ts down exited 1')),
        (code) => {
          codes.push(code);
          exited();
        },
      ),
    );
    process.emit('SIGINT');
    await exit;
    expect(codes).toEqual([130]);
    expect(errors.mock.calls[1]).toEqual([
      '[bench] stopping after SIGINT failed: infra/local/cli.ts down exited 1',
    ]);
  });

  it('leaves the signals alone once removed', () => {
    const before = process.listenerCount('SIGINT');
    stopOnInterrupt(
      async () => undefined,
      () => undefined,
    )();
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});
