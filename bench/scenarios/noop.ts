/**
 * Scenario 3, the no-op reconcile (the approach of test/integration/e2e/noop-cost.test.ts, at larger sizes): settled
 * CloneSets of 10, 100 and N pods beside 20 other CloneSets of 2 pods in one namespace, then one reconcile of
 * each through the reconcile handler on a timer (`Resync`), counted by the API server (`apiserver_request_total`,
 * `apiserver_response_sizes`) and by the pipeline's DynamoDB middleware. The pipeline is idle meanwhile (settled
 * CloneSets, nothing forwarded), so its counters change only by the call measured.
 */
import { performance } from 'node:perf_hooks';
import { Logger } from '@aws-lambda-powertools/logger';
import { CLONESET_KIND } from '../../lib/controllers/cloneset/api/kinds.js';
import { EVENT_VERSION } from '../../lib/requests/index.js';
import { envelope } from '../../test/integration/support/pipeline.js';
import type { Embedded } from '../../lib/local/embedded.js';
import { difference, snapshot } from '../../lib/runtime/counting.js';
import { reconcileHandler } from '../../lib/runtime/handlers/reconcile.js';
import { diffCounters, readsOf, type Counters } from '../support/apiCost.js';
import {
  createNamespace,
  deleteNamespace,
  quietScrape,
  scrapeApi,
  type BenchCluster,
} from '../support/kube.js';
import { median } from '../support/stats.js';
import { Tracker } from '../support/tracker.js';
import { settled } from './reaction.js';
import { workload } from './workload.js';

/** One size's no-op reconcile. */
export interface NoopResult {
  pods: number;
  /** Pods of other CloneSets in the namespace. */
  otherPods: number;
  apiReads: number;
  apiWrites: number;
  /** Bytes the API server answered (GET and LIST). */
  bytesRead: number;
  requests: Counters;
  dynamo: Record<string, number>;
  dynamoWrites: number;
  /** Median wall time of the handler call, ms. */
  wallMs: number;
}

const OTHERS = 20;
const OTHER_PODS = 2;
const DYNAMO_WRITES = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'TransactWriteItems',
  'BatchWriteItem',
]);

/** Run the no-op scenario for `sizes` on Kruiseless's control plane. */
export async function runNoop(
  cluster: BenchCluster,
  embedded: Embedded,
  sizes: readonly number[],
): Promise<NoopResult[]> {
  const ns = `bench-noop-${Date.now().toString(36)}`;
  await createNamespace(cluster, ns);
  const tracker = new Tracker(cluster, ns);
  await tracker.start();
  try {
    const all = [
      ...Array.from({ length: OTHERS }, (_, i) => [`other-${i}`, OTHER_PODS] as const),
      ...sizes.map((s) => [`noop-${s}`, s] as const),
    ];
    for (const [name, n] of all) {
      const { path, body } = workload('kruiseless', ns, name, n);
      await cluster.request('POST', path, body);
    }
    const total = all.reduce((a, [, n]) => a + n, 0);
    await tracker.until(
      'no-op CloneSets settled',
      () => all.every(([name, n]) => settled(tracker, ns, name, n)),
      120_000 + total * 300,
    );
    await embedded.drain();
    const handler = reconcileHandler(() => embedded.runtime, new Logger({ logLevel: 'SILENT' }));
    const event = (name: string) =>
      envelope({
        version: EVENT_VERSION,
        cluster: 'bench',
        kind: CLONESET_KIND,
        namespace: ns,
        name,
        reason: 'Resync',
      });
    const out: NoopResult[] = [];
    for (const size of sizes) {
      const name = `noop-${size}`;
      await handler(event(name)); // the first reconcile of a key on this table may create its lease item
      const walls: number[] = [];
      let last: Omit<NoopResult, 'wallMs'> | undefined;
      for (let i = 0; i < 3; i++) {
        const m0 = await quietScrape(cluster, 5000);
        const c0 = snapshot(embedded.counts);
        const t0 = performance.now();
        const summary = await handler(event(name));
        walls.push(performance.now() - t0);
        const m1 = await scrapeApi(cluster);
        if (summary.writes !== 0) throw new Error(`no-op reconcile of ${name} wrote ${summary.writes} times`);
        const requests = diffCounters(m0.requests, m1.requests);
        const dynamo = difference(c0, embedded.counts).dynamo;
        const reads = readsOf(requests);
        last = {
          pods: size,
          otherPods: total - size,
          apiReads: reads,
          apiWrites: Object.values(requests).reduce((a, b) => a + b, 0) - reads,
          bytesRead: Object.values(diffCounters(m0.bytes, m1.bytes)).reduce((a, b) => a + b, 0),
          requests,
          dynamo,
          dynamoWrites: Object.entries(dynamo)
            .filter(([k]) => DYNAMO_WRITES.has(k))
            .reduce((a, [, v]) => a + v, 0),
        };
      }
      if (last) out.push({ ...last, wallMs: Math.round(median(walls) * 10) / 10 });
    }
    return out;
  } finally {
    tracker.stop();
    await deleteNamespace(cluster, ns);
  }
}
