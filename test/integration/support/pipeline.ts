/**
 * The whole Kruiseless pipeline for e2e tests: the embedded default (watch pump → LocalBus routed by the
 * serverless.yml rules → the reconcile handler → dynalite → the real API server), plus helpers to read what it did.
 *
 * Isolation: the watch pump watches the whole cluster, and every e2e file (and a `npm run demo` run) starts its own
 * pipeline with its own dynalite, so leases would not protect one file's CloneSets from another file's reconciler.
 * {@link startPipeline} therefore routes by the repository's serverless.yml rules *narrowed to the test file's
 * namespace* (an extra `detail.namespace` pattern field, the same mechanism EventBridge offers). Source,
 * detail-type, rule names and retry policies stay exactly as declared.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@aws-lambda-powertools/logger';
import type { CoreV1Api, CoreV1Event, CustomObjectsApi } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { CLONESET_KIND } from '../../../lib/controllers/cloneset/api/kinds.js';
import type { CloneSet, Pod } from '../../../lib/api/types.js';
import type { PlannerOptions } from '../../../lib/controllers/cloneset/plan/types.js';
import {
  DETAIL_TYPE,
  EVENT_VERSION,
  SOURCE,
  type ReconcileReason,
  type ReconcileRequest,
} from '../../../lib/requests/index.js';
import {
  LocalRequeueScheduler,
  loadRulesFromServerless,
  type EventBridgeEnvelope,
} from '../../../lib/emulator/index.js';
import { total } from '../../../lib/runtime/counting.js';
import type { MetricsSink } from '../../../lib/runtime/metrics.js';
import { startEmbedded, type Embedded } from '../../../lib/local/embedded.js';
import type { ObjectKey } from '../../../lib/state/index.js';
import { waitFor } from './wait.js';

export { CapturingLogger } from '../../unit/support/capturingLogger.js';

/** A random UUID (crypto.randomUUID): the correlation id the watch pump, resync and admission give each request. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Cluster name the e2e pipelines serve (keys `obj#e2e#apps.kruise.io/CloneSet#<ns>#<name>`). */
export const E2E_CLUSTER = 'e2e';
/** Name of the seed CloneSet (examples/cs-no-pvc-sample.yaml). */
export const SEED_NAME = 'cs-no-pvc-sample';

const REPO_SERVERLESS_YML = new URL('../../../serverless.yml', import.meta.url);
const SEED_YAML = new URL('../../../examples/cs-no-pvc-sample.yaml', import.meta.url);

/** The kubeconfig globalSetup chose. @throws Error outside the integration project */
export function testKubeconfig(): string {
  const file = process.env.KRUISELESS_TEST_KUBECONFIG;
  if (!file) throw new Error('KRUISELESS_TEST_KUBECONFIG is not set: run the integration project');
  return file;
}

/**
 * The repository's serverless.yml eventBridge rules, each pattern narrowed to `detail.namespace = [namespace]`,
 * as a serverless.yml text `startEmbedded` accepts (JSON is YAML).
 */
export function namespaceScopedServerlessYml(namespace: string): string {
  const rules = loadRulesFromServerless(readFileSync(REPO_SERVERLESS_YML, 'utf8'));
  if (rules.length === 0) throw new Error('serverless.yml declares no eventBridge rule');
  const functions: Record<string, { events: unknown[] }> = {};
  // the reconcile requests' rules only: the watch-slice rule's events come from a Lambda fleet's watch, not here
  for (const rule of rules.filter((r) => r.functionName === 'reconcile')) {
    const detail = (rule.pattern.detail ?? {}) as Record<string, unknown>;
    (functions[rule.functionName] ??= { events: [] }).events.push({
      eventBridge: {
        name: rule.name,
        pattern: { ...rule.pattern, detail: { ...detail, namespace: [namespace] } },
        ...(rule.retryPolicy ? { retryPolicy: rule.retryPolicy } : {}),
      },
    });
  }
  return JSON.stringify({ service: 'kruiseless-e2e', functions });
}

/**
 * Environment variable naming a file to which every {@link RecordingLogger} appends each log call (every level, one
 * JSON line with the time, level, message and fields): the pipeline's own account of a failed integration test.
 */
export const TEST_LOG_ENV = 'KRUISELESS_TEST_LOG';

/**
 * A Powertools logger that prints nothing and records every warn/error call (the "clear log line"); with
 * {@link TEST_LOG_ENV} set it also appends every call to that file.
 */
export class RecordingLogger extends Logger {
  readonly records: { level: 'warn' | 'error'; message: string; extra: unknown[] }[] = [];
  private readonly traceFile = process.env[TEST_LOG_ENV];

  constructor() {
    super({ serviceName: 'kruiseless-e2e', logLevel: 'SILENT' });
  }

  override debug(input: unknown, ...extra: unknown[]): void {
    this.appendTrace('debug', input, extra);
  }

  override info(input: unknown, ...extra: unknown[]): void {
    this.appendTrace('info', input, extra);
  }

  override warn(input: unknown, ...extra: unknown[]): void {
    this.appendTrace('warn', input, extra);
    this.records.push({ level: 'warn', message: messageOf(input), extra });
  }

  override error(input: unknown, ...extra: unknown[]): void {
    this.appendTrace('error', input, extra);
    this.records.push({ level: 'error', message: messageOf(input), extra });
  }

  private appendTrace(level: string, input: unknown, extra: unknown[]): void {
    if (!this.traceFile) return;
    const line = { at: new Date().toISOString(), level, message: messageOf(input), extra };
    appendFileSync(
      this.traceFile,
      `${JSON.stringify(line, (_k, v: unknown) => (v instanceof Error ? v.message : v))}\n`,
    );
  }
}

function messageOf(input: unknown): string {
  if (typeof input === 'string') return input;
  if (input && typeof input === 'object' && 'message' in input) return String(input.message);
  return JSON.stringify(input);
}

/**
 * Start the embedded default for one test namespace (see the file comment), with feature gates as `plannerOptions`.
 * `metrics` receives the handlers' metrics (default: none). Stop it in afterAll.
 */
export function startPipeline(
  namespace: string,
  logger: Logger = new RecordingLogger(),
  plannerOptions?: Partial<PlannerOptions>,
  metrics?: MetricsSink,
): Promise<Embedded> {
  return startEmbedded({
    kubeconfig: testKubeconfig(),
    clusterName: E2E_CLUSTER,
    logger,
    serverlessYml: namespaceScopedServerlessYml(namespace),
    ...(plannerOptions ? { plannerOptions } : {}),
    ...(metrics ? { metrics } : {}),
  });
}

/** The DynamoDB key of a CloneSet served by an e2e pipeline. */
export function cloneSetKey(namespace: string, name = SEED_NAME): ObjectKey {
  return { cluster: E2E_CLUSTER, kind: CLONESET_KIND, namespace, name };
}

/** A reconcile request for the pipeline's cluster. */
export function reconcileRequest(
  namespace: string,
  name = SEED_NAME,
  reason: ReconcileReason = 'Resync',
): ReconcileRequest {
  return { version: EVENT_VERSION, cluster: E2E_CLUSTER, kind: CLONESET_KIND, namespace, name, reason };
}

/** The EventBridge event a rule target (the reconcile Lambda) receives for `detail`. */
export function envelope(detail: Record<string, unknown>): EventBridgeEnvelope {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': DETAIL_TYPE,
    source: SOURCE,
    account: '000000000000',
    time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: 'us-east-1',
    resources: [],
    detail: detail as EventBridgeEnvelope['detail'],
  };
}

/**
 * Wait until the reconciler is quiet: bus drained, no local requeue timer due before `timeoutMs` ends, and no
 * KubeClient call for `quietMs` (every reconcile pass reads the CloneSet through the KubeClient; the watch pump does
 * not use it, and its DynamoDB checkpoint writes continue while idle, so DynamoDB operations cannot tell quiet from
 * busy). A timer due later is not waited for: a resync deferred by a lease leaves one for 1 s after that lease's
 * end, up to 181 s away, whose pass finds nothing to do when the holder was alive (docs/reliability.md#lease-hand-off).
 * @throws Error when it is still busy after `timeoutMs`
 */
export async function settle(embedded: Embedded, quietMs = 1500, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const requeue = embedded.runtime.requeue;
  for (;;) {
    await embedded.drain();
    const before = total(embedded.counts.kube);
    await sleep(quietMs);
    await embedded.drain();
    const pending =
      requeue instanceof LocalRequeueScheduler
        ? requeue.pendingWithin(Math.max(0, deadline - Date.now()))
        : 0;
    if (pending === 0 && total(embedded.counts.kube) === before) return;
    if (Date.now() > deadline)
      throw new Error(`pipeline still busy after ${timeoutMs}ms (${pending} requeue timer(s) pending)`);
  }
}

/** Kube write counters (every KubeClient call but get and list), by call name (`create pods`, …), from a counts difference. */
export function kubeWrites(kube: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(kube).filter(([m]) => !/^(get|list|watch)/.test(m)));
}

/** The seed CloneSet (examples/cs-no-pvc-sample.yaml), optionally changed, created in `namespace`. */
export async function applySeed(
  custom: CustomObjectsApi,
  namespace: string,
  change: (cs: CloneSet) => void = () => undefined,
): Promise<CloneSet> {
  const seed = parse(readFileSync(SEED_YAML, 'utf8')) as CloneSet;
  change(seed);
  return (await custom.createNamespacedCustomObject({
    group: 'apps.kruise.io',
    version: 'v1alpha1',
    namespace,
    plural: 'clonesets',
    body: seed,
  })) as CloneSet;
}

/**
 * Apply the seed CloneSet, wait until its 2 pods are Ready and updated, then until the pipeline is quiet: the
 * settled starting point of the idempotency and no-op-cost tests.
 * @throws Error when the seed is not Ready within 90 s
 */
export async function applySeedAndSettle(
  custom: CustomObjectsApi,
  namespace: string,
  embedded: Embedded,
): Promise<void> {
  await applySeed(custom, namespace);
  await waitFor('the seed CloneSet Ready 2', 90_000, async () => {
    const s = (await getCloneSet(custom, namespace)).status;
    return s?.replicas === 2 && s.readyReplicas === 2 && s.updatedReadyReplicas === 2;
  });
  await settle(embedded);
}

/** Read a CloneSet. */
export async function getCloneSet(
  custom: CustomObjectsApi,
  namespace: string,
  name = SEED_NAME,
): Promise<CloneSet> {
  return (await custom.getNamespacedCustomObject({
    group: 'apps.kruise.io',
    version: 'v1alpha1',
    namespace,
    plural: 'clonesets',
    name,
  })) as CloneSet;
}

/** JSON-patch a CloneSet's spec. */
export async function patchCloneSet(
  custom: CustomObjectsApi,
  namespace: string,
  ops: { op: 'replace' | 'add'; path: string; value: unknown }[],
  name = SEED_NAME,
): Promise<CloneSet> {
  return (await custom.patchNamespacedCustomObject({
    group: 'apps.kruise.io',
    version: 'v1alpha1',
    namespace,
    plural: 'clonesets',
    name,
    body: ops,
  })) as CloneSet;
}

/** Every pod of the namespace (terminating ones included), by name. */
export async function listPods(core: CoreV1Api, namespace: string): Promise<Pod[]> {
  const pods = (await core.listNamespacedPod({ namespace })).items as unknown as Pod[];
  return pods.sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
}

/** Pods without a deletionTimestamp. */
export async function activePods(core: CoreV1Api, namespace: string): Promise<Pod[]> {
  return (await listPods(core, namespace)).filter((p) => !p.metadata.deletionTimestamp);
}

/** Kubernetes Events whose involved object has `uid`. */
export async function eventsOf(core: CoreV1Api, namespace: string, uid: string): Promise<CoreV1Event[]> {
  return (await core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.uid=${uid}` })).items;
}

/** `reason → count` over events (the `count` field of each, as `kubectl get events` shows it). */
export function countReasons(events: CoreV1Event[], type?: 'Normal' | 'Warning'): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of events) {
    if (type && e.type !== type) continue;
    out[e.reason ?? ''] = (out[e.reason ?? ''] ?? 0) + (e.count ?? 1);
  }
  return out;
}

/** The condition of `type` on a pod, if any. */
export function podCondition(pod: Pod, type: string): { type: string; status: string } | undefined {
  return (pod.status?.conditions ?? []).find((c) => c.type === type);
}
