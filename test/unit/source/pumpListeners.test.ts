/**
 * One pump run adds one abort listener to its caller's signal, however many streams the registered kinds watch: the
 * embedded runtime's stop signal outlives every run, and with 11 streams (five kinds) each stream's own listener on
 * it made Node print `MaxListenersExceededWarning` on every run (lib/source/pump.ts `pumpCluster`).
 */
import { getEventListeners } from 'node:events';
import { expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { Logger } from '@aws-lambda-powertools/logger';
import { pumpCluster, type ClusterPumpDeps } from '../../../lib/source/pump.js';
import { watchStreams } from '../../../lib/source/watchSpec.js';
import { CONTROLLER_KINDS } from '../../../lib/controllers/kinds.js';
import { MemoryCheckpoints } from './support/checkpoints.js';

it('adds one listener to the caller signal for all streams, and none after the run', async () => {
  const streams = watchStreams(CONTROLLER_KINDS);
  expect(streams.length).toBeGreaterThan(10);
  const checkpoints = new MemoryCheckpoints(() => Date.now());
  // the cluster held by a live previous run: the run waits on its signal for the release
  await checkpoints.acquire('c1', 'previous-run', 600_000, Date.now());
  const stop = new AbortController();
  const deps: ClusterPumpDeps = {
    cluster: 'c1',
    kc: new KubeConfig(),
    kube: {
      get: () => Promise.reject(new Error('no read')),
      list: () => Promise.reject(new Error('no read')),
    },
    watches: checkpoints,
    publisher: { publish: () => Promise.resolve({ published: 0, calls: 0, retried: 0 }) },
    holder: 'this-run',
    clock: () => Date.now(),
    deadlineMs: Date.now() + 60_000,
    leaseDurationMs: 70_000,
    watchTimeoutSeconds: 60,
    flushIntervalMs: 1000,
    checkpointIntervalMs: 1000,
    handoverPollMs: 50,
    log: new Logger({ logLevel: 'SILENT' }),
    signal: stop.signal,
  };
  const run = pumpCluster(deps, streams);
  await new Promise((r) => setTimeout(r, 120));
  const during = getEventListeners(stop.signal, 'abort').length;
  stop.abort();
  const results = await run;
  expect({
    during,
    after: getEventListeners(stop.signal, 'abort').length,
    acquired: results.filter((r) => r.acquired).length,
    streams: results.length,
  }).toEqual({ during: 1, after: 0, acquired: 0, streams: streams.length });
});
