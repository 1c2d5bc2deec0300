/**
 * lib/runtime/cachedParameter.ts (review finding 7): a value is read once and kept; a failure is retried with
 * backoff inside the call, never kept, and a call that failed every attempt starts a doubling cool-down.
 */
import { describe, expect, it } from '@jest/globals';
import { cachedParameter, ParameterUnavailableError } from '../../../lib/runtime/cachedParameter.js';

function setUp(results: (string | Error)[]) {
  let now = 0;
  const sleeps: number[] = [];
  let reads = 0;
  const get = cachedParameter(
    '/p',
    async () => {
      const r = results[reads++] ?? new Error('no more results');
      if (r instanceof Error) throw r;
      return r;
    },
    {
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    },
  );
  return { get, sleeps, reads: () => reads, tick: (ms: number) => (now += ms) };
}

const throttled = (): Error => new Error('ThrottlingException: Rate exceeded');

describe('cachedParameter', () => {
  it('retries a failed read 100 ms and 200 ms later, keeps the value, and reads no more', async () => {
    const s = setUp([throttled(), throttled(), 'v']);
    expect(await s.get()).toBe('v');
    expect(await s.get()).toBe('v');
    expect([s.reads(), s.sleeps]).toEqual([3, [100, 200]]);
  });

  it('after a call that failed all three reads, fails fast during the 1 s cool-down, then reads again', async () => {
    const s = setUp([throttled(), throttled(), throttled(), 'v']);
    await expect(s.get()).rejects.toEqual(
      new ParameterUnavailableError('/p', new Error('ThrottlingException: Rate exceeded')),
    );
    expect(s.reads()).toBe(3);
    s.tick(999);
    await expect(s.get()).rejects.toBeInstanceOf(ParameterUnavailableError);
    expect(s.reads()).toBe(3);
    s.tick(1);
    expect(await s.get()).toBe('v');
    expect(s.reads()).toBe(4);
  });

  it('doubles the cool-down with each failed call', async () => {
    const s = setUp([...Array.from({ length: 6 }, throttled), 'v']);
    await expect(s.get()).rejects.toBeInstanceOf(ParameterUnavailableError);
    s.tick(1000);
    await expect(s.get()).rejects.toBeInstanceOf(ParameterUnavailableError);
    s.tick(1999);
    await expect(s.get()).rejects.toBeInstanceOf(ParameterUnavailableError);
    expect(s.reads()).toBe(6);
    s.tick(1);
    expect(await s.get()).toBe('v');
  });

  it('lets concurrent calls share one read', async () => {
    const s = setUp(['v']);
    expect(await Promise.all([s.get(), s.get(), s.get()])).toEqual(['v', 'v', 'v']);
    expect(s.reads()).toBe(1);
  });
});
