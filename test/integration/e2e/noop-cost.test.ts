/**
 * The cost of one no-op reconcile (a settled CloneSet, nothing to do): API calls by KubeClient call (verb and
 * resource) and DynamoDB operations by command, measured on the real API server and dynalite and asserted exactly.
 *
 * API calls are read from the embedded pipeline's own counters (`embedded.counts.kube`, as `npm run demo` does):
 * once the watch pump has made its relist LISTs (when its streams start, before anything is measured), only the
 * reconciler uses the KubeClient — as long as no pod changes elsewhere in the cluster: a pod event makes the pump
 * LIST the PodUnavailableBudgets of the pod's namespace, so the measurement waits until the namespaces of the suites
 * run before it are gone (their pods deleted; it failed once in CI on such a LIST, 2026-12-07). DynamoDB operations cannot be read from `embedded.counts.dynamo`
 * without noise: the running watch pump re-saves its three checkpoints about once a second even when nothing
 * changes, and those UpdateItems land in the same counter. So the same
 * reconcile handler is invoked on the same cluster objects with state stores on a second dynalite whose client
 * is counted by the same middleware (`countDynamo`) — nothing else runs against that one.
 *
 * The last test stops the pipeline, puts 20 other CloneSets and their 40 pods beside the seed, and reads the API
 * server's own counters (`apiserver_request_total`, and how many objects its watch cache returned to LISTs) before
 * and after one reconcile: the requests the server saw, not what the client thinks it sent.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { reconcileHandler } from '../../../lib/runtime/handlers/reconcile.js';
import { countDynamo, difference, snapshot, type CallCounts } from '../../../lib/runtime/counting.js';
import type { Embedded } from '../../../lib/local/embedded.js';
import type { Runtime } from '../../../lib/runtime/types.js';
import type { ReconcileReason } from '../../../lib/requests/index.js';
import { createStateStores, ensureTable } from '../../../lib/state/index.js';
import { delta, scrape, type Scrape } from '../support/apiMetrics.js';
import { useTestNamespace, type TestCluster } from '../support/cluster.js';
import { waitFor } from '../support/wait.js';
import { uniqueTableName, useDynalite } from '../support/dynamo.js';
import {
  SEED_NAME,
  applySeedAndSettle,
  envelope,
  getCloneSet,
  reconcileRequest,
  settle,
  startPipeline,
} from '../support/pipeline.js';

const ctx = useTestNamespace('e2e-noop');
const dynamo = useDynalite();
let embedded: Embedded;
const STEP_TIMEOUT_MS = 120_000;

/**
 * The three reads of a no-op pass on a requeue (the timer a pass sets itself) (docs/architecture.md#reads), one call each: the CloneSet, its pods by
 * its selector, its revisions. No PVC list: the seed has no volumeClaimTemplates and nothing is pending.
 */
const NOOP_API_CALLS = { 'get clonesets': 1, 'list pods': 1, 'list controllerrevisions': 1 };
/** The same as the API server counts them (apiserver_request_total, see ../support/apiMetrics.ts). */
const NOOP_API_REQUESTS = { 'GET clonesets': 1, 'LIST pods': 1, 'LIST controllerrevisions': 1 };
/** Other CloneSets put beside the seed, each with this many pods. */
const OTHERS = 20;
const PODS_EACH = 2;

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace);
  await applySeedAndSettle(ctx.custom, ctx.namespace, embedded);
  // the namespaces earlier suites deleted: their pods' deletions are pod events the pump maps (see above)
  await waitFor('no namespace terminating', 180_000, async () => {
    const terminating = (await ctx.core.listNamespace()).items.filter(
      (n) => n.status?.phase === 'Terminating',
    );
    return terminating.length === 0 ? true : undefined;
  });
  await settle(embedded);
}, 300_000);

afterAll(async () => {
  await embedded?.stop();
});

describe('one no-op reconcile of the settled seed CloneSet', () => {
  test(
    'through the bus it makes exactly 3 API calls, all reads: get CloneSet, list pods, revisions',
    async () => {
      const csVersion = (await getCloneSet(ctx.custom, ctx.namespace)).metadata.resourceVersion;
      const c0 = snapshot(embedded.counts);
      await embedded.bus.publish([reconcileRequest(ctx.namespace, SEED_NAME, 'Requeue')]);
      await settle(embedded);
      expect(difference(c0, embedded.counts).kube).toEqual(NOOP_API_CALLS);
      expect((await getCloneSet(ctx.custom, ctx.namespace)).metadata.resourceVersion).toBe(csVersion);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'it makes exactly 4 DynamoDB operations: lease acquire and release, expectations and ledger reads',
    async () => {
      const client = dynamo.client();
      const counts: CallCounts = { kube: {}, dynamo: {}, dynamoWatch: {} };
      countDynamo(client, counts, 'dynamo');
      const tableName = uniqueTableName('noop');
      await ensureTable(client, tableName);
      const stores = createStateStores({ client, tableName });
      const runtime: Runtime = { ...embedded.runtime, stores };
      const reconcile = reconcileHandler(() => runtime, new Logger({ logLevel: 'SILENT' }));
      const event = () => envelope({ ...reconcileRequest(ctx.namespace, SEED_NAME, 'Requeue') });

      // the first reconcile of a key on a fresh table also creates the lease and raises both fences
      const d0 = snapshot(counts);
      const k0 = snapshot(embedded.counts);
      const first = await reconcile(event());
      expect(first).toMatchObject({ result: 'reconciled', passes: 1, writes: 0 });
      expect(difference(d0, counts).dynamo).toEqual({ UpdateItem: 4, GetItem: 2 });
      expect(difference(k0, embedded.counts).kube).toEqual(NOOP_API_CALLS);

      // every later no-op reconcile: UpdateItem lease acquire + release, GetItem expectations + scaledown
      const d1 = snapshot(counts);
      const k1 = snapshot(embedded.counts);
      const noop = await reconcile(event());
      expect(noop).toEqual({
        key: `e2e/apps.kruise.io/CloneSet/${ctx.namespace}/${SEED_NAME}`,
        result: 'reconciled',
        passes: 1,
        writes: 0,
      });
      expect(difference(d1, counts).dynamo).toEqual({ UpdateItem: 2, GetItem: 2 });
      expect(difference(k1, embedded.counts).kube).toEqual(NOOP_API_CALLS);
    },
    STEP_TIMEOUT_MS,
  );
});

/** `count` CloneSets named other-<i> (app=other-<i>), each with {@link PODS_EACH} pods it owns, on a kwok node. */
async function createOthers(c: TestCluster, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const name = `other-${i}`;
    const cs = (await c.custom.createNamespacedCustomObject({
      group: 'apps.kruise.io',
      version: 'v1alpha1',
      namespace: c.namespace,
      plural: 'clonesets',
      body: {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'CloneSet',
        metadata: { name },
        spec: {
          replicas: PODS_EACH,
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels: { app: name } },
            spec: { containers: [{ name: 'main', image: 'x:1' }] },
          },
        },
      },
    })) as { metadata: { uid: string } };
    for (let j = 0; j < PODS_EACH; j++) {
      await c.core.createNamespacedPod({
        namespace: c.namespace,
        body: {
          metadata: {
            name: `${name}-${j}`,
            labels: { app: name, 'apps.kruise.io/cloneset-instance-id': `${i}x${j}` },
            ownerReferences: [
              {
                apiVersion: 'apps.kruise.io/v1beta1',
                kind: 'CloneSet',
                name,
                uid: cs.metadata.uid,
                controller: true,
              },
            ],
          },
          spec: { nodeName: `kwok-node-${j % 2}`, containers: [{ name: 'main', image: 'x:1' }] },
        },
      });
    }
  }
}

/**
 * Scrapes until two scrapes 2 s apart show the same request counters (kwok has finished with the new pods), after
 * every terminating namespace is gone: the namespace controller deletes another file's namespace in bursts with
 * pauses of its own (killed-local.test.ts runs just before in this project), which 2 quiet seconds do not rule out.
 */
async function quietScrape(c: TestCluster): Promise<Scrape> {
  await waitFor('no namespace terminating', 180_000, async () => {
    const namespaces = (await c.core.listNamespace()).items;
    return namespaces.every((n) => n.status?.phase !== 'Terminating');
  });
  let last = await scrape(c.kc);
  let quiet: Scrape | undefined;
  await waitFor('the API server quiet for 2 s', 60_000, async () => {
    await new Promise((r) => setTimeout(r, 2000));
    const next = await scrape(c.kc);
    const same = Object.keys(delta(last.requests, next.requests)).length === 0;
    last = next;
    if (same) quiet = next;
    return same;
  });
  if (!quiet) throw new Error('unreachable: waitFor returned without a quiet scrape');
  return quiet;
}

describe(`a no-op reconcile beside ${OTHERS} other CloneSets and their ${OTHERS * PODS_EACH} pods`, () => {
  test(
    'the API server sees exactly 3 requests, all reads, and returns only the 2 own pods; a pod-change pass reads the 42',
    async () => {
      await embedded.stop(); // from here on nothing of Kruiseless runs but the handler below
      await createOthers(ctx, OTHERS);
      const client = dynamo.client();
      const counts: CallCounts = { kube: {}, dynamo: {}, dynamoWatch: {} };
      countDynamo(client, counts, 'dynamo');
      const tableName = uniqueTableName('noop-metrics');
      await ensureTable(client, tableName);
      const runtime: Runtime = { ...embedded.runtime, stores: createStateStores({ client, tableName }) };
      const reconcile = reconcileHandler(() => runtime, new Logger({ logLevel: 'SILENT' }));
      const event = (reason: ReconcileReason) =>
        envelope({ ...reconcileRequest(ctx.namespace, SEED_NAME, reason) });
      await reconcile(event('Requeue')); // the key's first reconcile on this table creates its lease item

      const m0 = await quietScrape(ctx);
      const d0 = snapshot(counts);
      expect(await reconcile(event('Requeue'))).toMatchObject({ result: 'reconciled', passes: 1, writes: 0 });
      const m1 = await scrape(ctx.kc);
      expect(delta(m0.requests, m1.requests)).toEqual(NOOP_API_REQUESTS);
      // the pods LIST is answered from the watch cache with the seed's 2 pods (the CloneSet GET is not a LIST)
      expect(delta(m0.cacheReturned, m1.cacheReturned)).toEqual({ pods: 2, controllerrevisions: 1 });
      // quorum LISTs (no resourceVersion), yet etcd returned no object: the cache answered after a revision check
      // (ConsistentListFromCache, docs/architecture.md#reads)
      expect(delta(m0.storageReturned, m1.storageReturned)).toEqual({});
      // DynamoDB: the lease acquire and release are the only writes
      expect(difference(d0, counts).dynamo).toEqual({ UpdateItem: 2, GetItem: 2 });

      // a pass after a pod change reads what the CloneSet owns: every pod of the namespace (here all 42), and the PVCs
      const m2 = await quietScrape(ctx);
      expect(await reconcile(event('OwnedObjectChanged'))).toMatchObject({
        result: 'reconciled',
        passes: 1,
        writes: 0,
      });
      const m3 = await scrape(ctx.kc);
      expect(delta(m2.requests, m3.requests)).toEqual({
        ...NOOP_API_REQUESTS,
        'LIST persistentvolumeclaims': 1,
      });
      expect(delta(m2.cacheReturned, m3.cacheReturned)).toEqual({
        pods: 2 + OTHERS * PODS_EACH,
        controllerrevisions: 1,
      });
    },
    STEP_TIMEOUT_MS,
  );
});
