/**
 * dynalite in a child process of its own, on 127.0.0.1 with a free port: the same server as ./dynalite.ts, but with
 * an event loop of its own, as DynamoDB is a service of its own beside a Lambda function. Used where the caller's
 * thread is busy enough that an in-process server would queue behind it (the bench's fleet of 100 clusters,
 * BENCHMARKS.md#fleet-dynamo).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { startChildServer } from './childServer.js';
import type { LocalDynamo } from './localDynamo.js';

/** How long the child may take to answer before {@link startDynaliteProcess} gives up, ms. */
const START_TIMEOUT_MS = 20_000;

/**
 * Start dynalite (in memory, tables ACTIVE at once) in a child Node process and wait until it answers HTTP (any
 * status: it answers a bare GET with 400).
 * @returns the endpoint and clients; `close()` destroys the clients and stops the child
 * @throws Error naming the child's exit, or its silence after 20 s (the child is killed then)
 */
export async function startDynaliteProcess(): Promise<LocalDynamo> {
  const cli = path.join(
    path.dirname(createRequire(import.meta.url).resolve('dynalite/package.json')),
    'cli.js',
  );
  return startChildServer({
    name: 'dynalite child',
    command: process.execPath,
    args: (port) => [
      cli,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--createTableMs',
      '0',
      '--deleteTableMs',
      '0',
    ],
    ready: (endpoint) =>
      fetch(endpoint, { signal: AbortSignal.timeout(1_000) }).then(
        () => true,
        () => false,
      ),
    region: 'local',
    startTimeoutMs: START_TIMEOUT_MS,
  });
}
