/**
 * A local DynamoDB server run as a child process (moto's Python server, dynalite's CLI): spawned on a free loopback
 * port, waited for until it answers, stopped by `close()`. The servers differ only in their command and in how they
 * say they are up.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freeLoopbackPort } from '../core/loopbackPort.js';
import { localDynamo, type LocalDynamo } from './localDynamo.js';

/** What {@link startChildServer} runs. */
export interface ChildServerSpec {
  /** Named in the errors, e.g. `moto server`. */
  name: string;
  /** The executable. */
  command: string;
  /** Its arguments for `port` (the server must listen on 127.0.0.1 there). */
  args(port: number): string[];
  /** Environment for `port` (default: this process's). */
  env?(port: number): NodeJS.ProcessEnv;
  /** Whether the server at `endpoint` is up; false (not a rejection) while it is not. */
  ready(endpoint: string): Promise<boolean>;
  /** The region its clients sign for. */
  region: string;
  /** How long it may take to answer, ms. */
  startTimeoutMs: number;
}

/**
 * Spawn `spec`'s server on a free loopback port (lib/core/loopbackPort.ts) and poll `ready` every 100 ms until it
 * says yes. `close()` destroys the clients handed out, then sends SIGTERM and waits for the exit.
 * @throws Error `<name> exited (<code>) before answering:\n<stderr tail>`, or `<name> did not answer on <endpoint>
 *   within <ms> ms:\n<stderr tail>` (the child is killed then)
 */
export async function startChildServer(spec: ChildServerSpec): Promise<LocalDynamo> {
  const port = await freeLoopbackPort();
  const endpoint = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(spec.command, spec.args(port), {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: spec.env?.(port) ?? process.env,
  });
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`${spec.name} exited (${code}) before answering:\n${stderr}`)),
    ),
  );
  exited.catch(() => undefined);
  const deadline = Date.now() + spec.startTimeoutMs;
  for (;;) {
    const up = await Promise.race([spec.ready(endpoint), exited]);
    if (up) break;
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(
        `${spec.name} did not answer on ${endpoint} within ${spec.startTimeoutMs} ms:\n${stderr}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return localDynamo(endpoint, spec.region, async () => {
    if (child.exitCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await gone;
  });
}
