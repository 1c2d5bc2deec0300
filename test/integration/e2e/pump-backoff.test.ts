/**
 * The embedded watch pump against an API server that is not there (a closed loopback port): each stream fails at
 * once and is reopened within its round after 1 s, 2 s, 4 s … (lib/source/pump.ts `pumpStreamReopening`) instead of
 * retrying every second; a round that ends with failed streams backs off the same way (lib/core/backoff.ts).
 * Needs no cluster: the failure is real (connection refused), only the server is missing.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CONTROLLER_KINDS } from '../../../lib/controllers/kinds.js';
import { startEmbedded, type Embedded } from '../../../lib/local/embedded.js';
import { watchStreams } from '../../../lib/source/watchSpec.js';
import { writeKubeconfig } from '../support/kube.js';
import { RecordingLogger } from '../support/pipeline.js';

let embedded: Embedded | undefined;
let tmpDir = '';

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

afterAll(async () => {
  await embedded?.stop();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

test('failing streams are reopened with exponential backoff, and stop() does not wait out the pause', async () => {
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kruiseless-pump-'));
  const kubeconfig = writeKubeconfig(path.join(tmpDir, 'kubeconfig'), {
    server: `http://127.0.0.1:${await closedPort()}`,
    cluster: { 'insecure-skip-tls-verify': true },
  });
  const logger = new RecordingLogger();
  // no client retries: a stream's first call is its relist's LIST (no checkpoint yet), which the client would
  // otherwise retry for 3 to 6 s before the round fails; a watch is never retried
  embedded = await startEmbedded({
    kubeconfig,
    clusterName: 'gone',
    logger,
    kubeRetry: { retries: 0, minTimeoutMs: 1 },
  });
  await new Promise((r) => setTimeout(r, 7_500));
  const failures = logger.records.filter((r) => r.message === 'watch stream failed; reopening it');
  // each stream of the registered controllers fails at about 0, 1, 3 and 7 s and is reopened after each failure
  // (a fixed 1 s pause would give 8 lines a stream); the streams are counted apart, so one that is a little late on
  // a loaded machine does not shift the others
  const perStream = new Map<string, number>();
  for (const f of failures) {
    const resource = String((f.extra[0] as { resource?: unknown } | undefined)?.resource);
    perStream.set(resource, (perStream.get(resource) ?? 0) + 1);
  }
  const streams = watchStreams(CONTROLLER_KINDS).map((s) => s.resource);
  expect([...perStream.keys()].sort()).toEqual([...new Set(streams)].sort());
  for (const [resource, n] of perStream) {
    expect([resource, n >= 3 && n <= 4 ? 'backed off' : n]).toEqual([resource, 'backed off']);
  }
  const stopping = Date.now();
  await embedded.stop();
  expect(Date.now() - stopping).toBeLessThan(3_000);
  embedded = undefined;
}, 30_000);
