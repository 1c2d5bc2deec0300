/** lib/core/deadline.ts: a deadline as an AbortSignal, and a sleep the signal cuts short (jest's fake timers). */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { deadlineSignal, sleepUnlessAborted } from '../../../lib/core/deadline.js';

beforeEach(() => {
  jest.useFakeTimers({ now: 1_000 });
});
afterEach(() => {
  jest.useRealTimers();
});

describe('deadlineSignal', () => {
  it('aborts at the deadline, not before', async () => {
    const d = deadlineSignal(() => Date.now(), 3_000);
    await jest.advanceTimersByTimeAsync(1_999);
    expect(d.signal.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(d.signal.aborted).toBe(true);
  });

  it('is aborted at once when the deadline has passed or the parent is aborted', () => {
    expect(deadlineSignal(() => Date.now(), 1_000).signal.aborted).toBe(true);
    const parent = new AbortController();
    parent.abort();
    expect(deadlineSignal(() => Date.now(), 9_000, parent.signal).signal.aborted).toBe(true);
  });

  it('aborts with its parent, and after dispose neither the parent nor the timer aborts it', async () => {
    const parent = new AbortController();
    const d = deadlineSignal(() => Date.now(), 9_000, parent.signal);
    parent.abort();
    expect(d.signal.aborted).toBe(true);
    const other = new AbortController();
    const e = deadlineSignal(() => Date.now(), 2_000, other.signal);
    e.dispose();
    other.abort();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(e.signal.aborted).toBe(false);
  });
});

describe('sleepUnlessAborted', () => {
  it('resolves true after the full time, false as soon as the signal aborts', async () => {
    const never = new AbortController();
    const full = sleepUnlessAborted(500, never.signal);
    await jest.advanceTimersByTimeAsync(500);
    await expect(full).resolves.toBe(true);

    const cut = new AbortController();
    const short = sleepUnlessAborted(500, cut.signal);
    await jest.advanceTimersByTimeAsync(100);
    cut.abort();
    await expect(short).resolves.toBe(false);
    await expect(sleepUnlessAborted(500, cut.signal)).resolves.toBe(false);
  });
});
