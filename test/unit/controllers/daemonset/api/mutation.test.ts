/**
 * lib/controllers/daemonset/api/mutation.ts through lib/api/admission/mutation.ts: the JSON Patch an AdmissionReview
 * for a v1beta1 Advanced DaemonSet gets, as OpenKruise v1.9.0's `pkg/webhook/daemonset/mutating` stores the object
 * (`SetDefaultsDaemonSetV1beta1`, then its Go round trip when the defaults changed anything), and its registration.
 */
import { describe, expect, it } from '@jest/globals';
import { handleMutationReview } from '../../../../../lib/api/admission/mutation.js';
import { mutatingWebhookConfiguration } from '../../../../../lib/api/admission/webhookConfiguration.js';
import { daemonSetMutator } from '../../../../../lib/controllers/daemonset/api/mutation.js';
import { admissionMutators } from '../../../../../lib/controllers/mutations.js';
import { reviewBody } from '../../../support/admissionReview.js';

const template = {
  metadata: { labels: { app: 'd' } },
  spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
};
const ds = (spec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'DaemonSet',
  metadata: { name: 'd', namespace: 'ns' },
  spec: { selector: { matchLabels: { app: 'd' } }, template, ...spec },
});
const review = (operation: string, object: unknown, version = 'v1beta1') =>
  reviewBody({
    uid: 'u-1',
    resource: { group: 'apps.kruise.io', version, resource: 'daemonsets' },
    operation,
    object,
  });
type Op = { op: string; path: string; value?: unknown };
const patchOf = (body: string): Op[] => {
  const { statusCode, review: r } = handleMutationReview(body, [daemonSetMutator]);
  expect(statusCode).toBe(200);
  expect(r.response).toMatchObject({ uid: 'u-1', allowed: true });
  return r.response.patch
    ? (JSON.parse(Buffer.from(r.response.patch, 'base64').toString('utf8')) as Op[])
    : [];
};

describe('the Advanced DaemonSet mutator', () => {
  it("CREATE of a bare DaemonSet: OpenKruise's three stored defaults, the template as Go writes it back", () => {
    expect(patchOf(review('CREATE', ds()))).toEqual([
      { op: 'add', path: '/spec/template/spec/containers/0/resources', value: {} },
      { op: 'add', path: '/spec/template/metadata/creationTimestamp', value: null },
      {
        op: 'add',
        path: '/spec/updateStrategy',
        value: {
          type: 'RollingUpdate',
          rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, maxSurge: 0 },
        },
      },
      { op: 'add', path: '/spec/burstReplicas', value: 250 },
      { op: 'add', path: '/spec/revisionHistoryLimit', value: 10 },
    ]);
  });

  it('a rollingUpdate with maxSurge only keeps maxUnavailable unset; OnDelete gets no rollingUpdate', () => {
    const surge = patchOf(
      review(
        'CREATE',
        ds({ updateStrategy: { rollingUpdate: { rollingUpdateType: 'Surge', maxSurge: '10%' } } }),
      ),
    );
    expect(surge).toContainEqual({ op: 'add', path: '/spec/updateStrategy/type', value: 'RollingUpdate' });
    expect(surge.map((o) => o.path)).not.toContain('/spec/updateStrategy/rollingUpdate/maxUnavailable');
    const onDelete = patchOf(review('CREATE', ds({ updateStrategy: { type: 'OnDelete' } })));
    expect(onDelete.map((o) => o.path)).toEqual([
      '/spec/template/spec/containers/0/resources',
      '/spec/template/metadata/creationTimestamp',
      '/spec/burstReplicas',
      '/spec/revisionHistoryLimit',
    ]);
  });

  it("when a default is added, the Go round trip's zeros are dropped and the template's quantities canonical", () => {
    const ops = patchOf(
      review(
        'UPDATE',
        ds({
          minReadySeconds: 0,
          scaleStrategy: { partitionedScaling: false },
          lifecycle: { preDelete: { labelsHandler: {}, finalizersHandler: [], markPodNotReady: false } },
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { paused: false, maxUnavailable: 2 } },
          template: {
            ...template,
            spec: {
              containers: [{ name: 'main', image: 'nginx:1', resources: { requests: { cpu: '0.5' } } }],
            },
          },
        }),
      ),
    );
    expect(ops).toEqual(
      expect.arrayContaining([
        { op: 'remove', path: '/spec/minReadySeconds' },
        { op: 'remove', path: '/spec/scaleStrategy/partitionedScaling' },
        { op: 'remove', path: '/spec/lifecycle/preDelete/labelsHandler' },
        { op: 'remove', path: '/spec/lifecycle/preDelete/finalizersHandler' },
        { op: 'remove', path: '/spec/lifecycle/preDelete/markPodNotReady' },
        { op: 'replace', path: '/spec/template/spec/containers/0/resources/requests/cpu', value: '500m' },
        { op: 'add', path: '/spec/updateStrategy/rollingUpdate/rollingUpdateType', value: 'Standard' },
        { op: 'add', path: '/spec/burstReplicas', value: 250 },
        { op: 'add', path: '/spec/revisionHistoryLimit', value: 10 },
        { op: 'add', path: '/spec/template/metadata/creationTimestamp', value: null },
      ]),
    );
    // paused is a *bool upstream: an explicit false is kept
    expect(ops.map((o) => o.path)).not.toContain('/spec/updateStrategy/rollingUpdate/paused');
    expect(ops).toHaveLength(10);
  });

  it('a DaemonSet the defaults leave as it is gets no patch, zeros and all (the webhook answers it unchanged)', () => {
    const full = ds({
      burstReplicas: 250,
      revisionHistoryLimit: 10,
      minReadySeconds: 0,
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { rollingUpdateType: 'Standard', maxSurge: 0 },
      },
    });
    expect(patchOf(review('CREATE', full))).toEqual([]);
  });

  it('an object without a template or spec is defaulted and left for the schema to refuse, not failed', () => {
    const ops = patchOf(
      review('CREATE', { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: {} }),
    );
    expect(ops.map((o) => o.path)).toEqual(['/spec']);
  });

  it('answers only v1beta1 requests (v1alpha1 ones reach it converted) and is among the admission mutators', () => {
    expect(patchOf(review('CREATE', ds(), 'v1alpha1'))).toEqual([]);
    expect(admissionMutators()).toContain(daemonSetMutator);
    const config = mutatingWebhookConfiguration({ name: 'x', url: 'https://h/mutate' }, [
      daemonSetMutator,
    ]) as {
      webhooks: { name: string; rules: { apiVersions: string[]; resources: string[]; scope: string }[] }[];
    };
    expect(config.webhooks.map((w) => w.name)).toEqual(['daemonsets.apps.kruise.io.kruiseless.io']);
    expect(config.webhooks[0]?.rules).toEqual([
      expect.objectContaining({ apiVersions: ['v1beta1'], resources: ['daemonsets'], scope: 'Namespaced' }),
    ]);
  });
});
