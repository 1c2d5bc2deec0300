/**
 * lib/api/admission/mutation.ts with the Advanced StatefulSet mutator (lib/controllers/statefulset/api/mutation.ts):
 * the JSON Patch an AdmissionReview gets, as OpenKruise's mutating webhook for v1beta1 StatefulSets would store the
 * object (SetDefaultsStatefulSet, template defaults only on CREATE or a template change), and the refusals of
 * unreadable bodies.
 */
import { describe, expect, it } from '@jest/globals';
import { handleMutationReview, MAX_MUTATION_BODY_BYTES } from '../../../../lib/api/admission/mutation.js';
import { statefulSetMutator } from '../../../../lib/controllers/statefulset/api/mutation.js';
import { reviewBody } from '../../support/admissionReview.js';

const mutators = [statefulSetMutator()];
const template = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
};
const sts = (spec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'StatefulSet',
  metadata: { name: 'web', namespace: 'ns' },
  spec: { selector: { matchLabels: { app: 'web' } }, template, ...spec },
});
const review = (operation: string, object: unknown, oldObject?: unknown, resource = 'statefulsets') =>
  reviewBody({
    uid: 'u-1',
    resource: { group: 'apps.kruise.io', version: 'v1beta1', resource },
    operation,
    object,
    ...(oldObject ? { oldObject } : {}),
  });
const patchOf = (body: string) => {
  const { statusCode, review: r } = handleMutationReview(body, mutators);
  expect(statusCode).toBe(200);
  expect(r.response).toMatchObject({ uid: 'u-1', allowed: true });
  return r.response.patch
    ? (JSON.parse(Buffer.from(r.response.patch, 'base64').toString('utf8')) as {
        op: string;
        path: string;
        value?: unknown;
      }[])
    : [];
};

describe('handleMutationReview with the Advanced StatefulSet mutator', () => {
  it("CREATE: OpenKruise's stored defaults, the pod-template defaults among them", () => {
    const ops = patchOf(review('CREATE', sts()));
    const byPath = Object.fromEntries(ops.map((o) => [o.path, o.value]));
    expect(ops.every((o) => o.op === 'add')).toBe(true);
    expect(byPath['/spec/podManagementPolicy']).toBe('OrderedReady');
    expect(byPath['/spec/updateStrategy']).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 },
    });
    expect(byPath['/spec/persistentVolumeClaimRetentionPolicy']).toEqual({
      whenDeleted: 'Retain',
      whenScaled: 'Retain',
    });
    expect(byPath['/spec/replicas']).toBe(1);
    expect(byPath['/spec/revisionHistoryLimit']).toBe(10);
    expect(byPath['/spec/template/spec/restartPolicy']).toBe('Always');
    expect(byPath['/spec/template/spec/containers/0/terminationMessagePath']).toBe('/dev/termination-log');
  });

  it('UPDATE without a template change: the spec defaults, not the template ones', () => {
    const old = sts({ replicas: 2 });
    const ops = patchOf(review('UPDATE', sts({ replicas: 3, updateStrategy: { type: 'OnDelete' } }), old));
    // the spec defaults, and the Go round trip's marks on the template as sent (no template default)
    expect(ops.map((o) => o.path).sort()).toEqual([
      '/spec/persistentVolumeClaimRetentionPolicy',
      '/spec/podManagementPolicy',
      '/spec/revisionHistoryLimit',
      '/spec/template/metadata/creationTimestamp',
      '/spec/template/spec/containers/0/resources',
      '/spec/volumeClaimUpdateStrategy',
    ]);
  });

  it('UPDATE with a template change defaults the template too; a fully defaulted object gets no patch', () => {
    const changed = sts({
      template: { ...template, spec: { containers: [{ name: 'main', image: 'nginx:2' }] } },
    });
    expect(patchOf(review('UPDATE', changed, sts())).some((o) => o.path.startsWith('/spec/template/'))).toBe(
      true,
    );
    const stored = sts({
      podManagementPolicy: 'Parallel',
      replicas: 1,
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'OnDelete' },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
    });
    const { review: r } = handleMutationReview(review('UPDATE', stored, stored), mutators);
    expect(r.response).toEqual({ uid: 'u-1', allowed: true });
  });

  it("UPDATE of one with a status: the zero values OpenKruise's Go round trip drops are removed (paused false, empty lists, hook zeros)", () => {
    const stored = {
      podManagementPolicy: 'Parallel',
      replicas: 1,
      revisionHistoryLimit: 10,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    };
    const sent = sts({
      ...stored,
      serviceName: '',
      reserveOrdinals: [],
      volumeClaimTemplates: [],
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: {
          partition: 0,
          maxUnavailable: 1,
          podUpdatePolicy: 'ReCreate',
          minReadySeconds: 0,
          paused: false,
        },
      },
      lifecycle: { preDelete: { labelsHandler: {}, finalizersHandler: [], markPodNotReady: false } },
    });
    // without a status, the defaults change nothing: allowed as sent, zeros and all (the handler's DeepEqual)
    expect(patchOf(review('UPDATE', sent, sent))).toEqual([]);
    // with one (cleared before that comparison upstream), the object is written back as Go marshals it
    const running = { ...sent, status: { replicas: 1 } };
    expect(patchOf(review('UPDATE', running, running))).toEqual([
      { op: 'remove', path: '/spec/lifecycle/preDelete/markPodNotReady' },
      { op: 'remove', path: '/spec/lifecycle/preDelete/finalizersHandler' },
      { op: 'remove', path: '/spec/lifecycle/preDelete/labelsHandler' },
      { op: 'remove', path: '/spec/updateStrategy/rollingUpdate/paused' },
      { op: 'remove', path: '/spec/volumeClaimTemplates' },
      { op: 'remove', path: '/spec/reserveOrdinals' },
      { op: 'remove', path: '/spec/serviceName' },
      { op: 'add', path: '/spec/template/spec/containers/0/resources', value: {} },
      { op: 'add', path: '/spec/template/metadata/creationTimestamp', value: null },
      { op: 'add', path: '/spec/volumeClaimUpdateStrategy', value: {} },
    ]);
    // set values stay: paused true, a partition of 0 (a pointer in Go), a hook with a label
    const kept = sts({
      ...stored,
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: {
          partition: 0,
          maxUnavailable: 1,
          podUpdatePolicy: 'ReCreate',
          minReadySeconds: 0,
          paused: true,
        },
      },
      lifecycle: { preDelete: { labelsHandler: { hold: 'x' }, markPodNotReady: true } },
    });
    const keptRunning = { ...kept, status: { replicas: 1 } };
    expect(patchOf(review('UPDATE', keptRunning, keptRunning)).map((o) => o.path)).toEqual([
      '/spec/template/spec/containers/0/resources',
      '/spec/template/metadata/creationTimestamp',
      '/spec/volumeClaimUpdateStrategy',
    ]);
  });

  it('gate TemplateNoDefaults keeps the template as sent', () => {
    const { review: r } = handleMutationReview(review('CREATE', sts()), [
      statefulSetMutator({ templateNoDefaults: true }),
    ]);
    const ops = JSON.parse(Buffer.from(r.response.patch ?? '', 'base64').toString('utf8')) as {
      path: string;
    }[];
    // only the Go round trip's marks on the template, none of its defaults
    expect(ops.filter((o) => o.path.startsWith('/spec/template')).map((o) => o.path)).toEqual([
      '/spec/template/spec/containers/0/resources',
      '/spec/template/metadata/creationTimestamp',
    ]);
    expect(ops.length).toBe(8);
  });

  it('a resource no mutator takes, or a DELETE, is allowed unchanged', () => {
    expect(patchOf(review('CREATE', sts(), undefined, 'clonesets'))).toEqual([]);
    expect(patchOf(review('DELETE', sts()))).toEqual([]);
  });

  it('an unreadable body is refused with 400 and says why; an oversized one with 413', () => {
    expect(handleMutationReview('{', mutators)).toEqual({
      statusCode: 400,
      review: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: { uid: '', allowed: false, status: { code: 400, message: 'body is not JSON' } },
      },
    });
    const wrong = handleMutationReview(reviewBody({ uid: 'u-2' }), mutators);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.review.response.uid).toBe('u-2');
    expect(wrong.review.response.status?.message).toMatch(/^not an AdmissionReview v1: request\.resource: /);
    expect(handleMutationReview('x'.repeat(MAX_MUTATION_BODY_BYTES + 1), mutators).statusCode).toBe(413);
  });
});
