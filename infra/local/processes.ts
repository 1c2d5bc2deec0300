/**
 * Background processes started by `cluster:up`, recorded in pid files so that `cluster:down` (or the
 * next `cluster:up`) stops exactly those processes and nothing else. A pid file stores the pid and the
 * kernel start time of the process (`/proc/<pid>/stat` field 22), so a reused pid is never signalled.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** What a pid file holds. */
export interface PidRecord {
  name: string;
  pid: number;
  /** process start time in clock ticks since boot (Linux), identifies the process together with pid */
  startTicks: string;
  command: string;
}

/** Start time of a process in clock ticks since boot, or undefined when it does not exist (Linux /proc). */
function startTicks(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) may contain spaces; fields after the closing parenthesis are space separated.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const st = rest[22 - 3];
    // A zombie (state Z) has exited: treat it as gone.
    return rest[0] === 'Z' ? undefined : st;
  } catch {
    return undefined;
  }
}

/** True when the process recorded in `rec` is still the same, running process. */
export function isRunning(rec: PidRecord): boolean {
  return startTicks(rec.pid) === rec.startTicks;
}

/** Reads a pid file; undefined when missing or unreadable. */
export function readPidFile(file: string): PidRecord | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as PidRecord;
  } catch {
    return undefined;
  }
}

/**
 * Starts `cmd args` detached (own process group, survives the caller), stdout+stderr appended to
 * `logFile`, and writes its pid file.
 * @throws Error when the process cannot be started
 */
export function startProcess(opts: {
  name: string;
  cmd: string;
  args: string[];
  logFile: string;
  pidFile: string;
  env?: NodeJS.ProcessEnv;
}): PidRecord {
  fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
  fs.mkdirSync(path.dirname(opts.pidFile), { recursive: true });
  const fd = fs.openSync(opts.logFile, 'a');
  try {
    fs.writeSync(fd, `\n=== ${new Date().toISOString()} ${opts.cmd} ${opts.args.join(' ')}\n`);
    const child = spawn(opts.cmd, opts.args, {
      detached: true,
      stdio: ['ignore', fd, fd],
      env: opts.env ?? process.env,
    });
    if (child.pid === undefined) throw new Error(`${opts.name}: could not start ${opts.cmd}`);
    child.unref();
    const rec: PidRecord = {
      name: opts.name,
      pid: child.pid,
      startTicks: startTicks(child.pid) ?? '',
      command: opts.cmd,
    };
    fs.writeFileSync(opts.pidFile, JSON.stringify(rec));
    return rec;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Stops the process of a pid file (SIGTERM, then SIGKILL after `graceMs`) if it is still the process
 * that was recorded, then removes the pid file.
 * @returns true when a live process was stopped
 */
export async function stopFromPidFile(pidFile: string, graceMs = 10000): Promise<boolean> {
  const rec = readPidFile(pidFile);
  let stopped = false;
  if (rec && isRunning(rec)) {
    stopped = true;
    process.kill(rec.pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (isRunning(rec) && Date.now() < deadline) await sleep(100);
    if (isRunning(rec)) {
      process.kill(rec.pid, 'SIGKILL');
      while (isRunning(rec)) await sleep(50);
    }
  }
  fs.rmSync(pidFile, { force: true });
  return stopped;
}

/** Last `n` lines of the latest run in a log file (after its last `===` start marker; '' when missing). */
export function logTail(file: string, n = 30): string {
  try {
    const text = fs.readFileSync(file, 'utf8');
    const latest = text.slice(Math.max(0, text.lastIndexOf('\n=== ') + 1));
    return latest.trimEnd().split('\n').slice(-n).join('\n');
  } catch {
    return '';
  }
}
