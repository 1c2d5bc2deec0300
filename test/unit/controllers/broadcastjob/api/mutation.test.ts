/**
 * lib/controllers/broadcastjob/api/mutation.ts through lib/api/admission/mutation.ts: the JSON Patch an
 * AdmissionReview for a v1beta1 BroadcastJob gets, as OpenKruise v1.9.0's `pkg/webhook/broadcastjob/mutating` stores
 * the job (`SetDefaultsBroadcastJob`, the pod template's defaults on CREATE or a template change unless
 * `TemplateNoDefaults`, the Go round trip's zero drops).
 */
import { describe, expect, it } from '@jest/globals';
import { handleMutationReview, type Mutator } from '../../../../../lib/api/admission/mutation.js';
import { broadcastJobMutator } from '../../../../../lib/controllers/broadcastjob/api/mutation.js';
import { reviewBody } from '../../../support/admissionReview.js';

const template = {
  metadata: { labels: { app: 'b' } },
  spec: { containers: [{ name: 'c', image: 'nginx:1.18-alpine' }], restartPolicy: 'Never' },
};
const job = (spec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'BroadcastJob',
  metadata: { name: 'b', namespace: 'ns' },
  spec: { template, ...spec },
});
const review = (operation: string, object: unknown, oldObject?: unknown) =>
  reviewBody({
    uid: 'u-1',
    resource: { group: 'apps.kruise.io', version: 'v1beta1', resource: 'broadcastjobs' },
    operation,
    object,
    ...(oldObject ? { oldObject } : {}),
  });
type Op = { op: string; path: string; value?: unknown };
const patchOf = (body: string, mutator: Mutator = broadcastJobMutator()): Op[] => {
  const { statusCode, review: r } = handleMutationReview(body, [mutator]);
  expect(statusCode).toBe(200);
  expect(r.response).toMatchObject({ uid: 'u-1', allowed: true });
  return r.response.patch
    ? (JSON.parse(Buffer.from(r.response.patch, 'base64').toString('utf8')) as Op[])
    : [];
};
const paths = (ops: Op[]) => ops.map((o) => o.path).sort();

describe('the BroadcastJob mutator', () => {
  it("CREATE: the three spec defaults and SetDefaultPodSpec's template defaults (a tagged image pulls Always)", () => {
    const ops = patchOf(review('CREATE', job()));
    const byPath = Object.fromEntries(ops.map((o) => [o.path, o.value]));
    expect(byPath['/spec/parallelism']).toBe(2147483647);
    expect(byPath['/spec/completionPolicy']).toEqual({ type: 'Always' });
    expect(byPath['/spec/failurePolicy']).toEqual({ type: 'FailFast' });
    expect(byPath['/spec/template/spec/containers/0/imagePullPolicy']).toBe('Always');
    expect(byPath['/spec/template/spec/terminationGracePeriodSeconds']).toBe(30);
    expect(ops.every((o) => o.op === 'add')).toBe(true);
  });

  it('UPDATE without a template change: spec defaults only; with TemplateNoDefaults: never the template', () => {
    const old = job({ parallelism: 1 });
    // the template only as Go's round trip writes it back, none of its defaults
    const roundTrip = [
      '/spec/template/metadata/creationTimestamp',
      '/spec/template/spec/containers/0/resources',
    ];
    expect(paths(patchOf(review('UPDATE', job({ parallelism: 2 }), old)))).toEqual([
      '/spec/completionPolicy',
      '/spec/failurePolicy',
      ...roundTrip,
    ]);
    expect(
      paths(patchOf(review('CREATE', job()), broadcastJobMutator({ templateNoDefaults: true }))),
    ).toEqual(['/spec/completionPolicy', '/spec/failurePolicy', '/spec/parallelism', ...roundTrip]);
  });

  it("when a default is added, paused false and restartLimit 0 go as Go's round trip drops them", () => {
    const ops = patchOf(
      review(
        'UPDATE',
        job({ paused: false, failurePolicy: { restartLimit: 0 }, completionPolicy: { type: 'Never' } }),
        job(),
      ),
    );
    expect(ops).toEqual(
      expect.arrayContaining([
        { op: 'remove', path: '/spec/paused' },
        { op: 'remove', path: '/spec/failurePolicy/restartLimit' },
        { op: 'add', path: '/spec/failurePolicy/type', value: 'FailFast' },
      ]),
    );
  });

  it('a fully defaulted job gets no patch, its zeros kept (the webhook answers it unchanged)', () => {
    const full = job({
      parallelism: 1,
      paused: false,
      completionPolicy: { type: 'Always' },
      failurePolicy: { type: 'Continue', restartLimit: 0 },
    });
    expect(patchOf(review('UPDATE', full, full))).toEqual([]);
  });

  it("an UPDATE of a job with a status is written back in the Go round trip's shape (upstream clears status first)", () => {
    const running = {
      ...job({
        parallelism: 1,
        paused: false,
        completionPolicy: { type: 'Always' },
        failurePolicy: { type: 'FailFast' },
      }),
      status: { active: 1, phase: 'running' },
    };
    expect(patchOf(review('UPDATE', running, running))).toEqual([
      { op: 'remove', path: '/spec/paused' },
      { op: 'add', path: '/spec/template/spec/containers/0/resources', value: {} },
      { op: 'add', path: '/spec/template/metadata/creationTimestamp', value: null },
    ]);
    // an all-zero status is Go's empty struct: nothing to write back
    expect(patchOf(review('UPDATE', { ...running, status: { active: 0, phase: '' } }, running))).toEqual([]);
  });

  it('an object without a spec is defaulted as the zero spec Go decodes and left for the schema to refuse', () => {
    const ops = patchOf(
      review('CREATE', { apiVersion: 'apps.kruise.io/v1beta1', kind: 'BroadcastJob', metadata: {} }),
    );
    expect(ops.map((o) => o.path)).toEqual(['/spec']);
  });
});
