/**
 * The embedded runtime's conversion webhook (lib/local/conversionServer.ts): HTTPS under its own CA on /convert, the
 * ConversionReview answered as lib/api/conversion/review.ts answers it, and the CRD patch that points the API server
 * at it (lib/api/conversion/crd.ts).
 */
import https from 'node:https';
import type { JsonObject } from '../../../lib/api/types.js';
import {
  CRD_RESOURCE,
  pointCrdsAtConverter,
  releaseCrdsFromConverter,
  startConversionServer,
  type ConversionServer,
} from '../../../lib/local/conversionServer.js';
import { KubeApiError } from '../../../lib/kube/errors.js';
import { plainVersionsFor, webhookVersionsFor } from '../../../lib/cli/webhookVersions.js';
import type { CrdConverter } from '../../../lib/api/conversion/converter.js';
import { reviewBody } from '../support/admissionReview.js';

function post(server: ConversionServer, path: string, body: string, method = 'POST') {
  const url = new URL(server.url);
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = https.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method,
        ca: server.caPem,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the conversion server', () => {
  let server: ConversionServer;
  beforeAll(async () => {
    server = await startConversionServer();
  }, 30_000);
  afterAll(() => server.close());

  test('serves https://127.0.0.1:<port>/convert with a certificate its CA signed for 127.0.0.1', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/convert$/);
    expect(server.caPem).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----\n$/);
    const review = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: {
        uid: 'u-9',
        desiredAPIVersion: 'apps.kruise.io/v1beta1',
        objects: [
          { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'StatefulSet', metadata: { name: 'a' }, spec: {} },
        ],
      },
    };
    expect(await post(server, '/convert', JSON.stringify(review))).toEqual({
      status: 200,
      body: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        response: {
          uid: 'u-9',
          convertedObjects: [
            { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name: 'a' }, spec: {} },
          ],
          result: { status: 'Success' },
        },
      },
    });
  });

  test('a bad body is 400 with a Failure review; another path 404; another method 405', async () => {
    expect(await post(server, '/convert', '{')).toEqual({
      status: 400,
      body: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        response: {
          uid: '',
          convertedObjects: [],
          result: { status: 'Failure', message: 'body is not JSON' },
        },
      },
    });
    expect(await post(server, '/validating', '{}')).toEqual({ status: 404, body: { message: 'not found' } });
    expect(await post(server, '/convert', '', 'GET')).toEqual({
      status: 405,
      body: { message: 'POST a ConversionReview or an AdmissionReview' },
    });
  });

  test('/mutate-pod is 404 without a pod handler', async () => {
    expect(await post(server, '/mutate-pod', '{}')).toEqual({ status: 404, body: { message: 'not found' } });
  });

  test('/mutate-pod answers with the pod handler, and a handler that throws still answers (500 refusal)', async () => {
    const answered = await startConversionServer({
      podAdmission: (body) =>
        body === 'throw'
          ? Promise.reject(new Error('bug'))
          : Promise.resolve({
              statusCode: 200,
              review: {
                apiVersion: 'admission.k8s.io/v1',
                kind: 'AdmissionReview',
                response: { uid: body, allowed: true },
              },
            }),
    });
    try {
      expect(answered.podMutateUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/mutate-pod$/);
      expect(await post(answered, '/mutate-pod', 'u7')).toEqual({
        status: 200,
        body: {
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid: 'u7', allowed: true },
        },
      });
      expect(await post(answered, '/mutate-pod', 'throw')).toEqual({
        status: 200,
        body: {
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid: '', allowed: false, status: { code: 500, message: 'pod webhook failed: bug' } },
        },
      });
    } finally {
      await answered.close();
    }
  }, 30_000);

  it("answers an Advanced StatefulSet AdmissionReview at /mutate with OpenKruise's defaults as a JSON Patch; a bad one with 400", async () => {
    expect(server.mutateUrl).toBe(server.url.replace(/\/convert$/, '/mutate'));
    const review = {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: 'm-1',
        resource: { group: 'apps.kruise.io', version: 'v1beta1', resource: 'statefulsets' },
        operation: 'CREATE',
        object: {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'StatefulSet',
          metadata: { name: 'web' },
          spec: {
            updateStrategy: { type: 'OnDelete' },
            podManagementPolicy: 'Parallel',
            template: { spec: { containers: [] } },
          },
        },
      },
    };
    const answer = (await post(server, '/mutate', JSON.stringify(review))) as {
      status: number;
      body: { response: { uid: string; allowed: boolean; patchType: string; patch: string } };
    };
    expect(answer.status).toBe(200);
    expect(answer.body.response).toMatchObject({ uid: 'm-1', allowed: true, patchType: 'JSONPatch' });
    const paths = (
      JSON.parse(Buffer.from(answer.body.response.patch, 'base64').toString('utf8')) as { path: string }[]
    )
      .map((o) => o.path)
      .filter((p) => !p.startsWith('/spec/template'));
    // the defaults, and the Go round trip's nil selector and empty volumeClaimUpdateStrategy
    expect(paths).toEqual([
      '/spec/replicas',
      '/spec/selector',
      '/spec/volumeClaimUpdateStrategy',
      '/spec/revisionHistoryLimit',
      '/spec/persistentVolumeClaimRetentionPolicy',
    ]);
    expect(await post(server, '/mutate', '{')).toEqual({
      status: 400,
      body: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: { uid: '', allowed: false, status: { code: 400, message: 'body is not JSON' } },
      },
    });
  });
  it('answers a CloneSet AdmissionReview at /validate: a negative replicas refused with 422', async () => {
    expect(server.validateUrl).toBe(server.url.replace(/\/convert$/, '/validate'));
    const review = (replicas: number) =>
      reviewBody({
        uid: 'v-1',
        resource: { group: 'apps.kruise.io', version: 'v1alpha1', resource: 'clonesets' },
        operation: 'CREATE',
        object: {
          metadata: { name: 'web' },
          spec: {
            replicas,
            selector: { matchLabels: { app: 'web' } },
            template: {
              metadata: { labels: { app: 'web' } },
              spec: { containers: [{ name: 'main', image: 'nginx' }] },
            },
          },
        },
      });
    expect(await post(server, '/validate', review(1))).toEqual({
      status: 200,
      body: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: { uid: 'v-1', allowed: true },
      },
    });
    expect(await post(server, '/validate', review(-1))).toEqual({
      status: 200,
      body: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: {
          uid: 'v-1',
          allowed: false,
          status: {
            code: 422,
            message: 'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
          },
        },
      },
    });
  });
});

describe('pointCrdsAtConverter', () => {
  const converter = (plural: string): CrdConverter => ({
    group: 'apps.kruise.io',
    kind: plural,
    plural,
    versions: ['v1beta1', 'v1alpha1'],
    convert: (o) => o,
  });

  test("merge-patches each converter's CRD: strategy Webhook, url, caBundle, review v1, the annotation; skips absent CRDs", async () => {
    const calls: [string, JsonObject][] = [];
    const patched = await pointCrdsAtConverter(
      {
        get: async () => undefined,
        patch: async (resource, ref, patch) => {
          expect(resource).toBe(CRD_RESOURCE);
          if (ref.name === 'missing.apps.kruise.io')
            throw new KubeApiError('patch CustomResourceDefinition missing', 404, 'NotFound', 'not found');
          calls.push([ref.name, patch.body as JsonObject]);
          return {} as never;
        },
      },
      { url: 'https://127.0.0.1:4443/convert', caPem: 'PEM\n', server: 'local' },
      [converter('statefulsets'), converter('missing')],
      () => undefined,
    );
    expect(patched).toEqual(['statefulsets.apps.kruise.io']);
    expect(calls).toEqual([
      [
        'statefulsets.apps.kruise.io',
        {
          metadata: { annotations: { 'kruiseless.io/conversion-webhook': 'local' } },
          spec: {
            conversion: {
              strategy: 'Webhook',
              webhook: {
                clientConfig: {
                  url: 'https://127.0.0.1:4443/convert',
                  caBundle: Buffer.from('PEM\n').toString('base64'),
                },
                conversionReviewVersions: ['v1'],
              },
            },
          },
        },
      ],
    ]);
  });

  test('another failure is thrown', async () => {
    await expect(
      pointCrdsAtConverter(
        {
          get: async () => undefined,
          patch: async () => {
            throw new KubeApiError('patch CustomResourceDefinition x', 403, 'Forbidden', 'no');
          },
        },
        { url: 'https://h/convert', server: 'local' },
        [converter('statefulsets')],
        () => undefined,
      ),
    ).rejects.toThrow('patch CustomResourceDefinition x: 403 Forbidden: no');
  });

  test("CloneSet's CRD gets its webhook-time versions in the same patch; OpenKruise's CRD (a foreign webhook) is left alone", async () => {
    const versions = webhookVersionsFor('clonesets.apps.kruise.io');
    expect(versions?.map((v) => [v.name, v.served, v.storage])).toEqual([
      ['v1alpha1', true, true],
      ['v1beta1', true, false],
    ]);
    const calls: [string, JsonObject][] = [];
    const fake = (strategy: string, annotated: boolean) => ({
      get: async () =>
        ({
          metadata: { annotations: annotated ? { 'kruiseless.io/conversion-webhook': 'local' } : {} },
          spec: { conversion: { strategy } },
        }) as never,
      patch: async (_r: unknown, ref: { name: string }, patch: { body: unknown }) => {
        calls.push([ref.name, patch.body as JsonObject]);
        return {} as never;
      },
    });
    const target = { url: 'https://h/convert', server: 'local' } as const;
    const cs = [{ ...converter('clonesets') }];
    expect(await pointCrdsAtConverter(fake('Webhook', false), target, cs)).toEqual([]);
    expect(await pointCrdsAtConverter(fake('Webhook', true), target, cs)).toEqual([
      'clonesets.apps.kruise.io',
    ]);
    expect(await pointCrdsAtConverter(fake('None', false), target, cs)).toEqual(['clonesets.apps.kruise.io']);
    expect(calls.map(([n, b]) => [n, (b.spec as JsonObject).versions])).toEqual([
      ['clonesets.apps.kruise.io', versions],
      ['clonesets.apps.kruise.io', versions],
    ]);
  });
});

describe('releaseCrdsFromConverter', () => {
  test("puts CloneSet's CRD back to no conversion with infra/crds' versions (v1beta1 the alias); leaves the others", async () => {
    const calls: [string, JsonObject][] = [];
    const released = await releaseCrdsFromConverter(
      {
        patch: async (_r, ref, patch) => {
          if (ref.name === 'gone.apps.kruise.io')
            throw new KubeApiError('patch CustomResourceDefinition gone', 404, 'NotFound', 'not found');
          calls.push([ref.name, patch.body as JsonObject]);
          return {} as never;
        },
      },
      ['clonesets.apps.kruise.io', 'statefulsets.apps.kruise.io', 'gone.apps.kruise.io'],
      (name) =>
        name === 'statefulsets.apps.kruise.io' ? undefined : plainVersionsFor('clonesets.apps.kruise.io'),
    );
    expect(released).toEqual(['clonesets.apps.kruise.io']);
    const versions = plainVersionsFor('clonesets.apps.kruise.io');
    expect(versions?.[1]?.schema).toEqual(versions?.[0]?.schema);
    expect(calls).toEqual([
      [
        'clonesets.apps.kruise.io',
        {
          metadata: { annotations: { 'kruiseless.io/conversion-webhook': null } },
          spec: { versions, conversion: { strategy: 'None', webhook: null } },
        },
      ],
    ]);
    expect(plainVersionsFor('statefulsets.apps.kruise.io')).toBeUndefined();
  });
});
