/**
 * The PUB admission decision's pieces against OpenKruise v1.9.0's pub_control_utils.go: the protected operations
 * (`getPubProtectOperations`, `isNeedPubProtection`), the budget consumed (`checkAndDecrement`) and the exemptions.
 */
import type { Pod } from '../../../../../lib/api/types.js';
import type { PodUnavailableBudget } from '../../../../../lib/controllers/podunavailablebudget/api/types.js';
import { countAvailable } from '../../../../../lib/controllers/podunavailablebudget/plan/status.js';
import {
  consumeBudget,
  exemption,
  isPodNoProtection,
  protectedOperations,
} from '../../../../../lib/controllers/podunavailablebudget/plan/index.js';

const pub = (extra: Partial<PodUnavailableBudget> = {}): PodUnavailableBudget => ({
  metadata: { name: 'p', namespace: 'default' },
  spec: {},
  status: { unavailableAllowed: 1, currentAvailable: 3, desiredAvailable: 2, totalReplicas: 3 },
  ...extra,
});

const pod = (annotations: Record<string, string> = {}): Pod => ({
  metadata: { name: 'web-0', annotations },
  spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
});

describe('protectedOperations', () => {
  it('defaults to DELETE, UPDATE, EVICT, and RESIZE with them while InPlacePodVerticalScaling is off', () => {
    expect([...protectedOperations(pub())].sort()).toEqual(['DELETE', 'EVICT', 'RESIZE', 'UPDATE']);
    expect([...protectedOperations(pub(), true)].sort()).toEqual(['DELETE', 'EVICT', 'UPDATE']);
  });

  it('spec.protectOperations wins over the annotation, which wins over the default', () => {
    const annotated = { name: 'p', annotations: { 'kruise.io/pub-protect-operations': 'EVICT,,DELETE' } };
    expect([...protectedOperations(pub({ metadata: annotated }))].sort()).toEqual(['DELETE', 'EVICT']);
    expect(
      [...protectedOperations(pub({ metadata: annotated, spec: { protectOperations: ['UPDATE'] } }))].sort(),
    ).toEqual(['RESIZE', 'UPDATE']);
    expect(
      [
        ...protectedOperations(
          pub({ metadata: { name: 'p', annotations: { 'kruise.io/pub-protect-operations': ',' } } }),
        ),
      ].sort(),
    ).toEqual(['DELETE', 'EVICT', 'RESIZE', 'UPDATE']);
  });
});

describe('consumeBudget', () => {
  it('refuses past 2000 records with OpenKruise’s message', () => {
    const disruptedPods = Object.fromEntries(
      Array.from({ length: 2001 }, (_, i) => [`p-${i}`, '2026-12-04T03:00:00Z']),
    );
    const big = pub({
      status: {
        unavailableAllowed: 5,
        currentAvailable: 9,
        desiredAvailable: 4,
        totalReplicas: 9,
        disruptedPods,
      },
    });
    expect(consumeBudget(big, 'web-0', 'DELETE', new Date('2026-12-04T03:00:00Z'))).toEqual({
      allowed: false,
      message:
        'podunavailablebudget.policy.kruise.io "p" is forbidden: DisruptedPods and UnavailablePods map too big - too many unavailable not confirmed by PUB controller',
    });
  });

  it('keeps the other records and the counts', () => {
    const p = pub({
      status: {
        unavailableAllowed: 2,
        currentAvailable: 4,
        desiredAvailable: 2,
        totalReplicas: 4,
        unavailablePods: { a: '2026-12-04T02:59:58Z' },
      },
    });
    expect(consumeBudget(p, 'web-0', 'EVICT', new Date('2026-12-04T03:00:00.999Z'))).toEqual({
      allowed: true,
      status: {
        unavailableAllowed: 1,
        currentAvailable: 4,
        desiredAvailable: 2,
        totalReplicas: 4,
        disruptedPods: { 'web-0': '2026-12-04T03:00:00Z' },
        unavailablePods: { a: '2026-12-04T02:59:58Z' },
      },
    });
  });
});

describe('exemption and no-protect', () => {
  it('reads no-protect as Go’s ParseBool', () => {
    expect(
      ['1', 't', 'T', 'TRUE', 'true', 'True'].map((v) =>
        isPodNoProtection(pod({ 'pub.kruise.io/no-protect': v })),
      ),
    ).toEqual([true, true, true, true, true, true]);
    expect(
      ['yes', 'false', ''].map((v) => isPodNoProtection(pod({ 'pub.kruise.io/no-protect': v }))),
    ).toEqual([false, false, false]);
  });

  it('a protected operation on an available, unrecorded pod of a PUB that desires pods is not exempt', () => {
    expect(exemption(pod(), pub(), 'DELETE')).toBeUndefined();
    expect(exemption(pod(), pub({ spec: { protectOperations: ['EVICT'] } }), 'DELETE')).toBe('notProtected');
  });

  it('a terminating pod is not available, so its final delete (the kubelet’s, grace 0) needs no budget', () => {
    // upstream's IsPodReady is util.IsRunningAndReady, which asks for no deletionTimestamp; the PUB controller drops
    // the pod from disruptedPods once it is terminating, so without this the kubelet's delete was refused
    const terminating: Pod = {
      ...pod(),
      metadata: { ...pod().metadata, deletionTimestamp: '2026-12-04T12:00:00Z' },
    };
    expect(
      exemption(terminating, pub({ status: { ...pub().status!, unavailableAllowed: 0 } }), 'DELETE'),
    ).toBe('notAvailable');
    expect(countAvailable([pod(), terminating], {}, {})).toBe(1);
  });
});
