/**
 * Bad input: a malformed or unknown event is rejected with a clear log line and reaches the
 * dead-letter path; an invalid CloneSet gets a status condition and an Event and no pod is touched; the admission
 * source answers bad calls with clear 4xx statuses (docs/architecture.md#reconcile-request, #admission). Real API server and dynalite; the
 * admission test replaces only the runtime's publisher (to see what it would put on the bus) and its secret.
 */
import { AppsV1Api } from '@kubernetes/client-node';
import { admissionHandler } from '../../../lib/runtime/handlers/admission.js';
import { reconcileHandler } from '../../../lib/runtime/handlers/reconcile.js';
import type { CloneSet } from '../../../lib/api/types.js';
import {
  InvalidEventError,
  type EventPublisher,
  type ReconcileRequest,
} from '../../../lib/requests/index.js';
import { MAX_ADMISSION_BODY_BYTES } from '../../../lib/source/admission.js';
import { clusterPathSecret } from '../../../lib/source/admissionSecret.js';
import { difference, snapshot } from '../../../lib/runtime/counting.js';
import type { Embedded } from '../../../lib/local/embedded.js';
import type { Runtime } from '../../../lib/runtime/types.js';
import { useTestNamespace } from '../support/cluster.js';
import {
  E2E_CLUSTER,
  RecordingLogger,
  activePods,
  applySeed,
  countReasons,
  envelope,
  eventsOf,
  getCloneSet,
  kubeWrites,
  listPods,
  patchCloneSet,
  reconcileRequest,
  settle,
  startPipeline,
  UUID_PATTERN,
} from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('e2e-bad');
const logger = new RecordingLogger();
let embedded: Embedded;
const STEP_TIMEOUT_MS = 120_000;
const INVALID = 'cs-invalid';

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace, logger);
}, STEP_TIMEOUT_MS);

afterAll(async () => {
  await embedded?.stop();
});

describe('malformed and unknown events', () => {
  test('a reconcile event without a name is rejected on every attempt and dead-lettered, naming detail.name', async () => {
    const before = embedded.deadLetters().length;
    const detail = {
      version: 2,
      cluster: E2E_CLUSTER,
      kind: 'apps.kruise.io/CloneSet',
      namespace: ctx.namespace,
      reason: 'Resync',
    };
    const put = await embedded.bus.put([
      {
        Source: 'kruiseless',
        DetailType: 'Reconcile Requested',
        Detail: JSON.stringify(detail),
      },
    ]);
    expect(put.FailedEntryCount).toBe(0);
    const eventId = put.Entries?.[0]?.EventId;
    await embedded.drain();

    const letters = embedded.deadLetters().slice(before);
    expect(letters).toHaveLength(1);
    const [letter] = letters;
    expect(letter.event.id).toBe(eventId);
    expect(letter.event.detail).toEqual(detail);
    expect(letter.ruleName).toBe('kruiseless-${sls:stage}-reconcile');
    expect(letter.error).toBeInstanceOf(InvalidEventError);
    expect((letter.error as Error).message).toBe('invalid reconcile event: detail.name: is required');

    // the clear log line: one rejection per delivery attempt, then the move to the dead-letter queue
    const rejected = logger.records.filter(
      (r) =>
        r.message === 'rejected reconcile event' &&
        (r.extra[0] as { event?: { id?: string } }).event?.id === eventId,
    );
    expect(rejected.length).toBeGreaterThan(1); // retried before dead-lettering
    for (const r of rejected) {
      expect(r.level).toBe('error');
      expect(r.extra[0]).toMatchObject({ error: 'invalid reconcile event: detail.name: is required' });
    }
    const moved = logger.records.filter(
      (r) =>
        r.message === 'event moved to the dead-letter queue' &&
        (r.extra[0] as { event?: { id?: string } }).event?.id === eventId,
    );
    expect(moved).toHaveLength(1);
  });

  test('events of another source or detail-type match no rule: neither delivered nor dead-lettered', async () => {
    // EventBridge drops an event no rule matches; the reconcile Lambda never sees it, so nothing can dead-letter
    const letters = embedded.deadLetters().length;
    const logged = logger.records.length;
    const c0 = snapshot(embedded.counts);
    const detail = JSON.stringify(reconcileRequest(ctx.namespace));
    const put = await embedded.bus.put([
      { Source: 'someone-else', DetailType: 'Reconcile Requested', Detail: detail },
      { Source: 'kruiseless', DetailType: 'CloneSet Deleted', Detail: detail },
    ]);
    expect(put.FailedEntryCount).toBe(0);
    await embedded.drain();
    expect(embedded.deadLetters()).toHaveLength(letters);
    expect(logger.records.slice(logged).filter((r) => r.message === 'rejected reconcile event')).toEqual([]);
    expect(difference(c0, embedded.counts).kube).toEqual({});
  });

  test('the reconcile handler called directly throws InvalidEventError naming each offending field', async () => {
    const reconcile = reconcileHandler(() => embedded.runtime, new RecordingLogger());
    const request = { ...reconcileRequest(ctx.namespace) } as Record<string, unknown>;

    const { name: _name, ...noName } = request;
    await expect(reconcile(envelope(noName))).rejects.toThrow(
      new InvalidEventError([{ path: 'detail.name', message: 'is required' }]),
    );
    await expect(reconcile(envelope(noName))).rejects.toThrow(
      'invalid reconcile event: detail.name: is required',
    );
    await expect(reconcile({ ...envelope(request), source: 'someone-else' })).rejects.toThrow(
      'invalid reconcile event: source: must be "kruiseless"',
    );
    await expect(reconcile({ ...envelope(request), 'detail-type': 'CloneSet Deleted' })).rejects.toThrow(
      'invalid reconcile event: detail-type: must be "Reconcile Requested"',
    );
    await expect(
      reconcile(envelope({ ...request, namespace: 'Not_A_Namespace', version: 1 })),
    ).rejects.toThrow(
      'invalid reconcile event: detail.version: must be 2; detail.namespace: must be a DNS-1123 label (lower-case alphanumerics and -)',
    );
    await expect(
      reconcile(envelope({ ...request, kind: 'apps.kruise.io/UnitedDeployment' })),
    ).rejects.toThrow('invalid reconcile event: detail.kind: is not a kind this deployment reconciles');
    const { namespace: _namespace, ...noNamespace } = request;
    await expect(reconcile(envelope(noNamespace))).rejects.toThrow(
      'invalid reconcile event: detail.namespace: is required (apps.kruise.io/CloneSet is namespaced)',
    );
    await expect(reconcile('not an event')).rejects.toBeInstanceOf(InvalidEventError);
  });
});

describe('an invalid CloneSet the CRD accepts (a matchExpressions selector the template labels do not match)', () => {
  let created: CloneSet;
  const message =
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"not-the-selector"}: `selector` does not match template `labels`';

  test(
    'gets a FailedValidation condition and a Warning Event, and no pod or revision is created',
    async () => {
      const c0 = snapshot(embedded.counts);
      created = await applySeed(ctx.custom, ctx.namespace, (cs) => {
        cs.metadata.name = INVALID;
        // CEL checks matchLabels against the template; a matchExpressions selector is left to the reconciler
        cs.spec.selector = {
          matchExpressions: [{ key: 'app', operator: 'In', values: ['cs-no-pvc-sample'] }],
        };
        cs.spec.template.metadata = { labels: { app: 'not-the-selector' } };
      });
      const cs = await waitFor('the FailedValidation condition', 30_000, async () => {
        const c = await getCloneSet(ctx.custom, ctx.namespace, INVALID);
        return c.status?.conditions?.some((x) => x.type === 'FailedValidation') ? c : undefined;
      });
      await settle(embedded);

      const conditions = cs.status?.conditions ?? [];
      expect(conditions).toHaveLength(1);
      expect(conditions[0]).toMatchObject({
        type: 'FailedValidation',
        status: 'True',
        reason: 'InvalidSpec',
        message,
      });
      const warnings = await waitFor('the FailedValidation Event', 10_000, async () => {
        const evs = await eventsOf(ctx.core, ctx.namespace, created.metadata.uid ?? '');
        return evs.length > 0 ? evs : undefined;
      });
      expect(warnings.map((e) => [e.type, e.reason, e.message])).toEqual([
        ['Warning', 'FailedValidation', message],
      ]);

      expect(await listPods(ctx.core, ctx.namespace)).toEqual([]);
      const apps = ctx.kc.makeApiClient(AppsV1Api);
      expect((await apps.listNamespacedControllerRevision({ namespace: ctx.namespace })).items).toEqual([]);
      expect(kubeWrites(difference(c0, embedded.counts).kube)).toEqual({
        'replace clonesets/status': 1,
        'recordEvent clonesets': 1,
      });
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'reconciling it again writes nothing more: same condition, no second Event',
    async () => {
      const before = await getCloneSet(ctx.custom, ctx.namespace, INVALID);
      const c0 = snapshot(embedded.counts);
      await embedded.bus.publish([reconcileRequest(ctx.namespace, INVALID)]);
      await settle(embedded);
      expect(difference(c0, embedded.counts).kube['get clonesets']).toBeGreaterThanOrEqual(1);
      expect(kubeWrites(difference(c0, embedded.counts).kube)).toEqual({});
      expect((await getCloneSet(ctx.custom, ctx.namespace, INVALID)).metadata.resourceVersion).toBe(
        before.metadata.resourceVersion,
      );
      const evs = await eventsOf(ctx.core, ctx.namespace, created.metadata.uid ?? '');
      expect(countReasons(evs)).toEqual({ FailedValidation: 1 });
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'once fixed, the condition is removed and the pods are created',
    async () => {
      await patchCloneSet(
        ctx.custom,
        ctx.namespace,
        [{ op: 'replace', path: '/spec/template/metadata/labels', value: { app: 'cs-no-pvc-sample' } }],
        INVALID,
      );
      const cs = await waitFor('READY 2 without FailedValidation', 60_000, async () => {
        const c = await getCloneSet(ctx.custom, ctx.namespace, INVALID);
        return c.status?.readyReplicas === 2 ? c : undefined;
      });
      expect((cs.status?.conditions ?? []).map((c) => c.type)).not.toContain('FailedValidation');
      expect(await activePods(ctx.core, ctx.namespace)).toHaveLength(2);
    },
    STEP_TIMEOUT_MS,
  );
});

describe('the admission source', () => {
  const SECRET = 'e2e-0123456789abcdef0123456789abcdef';
  const published: ReconcileRequest[] = [];
  const recorder: EventPublisher = {
    publish: async (requests) => {
      published.push(...requests);
      return { published: requests.length, calls: 1, retried: 0 };
    },
  };
  const admit = admissionHandler(
    (): Runtime => ({ ...embedded.runtime, publisher: recorder, admissionSecret: async () => SECRET }),
    new RecordingLogger(),
    undefined,
    // every call forwards: coalescing is test/unit/runtime/admissionHandler.test.ts's
    { coalesceWindowMs: 0 },
  );
  const path = `/${clusterPathSecret(SECRET, E2E_CLUSTER)}/${E2E_CLUSTER}`;
  const UID = 'a1b2c3d4-0000-4000-8000-000000000001';
  const review = (object: unknown, kind = 'Pod') => ({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: UID,
      kind: { group: '', version: 'v1', kind },
      namespace: ctx.namespace,
      operation: 'UPDATE',
      object,
    },
  });
  /** One Function URL call; returns the status code and the parsed JSON body. */
  const call = async (rawPath: string, text: string, isBase64Encoded = false) => {
    const r = await admit({
      rawPath,
      body: isBase64Encoded ? Buffer.from(text).toString('base64') : text,
      isBase64Encoded,
    });
    if (typeof r === 'string') throw new Error(`expected a structured Function URL result, got ${r}`);
    return { status: r.statusCode, body: JSON.parse(r.body ?? '{}') as Record<string, unknown> };
  };

  beforeEach(() => {
    published.length = 0;
  });

  test('a wrong or missing secret path segment gets 404 and publishes nothing', async () => {
    for (const rawPath of [
      `/wrong-secret/${E2E_CLUSTER}`,
      `/${SECRET}/${E2E_CLUSTER}`, // the master secret itself authenticates no cluster
      `/${clusterPathSecret(SECRET, 'other')}/${E2E_CLUSTER}`, // another cluster's secret
      `/${SECRET}`,
      '/',
      `${path}/extra`,
    ]) {
      const r = await call(rawPath, JSON.stringify(review({})));
      expect([rawPath, r]).toEqual([rawPath, { status: 404, body: { message: 'not found' } }]);
    }
    expect(published).toEqual([]);
  });

  test('a body over the size limit gets 413', async () => {
    expect(await call(path, 'x'.repeat(MAX_ADMISSION_BODY_BYTES + 1))).toEqual({
      status: 413,
      body: { message: `AdmissionReview body larger than ${MAX_ADMISSION_BODY_BYTES} bytes` },
    });
    expect(published).toEqual([]);
  });

  test('JSON that is not an AdmissionReview gets 400 with the reason', async () => {
    expect(await call(path, '{"apiVersion":')).toEqual({
      status: 400,
      body: { message: 'body is not JSON' },
    });

    const r = await call(path, JSON.stringify({ hello: 'world' }));
    expect(r.status).toBe(400);
    const message = String(r.body.message);
    expect(message).toMatch(/^not an AdmissionReview v1: /);
    for (const field of ['apiVersion', 'kind', 'request']) expect(message).toContain(`${field}: `);

    const noUid = review({});
    noUid.request.uid = '';
    const r2 = await call(path, JSON.stringify(noUid));
    expect(r2.status).toBe(400);
    expect(String(r2.body.message)).toMatch(/^not an AdmissionReview v1: request\.uid: /);
    expect(published).toEqual([]);
  });

  test('a review of a pod owned by a CloneSet is allowed and forwards a reconcile request for that CloneSet', async () => {
    const [pod] = await activePods(ctx.core, ctx.namespace);
    expect(pod.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'CloneSet', name: INVALID });
    for (const isBase64Encoded of [false, true]) {
      published.length = 0;
      expect(await call(path, JSON.stringify(review(pod)), isBase64Encoded)).toEqual({
        status: 200,
        body: {
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid: UID, allowed: true },
        },
      });
      expect(published).toEqual([
        {
          version: 2,
          cluster: E2E_CLUSTER,
          kind: 'apps.kruise.io/CloneSet',
          namespace: ctx.namespace,
          name: INVALID,
          reason: 'OwnedObjectChanged',
          resourceVersion: pod.metadata.resourceVersion,
          correlationIds: [expect.stringMatching(UUID_PATTERN)], // the admission source's id for this change
        },
      ]);
    }
  });

  test('a review of an object no CloneSet owns is allowed and forwards nothing', async () => {
    const bare = { metadata: { name: 'bare', namespace: ctx.namespace, resourceVersion: '1' } };
    const r = await call(path, JSON.stringify(review(bare)));
    expect([r.status, r.body.response]).toEqual([200, { uid: UID, allowed: true }]);
    expect(published).toEqual([]);
  });
});
