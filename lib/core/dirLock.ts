/**
 * A cross-process lock (a directory holding the owner's pid), so that two runs never build, package or start at once:
 * the local control plane's builds and starts (infra/local), the packaged zips (lib/emulator/aws/artifacts.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** True when a process with this pid exists (any owner). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `fn` while holding the lock directory `lockDir`. A lock left by a dead process is taken over.
 * @param log told once when waiting for another process
 * @param timeoutMs how long to wait for a live owner (default 60 min: a cold build)
 * @throws Error when the lock is still held after `timeoutMs`
 */
export async function withLock<T>(
  lockDir: string,
  log: (line: string) => void,
  fn: () => Promise<T>,
  timeoutMs = 60 * 60 * 1000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  const ownerFile = path.join(lockDir, 'pid');
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(ownerFile, String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = Number(fs.existsSync(ownerFile) ? fs.readFileSync(ownerFile, 'utf8') : NaN);
      if (!Number.isNaN(owner) && !isAlive(owner)) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`lock ${lockDir} still held by pid ${owner}`, { cause: e });
      if (!told) log(`[lock] waiting for pid ${owner} (${lockDir})`);
      told = true;
      await sleep(1000);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}
