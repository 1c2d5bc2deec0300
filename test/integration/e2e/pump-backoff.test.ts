/**
 * The embedded watch pump against an API server that is not there (a closed loopback port): each round's streams
 * fail at once, and the rounds back off 1 s, 2 s, 4 s … (lib/core/backoff.ts) instead of retrying every second.
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

test('rounds whose streams fail back off exponentially, and stop() does not wait out the pause', async () => {
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
  const failures = logger.records.filter((r) => r.message === 'watch stream failed');
  // one line per stream of the registered controllers a round (5 with CloneSet and Advanced StatefulSet); rounds at
  // about 0, 1, 3 and 7 s (a fixed 1 s pause would give 8 rounds)
  const perRound = watchStreams(CONTROLLER_KINDS).length;
  expect(failures.length % perRound).toBe(0);
  expect(failures.length / perRound).toBeGreaterThanOrEqual(3);
  expect(failures.length / perRound).toBeLessThanOrEqual(4);
  const stopping = Date.now();
  await embedded.stop();
  expect(Date.now() - stopping).toBeLessThan(3_000);
  embedded = undefined;
}, 30_000);
