/**
 * When a long-running local command (`kruiseless local`) should stop: SIGINT (Ctrl-C), SIGTERM, SIGHUP, or its
 * parent process gone. `npm run local` execs this process directly (no shell and no tsx wrapper in between: the
 * shell died on npm's SIGTERM without passing it on, and tsx's relay SIGKILLs a child that does not acknowledge
 * the signal within 30 ms), so npm's SIGTERM arrives here; when npm itself is killed outright, the parent check
 * stops this process instead of leaving it running, re-parented, with nobody to stop it.
 */

/** How often the parent process id is checked, ms. */
const PARENT_CHECK_MS = 1000;

/**
 * @returns resolves once with what asked for the stop (`SIGINT`, `SIGTERM`, `SIGHUP` or `parent exited`); the
 *   listeners and the parent check are removed then
 */
export function stopRequested(): Promise<string> {
  const parent = process.ppid;
  return new Promise((resolve) => {
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const handlers = signals.map((s) => [s, () => done(s)] as const);
    const timer = setInterval(() => {
      if (process.ppid !== parent) done('parent exited');
    }, PARENT_CHECK_MS);
    timer.unref();
    function done(why: string): void {
      clearInterval(timer);
      for (const [s, h] of handlers) process.off(s, h);
      resolve(why);
    }
    for (const [s, h] of handlers) process.once(s, h);
  });
}
