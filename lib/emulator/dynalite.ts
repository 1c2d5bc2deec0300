/**
 * dynalite (docs/architecture.md#embedded-default) in-process on 127.0.0.1 with a random port.
 * In memory: nothing survives a restart, and it has no TTL expiry and no transactions (the state protocol uses
 * single-item conditional writes only).
 */
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { localDynamo, type LocalDynamo } from './localDynamo.js';

/** dynalite 4 ships no types; this is the part used here. */
type Dynalite = (options: {
  createTableMs?: number;
  deleteTableMs?: number;
  updateTableMs?: number;
}) => Server;

export type { LocalDynamo } from './localDynamo.js';

/** Start dynalite on a free loopback port. */
export async function startDynalite(): Promise<LocalDynamo> {
  const dynalite = createRequire(import.meta.url)('dynalite') as Dynalite;
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return localDynamo(endpoint, 'local', async () => {
    server.closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}
