/**
 * The cost of one no-op reconcile (a settled CloneSet, nothing to do): API calls by KubeClient
 * method and DynamoDB operations by command, measured on the real API server and dynalite and asserted exactly.
 *
 * API calls are read from the embedded pipeline's own counters (`embedded.counts.kube`, as `npm run demo` does):
 * only the reconciler uses the KubeClient. DynamoDB operations cannot be read from `embedded.counts.dynamo`
 * without noise: the running watch pump re-saves its three checkpoints about once a second even when nothing
 * changes, and those UpdateItems land in the same counter. So the same
 * reconcile handler is invoked on the same cluster objects with state stores on a second dynalite whose client
 * is counted by the same middleware (`countDynamo`) — nothing else runs against that one.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { reconcileHandler } from '../../../lib/runtime/handlers/reconcile.js';
import { countDynamo, difference, snapshot, type CallCounts } from '../../../lib/runtime/counting.js';
import type { Embedded } from '../../../lib/local/embedded.js';
import type { Runtime } from '../../../lib/runtime/types.js';
import { createStateStores, ensureTable } from '../../../lib/state/index.js';
import { useTestNamespace } from '../support/cluster.js';
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

/** The four reads of one reconcile pass (docs/architecture.md#one-invocation), one call each. */
const NOOP_API_CALLS = { getCloneSet: 1, listPods: 1, listPVCs: 1, listControllerRevisions: 1 };

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace);
  await applySeedAndSettle(ctx.custom, ctx.namespace, embedded);
}, STEP_TIMEOUT_MS);

afterAll(async () => {
  await embedded?.stop();
});

describe('one no-op reconcile of the settled seed CloneSet', () => {
  test(
    'through the bus it makes exactly 4 API calls, all reads: get CloneSet, list pods, PVCs, revisions',
    async () => {
      const csVersion = (await getCloneSet(ctx.custom, ctx.namespace)).metadata.resourceVersion;
      const c0 = snapshot(embedded.counts);
      await embedded.bus.publish([reconcileRequest(ctx.namespace)]);
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
      const event = () => envelope({ ...reconcileRequest(ctx.namespace, SEED_NAME) });

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
        key: `e2e/${ctx.namespace}/${SEED_NAME}`,
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
