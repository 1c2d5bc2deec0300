/**
 * A cluster without a controller's CRD leaves that controller idle there, not failing (issue 16; OpenKruise's
 * `SetupWithManager` skips a kind whose CRD is missing): on the real API server, a throwaway `Widget` controller
 * whose CRD is not installed is registered beside CloneSet. The resync's list and the pump's watch of widgets answer
 * 404: each is logged once per cluster and container, skipped, and CloneSet's resync and streams go on.
 */
import { cloneSet } from '../../../lib/controllers/cloneset/index.js';
import type { Controller } from '../../../lib/controllers/controller.js';
import { systemClock } from '../../../lib/core/clock.js';
import { createKubeClient } from '../../../lib/kube/index.js';
import type { Resource } from '../../../lib/kube/resource.js';
import type { EventPublisher, ReconcileRequest } from '../../../lib/requests/index.js';
import { resetIdleLog } from '../../../lib/source/idle.js';
import { pumpCluster } from '../../../lib/source/pump.js';
import { resyncCluster } from '../../../lib/source/resync.js';
import { watchStreams } from '../../../lib/source/watchSpec.js';
import { createStateStores, ensureTable } from '../../../lib/state/index.js';
import { useTestNamespace } from '../support/cluster.js';
import { uniqueTableName, useDynalite } from '../support/dynamo.js';
import { E2E_CLUSTER, RecordingLogger, applySeed } from '../support/pipeline.js';

const ctx = useTestNamespace('idle');
const dynamo = useDynalite();

/** A kind no CRD in infra/crds serves. */
const WIDGETS: Resource = {
  group: 'example.kruiseless.io',
  version: 'v1',
  plural: 'widgets',
  namespaced: true,
  kind: 'Widget',
};

const widget: Controller = {
  ...cloneSet,
  name: 'widget',
  kind: 'example.kruiseless.io/Widget',
  resource: WIDGETS,
  watches: [{ type: 'For' }],
  crd: 'example.kruiseless.io_widgets.yaml',
  reconcile: () => Promise.reject(new Error('a widget is never reconciled here')),
};

const published: ReconcileRequest[] = [];
const publisher: EventPublisher = {
  async publish(requests) {
    published.push(...structuredClone(requests));
    return { published: requests.length, calls: 1, retried: 0 };
  },
};

const idleLines = (logger: RecordingLogger) =>
  logger.records.filter((r) => r.message.startsWith('resource not served in this cluster'));

test('the resync skips the kind whose CRD is missing, logs it once, and resyncs CloneSets', async () => {
  resetIdleLog();
  await applySeed(ctx.custom, ctx.namespace);
  const kube = createKubeClient(ctx.kc);
  const logger = new RecordingLogger();
  const first = await resyncCluster(E2E_CLUSTER, kube, publisher, [widget, cloneSet], logger);
  expect(first.idle).toEqual(['example.kruiseless.io/Widget']);
  expect(first.objects[cloneSet.kind]).toBeGreaterThanOrEqual(1);
  expect(first.objects[widget.kind]).toBeUndefined();
  expect(published.some((r) => r.namespace === ctx.namespace && r.kind === cloneSet.kind)).toBe(true);
  const second = await resyncCluster(E2E_CLUSTER, kube, publisher, [widget, cloneSet], logger);
  expect(second.idle).toEqual(['example.kruiseless.io/Widget']);
  expect(idleLines(logger)).toHaveLength(1);
});

test('the pump leaves the widgets stream idle (no error) while the CloneSet streams run', async () => {
  resetIdleLog();
  const client = dynamo.client();
  const tableName = uniqueTableName('idle');
  await ensureTable(client, tableName);
  const stores = createStateStores({ client, tableName });
  const logger = new RecordingLogger();
  const started = Date.now();
  const results = await pumpCluster(
    {
      cluster: E2E_CLUSTER,
      kc: ctx.kc,
      kube: createKubeClient(ctx.kc),
      watches: stores.watches,
      publisher,
      holder: 'idle-test',
      clock: systemClock,
      deadlineMs: started + 4000,
      leaseDurationMs: 30_000,
      watchTimeoutSeconds: 2,
      flushIntervalMs: 500,
      checkpointIntervalMs: 1000,
      log: logger,
    },
    watchStreams([widget, cloneSet]),
  );
  const byName = Object.fromEntries(results.map((r) => [r.resource, r]));
  expect(byName.widgets).toMatchObject({ acquired: true, idle: true });
  expect(byName.widgets.error).toBeUndefined();
  for (const name of ['clonesets', 'pods', 'persistentvolumeclaims']) {
    expect(byName[name]).toMatchObject({ acquired: true });
    expect(byName[name].error).toBeUndefined();
    expect(byName[name].idle).toBeUndefined();
    expect(byName[name].watches).toBeGreaterThanOrEqual(1);
  }
  expect(idleLines(logger)).toHaveLength(1);
  expect(logger.records.filter((r) => r.level === 'error')).toEqual([]);
}, 30_000);
