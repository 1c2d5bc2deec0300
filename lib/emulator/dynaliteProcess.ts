/**
 * dynalite in a child process of its own, on 127.0.0.1 with a free port: the same server as ./dynalite.ts, but with
 * an event loop of its own, as DynamoDB is a service of its own beside a Lambda function. Used where the caller's
 * thread is busy enough that an in-process server would queue behind it (the bench's fleet of 100 clusters,
 * BENCHMARKS.md#fleet-dynamo).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { localDynamo, type LocalDynamo } from './localDynamo.js';

/** How long the child may take to answer on its port before {@link startDynaliteProcess} gives up, ms. */
const START_TIMEOUT_MS = 20_000;

/** A free loopback port (bound, read, released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether `endpoint` answers HTTP (any status: dynalite answers a bare GET with 400). */
async function answers(endpoint: string): Promise<boolean> {
  try {
    await fetch(endpoint, { signal: AbortSignal.timeout(1_000) });
    return true;
  } catch {
    return false;
  }
}

/** Stop `child`: SIGTERM, then SIGKILL after 2 s; resolves once it exited. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Start dynalite (in memory, tables ACTIVE at once) in a child Node process and wait until it answers.
 * @returns the endpoint and clients; `close()` destroys the clients and stops the child
 * @throws Error naming the child's exit, or its silence after 20 s (the child is killed then)
 */
export async function startDynaliteProcess(): Promise<LocalDynamo> {
  const cli = path.join(
    path.dirname(createRequire(import.meta.url).resolve('dynalite/package.json')),
    'cli.js',
  );
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [cli, '--host', '127.0.0.1', '--port', String(port), '--createTableMs', '0', '--deleteTableMs', '0'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2_000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await answers(endpoint))) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `dynalite child exited (${child.exitCode ?? child.signalCode}) before answering: ${stderr.trim()}`,
      );
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`dynalite child did not answer on ${endpoint} within ${START_TIMEOUT_MS / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return localDynamo(endpoint, 'local', () => stopChild(child));
}
