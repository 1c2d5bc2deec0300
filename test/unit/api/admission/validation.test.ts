/**
 * lib/api/admission/validation.ts: the AdmissionReview exchange of `/validate` (verdicts, codes, the aggregate message
 * Kubernetes prints, bodies it cannot read), and the ValidatingWebhookConfiguration of
 * lib/api/admission/webhookConfiguration.ts.
 */
import { describe, expect, it } from '@jest/globals';
import {
  aggregateMessage,
  handleValidationReview,
  type Validator,
} from '../../../../lib/api/admission/validation.js';
import {
  podValidatingWebhooks,
  validatingWebhookConfiguration,
} from '../../../../lib/api/admission/webhookConfiguration.js';
import { reviewBody } from '../../support/admissionReview.js';

const seen: unknown[] = [];
const widgets: Validator = {
  webhookName: 'vwidget.kb.io',
  group: 'apps.kruise.io',
  resource: 'widgets',
  version: 'v1beta1',
  operations: ['CREATE', 'UPDATE'],
  validate(request) {
    seen.push(request);
    const spec = (request.object?.spec ?? {}) as { size?: number; boom?: boolean };
    if (spec.boom) throw new Error('kaput');
    return (spec.size ?? 0) < 0
      ? { allowed: false, code: 422, message: 'spec.size: Invalid value: -1: must be >= 0' }
      : { allowed: true };
  },
};
const review = (
  operation: string,
  object: unknown,
  extra: Record<string, unknown> = {},
  resource = 'widgets',
) =>
  reviewBody({
    uid: 'u-1',
    resource: { group: 'apps.kruise.io', version: 'v1beta1', resource },
    operation,
    object,
    ...extra,
  });

describe('aggregateMessage', () => {
  it('prints one error bare, several in brackets, a repeated one once', () => {
    const a = { path: 'spec.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' };
    const b = { path: 'spec.selector', message: 'Required value' };
    expect(aggregateMessage([a])).toBe(
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    expect(aggregateMessage([a, b])).toBe(
      '[spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.selector: Required value]',
    );
    expect(aggregateMessage([a, a])).toBe(
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    expect(aggregateMessage([a, b, a])).toBe(
      '[spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.selector: Required value]',
    );
  });
});

describe('handleValidationReview', () => {
  it('allows a valid object and refuses an invalid one with the validator code and message', async () => {
    await expect(handleValidationReview(review('CREATE', { spec: { size: 1 } }), [widgets])).resolves.toEqual(
      {
        statusCode: 200,
        review: {
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid: 'u-1', allowed: true },
        },
      },
    );
    const refused = await handleValidationReview(review('UPDATE', { spec: { size: -1 } }), [widgets]);
    expect(refused).toEqual({
      statusCode: 200,
      review: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: {
          uid: 'u-1',
          allowed: false,
          status: { code: 422, message: 'spec.size: Invalid value: -1: must be >= 0' },
        },
      },
    });
  });

  it('hands the validator the version the caller wrote and the old object', async () => {
    seen.length = 0;
    await handleValidationReview(
      review(
        'UPDATE',
        { spec: { size: 2 } },
        {
          oldObject: { spec: { size: 1 } },
          requestResource: { group: 'apps.kruise.io', version: 'v1alpha1', resource: 'widgets' },
        },
      ),
      [widgets],
    );
    await handleValidationReview(review('CREATE', { spec: {} }), [widgets]);
    expect(seen).toEqual([
      {
        operation: 'UPDATE',
        object: { spec: { size: 2 } },
        oldObject: { spec: { size: 1 } },
        requestVersion: 'v1alpha1',
      },
      { operation: 'CREATE', object: { spec: {} }, requestVersion: 'v1beta1' },
    ]);
  });

  it('answers a validator that throws with a 500 refusal, not a crash', async () => {
    const { statusCode, review: r } = await handleValidationReview(
      review('CREATE', { spec: { boom: true } }),
      [widgets],
    );
    expect(statusCode).toBe(200);
    expect(r.response).toEqual({
      uid: 'u-1',
      allowed: false,
      status: { code: 500, message: 'validation failed: kaput' },
    });
  });

  it('allows what no validator takes: another resource, an operation not registered, a subresource', async () => {
    seen.length = 0;
    for (const body of [
      review('CREATE', { spec: { size: -1 } }, {}, 'gadgets'),
      review('DELETE', null, { oldObject: { spec: { size: -1 } } }),
      review('UPDATE', { spec: { size: -1 } }, { subResource: 'status' }),
      review('CONNECT', { spec: { size: -1 } }),
    ]) {
      const { review: r } = await handleValidationReview(body, [widgets]);
      expect(r.response).toEqual({ uid: 'u-1', allowed: true });
    }
    expect(seen).toEqual([]);
  });

  it('refuses a CREATE without an object, and bodies it cannot read', async () => {
    const noObject = await handleValidationReview(review('CREATE', null), [widgets]);
    expect(noObject.review.response).toEqual({
      uid: 'u-1',
      allowed: false,
      status: { code: 400, message: 'CREATE without an object' },
    });
    const notJson = await handleValidationReview('{', [widgets]);
    expect(notJson.statusCode).toBe(400);
    expect(notJson.review.response.status).toEqual({ code: 400, message: 'body is not JSON' });
    const notReview = await handleValidationReview(JSON.stringify({ kind: 'Pod' }), [widgets]);
    expect(notReview.statusCode).toBe(400);
    expect(notReview.review.response.allowed).toBe(false);
  });
});

describe('validatingWebhookConfiguration', () => {
  it("names each webhook as OpenKruise's, fails open and matches equivalent versions", () => {
    const config = validatingWebhookConfiguration(
      { name: 'kruiseless-validation', url: 'https://x.example/s/c/validate', caPem: 'PEM' },
      [widgets],
    );
    expect(config).toEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: {
        name: 'kruiseless-validation',
        labels: { 'app.kubernetes.io/name': 'kruiseless', 'app.kubernetes.io/component': 'validation' },
      },
      webhooks: [
        {
          name: 'vwidget.kb.io',
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          failurePolicy: 'Ignore',
          matchPolicy: 'Equivalent',
          timeoutSeconds: 5,
          clientConfig: {
            url: 'https://x.example/s/c/validate',
            caBundle: Buffer.from('PEM').toString('base64'),
          },
          rules: [
            {
              apiGroups: ['apps.kruise.io'],
              apiVersions: ['v1beta1'],
              operations: ['CREATE', 'UPDATE'],
              resources: ['widgets'],
              scope: 'Namespaced',
            },
          ],
        },
      ],
    });
  });
});

describe('podValidatingWebhooks', () => {
  it("OpenKruise's two pod webhooks, failing closed, narrowed to pods a budget names and to user namespaces", () => {
    const [vpod, eviction] = podValidatingWebhooks('https://h/validate-pod') as {
      name: string;
      failurePolicy: string;
      sideEffects: string;
      matchConditions?: { expression: string }[];
      rules: { operations: string[]; resources: string[] }[];
      namespaceSelector: { matchExpressions: { key: string; values: string[] }[] };
    }[];
    expect([vpod?.name, vpod?.failurePolicy, vpod?.sideEffects, vpod?.rules]).toEqual([
      'vpod.kb.io',
      'Fail',
      'NoneOnDryRun',
      [
        {
          apiGroups: [''],
          apiVersions: ['v1'],
          operations: ['DELETE'],
          resources: ['pods'],
          scope: 'Namespaced',
        },
      ],
    ]);
    expect(vpod?.matchConditions?.[0]?.expression).toBe(
      "request.operation == 'DELETE' ? (has(oldObject.metadata.annotations) && ('pub.kruise.io/related-pub' in oldObject.metadata.annotations || 'kruise.io/related-pub' in oldObject.metadata.annotations)) : (has(object.metadata.annotations) && ('pub.kruise.io/related-pub' in object.metadata.annotations || 'kruise.io/related-pub' in object.metadata.annotations))",
    );
    expect(vpod?.namespaceSelector.matchExpressions.map((e) => [e.key, e.values])).toEqual([
      ['control-plane', undefined],
      ['kubernetes.io/metadata.name', ['kube-system', 'kube-public', 'kube-node-lease']],
      ['kruiseless.io/pod-webhook', ['disabled']],
    ]);
    expect([
      eviction?.name,
      eviction?.matchConditions,
      eviction?.rules[0]?.resources,
      eviction?.rules[0]?.operations,
    ]).toEqual(['vpodeviction.kb.io', undefined, ['pods/eviction'], ['CREATE']]);
    const withUpdates = podValidatingWebhooks('https://h/validate-pod', undefined, true) as {
      rules: { operations: string[] }[];
    }[];
    expect(withUpdates[0]?.rules[0]?.operations).toEqual(['DELETE', 'UPDATE']);
  });
});
