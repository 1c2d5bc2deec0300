/**
 * The reconciler under fault: `kruiseless local` as a child process (the command users run) against the fault
 * front's kubeconfig, its state in a DynamoDB that outlives it (a dynalite the harness runs), so that a kill
 * (SIGKILL, mid-pass) and a restart keep the leases, expectations, ledgers and watch checkpoints as a crashed Lambda
 * container leaves them in AWS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../parity/scenario.js';
import { gatesFlag, waitForLine } from '../parity/sides.js';

/** Where the reconciler runs and keeps its state. */
export interface ReconcilerOptions {
  /** kubeconfig naming the fault front. */
  kubeconfig: string;
  /** The DynamoDB endpoint (`http://127.0.0.1:<port>`) and table kept across restarts. */
  dynamoEndpoint: string;
  table: string;
  clusterName: string;
  /** Appended with both streams of every start. */
  logFile: string;
  /** More `kruiseless local` flags, e.g. `--no-conversion` on a control plane other tests share. */
  extraArgs?: readonly string[];
}

/** One `kruiseless local` process at a time, started, killed and restarted. */
export class Reconciler {
  private child: ChildProcess | undefined;
  private gates: Readonly<Record<string, boolean>> = {};
  private restarting: Promise<void> | undefined;
  /** Epoch ms of the last kill, 0 before any. */
  lastKillAt = 0;
  /** Kills so far. */
  kills = 0;

  constructor(private readonly opts: ReconcilerOptions) {}

  /**
   * Starts it with `gates` (stopping a running one first) and waits until it reports that it runs (90 s).
   * @throws Error naming the log file when it does not come up
   */
  async start(gates: Readonly<Record<string, boolean>>): Promise<void> {
    await this.stop();
    this.gates = gates;
    const flag = gatesFlag(gates);
    const args = [
      'lib/local/cli.ts',
      'local',
      '--kubeconfig',
      this.opts.kubeconfig,
      '--cluster-name',
      this.opts.clusterName,
      '--dynamodb-endpoint',
      this.opts.dynamoEndpoint,
      '--table',
      this.opts.table,
      ...(flag ? ['--feature-gates', flag] : []),
      ...(this.opts.extraArgs ?? []),
    ];
    // node with tsx's loader, not the tsx command: that one runs the program in a child node process, and a
    // SIGKILL of the command would leave the reconciler running as an orphan next to its restarted self
    mkdirSync(path.dirname(this.opts.logFile), { recursive: true });
    const out = createWriteStream(this.opts.logFile, { flags: 'a' });
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(out);
    child.stderr.pipe(out);
    this.child = child;
    await waitForLine(child, /kruiseless local running/, 90_000, this.opts.logFile);
  }

  /** True while a killed reconciler is being started again. */
  busy(): boolean {
    return this.restarting !== undefined;
  }

  /**
   * Kills the process at once (SIGKILL: no handler runs, nothing is released) and starts it again with the same
   * gates; returns before the restart is done ({@link busy}, {@link settled}).
   */
  kill(): void {
    if (this.restarting) return;
    const child = this.child;
    this.kills += 1;
    this.lastKillAt = Date.now();
    this.restarting = (async () => {
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        child.kill('SIGKILL');
        await exited;
      }
      this.child = undefined;
      await this.start(this.gates);
    })().finally(() => {
      this.restarting = undefined;
    });
  }

  /** Waits for a restart in progress. @throws as {@link start} */
  async settled(): Promise<void> {
    await this.restarting;
  }

  /** Stops it (SIGTERM, then SIGKILL after 10 s). */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
