/**
 * What operators read (README.md#observability), from the whole pipeline on the real control plane: the EMF lines
 * the handlers print (Powertools Metrics, captured through the sink's writer instead of stdout) and the log lines
 * (Powertools Logger, captured as the JSON it would print).
 *
 * 1. Creating the 2-replica seed CloneSet: exactly 2 `POST pods` API requests, at least one successful reconcile,
 *    no reconcile error, and as many reconciles counted as the handler logged.
 * 2. One forwarded event: every log line of the reconcile it caused carries its correlation id.
 * 3. Two CloneSets reconciled at once by one process: every line carries its own CloneSet's key and id.
 */
import { randomUUID } from 'node:crypto';
import { METRIC } from '../../../lib/core/metrics.js';
import { CLONESET_KIND } from '../../../lib/controllers/cloneset/api/kinds.js';
import { EVENT_VERSION, type ReconcileRequest } from '../../../lib/requests/index.js';
import type { Embedded } from '../../../lib/local/embedded.js';
import { emfSink } from '../../../lib/runtime/emf.js';
import { useTestNamespace } from '../support/cluster.js';
import { waitFor } from '../support/wait.js';
import {
  CapturingLogger,
  E2E_CLUSTER,
  SEED_NAME,
  applySeed,
  getCloneSet,
  settle,
  startPipeline,
} from '../support/pipeline.js';

const ctx = useTestNamespace('e2e-obs');
const logger = new CapturingLogger();
const emf: string[] = [];
const NAMESPACE = 'Kruiseless-e2e';
let embedded: Embedded;
const STEP_TIMEOUT_MS = 120_000;

/** One EMF document as CloudWatch reads it (only the fields these tests look at). */
interface EmfDoc {
  _aws: {
    CloudWatchMetrics: {
      Namespace: string;
      Dimensions: string[][];
      Metrics: { Name: string; Unit: string }[];
    }[];
  };
  [key: string]: unknown;
}

/** Sum of `name` over the EMF lines printed so far whose dimensions include `match`. */
function emfTotal(name: string, match: Record<string, string> = {}, from = 0): number {
  let sum = 0;
  for (const line of emf.slice(from)) {
    const doc = JSON.parse(line) as EmfDoc;
    const names = doc._aws.CloudWatchMetrics[0]?.Metrics.map((m) => m.Name) ?? [];
    if (!names.includes(name)) continue;
    if (!Object.entries(match).every(([k, v]) => doc[k] === v)) continue;
    const value = doc[name] as number | number[];
    sum += Array.isArray(value) ? value.reduce((a, b) => a + b, 0) : value;
  }
  return sum;
}

function request(name: string, correlationId: string): ReconcileRequest {
  return {
    version: EVENT_VERSION,
    cluster: E2E_CLUSTER,
    kind: CLONESET_KIND,
    namespace: ctx.namespace,
    name,
    reason: 'Resync',
    correlationIds: [correlationId],
  };
}

beforeAll(async () => {
  embedded = await startPipeline(
    ctx.namespace,
    logger,
    undefined,
    emfSink({ namespace: NAMESPACE, serviceName: 'kruiseless', write: (l) => emf.push(l) }),
  );
}, STEP_TIMEOUT_MS);

afterAll(async () => {
  await embedded?.stop();
});

describe('observability of the pipeline', () => {
  test(
    'creating the 2-replica seed: EMF shows 2 POST pods, successful reconciles, no error',
    async () => {
      await applySeed(ctx.custom, ctx.namespace);
      await waitFor('the seed CloneSet Ready 2', 90_000, async () => {
        const s = (await getCloneSet(ctx.custom, ctx.namespace)).status;
        return s?.replicas === 2 && s.readyReplicas === 2;
      });
      await settle(embedded);

      expect(emfTotal(METRIC.restClientRequests, { verb: 'POST', resource: 'pods' })).toBe(2);
      expect(emfTotal(METRIC.restClientRequests, { verb: 'POST', resource: 'pods', code: '201' })).toBe(2);
      expect(emfTotal(METRIC.reconcileTotal, { result: 'success' })).toBeGreaterThanOrEqual(1);
      expect(emfTotal(METRIC.reconcileTotal, { result: 'error' })).toBe(0);
      expect(emfTotal(METRIC.reconcileErrors)).toBe(0);
      const finished = logger.lines.filter((l) => l.message === 'reconcile finished').length;
      expect(emfTotal(METRIC.reconcileTotal)).toBe(finished);
      // one duration value per reconcile invocation
      const durations = emf
        .map((l) => JSON.parse(l) as EmfDoc)
        .flatMap((d) => [d[METRIC.reconcileTime] ?? []].flat());
      expect(durations).toHaveLength(finished);

      // every document: our namespace, service and controller dimensions, no object key as a dimension
      for (const line of emf) {
        const doc = JSON.parse(line) as EmfDoc;
        const directive = doc._aws.CloudWatchMetrics[0];
        expect(directive?.Namespace).toBe(NAMESPACE);
        expect(doc.controller).toBe('cloneset');
        expect(doc.service).toBe('kruiseless');
        expect(directive?.Dimensions.flat()).not.toContain('key');
      }
      // the reconcile lines name their object key as metadata
      const reconcileDocs = emf.map((l) => JSON.parse(l) as EmfDoc).filter((d) => METRIC.reconcileTotal in d);
      expect(new Set(reconcileDocs.map((d) => d.key))).toEqual(
        new Set([`${E2E_CLUSTER}/${CLONESET_KIND}/${ctx.namespace}/${SEED_NAME}`]),
      );
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'one forwarded event: every log line of the reconcile it caused carries its correlation id',
    async () => {
      const id = `corr-${randomUUID()}`;
      const from = logger.lines.length;
      const emfFrom = emf.length;
      await embedded.runtime.publisher.publish([request(SEED_NAME, id)]);
      await settle(embedded);
      const caused = logger.lines.slice(from).filter((l) => l.correlation_id === id);
      expect(caused.map((l) => l.message)).toEqual(['reconciled', 'reconcile finished']);
      for (const line of caused)
        expect(line.key).toBe(`${E2E_CLUSTER}/${CLONESET_KIND}/${ctx.namespace}/${SEED_NAME}`);
      // every reconcile line since then is this one's (nothing else was going on)
      expect(logger.lines.slice(from).filter((l) => 'key' in l)).toEqual(caused);
      // and the metrics of that invocation name the id
      const docs = emf.slice(emfFrom).map((l) => JSON.parse(l) as EmfDoc);
      expect(docs.filter((d) => METRIC.reconcileTotal in d).map((d) => d.correlationIds)).toEqual([
        JSON.stringify([id]),
      ]);
      expect(emfTotal(METRIC.reconcileTotal, { result: 'success' }, emfFrom)).toBe(1);
      expect(emfTotal(METRIC.restClientRequests, { verb: 'GET', resource: 'clonesets' }, emfFrom)).toBe(1);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'two CloneSets reconciled at once: every line carries its own key and correlation id',
    async () => {
      const other = 'cs-obs-other';
      await applySeed(ctx.custom, ctx.namespace, (cs) => {
        cs.metadata.name = other;
        cs.spec.selector = { matchLabels: { app: other } };
        cs.spec.template.metadata = { labels: { app: other } };
      });
      await waitFor('the other CloneSet Ready 2', 90_000, async () => {
        const s = (await getCloneSet(ctx.custom, ctx.namespace, other)).status;
        return s?.replicas === 2 && s.readyReplicas === 2;
      });
      await settle(embedded);
      const ids: Record<string, string> = { [SEED_NAME]: `a-${randomUUID()}`, [other]: `b-${randomUUID()}` };
      const keyOf = (name: string) => `${E2E_CLUSTER}/${CLONESET_KIND}/${ctx.namespace}/${name}`;
      const from = logger.lines.length;
      // one PutEvents call with both: the bus delivers them concurrently to the same handler and logger
      for (let round = 0; round < 3; round++) {
        await embedded.runtime.publisher.publish(Object.entries(ids).map(([name, id]) => request(name, id)));
        await settle(embedded, 500);
      }
      const lines = logger.lines.slice(from).filter((l) => 'key' in l);
      expect(lines.filter((l) => l.message === 'reconcile finished')).toHaveLength(6);
      for (const line of lines) {
        const name = Object.keys(ids).find((n) => ids[n] === line.correlation_id);
        expect(name).toBeDefined();
        expect(line.key).toBe(keyOf(name as string));
      }
    },
    STEP_TIMEOUT_MS * 2,
  );
});
