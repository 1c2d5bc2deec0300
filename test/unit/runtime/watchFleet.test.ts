/**
 * The watch handler over a fleet: each cluster's pump puts one abort listener on the caller's signal (the embedded
 * default's stop), so a round over more than 10 clusters made Node print `MaxListenersExceededWarning` (found by
 * the bench's fleet of 100 registrations, bench/scenarios/fleet.ts). The handler now allows one per cluster.
 */
import { getEventListeners, getMaxListeners } from 'node:events';
import { expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { Logger } from '@aws-lambda-powertools/logger';
import { watchHandler } from '../../../lib/runtime/handlers/watch.js';
import type { Runtime } from '../../../lib/runtime/types.js';
import { watchStreams } from '../../../lib/source/watchSpec.js';
import { CONTROLLER_KINDS } from '../../../lib/controllers/kinds.js';
import { MemoryCheckpoints } from '../source/support/checkpoints.js';

const CLUSTERS = 30;

it('pumps 30 clusters with one listener each on the caller signal and no leak warning', async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  try {
    const names = Array.from({ length: CLUSTERS }, (_, i) => `c${i}`);
    const checkpoints = new MemoryCheckpoints(() => Date.now());
    // every stream held by a live previous run: each waits for its release until the stop
    for (const name of names)
      for (const s of watchStreams(CONTROLLER_KINDS))
        await checkpoints.acquire(name, s.resource, 'previous-run', 600_000, Date.now());
    const runtime = {
      stores: { watches: checkpoints },
      publisher: { publish: () => Promise.resolve({ published: 0, calls: 0, retried: 0 }) },
      clusterNames: () => Promise.resolve(names),
      cluster: (name: string) =>
        Promise.resolve({
          name,
          kc: new KubeConfig(),
          kube: {
            get: () => Promise.reject(new Error('no read')),
            list: () => Promise.reject(new Error('no read')),
          },
        }),
    } as unknown as Runtime;
    const stop = new AbortController();
    const handler = watchHandler(() => runtime, new Logger({ logLevel: 'SILENT' }), stop.signal);
    const run = handler(undefined, { awsRequestId: 'fleet-round', getRemainingTimeInMillis: () => 60_000 });
    await new Promise((r) => setTimeout(r, 200));
    const during = getEventListeners(stop.signal, 'abort').length;
    // Node warns once a signal has more listeners than it allows (jest's sandbox does not pass the warning on)
    const allowed = getMaxListeners(stop.signal);
    stop.abort();
    const byCluster = await run;
    await new Promise((r) => setImmediate(r)); // process warnings are emitted on a later tick
    expect({
      during,
      after: getEventListeners(stop.signal, 'abort').length,
      withinAllowed: during <= allowed,
      clusters: Object.keys(byCluster).length,
      warnings,
    }).toEqual({ during: CLUSTERS, after: 0, withinAllowed: true, clusters: CLUSTERS, warnings: [] });
  } finally {
    process.off('warning', onWarning);
  }
});
