/**
 * The two sides of a parity run, each on its own local control plane so that neither controller ever sees the
 * other's objects: OpenKruise's manager (the reference, `npm run reference:up`) and Kruiseless (`kruiseless local`
 * against a second control plane with our CRD). Both are started as child processes through the same commands a
 * user types, so the suite exercises what users run.
 */
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { REPO_ROOT } from './scenario.js';

/** A started side: its kubeconfig and how to stop what the runner started. */
export interface Side {
  name: 'openkruise' | 'kruiseless';
  kubeconfig: string;
  /** Free-form description for the report (version, gates). */
  detail: string;
  /**
   * ms since the epoch at which the side's controller process started, for a side whose process outlives a run (the
   * reference's kruise-manager); updated by {@link Side.restart}. Undefined for a side started fresh by each call.
   */
  startedAt?: number;
  /** Restarts the side's controller process in place (same control plane, same gates); the reference's only. */
  restart?(): Promise<void>;
  stop(): Promise<void>;
}

/** Feature gates as OpenKruise spells them on its command line: `A=true,B=false`. */
export function gatesFlag(gates: Readonly<Record<string, boolean>>): string {
  return Object.entries(gates)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(',');
}

const cacheBase = (): string =>
  process.env.KRUISELESS_CACHE ?? path.join(os.homedir(), '.cache', 'kruiseless');

/** State folder of the Kruiseless side's control plane (env `KRUISELESS_PARITY_STATE_DIR`). */
export function kruiselessStateDir(): string {
  return process.env.KRUISELESS_PARITY_STATE_DIR ?? path.join(cacheBase(), 'parity-cluster');
}

const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');

/** Starts a repository command under tsx in the repository root, stdout and stderr appended to `logFile`. */
function spawnLogged(
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
): ChildProcessByStdio<null, Readable, Readable> {
  mkdirSync(path.dirname(logFile), { recursive: true });
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(TSX, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  return child;
}

/**
 * Runs a repository command to completion, its output appended to `logFile`.
 * @throws Error with the exit code and the log file's path when it fails
 */
export async function runCommand(args: string[], env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  const child = spawnLogged(args, env, logFile);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${String(code)} (log: ${logFile})`);
}

/**
 * Starts the Kruiseless side: its own local control plane (started if not running), then `kruiseless local`
 * with the given feature gates, until it reports that it runs.
 * @throws Error when the control plane or `kruiseless local` does not come up (the log file is named)
 */
export async function startKruiseless(gates: Readonly<Record<string, boolean>>): Promise<Side> {
  const stateDir = kruiselessStateDir();
  const env = { KRUISELESS_STATE_DIR: stateDir };
  const logDir = path.join(stateDir, 'logs');
  await runCommand(['infra/local/cli.ts', 'up'], env, path.join(logDir, 'parity-cluster-up.log'));
  const kubeconfig = path.join(stateDir, 'kubeconfig');
  const flag = gatesFlag(gates);
  const args = ['lib/local/cli.ts', 'local', '--kubeconfig', kubeconfig, '--cluster-name', 'parity'];
  if (flag) args.push('--feature-gates', flag);
  const logFile = path.join(logDir, 'kruiseless-local.log');
  const child = spawnLogged(args, env, logFile);
  await waitForLine(child, /kruiseless local running/, 60_000, logFile);
  return {
    name: 'kruiseless',
    kubeconfig,
    detail: `kruiseless local${flag ? ` --feature-gates=${flag}` : ''}`,
    stop: () => stopChild(child),
  };
}

/**
 * Starts the reference: OpenKruise's manager on its own local control plane (`npm run reference:up`, which
 * builds it when not cached) with the given feature gates.
 * @throws Error when it does not come up (the log file is named)
 */
export async function startOpenKruise(gates: Readonly<Record<string, boolean>>): Promise<Side> {
  const flag = gatesFlag(gates);
  const logFile = path.join(kruiselessStateDir(), 'logs', 'reference-up.log');
  const up = async (
    restart: boolean,
  ): Promise<{ kubeconfig: string; version: string; startedAt: number }> => {
    const args = ['infra/reference/cli.ts', 'up', ...(restart ? ['--restart'] : [])];
    await runCommand([...args, ...(flag ? ['--feature-gates', flag] : [])], {}, logFile);
    const info = JSON.parse(readFileSync(referenceInfoFile(), 'utf8')) as {
      kubeconfig: string;
      version: string;
      startedAt: string;
    };
    return { ...info, startedAt: new Date(info.startedAt).getTime() };
  };
  const info = await up(false);
  const side: Side = {
    name: 'openkruise',
    kubeconfig: info.kubeconfig,
    detail: `OpenKruise ${info.version}${flag ? ` --feature-gates=${flag}` : ''}`,
    startedAt: info.startedAt,
    restart: async () => {
      side.startedAt = (await up(true)).startedAt;
    },
    // the manager is restarted with other gates by the next `up`; `npm run reference:down` stops it all
    stop: async () => undefined,
  };
  return side;
}

/** Where `reference:up` records the running reference. */
export function referenceInfoFile(): string {
  const dir = process.env.KRUISELESS_REFERENCE_STATE_DIR ?? path.join(cacheBase(), 'reference-cluster');
  return path.join(dir, 'run', 'reference.json');
}

/**
 * Waits until `child` prints a line matching `pattern` (stdout or stderr).
 * @throws Error naming `logFile` when it exits first or `timeoutMs` passes (the child is then sent SIGTERM)
 */
export function waitForLine(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs: number,
  logFile: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => fail(new Error(`no "${pattern.source}" within ${timeoutMs / 1000} s (log: ${logFile})`)),
      timeoutMs,
    );
    const onData = (b: Buffer): void => {
      seen = (seen + b.toString()).slice(-4096);
      if (pattern.test(seen)) done();
    };
    const onExit = (code: number | null): void =>
      fail(new Error(`exited ${String(code)} before it ran (log: ${logFile})`));
    const cleanup = (): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    const done = (): void => {
      cleanup();
      resolve();
    };
    const fail = (e: Error): void => {
      cleanup();
      child.kill('SIGTERM');
      reject(e);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
