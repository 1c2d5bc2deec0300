/**
 * lib/controllers/cloneset/api/mutation.ts: the v1alpha1 CloneSet as OpenKruise v1.9.0's `mcloneset.kb.io` stores it
 * (`SetDefaultsCloneSet`, the templates' defaults on CREATE or a template change unless `TemplateNoDefaults`, no
 * patch when the defaults change nothing, else the Go round trip's shape).
 */
import { describe, expect, it } from '@jest/globals';
import { handleMutationReview } from '../../../../../lib/api/admission/mutation.js';
import { mutatingWebhookConfiguration } from '../../../../../lib/api/admission/webhookConfiguration.js';
import {
  cloneSetMutator,
  cloneSetV1beta1Mutator,
} from '../../../../../lib/controllers/cloneset/api/mutation.js';
import { admissionMutators } from '../../../../../lib/controllers/mutations.js';
import type { JsonObject } from '../../../../../lib/api/types.js';
import { reviewBody } from '../../../support/admissionReview.js';

const cloneSet = (spec: JsonObject = {}): JsonObject => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'part', namespace: 'ns' },
  spec: {
    replicas: 5,
    selector: { matchLabels: { app: 'part' } },
    template: {
      metadata: { labels: { app: 'part' } },
      spec: { containers: [{ name: 'main', image: 'nginx:1.18-alpine' }] },
    },
    updateStrategy: { type: 'InPlaceIfPossible', partition: 3, maxUnavailable: 1 },
    ...spec,
  },
});

/** The pod template of {@link cloneSet} as OpenKruise stores it (read from its parity snapshot, partition-inplace). */
const storedTemplate = (image: string): JsonObject => ({
  metadata: { creationTimestamp: null, labels: { app: 'part' } },
  spec: {
    containers: [
      {
        name: 'main',
        image,
        resources: {},
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'Always',
      },
    ],
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    securityContext: {},
    schedulerName: 'default-scheduler',
  },
});

const storedSpec = (image: string): JsonObject => ({
  replicas: 5,
  selector: { matchLabels: { app: 'part' } },
  template: storedTemplate(image),
  scaleStrategy: {},
  updateStrategy: {
    type: 'InPlaceIfPossible',
    partition: 3,
    maxUnavailable: 1,
    maxSurge: 0,
  },
  revisionHistoryLimit: 10,
});

describe('cloneSetMutator', () => {
  it("CREATE stores OpenKruise's defaults in its Go round trip's shape", () => {
    const out = cloneSetMutator().mutate({ operation: 'CREATE', object: cloneSet() });
    expect(out).toEqual({ ...cloneSet(), spec: storedSpec('nginx:1.18-alpine') });
    expect(JSON.stringify(out.spec)).toBe(JSON.stringify(storedSpec('nginx:1.18-alpine')));
  });

  it('UPDATE of a stored CloneSet that changes no template and needs no default is allowed as sent', () => {
    const stored = { ...cloneSet(), spec: storedSpec('nginx:1.18-alpine') };
    const sent = { ...stored, spec: { ...storedSpec('nginx:1.18-alpine'), replicas: 3 } };
    // (the in-place strategy's `{}` default is added and read back away: the same object)
    expect(cloneSetMutator().mutate({ operation: 'UPDATE', object: sent, oldObject: stored })).toEqual(sent);
    const reCreate = {
      ...sent,
      spec: {
        ...sent.spec,
        updateStrategy: { type: 'ReCreate', partition: 3, maxUnavailable: 1, maxSurge: 0 },
      },
    };
    expect(cloneSetMutator().mutate({ operation: 'UPDATE', object: reCreate, oldObject: stored })).toBe(
      reCreate,
    );
  });

  it('UPDATE that changes the template defaults the new template', () => {
    const stored = { ...cloneSet(), spec: storedSpec('nginx:1.18-alpine') };
    const template = {
      metadata: { labels: { app: 'part' } },
      spec: { containers: [{ name: 'main', image: 'nginx:1.19-alpine' }] },
    };
    const sent = { ...stored, spec: { ...storedSpec('nginx:1.18-alpine'), template } };
    const out = cloneSetMutator().mutate({ operation: 'UPDATE', object: sent, oldObject: stored });
    expect(out.spec).toEqual(storedSpec('nginx:1.19-alpine'));
  });

  it('UPDATE without a template change adds only the spec defaults, the template as Go writes it back', () => {
    const old = cloneSet();
    const sent = cloneSet({ updateStrategy: { type: 'ReCreate' } });
    const out = cloneSetMutator().mutate({ operation: 'UPDATE', object: sent, oldObject: old });
    expect(out.spec).toEqual({
      replicas: 5,
      selector: { matchLabels: { app: 'part' } },
      template: {
        metadata: { creationTimestamp: null, labels: { app: 'part' } },
        spec: { containers: [{ name: 'main', image: 'nginx:1.18-alpine', resources: {} }] },
      },
      revisionHistoryLimit: 10,
      scaleStrategy: {},
      updateStrategy: { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 },
    });
  });

  it('gate TemplateNoDefaults keeps the template unfilled on CREATE', () => {
    const out = cloneSetMutator({ templateNoDefaults: true }).mutate({
      operation: 'CREATE',
      object: cloneSet(),
    });
    expect((out.spec as JsonObject).template).toEqual({
      metadata: { creationTimestamp: null, labels: { app: 'part' } },
      spec: { containers: [{ name: 'main', image: 'nginx:1.18-alpine', resources: {} }] },
    });
  });

  it('a volumeClaimTemplate is stored with a null creationTimestamp and status phase Pending', () => {
    const vct = {
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    };
    const out = cloneSetMutator().mutate({
      operation: 'CREATE',
      object: cloneSet({ volumeClaimTemplates: [vct] }),
    });
    expect((out.spec as JsonObject).volumeClaimTemplates).toEqual([
      {
        metadata: { name: 'data', creationTimestamp: null },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        status: { phase: 'Pending' },
      },
    ]);
  });

  it('an in-place strategy without content is not stored (OpenKruise reads it back from v1beta1 without it)', () => {
    const withGrace = cloneSet({
      updateStrategy: { type: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 5 } },
    });
    const out = cloneSetMutator().mutate({ operation: 'CREATE', object: withGrace });
    expect((out.spec as JsonObject).updateStrategy).toEqual({
      type: 'InPlaceIfPossible',
      partition: 0,
      maxUnavailable: '20%',
      maxSurge: 0,
      inPlaceUpdateStrategy: { gracePeriodSeconds: 5 },
    });
    const zeroGrace = cloneSet({
      updateStrategy: { type: 'InPlaceOnly', inPlaceUpdateStrategy: { gracePeriodSeconds: 0 } },
    });
    const out2 = cloneSetMutator().mutate({ operation: 'CREATE', object: zeroGrace });
    expect((out2.spec as JsonObject).updateStrategy).toEqual({
      type: 'InPlaceOnly',
      partition: 0,
      maxUnavailable: '20%',
      maxSurge: 0,
    });
  });

  it('does not modify the request', () => {
    const object = cloneSet();
    const before = structuredClone(object);
    cloneSetMutator().mutate({ operation: 'CREATE', object });
    expect(object).toEqual(before);
  });
});

/**
 * The v1beta1 branch of `mcloneset.kb.io` (`SetDefaultsCloneSetV1beta1`): OpenKruise's own v1beta1 e2e specs create
 * `rollingUpdate: {podUpdatePolicy: ReCreate}` and expect `maxUnavailable` 20% stored; before this mutator the request
 * reached only the v1alpha1 one through conversion, and the CRD's v1beta1 rule refused all 16 such specs
 * (`maxUnavailable and maxSurge should not both be less than 1`).
 */
describe('cloneSetV1beta1Mutator', () => {
  const beta = (updateStrategy?: JsonObject): JsonObject => ({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'CloneSet',
    metadata: { name: 'part', namespace: 'ns' },
    spec: {
      selector: { matchLabels: { app: 'part' } },
      template: {
        metadata: { labels: { app: 'part' } },
        spec: { containers: [{ name: 'main', image: 'nginx:1.18-alpine' }] },
      },
      ...(updateStrategy ? { updateStrategy } : {}),
    },
  });
  const strategyOf = (o: JsonObject) => (o.spec as JsonObject).updateStrategy;

  it('fills rollingUpdate as OpenKruise v1.9.0 stores it, with replicas, history limit and the template defaults', () => {
    const out = cloneSetV1beta1Mutator().mutate({
      operation: 'CREATE',
      object: beta({ type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'ReCreate' } }),
    });
    expect(out.spec).toEqual({
      replicas: 1,
      selector: { matchLabels: { app: 'part' } },
      template: storedTemplate('nginx:1.18-alpine'),
      scaleStrategy: {},
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { partition: 0, maxUnavailable: '20%', maxSurge: 0, podUpdatePolicy: 'ReCreate' },
      },
      revisionHistoryLimit: 10,
    });
  });

  it('no strategy: RollingUpdate with ReCreate; an in-place policy gets its empty inPlaceUpdateStrategy', () => {
    expect(strategyOf(cloneSetV1beta1Mutator().mutate({ operation: 'CREATE', object: beta() }))).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 0, maxUnavailable: '20%', maxSurge: 0, podUpdatePolicy: 'ReCreate' },
    });
    const inPlace = cloneSetV1beta1Mutator().mutate({
      operation: 'CREATE',
      object: beta({ rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 2 } }),
    });
    // a pointer to an empty struct is not empty to Go's omitempty: the `{}` is stored
    expect(strategyOf(inPlace)).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: {
        partition: 0,
        maxUnavailable: 2,
        maxSurge: 0,
        podUpdatePolicy: 'InPlaceIfPossible',
        inPlaceUpdateStrategy: {},
      },
    });
  });

  it('OnDelete gets no rolling fields', () => {
    expect(
      strategyOf(
        cloneSetV1beta1Mutator().mutate({ operation: 'CREATE', object: beta({ type: 'OnDelete' }) }),
      ),
    ).toEqual({ type: 'OnDelete' });
  });

  it('is registered beside the v1alpha1 one: one webhook for both versions, each request to its own mutator', () => {
    const mutators = admissionMutators();
    const config = mutatingWebhookConfiguration({ name: 'x', url: 'https://h/mutate' }, mutators) as {
      webhooks: { name: string; rules: { apiVersions: string[] }[] }[];
    };
    const clonesets = config.webhooks.filter((w) => w.name === 'clonesets.apps.kruise.io.kruiseless.io');
    expect(clonesets.map((w) => w.rules.map((r) => r.apiVersions))).toEqual([[['v1alpha1', 'v1beta1']]]);
    const review = reviewBody({
      uid: 'u-1',
      resource: { group: 'apps.kruise.io', version: 'v1beta1', resource: 'clonesets' },
      operation: 'CREATE',
      object: beta({ type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'ReCreate' } }),
    });
    const { review: answer } = handleMutationReview(review, mutators);
    const ops = JSON.parse(Buffer.from(answer.response.patch ?? '', 'base64').toString()) as {
      path: string;
      value?: unknown;
    }[];
    expect(ops).toContainEqual(
      expect.objectContaining({ path: '/spec/updateStrategy/rollingUpdate/maxUnavailable', value: '20%' }),
    );
  });
});
