/**
 * moto in server mode (docs/reliability.md#two-dynamodb-implementations): a second, independent implementation of
 * the DynamoDB API, so that the state protocol's conditional writes are not checked against one emulator's quirks.
 * moto is a Python package (PyPI `moto[server]`); this module only finds its Python and runs moto's server app.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startChildServer } from './childServer.js';
import type { LocalDynamo } from './localDynamo.js';

/** The moto release `npm run moto:install` puts into the cache (PyPI `moto[server]==MOTO_VERSION`). */
export const MOTO_VERSION = '5.2.5';

/** Where `npm run moto:install` puts its virtualenv: `~/.cache/kruiseless/moto-<version>` (or `$KRUISELESS_CACHE`). */
export function motoVenvDir(): string {
  const cache = process.env.KRUISELESS_CACHE ?? path.join(os.homedir(), '.cache', 'kruiseless');
  return path.join(cache, `moto-${MOTO_VERSION}`);
}

/**
 * The Python interpreter that has moto: `$KRUISELESS_MOTO_PYTHON` when set, else the cached virtualenv's
 * (`npm run moto:install`).
 * @returns its path, or undefined when there is none
 */
export function findMotoPython(): string | undefined {
  const fromEnv = process.env.KRUISELESS_MOTO_PYTHON;
  if (fromEnv) return fs.existsSync(fromEnv) ? fromEnv : undefined;
  const cached = path.join(motoVenvDir(), 'bin', 'python');
  return fs.existsSync(cached) ? cached : undefined;
}

/**
 * moto's own server app, served one request at a time. `moto_server` serves requests on concurrent threads, and
 * then two conditional UpdateItems on the same item can both succeed (seen: 2 of 10 concurrent lease acquires won);
 * DynamoDB applies the writes to one item atomically, so serial requests are the faithful model here.
 */
const SERIAL_SERVER = [
  'import sys',
  'from werkzeug.serving import run_simple',
  'from moto.server import DomainDispatcherApplication, create_backend_app',
  'app = DomainDispatcherApplication(create_backend_app)',
  'run_simple(sys.argv[1], int(sys.argv[2]), app, threaded=False, use_reloader=False)',
].join('\n');

/**
 * Start moto's server ({@link SERIAL_SERVER}) on a free loopback port and wait until it answers (at most `startTimeoutMs`, default 30 s).
 * Each server is its own in-memory account: nothing is shared with another server or survives {@link LocalDynamo.close}.
 * @throws Error when moto is not installed (with how to install it), when it exits early or does not answer in time
 */
export async function startMoto(startTimeoutMs = 30_000): Promise<LocalDynamo> {
  const python = findMotoPython();
  const fromEnv = process.env.KRUISELESS_MOTO_PYTHON;
  if (!python && fromEnv)
    throw new Error(
      `moto not found: KRUISELESS_MOTO_PYTHON=${fromEnv} does not exist (unset it to use \`npm run moto:install\`'s virtualenv)`,
    );
  if (!python)
    throw new Error(
      'moto not found: run `npm run moto:install` (PyPI moto[server]), or set KRUISELESS_MOTO_PYTHON to a Python that has it',
    );
  return startChildServer({
    name: 'moto server',
    command: python,
    args: (port) => ['-c', SERIAL_SERVER, '127.0.0.1', String(port)],
    env: (port) => ({ ...process.env, MOTO_PORT: String(port) }),
    ready: (endpoint) =>
      fetch(`${endpoint}/moto-api/`).then(
        (r) => r.ok,
        () => false,
      ),
    region: 'us-east-1',
    startTimeoutMs,
  });
}
