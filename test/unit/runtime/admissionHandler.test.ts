/**
 * The admission handler (lib/runtime/handlers/admission.ts) against a recording publisher and a driven clock:
 * - review finding 7: the path segment is the cluster's own secret, HMAC(master, cluster), so the secret a cluster's
 *   webhook configuration (or its API-server log) holds authenticates that cluster only;
 * - review finding 18: calls for one object within the coalescing window publish one request, the change held back
 *   goes out with the first call after the window, memory is bounded, and a hanging publish never holds the answer
 *   beyond the publish budget.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import jsonpatch from 'fast-json-patch';
import type { MutationReviewResponse } from '../../../lib/api/admission/mutation.js';
import type { Pod } from '../../../lib/api/types.js';
import { mutateSidecarSet } from '../../../lib/controllers/sidecarset/api/mutation.js';
import { pod as wsPod, workloadSpread } from '../controllers/workloadspread/fixtures.js';
import type { EventPublisher, ReconcileRequest } from '../../../lib/requests/index.js';
import { admissionHandler } from '../../../lib/runtime/handlers/admission.js';
import type { Runtime } from '../../../lib/runtime/types.js';
import { CapturingLogger } from '../support/capturingLogger.js';
import { KubeApiError } from '../../../lib/kube/errors.js';
import { reviewBody } from '../support/admissionReview.js';

const MASTER = 'master-0123456789abcdef0123456789abcdef';
/** The derivation docs/architecture.md#admission states, written out independently of the code under test. */
const pathSecretOf = (cluster: string): string =>
  createHmac('sha256', MASTER).update(`kruiseless-admission/v1/${cluster}`).digest('hex');

const UID = 'a1b2c3d4-0000-4000-8000-000000000001';
/** An AdmissionReview of a CloneSet UPDATE, the object at `resourceVersion`. */
function cloneSetReview(name: string, resourceVersion: string, namespace = 'ns'): string {
  return reviewBody({
    uid: UID,
    kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'CloneSet' },
    namespace,
    operation: 'UPDATE',
    object: {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name, namespace, resourceVersion },
    },
  });
}

interface Setup {
  published: ReconcileRequest[][];
  logger: CapturingLogger;
  call: (rawPath: string, body: string) => Promise<number>;
  tick: (ms: number) => void;
}

function setUp(
  opts: {
    publish?: EventPublisher['publish'];
    secret?: () => Promise<string | undefined>;
    windowMs?: number;
    maxKeys?: number;
    publishBudgetMs?: number;
  } = {},
): Setup {
  const published: ReconcileRequest[][] = [];
  let now = 1_000_000;
  const publisher: EventPublisher = {
    publish:
      opts.publish ??
      (async (requests) => {
        published.push(requests.map((r) => ({ ...r, correlationIds: ['id'] })));
        return { published: requests.length, calls: 1, retried: 0 };
      }),
  };
  const runtime = { publisher, admissionSecret: opts.secret ?? (async () => MASTER) } as unknown as Runtime;
  const logger = new CapturingLogger();
  const handler = admissionHandler(() => runtime, logger, undefined, {
    now: () => now,
    ...(opts.windowMs !== undefined ? { coalesceWindowMs: opts.windowMs } : {}),
    ...(opts.maxKeys !== undefined ? { coalesceMaxKeys: opts.maxKeys } : {}),
    ...(opts.publishBudgetMs !== undefined ? { publishBudgetMs: opts.publishBudgetMs } : {}),
  });
  return {
    published,
    logger,
    call: async (rawPath, body) => {
      const r = await handler({ rawPath, body, isBase64Encoded: false });
      if (typeof r === 'string') throw new Error(`expected a structured result, got ${r}`);
      return r.statusCode ?? 0;
    },
    tick: (ms) => {
      now += ms;
    },
  };
}

/**
 * A handler whose runtime must not publish: `settings` for the controllers, and `cluster(name)` answering with
 * `kube` for the names in `known` (every name when `known` is absent), recording each name asked in `asked`.
 */
function reviewingHandler(
  opts: {
    settings?: unknown;
    kube?: unknown;
    known?: string[];
    asked?: string[];
    logger?: CapturingLogger;
  } = {},
) {
  return admissionHandler(
    () =>
      ({
        publisher: { publish: () => Promise.reject(new Error('must not publish')) },
        admissionSecret: async () => MASTER,
        settings: opts.settings ?? {},
        cluster: (name: string) => {
          opts.asked?.push(name);
          return !opts.known || opts.known.includes(name)
            ? Promise.resolve({ name, kube: opts.kube })
            : Promise.reject(new Error('not registered'));
        },
      }) as unknown as Runtime,
    opts.logger ?? new CapturingLogger(),
  );
}

/** POSTs `body` to `/<cluster's secret>/<cluster>/<endpoint>` of `handler`; the status code and the parsed body. */
async function post<T>(
  handler: ReturnType<typeof admissionHandler>,
  cluster: string,
  endpoint: string,
  body: string,
): Promise<{ statusCode: number; body: T }> {
  const r = await handler({
    rawPath: `/${pathSecretOf(cluster)}/${cluster}/${endpoint}`,
    body,
    isBase64Encoded: false,
  });
  if (typeof r === 'string') throw new Error(`expected a structured result, got ${r}`);
  return { statusCode: r.statusCode ?? 0, body: JSON.parse(r.body ?? 'null') as T };
}

/** The request the handler publishes for CloneSet `ns/name` of cluster `prod` at `resourceVersion`. */
const request = (name: string, resourceVersion: string, cluster = 'prod'): ReconcileRequest => ({
  version: 2,
  cluster,
  kind: 'apps.kruise.io/CloneSet',
  namespace: 'ns',
  name,
  reason: 'ObjectChanged',
  resourceVersion,
  correlationIds: ['id'],
});

describe('admission: the path secret is per cluster (review finding 7)', () => {
  it("refuses the fleet's master secret as a path segment, whatever cluster it names", async () => {
    const s = setUp();
    expect(await s.call(`/${MASTER}/other`, cloneSetReview('a', '1'))).toBe(404);
    expect(await s.call(`/${MASTER}/prod`, cloneSetReview('a', '1'))).toBe(404);
    expect(s.published).toEqual([]);
  });

  it("refuses one cluster's secret for another cluster, and accepts it for its own", async () => {
    const s = setUp();
    expect(await s.call(`/${pathSecretOf('prod')}/other`, cloneSetReview('a', '1'))).toBe(404);
    expect(s.published).toEqual([]);
    expect(await s.call(`/${pathSecretOf('prod')}/prod`, cloneSetReview('a', '1'))).toBe(200);
    expect(s.published).toEqual([[request('a', '1')]]);
  });

  it('answers 503 and publishes nothing while the master secret cannot be read, then serves once it can', async () => {
    let fail = true;
    const s = setUp({
      secret: async () => {
        if (fail) throw new Error('ThrottlingException: Rate exceeded');
        return MASTER;
      },
    });
    expect(await s.call(`/${pathSecretOf('prod')}/prod`, cloneSetReview('a', '1'))).toBe(503);
    fail = false;
    expect(await s.call(`/${pathSecretOf('prod')}/prod`, cloneSetReview('a', '2'))).toBe(200);
    expect(s.published).toEqual([[request('a', '2')]]);
    expect(s.logger.lines.filter((l) => l.level === 'ERROR').map((l) => [l.message, l.error])).toEqual([
      ['admission secret unavailable', 'ThrottlingException: Rate exceeded'],
    ]);
  });
});

describe('admission: calls for one object are coalesced (review finding 18)', () => {
  const path = `/${pathSecretOf('prod')}/prod`;

  it('ten calls for one CloneSet within the window publish once; the first call after it publishes the newest held change', async () => {
    const s = setUp({ windowMs: 1000 });
    for (let rv = 1; rv <= 10; rv++) {
      expect(await s.call(path, cloneSetReview('a', String(rv)))).toBe(200);
      s.tick(50);
    }
    expect(s.published).toEqual([[request('a', '1')]]);
    s.tick(1000);
    expect(await s.call(path, cloneSetReview('b', '20'))).toBe(200);
    expect(s.published).toEqual([[request('a', '1')], [request('b', '20'), request('a', '10')]]);
    // a's window started again when its held change went out: a call for a within it is held, not published
    expect(await s.call(path, cloneSetReview('a', '11'))).toBe(200);
    expect(s.published).toHaveLength(2);
  });

  it('keys of other objects or clusters are not held back by one another', async () => {
    const s = setUp({ windowMs: 1000 });
    await s.call(path, cloneSetReview('a', '1'));
    await s.call(path, cloneSetReview('b', '1'));
    await s.call(`/${pathSecretOf('other')}/other`, cloneSetReview('a', '1'));
    expect(s.published).toEqual([[request('a', '1')], [request('b', '1')], [request('a', '1', 'other')]]);
  });

  it('keeps at most maxKeys objects: the oldest is evicted, its held change published with the next call', async () => {
    const s = setUp({ windowMs: 1000, maxKeys: 2 });
    await s.call(path, cloneSetReview('a', '1'));
    await s.call(path, cloneSetReview('a', '2')); // held
    await s.call(path, cloneSetReview('b', '1'));
    await s.call(path, cloneSetReview('c', '1')); // a is the oldest: evicted, its held change goes out with c
    expect(s.published).toEqual([
      [request('a', '1')],
      [request('b', '1')],
      [request('c', '1'), request('a', '2')],
    ]);
  });

  it('a failed publish records nothing: the next call for the object publishes again', async () => {
    let fail = true;
    const published: ReconcileRequest[][] = [];
    const s = setUp({
      windowMs: 1000,
      publish: async (requests) => {
        if (fail) throw new Error('PutEvents: service unavailable');
        published.push(requests.map((r) => ({ ...r, correlationIds: ['id'] })));
        return { published: requests.length, calls: 1, retried: 0 };
      },
    });
    expect(await s.call(path, cloneSetReview('a', '1'))).toBe(200);
    fail = false;
    expect(await s.call(path, cloneSetReview('a', '2'))).toBe(200);
    expect(published).toEqual([[request('a', '2')]]);
  });

  it('answers within the publish budget when the publish hangs, and logs it', async () => {
    const s = setUp({ publish: () => new Promise(() => undefined), publishBudgetMs: 50 });
    const started = Date.now();
    expect(await s.call(path, cloneSetReview('a', '1'))).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(s.logger.lines.filter((l) => l.level === 'ERROR').map((l) => [l.message, l.error])).toEqual([
      ['could not forward admission event', 'publish took longer than the 50 ms budget'],
    ]);
  }, 5000);
});

describe('admission: /<cluster secret>/<cluster>/convert answers ConversionReviews (issue 17)', () => {
  const conversionReview = (desiredAPIVersion: string, objects: unknown[]): string =>
    JSON.stringify({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: { uid: 'c-1', desiredAPIVersion, objects },
    });
  const asts = {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'ns' },
    spec: { replicas: 2, reserveOrdinals: [1] },
  };
  async function convert(rawPath: string, body: string, isBase64Encoded = false) {
    const s = setUp();
    const handler = admissionHandler(
      () => ({ admissionSecret: async () => MASTER }) as unknown as Runtime,
      s.logger,
    );
    const r = await handler({ rawPath, body, isBase64Encoded });
    if (typeof r === 'string') throw new Error(`expected a structured result, got ${r}`);
    return { statusCode: r.statusCode, body: JSON.parse(r.body ?? 'null') as unknown, logger: s.logger };
  }

  it('converts with its own cluster secret, publishes nothing, and answers the review as JSON', async () => {
    const s = setUp();
    const handler = admissionHandler(
      () =>
        ({
          publisher: { publish: () => Promise.reject(new Error('no')) },
          admissionSecret: async () => MASTER,
        }) as unknown as Runtime,
      s.logger,
    );
    const r = await handler({
      rawPath: `/${pathSecretOf('prod')}/prod/convert`,
      body: Buffer.from(conversionReview('apps.kruise.io/v1alpha1', [asts])).toString('base64'),
      isBase64Encoded: true,
    });
    expect(r).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        response: {
          uid: 'c-1',
          convertedObjects: [
            {
              ...asts,
              apiVersion: 'apps.kruise.io/v1alpha1',
              metadata: {
                name: 'web',
                namespace: 'ns',
                annotations: { 'kruiseless.io/v1beta1-fields': '{"spec":{"reserveOrdinals":[1]}}' },
              },
              spec: { replicas: 2 },
            },
          ],
          result: { status: 'Success' },
        },
      }),
    });
  });

  it("refuses another cluster's secret, the master, and any other path after the cluster (404)", async () => {
    const body = conversionReview('apps.kruise.io/v1alpha1', [asts]);
    expect((await convert(`/${pathSecretOf('prod')}/other/convert`, body)).statusCode).toBe(404);
    expect((await convert(`/${MASTER}/prod/convert`, body)).statusCode).toBe(404);
    expect((await convert(`/${pathSecretOf('prod')}/prod/convert/x`, body)).statusCode).toBe(404);
    expect((await convert(`/${pathSecretOf('prod')}/prod/validate/x`, body)).statusCode).toBe(404);
    expect((await convert(`/${pathSecretOf('prod')}/prod/other`, body)).statusCode).toBe(404);
    expect((await convert(`/${pathSecretOf('prod')}/other/mutate`, body)).statusCode).toBe(404);
  });

  it("/mutate answers an Advanced StatefulSet's AdmissionReview with OpenKruise's defaults as a JSON Patch under the deployment's gates, publishing nothing", async () => {
    const review = reviewBody({
      uid: 'm-1',
      resource: { group: 'apps.kruise.io', version: 'v1beta1', resource: 'statefulsets' },
      operation: 'CREATE',
      object: { ...asts, spec: { replicas: 2, template: { spec: { containers: [] } } } },
    });
    const handler = reviewingHandler({
      settings: { statefulset: { templateNoDefaults: true, statefulSetAutoDeletePVC: false } },
    });
    const r = await post<{ response: { uid: string; allowed: boolean; patch: string } }>(
      handler,
      'prod',
      'mutate',
      review,
    );
    expect(r.statusCode).toBe(200);
    const response = r.body.response;
    expect(response).toMatchObject({ uid: 'm-1', allowed: true, patchType: 'JSONPatch' });
    // the spec defaults, in the Go round trip's shape (the template's metadata, a nil selector, the empty
    // volumeClaimUpdateStrategy), the template itself not defaulted under TemplateNoDefaults
    expect(JSON.parse(Buffer.from(response.patch, 'base64').toString('utf8'))).toEqual([
      { op: 'add', path: '/spec/template/metadata', value: { creationTimestamp: null } },
      { op: 'add', path: '/spec/selector', value: null },
      { op: 'add', path: '/spec/volumeClaimUpdateStrategy', value: {} },
      { op: 'add', path: '/spec/podManagementPolicy', value: 'OrderedReady' },
      {
        op: 'add',
        path: '/spec/updateStrategy',
        value: {
          type: 'RollingUpdate',
          rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 },
        },
      },
      { op: 'add', path: '/spec/revisionHistoryLimit', value: 10 },
    ]);
  });

  it("/validate refuses what OpenKruise's webhook refuses, with its code and message, publishing nothing", async () => {
    const review = (schedule: string) =>
      reviewBody({
        uid: 'v-1',
        resource: { group: 'apps.kruise.io', version: 'v1beta1', resource: 'advancedcronjobs' },
        operation: 'CREATE',
        object: {
          metadata: { name: 'hello', namespace: 'ns' },
          spec: {
            schedule,
            template: {
              jobTemplate: {
                spec: { template: { spec: { containers: [{ name: 'b', image: 'busybox' }] } } },
              },
            },
          },
        },
      });
    const handler = reviewingHandler();
    const call = async (body: string) => {
      const r = await post<{ response: unknown }>(handler, 'prod', 'validate', body);
      return { statusCode: r.statusCode, response: r.body.response };
    };
    await expect(call(review('*/5 * * * *'))).resolves.toEqual({
      statusCode: 200,
      response: { uid: 'v-1', allowed: true },
    });
    await expect(call(review('*/5 * * *'))).resolves.toEqual({
      statusCode: 200,
      response: {
        uid: 'v-1',
        allowed: false,
        status: {
          code: 422,
          message:
            'spec.schedule: Invalid value: "*/5 * * *": expected exactly 5 fields, found 4: [*/5 * * *]',
        },
      },
    });
    await expect(call('nope')).resolves.toMatchObject({ statusCode: 400 });
  });

  it("/validate reads the cluster the path names for the rules that compare with other objects (a PUB's conflict), only when a validator reads, and validates without them when the reads are refused", async () => {
    const pub = (name: string) => ({
      apiVersion: 'policy.kruise.io/v1beta1',
      kind: 'PodUnavailableBudget',
      metadata: { name, namespace: 'ns' },
      spec: { targetRef: { apiVersion: 'apps', kind: 'Deployment', name: 'web' }, maxUnavailable: 1 },
    });
    const review = (object: object, resource: object) =>
      reviewBody({ uid: 'v-2', resource, operation: 'CREATE', object });
    const pubReview = review(pub('web-b'), {
      group: 'policy.kruise.io',
      version: 'v1beta1',
      resource: 'podunavailablebudgets',
    });
    const lists: string[] = [];
    const kube = {
      list: (r: { plural: string }, o: { namespace?: string }) => {
        lists.push(`${r.plural} ${o.namespace ?? ''}`);
        return Promise.resolve({ items: [pub('web-a')], resourceVersion: '9' });
      },
    };
    const asked: string[] = [];
    const handler = reviewingHandler({ kube, known: ['prod'], asked });
    const call = async (cluster: string, body: string) =>
      (await post<{ response: unknown }>(handler, cluster, 'validate', body)).body.response;
    await expect(call('prod', pubReview)).resolves.toEqual({
      uid: 'v-2',
      allowed: false,
      status: {
        code: 400,
        message:
          'spec.targetReference: Invalid value: v1beta1.TargetReference{APIVersion:"apps", Kind:"Deployment", Name:"web"}: pub.spec.targetReference is in conflict with other PodUnavailableBudget web-a',
      },
    });
    expect(lists).toEqual(['podunavailablebudgets ns']);
    // a validator that reads nothing reaches no cluster
    const acj = review(
      {
        metadata: { name: 'hello', namespace: 'ns' },
        spec: {
          schedule: '*/5 * * * *',
          template: {
            jobTemplate: { spec: { template: { spec: { containers: [{ name: 'b', image: 'b' }] } } } },
          },
        },
      },
      { group: 'apps.kruise.io', version: 'v1beta1', resource: 'advancedcronjobs' },
    );
    await expect(call('prod', acj)).resolves.toEqual({ uid: 'v-2', allowed: true });
    expect(asked).toEqual(['prod']);

    // refused reads (no access entry for the admission role: a 403), or a cluster it cannot reach: the PUB is
    // validated as before the function read the cluster, and the first failure per cluster is a warning
    const logger = new CapturingLogger();
    const refusing = reviewingHandler({
      kube: { list: () => Promise.reject(new KubeApiError('list', 403, 'Forbidden', 'forbidden')) },
      known: ['prod'],
      logger,
    });
    const refused = async (cluster: string) =>
      (await post<{ response: unknown }>(refusing, cluster, 'validate', pubReview)).body.response;
    await expect(refused('prod')).resolves.toEqual({ uid: 'v-2', allowed: true });
    await expect(refused('prod')).resolves.toEqual({ uid: 'v-2', allowed: true });
    await expect(refused('gone')).resolves.toEqual({ uid: 'v-2', allowed: true });
    const message =
      'validation: the cluster reads failed; validated without the rules that compare with other objects';
    expect(logger.lines.filter((l) => l.message === message).map((l) => [l.level, l.cluster])).toEqual([
      ['WARN', 'prod'],
      ['DEBUG', 'prod'],
      ['WARN', 'gone'],
    ]);
  });

  it('/validate-pod consumes the budget of the PUB in the cluster the path names, refuses when it is spent, and answers 503 when the cluster cannot be reached', async () => {
    const pub = {
      apiVersion: 'policy.kruise.io/v1beta1',
      kind: 'PodUnavailableBudget',
      metadata: { name: 'web', namespace: 'ns', resourceVersion: '7' },
      spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 },
      status: { unavailableAllowed: 1, currentAvailable: 2, desiredAvailable: 1, totalReplicas: 2 },
    };
    const writes: unknown[] = [];
    const asked: string[] = [];
    const kube = {
      get: (r: { plural: string }) =>
        Promise.resolve(r.plural === 'podunavailablebudgets' ? structuredClone(pub) : undefined),
      replace: (_r: unknown, o: { status: typeof pub.status }) => {
        writes.push(o.status);
        pub.status = o.status;
        return Promise.resolve(o);
      },
      recordEvent: () => Promise.resolve(),
    };
    const handler = reviewingHandler({ kube, known: ['prod'], asked });
    const podDelete = (name: string) =>
      reviewBody({
        uid: `d-${name}`,
        resource: { group: '', version: 'v1', resource: 'pods' },
        namespace: 'ns',
        name,
        operation: 'DELETE',
        oldObject: {
          metadata: {
            name,
            namespace: 'ns',
            labels: { app: 'web' },
            annotations: { 'pub.kruise.io/related-pub': 'web' },
          },
          spec: { containers: [{ name: 'main', image: 'nginx' }] },
          status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
        },
      });
    const call = (cluster: string, body: string) =>
      post<{ response?: unknown; message?: string }>(handler, cluster, 'validate-pod', body);
    await expect(call('prod', podDelete('web-0'))).resolves.toMatchObject({
      statusCode: 200,
      body: { response: { uid: 'd-web-0', allowed: true } },
    });
    expect(writes).toEqual([
      expect.objectContaining({ unavailableAllowed: 0, disruptedPods: { 'web-0': expect.any(String) } }),
    ]);
    await expect(call('prod', podDelete('web-1'))).resolves.toEqual({
      statusCode: 200,
      body: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: {
          uid: 'd-web-1',
          allowed: false,
          status: {
            code: 403,
            message:
              'podunavailablebudget.policy.kruise.io "web" is forbidden: pub unavailable allowed is negative',
          },
        },
      },
    });
    await expect(call('gone', podDelete('web-1'))).resolves.toEqual({
      statusCode: 503,
      body: { message: 'cluster gone unavailable' },
    });
    expect(asked).toEqual(['prod', 'prod', 'gone']);
  });

  it("/validate-pod records a deleted pod in its WorkloadSpread's subset before the answer, as `kruiseless local` (lib/controllers/podValidations.ts)", async () => {
    const ws = workloadSpread({
      status: {
        versionedSubsetStatuses: {
          versionIgnored: [
            { name: 'zone-a', replicas: 2, missingReplicas: 0 },
            { name: 'zone-b', replicas: 0, missingReplicas: -1 },
          ],
        },
      },
    });
    const writes: unknown[] = [];
    const kube = {
      get: (r: { plural: string }) =>
        Promise.resolve(r.plural === 'workloadspreads' ? structuredClone(ws) : undefined),
      list: () => Promise.resolve({ items: [], resourceVersion: '1' }),
      replace: (r: { plural: string }, o: { status: unknown }) => {
        writes.push([r.plural, o.status]);
        return Promise.resolve(o);
      },
      recordEvent: () => Promise.resolve(),
    };
    const handler = reviewingHandler({ kube });
    const deleted = wsPod('web-0', 'zone-a');
    const r = await post<unknown>(
      handler,
      'prod',
      'validate-pod',
      reviewBody({
        uid: 'd-ws',
        resource: { group: '', version: 'v1', resource: 'pods' },
        namespace: 'ns',
        name: 'web-0',
        operation: 'DELETE',
        oldObject: deleted,
      }),
    );
    expect([r.statusCode, r.body]).toEqual([
      200,
      {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: { uid: 'd-ws', allowed: true },
      },
    ]);
    expect(writes).toEqual([
      [
        'workloadspreads',
        {
          versionedSubsetStatuses: {
            versionIgnored: [
              {
                name: 'zone-a',
                replicas: 2,
                missingReplicas: 1,
                deletingPods: { 'web-0': expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) },
              },
              { name: 'zone-b', replicas: 0, missingReplicas: -1 },
            ],
          },
        },
      ],
    ]);
  });

  it("/mutate-pod injects the matching SidecarSet's container into a pod CREATE of the cluster the path names, reading that cluster only", async () => {
    const logSet = mutateSidecarSet({
      metadata: { name: 'log', resourceVersion: '3' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        containers: [{ name: 'logger', image: 'fluentd:1' }],
      },
    });
    const reads: string[] = [];
    const asked: string[] = [];
    const kube = {
      list: (r: { plural: string }, o?: { namespace?: string }) => {
        reads.push(`list ${r.plural}${o?.namespace ? ` ${o.namespace}` : ''}`);
        return Promise.resolve({
          items: r.plural === 'sidecarsets' ? [structuredClone(logSet)] : [],
          resourceVersion: '9',
        });
      },
      get: (r: { plural: string }, ref: { name: string }) => {
        reads.push(`get ${r.plural} ${ref.name}`);
        return Promise.resolve(
          r.plural === 'namespaces'
            ? { metadata: { name: ref.name, labels: { 'kubernetes.io/metadata.name': ref.name } } }
            : undefined,
        );
      },
      replace: () => Promise.reject(new Error('must not write')),
      recordEvent: () => Promise.reject(new Error('must not record')),
    };
    const logger = new CapturingLogger();
    const handler = reviewingHandler({ kube, known: ['prod'], asked, logger });
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: 'web-',
        namespace: 'ns',
        labels: { app: 'web' },
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d9', uid: 'rs-1', controller: true },
        ],
      },
      spec: { containers: [{ name: 'main', image: 'nginx' }] },
    };
    const podCreate = reviewBody({
      uid: 'p-1',
      resource: { group: '', version: 'v1', resource: 'pods' },
      namespace: 'ns',
      operation: 'CREATE',
      object: pod,
    });
    const call = (cluster: string, body: string) =>
      post<MutationReviewResponse>(handler, cluster, 'mutate-pod', body);
    const answer = await call('prod', podCreate);
    expect(answer.statusCode).toBe(200);
    expect(answer.body.response).toMatchObject({ uid: 'p-1', allowed: true, patchType: 'JSONPatch' });
    const ops = JSON.parse(
      Buffer.from(answer.body.response.patch ?? '', 'base64').toString(),
    ) as jsonpatch.Operation[];
    const created = jsonpatch.applyPatch(structuredClone(pod), ops).newDocument as unknown as Pod;
    expect(created.spec.containers.map((c) => c.name)).toEqual(['logger', 'main']);
    expect(created.metadata.annotations?.['kruise.io/sidecarset-injected-list']).toBe('log');
    // the injection's reads are started first, so that they overlap the WorkloadSpread step's LIST (none in the
    // namespace); the injection itself still runs after WorkloadSpread's step
    // so is the PUB step's LIST of the namespace's budgets (none: no workload read)
    expect(reads).toEqual([
      'list sidecarsets',
      'get namespaces ns',
      'list podunavailablebudgets ns',
      'list workloadspreads ns',
    ]);
    // another cluster's secret, and a cluster that cannot be reached: 404, then 503 (the configuration fails closed)
    const wrong = (await handler({
      rawPath: `/${pathSecretOf('prod')}/other/mutate-pod`,
      body: podCreate,
      isBase64Encoded: false,
    })) as { statusCode: number };
    expect(wrong.statusCode).toBe(404);
    await expect(call('gone', podCreate)).resolves.toEqual({
      statusCode: 503,
      body: { message: 'cluster gone unavailable' },
    });
    expect(asked).toEqual(['prod', 'gone']);
    expect(logger.lines.filter((l) => l.level === 'ERROR').map((l) => [l.message, l.error])).toEqual([
      ['pod mutation: cluster unavailable', 'not registered'],
    ]);
  });

  it('/mutate-pod answers a body that is not an AdmissionReview with a 400 refusal naming the problem, and a non-pod object with a 400-coded refusal', async () => {
    const logger = new CapturingLogger();
    const kube = {
      list: () => Promise.reject(new Error('must not read')),
      get: () => Promise.reject(new Error('must not read')),
      replace: () => Promise.reject(new Error('must not write')),
      recordEvent: () => Promise.reject(new Error('must not record')),
    };
    const handler = reviewingHandler({ kube, logger });
    const call = (body: string) => post<unknown>(handler, 'prod', 'mutate-pod', body);
    await expect(call('not json')).resolves.toEqual({
      statusCode: 400,
      body: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: { uid: '', allowed: false, status: { code: 400, message: 'body is not JSON' } },
      },
    });
    const notPod = reviewBody({
      uid: 'p-2',
      resource: { group: '', version: 'v1', resource: 'pods' },
      namespace: 'ns',
      operation: 'CREATE',
      object: { metadata: {}, spec: {} },
    });
    await expect(call(notPod)).resolves.toEqual({
      statusCode: 200,
      body: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: {
          uid: 'p-2',
          allowed: false,
          status: {
            code: 400,
            message: 'the object is not a Pod: metadata, spec and spec.containers are required',
          },
        },
      },
    });
    expect(logger.lines.filter((l) => l.level === 'WARN').map((l) => [l.message, l.statusCode])).toEqual([
      ['pod mutation refused', 400],
      ['pod mutation refused', 200],
    ]);
  });

  it('a bad body gets 400 with a Failure review, an unknown version 200 with one, and both are logged', async () => {
    const bad = await convert(`/${pathSecretOf('prod')}/prod/convert`, 'not json');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toEqual({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      response: { uid: '', convertedObjects: [], result: { status: 'Failure', message: 'body is not JSON' } },
    });
    const unknown = await convert(
      `/${pathSecretOf('prod')}/prod/convert`,
      conversionReview('apps.kruise.io/v3', [asts]),
    );
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toEqual({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      response: {
        uid: 'c-1',
        convertedObjects: [],
        result: {
          status: 'Failure',
          message:
            'StatefulSet ns/web: StatefulSet.apps.kruise.io has no version v3 (converts v1beta1, v1alpha1)',
        },
      },
    });
    expect(unknown.logger.lines.filter((l) => l.level === 'WARN').map((l) => [l.message, l.error])).toEqual([
      [
        'conversion failed',
        'StatefulSet ns/web: StatefulSet.apps.kruise.io has no version v3 (converts v1beta1, v1alpha1)',
      ],
    ]);
  });

  it('the AdmissionReview path beside it still answers and publishes', async () => {
    const s = setUp();
    expect(await s.call(`/${pathSecretOf('prod')}/prod`, cloneSetReview('a', '1'))).toBe(200);
    expect(s.published).toEqual([[request('a', '1')]]);
  });
});
