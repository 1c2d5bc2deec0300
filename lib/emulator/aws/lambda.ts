/**
 * A Lambda-like function: the packaged zip unpacked once, and warm instances, each its own Node process running
 * lambdaShim.mjs (init once, then one invocation at a time over IPC), at most `concurrency` of them. An invocation
 * longer than the function's timeout kills its instance (Lambda's `Task timed out`); the next starts cold.
 */
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FunctionSpec } from './stackModel.js';

const SHIM = fileURLToPath(new URL('./lambdaShim.mjs', import.meta.url));

/** Lambda's error record. */
export interface LambdaError {
  errorType: string;
  errorMessage: string;
}

/** The outcome of one invocation. */
export type InvokeResult = { requestId: string; durationMs: number } & (
  { ok: true; result: unknown } | { ok: false; error: LambdaError }
);

/** Counters of one function. */
export interface FunctionStats {
  invocations: number;
  errors: number;
  timeouts: number;
  coldStarts: number;
}

/** Options of {@link EmulatedFunction}. */
export interface EmulatedFunctionOptions {
  /** Variables Lambda itself sets (endpoint, region, the role's credentials), added to the template's. */
  runtimeEnv: Record<string, string>;
  /** The zip is unpacked under here (`<workDir>/<function name>`). */
  workDir: string;
  /** Each instance's stdout and stderr go here (the file is started afresh). */
  logFile: string;
}

type ShimMessage =
  | { type: 'ready' }
  | { type: 'initError'; error: LambdaError }
  | { type: 'result'; id: string; ok: true; result: unknown }
  | { type: 'result'; id: string; ok: false; error: LambdaError };

interface Instance {
  child: ChildProcess;
  ready: Promise<void>;
}

/** One emulated function (see the file comment). */
export class EmulatedFunction {
  readonly stats: FunctionStats = { invocations: 0, errors: 0, timeouts: 0, coldStarts: 0 };
  private readonly listeners = new Set<(result: InvokeResult) => void>();
  private readonly idle: Instance[] = [];
  private readonly all = new Set<Instance>();
  private readonly waiting: ((i: Instance | undefined) => void)[] = [];
  private codeDir?: Promise<string>;
  private stopped = false;
  private readonly log: fs.WriteStream;

  constructor(
    readonly spec: FunctionSpec,
    private readonly opts: EmulatedFunctionOptions,
  ) {
    fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
    this.log = fs.createWriteStream(opts.logFile);
  }

  /**
   * Tells `listener` of each invocation as it ends, with its result (`durationMs` from the moment an instance was
   * free to the answer: a cold start's init included, the wait for a free instance not). A listener that throws is
   * ignored.
   * @returns the call that stops telling it
   */
  onInvoked(listener: (result: InvokeResult) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Run the handler once with `event` (a synchronous invoke: waits for a free instance when all are busy).
   * @returns the handler's result or its error; never throws for handler faults
   * @throws Error when the function was stopped
   */
  async invoke(event: unknown): Promise<InvokeResult> {
    const instance = await this.acquire();
    const requestId = randomUUID();
    const t0 = Date.now();
    const deadlineMs = t0 + this.spec.timeoutSeconds * 1000;
    this.stats.invocations++;
    const done = (r: { ok: true; result: unknown } | { ok: false; error: LambdaError }): InvokeResult => {
      if (!r.ok) this.stats.errors++;
      const result: InvokeResult = { requestId, durationMs: Date.now() - t0, ...r };
      for (const listener of this.listeners) {
        try {
          listener(result);
        } catch {
          // an observer's fault is not the invocation's
        }
      }
      return result;
    };
    try {
      await instance.ready;
    } catch (e) {
      this.discard(instance);
      return done({ ok: false, error: e as LambdaError });
    }
    const outcome = await new Promise<{ ok: true; result: unknown } | { ok: false; error: LambdaError }>(
      (resolve) => {
        const onMessage = (m: ShimMessage) => {
          if (m.type !== 'result' || m.id !== requestId) return;
          cleanup();
          resolve(m.ok ? { ok: true, result: m.result } : { ok: false, error: m.error });
        };
        const onExit = (code: number | null) => {
          cleanup();
          resolve({
            ok: false,
            error: {
              errorType: 'Runtime.ExitError',
              errorMessage: `instance exited (${code}) during the invocation`,
            },
          });
        };
        const timer = setTimeout(() => {
          cleanup();
          this.stats.timeouts++;
          resolve({
            ok: false,
            error: {
              errorType: 'Sandbox.Timedout',
              errorMessage: `Task timed out after ${this.spec.timeoutSeconds.toFixed(2)} seconds`,
            },
          });
        }, deadlineMs - Date.now());
        const cleanup = () => {
          clearTimeout(timer);
          instance.child.off('message', onMessage);
          instance.child.off('exit', onExit);
        };
        instance.child.on('message', onMessage);
        instance.child.once('exit', onExit);
        instance.child.send({
          type: 'invoke',
          id: requestId,
          event,
          requestId,
          deadlineMs,
          functionName: this.spec.name,
          functionArn: this.spec.arn,
          memoryMb: this.spec.memoryMb,
        });
      },
    );
    if (outcome.ok) this.release(instance);
    else if (instance.child.exitCode === null && outcome.error.errorType !== 'Sandbox.Timedout')
      this.release(instance); // a handler error leaves the instance warm, as in Lambda
    else this.discard(instance);
    return done(outcome);
  }

  /**
   * Stop the idle instances (waits until they are gone), so that the next invocation starts cold, as after Lambda
   * reclaims a function's idle execution environments. Busy instances are left to finish.
   * @returns how many instances were stopped
   */
  async recycle(): Promise<number> {
    const idle = this.idle.splice(0);
    await Promise.all(idle.map((i) => this.kill(i)));
    return idle.length;
  }

  /** Stop every instance (waits until they are gone). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting.splice(0).forEach((w) => w(undefined));
    await Promise.all([...this.all].map((i) => this.kill(i)));
    await new Promise<void>((r) => this.log.end(r));
  }

  private async acquire(): Promise<Instance> {
    if (this.stopped) throw new Error(`${this.spec.name} is stopped`);
    const warm = this.idle.pop();
    if (warm) return warm;
    if (this.all.size < this.spec.concurrency) return this.start();
    const next = await new Promise<Instance | undefined>((r) => this.waiting.push(r));
    if (!next) throw new Error(`${this.spec.name} is stopped`);
    return next;
  }

  private release(i: Instance): void {
    const w = this.waiting.shift();
    if (w) w(i);
    else this.idle.push(i);
  }

  private discard(i: Instance): void {
    void this.kill(i);
    const w = this.waiting.shift();
    if (w && !this.stopped) w(this.start());
  }

  private kill(i: Instance): Promise<void> {
    this.all.delete(i);
    if (i.child.exitCode !== null || i.child.signalCode !== null) return Promise.resolve();
    const gone = new Promise<void>((r) => i.child.once('exit', () => r()));
    i.child.kill('SIGKILL');
    return gone;
  }

  private unpack(): Promise<string> {
    this.codeDir ??= (async () => {
      const dir = path.join(this.opts.workDir, this.spec.name);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      // (unzip is not on a minimal Debian; python3 is there, moto needs it)
      await promisify(execFile)('python3', ['-m', 'zipfile', '-e', this.spec.zip, dir]);
      return dir;
    })();
    return this.codeDir;
  }

  private start(): Instance {
    this.stats.coldStarts++;
    // the child exists only after unpacking: a stand-in until then, so kill() works at any time
    const instance: Instance = {
      child: { exitCode: 0, signalCode: null } as unknown as ChildProcess,
      ready: Promise.resolve(),
    };
    instance.ready = (async () => {
      const dir = await this.unpack();
      const child = fork(SHIM, [dir, this.spec.handler], {
        cwd: dir,
        execArgv: [],
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          LANG: 'en_US.UTF-8',
          TZ: ':UTC',
          ...this.spec.env,
          ...this.opts.runtimeEnv,
          AWS_LAMBDA_FUNCTION_NAME: this.spec.name,
          AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
          AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(this.spec.memoryMb),
          AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${this.spec.name}`,
          AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
          LAMBDA_TASK_ROOT: dir,
          _HANDLER: this.spec.handler,
        },
      });
      instance.child = child;
      if (this.stopped) child.kill('SIGKILL');
      // (not pipe(): twenty instances would be twenty sets of listeners on one stream)
      const write = (b: Buffer) => this.log.write(b);
      child.stdout?.on('data', write);
      child.stderr?.on('data', write);
      // an init failure rejects with the Lambda error record ({errorType, errorMessage}) that invoke reports
      /* eslint-disable @typescript-eslint/prefer-promise-reject-errors */
      await new Promise<void>((resolve, reject) => {
        child.once('message', (m: ShimMessage) =>
          m.type === 'ready' ? resolve() : m.type === 'initError' ? reject(m.error) : undefined,
        );
        child.once('exit', (code) =>
          reject({ errorType: 'Runtime.ExitError', errorMessage: `init exited (${code})` }),
        );
      });
      /* eslint-enable @typescript-eslint/prefer-promise-reject-errors */
    })();
    instance.ready.catch(() => undefined);
    this.all.add(instance);
    return instance;
  }
}
