/**
 * The PUB validating webhook (`vpodunavailablebudget.kb.io`): OpenKruise's tables of
 * pkg/webhook/podunavailablebudget/validating/pub_validating_test.go (TestValidatingPub, TestPubConflictWithOthers,
 * TestValidatingUpdatePub, TestHandle) with the exact messages, through `/validate`'s exchange where the handler
 * matters (HTTP 400, v1alpha1 writes, the gates).
 */
import { describe, expect, it } from '@jest/globals';
import { handleValidationReview } from '../../../../../lib/api/admission/validation.js';
import type { PodUnavailableBudget } from '../../../../../lib/controllers/podunavailablebudget/api/types.js';
import {
  pubValidator,
  PUB_GATES_OFF_MESSAGE,
} from '../../../../../lib/controllers/podunavailablebudget/api/validating.js';
import {
  isSelectorLooseOverlap,
  validatePodUnavailableBudget,
} from '../../../../../lib/controllers/podunavailablebudget/api/validation.js';
import { reviewBody } from '../../../support/admissionReview.js';

/** upstream's pubDemo: both selector and targetRef, both maxUnavailable and minAvailable */
const demo = (): PodUnavailableBudget => ({
  apiVersion: 'policy.kruise.io/v1beta1',
  kind: 'PodUnavailableBudget',
  metadata: { namespace: 'default', name: 'pub-test', annotations: {} },
  spec: {
    selector: { matchLabels: { app: 'pub-controller' } },
    targetRef: { apiVersion: 'apps', kind: 'Deployment', name: 'deployment-test' },
    maxUnavailable: '20%',
    minAvailable: 100,
  },
});
const without = (
  pub: PodUnavailableBudget,
  ...keys: ('selector' | 'targetRef' | 'maxUnavailable' | 'minAvailable')[]
) => {
  const spec = { ...pub.spec };
  for (const k of keys) delete spec[k];
  return { ...pub, spec };
};
const withAnnotation = (pub: PodUnavailableBudget, key: string, value: string) => ({
  ...pub,
  metadata: { ...pub.metadata, annotations: { ...pub.metadata.annotations, [key]: value } },
});
const refPub = () => without(demo(), 'selector', 'minAvailable');
const selPub = () => without(demo(), 'targetRef', 'minAvailable');
const messages = (pub: PodUnavailableBudget, old?: PodUnavailableBudget, others?: PodUnavailableBudget[]) =>
  validatePodUnavailableBudget(pub, { ...(old ? { old } : {}), ...(others ? { others } : {}) }).map(
    (e) => `${e.path}: ${e.message}`,
  );

describe('validatePodUnavailableBudget (upstream TestValidatingPub)', () => {
  it('allows targetRef with maxUnavailable and selector with minAvailable', () => {
    expect(messages(refPub())).toEqual([]);
    expect(messages(without(demo(), 'targetRef', 'maxUnavailable'))).toEqual([]);
  });

  it('refuses neither selector nor targetRef, and both', () => {
    expect(messages(without(demo(), 'targetRef', 'selector', 'minAvailable'))).toEqual([
      'spec.selector, targetRef: Required value: no selector or targetRef defined in PodUnavailableBudget',
    ]);
    expect(messages(without(demo(), 'minAvailable'))).toEqual([
      'spec.selector, targetRef: Required value: selector and targetRef are mutually exclusive',
    ]);
  });

  it('refuses neither maxUnavailable nor minAvailable, and both', () => {
    expect(messages(without(demo(), 'maxUnavailable', 'minAvailable', 'selector'))).toEqual([
      'spec.maxUnavailable, minAvailable: Required value: no maxUnavailable or minAvailable defined in PodUnavailableBudget',
    ]);
    expect(messages(without(demo(), 'selector'))).toEqual([
      'spec.maxUnavailable, minAvailable: Required value: maxUnavailable and minAvailable are mutually exclusive',
    ]);
  });

  it('accepts any deprecated operation annotation in v1beta1', () => {
    for (const v of ['xxxxx', 'EVICT,DELETE,UPDATE,RESIZE', ''])
      expect(messages(withAnnotation(refPub(), 'kruise.io/pub-protect-operations', v))).toEqual([]);
  });

  it('checks the total-replicas annotation as an int32 matching spec.protectTotalReplicas', () => {
    const key = 'pub.kruise.io/protect-total-replicas';
    expect(messages(withAnnotation(refPub(), key, '%%'))).toEqual([
      'metadata.annotations[pub.kruise.io/protect-total-replicas]: Invalid value: "%%": must be a valid int32',
    ]);
    expect(messages(withAnnotation(refPub(), key, '1000'))).toEqual([]);
    const both = withAnnotation(
      { ...refPub(), spec: { ...refPub().spec, protectTotalReplicas: 5 } },
      key,
      '+5',
    );
    expect(messages(both)).toEqual([
      'metadata.annotations[pub.kruise.io/protect-total-replicas]: Invalid value: "+5": must match spec.protectTotalReplicas when both are set',
    ]);
  });

  it('ignoredPodSelector: a selector allowed, an empty one refused', () => {
    const ignored = (s: object) => ({ ...refPub(), spec: { ...refPub().spec, ignoredPodSelector: s } });
    expect(messages(ignored({ matchLabels: { 'kruise.io/force-deletable': 'true' } }))).toEqual([]);
    expect(messages(ignored({}))).toEqual([
      'spec.ignoredPodSelector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty ignoredPodSelector is not valid for PodUnavailableBudget',
    ]);
  });

  it('int-or-percent: negative, not a percent, above 100% refused', () => {
    const budget = (b: object) => ({ ...selPub(), spec: { selector: selPub().spec?.selector, ...b } });
    expect(messages(budget({ maxUnavailable: -1 }))).toEqual([
      'spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
    ]);
    expect(messages(budget({ minAvailable: '150%' }))).toEqual([
      'spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
    ]);
    expect(messages(budget({ maxUnavailable: 'half' }))).toEqual([
      `spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    ]);
    expect(messages(budget({ minAvailable: 0 }))).toEqual([]);
    expect(messages(budget({ maxUnavailable: '100%' }))).toEqual([]);
  });

  it('targetRef: empty fields and a malformed apiVersion refused; an empty selector refused', () => {
    const ref = (r: object) => ({ ...refPub(), spec: { ...refPub().spec, targetRef: r } });
    expect(messages(ref({ apiVersion: 'apps/v1', kind: 'Deployment' }))).toEqual([
      'spec.targetRef: Invalid value: v1beta1.TargetReference{APIVersion:"apps/v1", Kind:"Deployment", Name:""}: empty targetRef is not valid for PodUnavailableBudget',
    ]);
    expect(messages(ref({ apiVersion: 'a/b/c', kind: 'Deployment', name: 'x' }))).toEqual([
      'spec.targetRef: Invalid value: v1beta1.TargetReference{APIVersion:"a/b/c", Kind:"Deployment", Name:"x"}: unexpected GroupVersion string: a/b/c',
    ]);
    expect(messages({ ...selPub(), spec: { ...selPub().spec, selector: {} } })).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is not valid for PodUnavailableBudget.',
    ]);
  });

  it('an unknown protected operation is not supported', () => {
    expect(
      messages({ ...refPub(), spec: { ...refPub().spec, protectOperations: ['DELETE', 'PATCH'] } }),
    ).toEqual([
      'spec.protectOperations[1]: Unsupported value: "PATCH": supported values: "DELETE", "UPDATE", "EVICT", "RESIZE"',
    ]);
  });
});

describe('the conflict with other PUBs (upstream TestPubConflictWithOthers)', () => {
  const named = (pub: PodUnavailableBudget, name: string, spec: object, namespace = 'default') => ({
    ...pub,
    metadata: { ...pub.metadata, name, namespace },
    spec: { ...pub.spec, ...spec },
  });
  it('targetRef: another name allowed, the same group, kind and name refused', () => {
    const others = (name: string) => [
      named(refPub(), 'pub1', { targetRef: { apiVersion: 'apps', kind: 'Deployment', name } }),
      named(refPub(), 'pub2', {
        targetRef: { apiVersion: 'apps', kind: 'Deployment', name: 'deployment-test2' },
      }),
    ];
    expect(messages(refPub(), undefined, others('deployment-test1'))).toEqual([]);
    expect(messages(refPub(), undefined, others('deployment-test'))).toEqual([
      'spec.targetReference: Invalid value: v1beta1.TargetReference{APIVersion:"apps", Kind:"Deployment", Name:"deployment-test"}: pub.spec.targetReference is in conflict with other PodUnavailableBudget pub1',
    ]);
  });
  it('selector: other labels allowed, the same selector refused', () => {
    const sel = (app: string) => ({ targetRef: undefined, selector: { matchLabels: { app } } });
    const others = (app: string) => [
      named(selPub(), 'pub1', sel(app)),
      named(selPub(), 'pub2', sel('pub2-controller')),
    ];
    expect(messages(selPub(), undefined, others('pub1-controller'))).toEqual([]);
    expect(messages(selPub(), undefined, others('pub-controller'))).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"pub-controller"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: pub.spec.selector is in conflict with other PodUnavailableBudget pub1',
    ]);
  });
  it('loose overlap: a key only one selector names is no overlap; In/NotIn/Exists by values', () => {
    expect(isSelectorLooseOverlap({ matchLabels: { a: '1' } }, { matchLabels: { a: '1', b: '2' } })).toBe(
      false,
    );
    expect(
      isSelectorLooseOverlap(
        { matchLabels: { a: '1' } },
        { matchExpressions: [{ key: 'a', operator: 'Exists' }] },
      ),
    ).toBe(true);
    expect(
      isSelectorLooseOverlap(
        { matchLabels: { a: '1' } },
        { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['1'] }] },
      ),
    ).toBe(false);
  });
});

describe('an update (upstream TestValidatingUpdatePub)', () => {
  it('keeps selector and targetRef', () => {
    expect(messages(refPub(), refPub())).toEqual([]);
    const moved = {
      ...refPub(),
      spec: {
        ...refPub().spec,
        targetRef: { apiVersion: 'apps', kind: 'Deployment', name: 'deployment-changed' },
      },
    };
    expect(messages(moved, refPub())).toEqual([
      'spec.selector, targetRef: Required value: selector and targetRef cannot be modified',
    ]);
    const relabelled = {
      ...selPub(),
      spec: { ...selPub().spec, selector: { matchLabels: { app: 'pub-changed' } } },
    };
    expect(messages(relabelled, selPub())).toEqual([
      'spec.selector, targetRef: Required value: selector and targetRef cannot be modified',
    ]);
  });
});

describe('vpodunavailablebudget.kb.io through /validate (upstream TestHandle)', () => {
  const review = async (
    operation: string,
    object: unknown,
    oldObject?: unknown,
    requestVersion = 'v1beta1',
    validator = pubValidator(),
  ) => {
    const resource = { group: 'policy.kruise.io', version: 'v1beta1', resource: 'podunavailablebudgets' };
    const { statusCode, review: r } = await handleValidationReview(
      reviewBody({
        uid: 'u-1',
        resource,
        requestResource: { ...resource, version: requestVersion },
        operation,
        object,
        ...(oldObject ? { oldObject } : {}),
      }),
      [validator],
    );
    expect(statusCode).toBe(200);
    return r.response.allowed ? 'allowed' : r.response.status;
  };
  const alpha = (
    annotations: Record<string, string> = {},
    selector = { matchLabels: { app: 'handle-test' } },
  ) => ({
    apiVersion: 'policy.kruise.io/v1beta1',
    kind: 'PodUnavailableBudget',
    metadata: { namespace: 'default', name: 'alpha-pub-handle-test', annotations },
    spec: { selector, maxUnavailable: '20%' },
  });

  it('v1beta1: a valid create and update allowed; both selector and targetRef, a changed targetRef refused with 400', async () => {
    await expect(review('CREATE', refPub())).resolves.toBe('allowed');
    await expect(review('CREATE', without(demo(), 'minAvailable'))).resolves.toEqual({
      code: 400,
      message: 'spec.selector, targetRef: Required value: selector and targetRef are mutually exclusive',
    });
    await expect(review('UPDATE', refPub(), refPub())).resolves.toBe('allowed');
    const changed = {
      ...refPub(),
      spec: { ...refPub().spec, targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'changed' } },
    };
    await expect(review('UPDATE', changed, refPub())).resolves.toEqual({
      code: 400,
      message: 'spec.selector, targetRef: Required value: selector and targetRef cannot be modified',
    });
  });

  it('v1alpha1: annotations promoted to the spec; a bad operation or replicas value refused as upstream converts', async () => {
    const ok = alpha({
      'kruise.io/pub-protect-operations': 'DELETE,EVICT',
      'pub.kruise.io/protect-total-replicas': '10',
    });
    await expect(review('CREATE', ok, undefined, 'v1alpha1')).resolves.toBe('allowed');
    await expect(
      review('CREATE', alpha({ 'kruise.io/pub-protect-operations': 'BOGUS' }), undefined, 'v1alpha1'),
    ).resolves.toEqual({
      code: 400,
      message:
        'failed to convert v1alpha1 PUB to v1beta1: invalid kruise.io/pub-protect-operations value "BOGUS"',
    });
    await expect(
      review(
        'CREATE',
        alpha({ 'pub.kruise.io/protect-total-replicas': 'not-a-number' }),
        undefined,
        'v1alpha1',
      ),
    ).resolves.toEqual({
      code: 400,
      message:
        'failed to convert v1alpha1 PUB to v1beta1: failed to parse pub.kruise.io/protect-total-replicas: strconv.ParseInt: parsing "not-a-number": invalid syntax',
    });
    await expect(review('UPDATE', alpha(), alpha(), 'v1alpha1')).resolves.toBe('allowed');
    await expect(
      review('UPDATE', alpha({}, { matchLabels: { app: 'changed' } }), alpha(), 'v1alpha1'),
    ).resolves.toEqual({
      code: 400,
      message: 'spec.selector, targetRef: Required value: selector and targetRef cannot be modified',
    });
  });

  it('refuses every write with both PUB gates off', async () => {
    const off = pubValidator({ settings: { deleteGate: false, updateGate: false } });
    await expect(review('CREATE', refPub(), undefined, 'v1beta1', off)).resolves.toEqual({
      code: 400,
      message: PUB_GATES_OFF_MESSAGE,
    });
  });

  it('reads the namespace PUBs for the conflict rule when given reads', async () => {
    const asked: string[] = [];
    const withReads = pubValidator({
      reads: {
        pubs: (ns) => {
          asked.push(ns);
          return Promise.resolve([{ ...refPub(), metadata: { name: 'other', namespace: ns } }]);
        },
      },
    });
    await expect(review('CREATE', refPub(), undefined, 'v1beta1', withReads)).resolves.toEqual({
      code: 400,
      message:
        'spec.targetReference: Invalid value: v1beta1.TargetReference{APIVersion:"apps", Kind:"Deployment", Name:"deployment-test"}: pub.spec.targetReference is in conflict with other PodUnavailableBudget other',
    });
    expect(asked).toEqual(['default']);
  });
});
