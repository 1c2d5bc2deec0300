import jsonpatch from 'fast-json-patch';
import type { MutationAnswer } from '../../../../lib/api/admission/mutation.js';
import type { JsonObject, Pod } from '../../../../lib/api/types.js';
import { mutateSidecarSet } from '../../../../lib/controllers/sidecarset/api/mutation.js';
import type { SidecarSet } from '../../../../lib/controllers/sidecarset/api/types.js';
import {
  answerPodAdmission,
  type PodInjectionReads,
} from '../../../../lib/controllers/sidecarset/podWebhook.js';

const NOW = new Date('2026-01-02T03:04:05Z');
const log: SidecarSet = mutateSidecarSet({
  metadata: { name: 'log' },
  spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'logger', image: 'fluentd:1' }] },
});

const reads = (sets: SidecarSet[] = [log], fail?: Error): PodInjectionReads => ({
  sidecarSets: () => (fail ? Promise.reject(fail) : Promise.resolve(sets)),
  namespaceLabels: (name) => Promise.resolve({ 'kubernetes.io/metadata.name': name }),
});

const pod = (): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { generateName: 'web-', labels: { app: 'web' } },
  spec: { containers: [{ name: 'main', image: 'nginx' }] },
});

const review = (request: Record<string, unknown>): string =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'u1',
      resource: { group: '', version: 'v1', resource: 'pods' },
      operation: 'CREATE',
      namespace: 'ns1',
      ...request,
    },
  });

const patched = (object: unknown, answer: MutationAnswer): JsonObject => {
  const ops = JSON.parse(
    Buffer.from(answer.review.response.patch ?? 'W10=', 'base64').toString(),
  ) as jsonpatch.Operation[];
  return jsonpatch.applyPatch(structuredClone(object), ops).newDocument as JsonObject;
};

describe('/mutate-pod (OpenKruise mpod: pods CREATE)', () => {
  it('answers a pod CREATE with the patch that injects the sidecar', async () => {
    const answer = await answerPodAdmission(review({ object: pod() }), reads(), NOW);
    expect(answer.statusCode).toBe(200);
    expect(answer.review.response).toMatchObject({ uid: 'u1', allowed: true, patchType: 'JSONPatch' });
    const stored = patched(pod(), answer) as unknown as Pod;
    expect(stored.spec.containers.map((c) => c.name)).toEqual(['logger', 'main']);
    expect(stored.metadata.namespace).toBeUndefined();
    expect(stored.metadata.annotations?.['kruise.io/sidecarset-injected-list']).toBe('log');
  });

  it('allows unchanged what it does not handle: no match, an UPDATE, another resource, a subresource', async () => {
    const cases = [
      review({ object: { ...pod(), metadata: { labels: { app: 'db' } } } }),
      review({ object: pod(), operation: 'UPDATE', oldObject: pod() }),
      review({ object: pod(), resource: { group: 'apps', version: 'v1', resource: 'deployments' } }),
      review({ object: pod(), subResource: 'status' }),
    ];
    for (const body of cases) {
      const answer = await answerPodAdmission(body, reads(), NOW);
      expect(answer).toEqual({
        statusCode: 200,
        review: {
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid: 'u1', allowed: true },
        },
      });
    }
  });

  it('bad bodies get a 400 refusal naming the problem, never a throw', async () => {
    expect((await answerPodAdmission('{', reads())).statusCode).toBe(400);
    const notReview = await answerPodAdmission('{"kind":"Pod"}', reads());
    expect(notReview.statusCode).toBe(400);
    expect(notReview.review.response.status?.message).toMatch(/not an AdmissionReview v1/);
    const notPod = await answerPodAdmission(review({ object: { metadata: {}, spec: {} } }), reads());
    expect(notPod.statusCode).toBe(200);
    expect(notPod.review.response).toEqual({
      uid: 'u1',
      allowed: false,
      status: {
        code: 400,
        message: 'the object is not a Pod: metadata, spec and spec.containers are required',
      },
    });
  });

  it('refuses the pod (500) when the SidecarSets cannot be read, as OpenKruise errors', async () => {
    const answer = await answerPodAdmission(review({ object: pod() }), reads([], new Error('boom')), NOW);
    expect(answer.review.response).toEqual({
      uid: 'u1',
      allowed: false,
      status: { code: 500, message: 'sidecar injection could not read SidecarSets or namespace ns1: boom' },
    });
  });

  it('refuses the pod (500) for a SidecarSet with an invalid selector', async () => {
    const bad = mutateSidecarSet({
      metadata: { name: 'bad' },
      spec: {
        selector: { matchExpressions: [{ key: 'app', operator: 'Nope' }] },
        containers: [{ name: 'x', image: 'x' }],
      },
    });
    const answer = await answerPodAdmission(review({ object: pod() }), reads([bad]), NOW);
    expect(answer.review.response.allowed).toBe(false);
    expect(answer.review.response.status?.code).toBe(500);
    expect(answer.review.response.status?.message).toMatch(
      /^sidecar injection: SidecarSet bad spec.selector/,
    );
  });
});
