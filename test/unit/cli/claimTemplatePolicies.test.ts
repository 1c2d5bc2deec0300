/**
 * lib/cli/claimTemplatePolicies.ts: which gate lists turn OpenKruise's volumeClaimTemplate update rule on (gate
 * StatefulSetAutoResizePVCGate, alpha, off by default in OpenKruise v1.9.0), and the manifests it applies.
 */
import { describe, expect, it } from '@jest/globals';
import { claimTemplateRuleOn } from '../../../lib/cli/claimTemplatePolicies.js';
import { claimTemplatePolicyManifests } from '../../../lib/cli/manifests.js';

describe('claimTemplateRuleOn', () => {
  it.each([
    ['', false],
    ['StatefulSetAutoResizePVCGate=true', true],
    ['StatefulSetAutoResizePVCGate=false', false],
    ['AllAlpha=true', true],
    ['AllAlpha=true,StatefulSetAutoResizePVCGate=false', false],
    ['AllBeta=true', false],
    ['CloneSetShortHash=true', false],
  ])('%j → %s', (gates, on) => {
    expect(claimTemplateRuleOn(gates)).toBe(on);
  });

  it('throws on a malformed list', () => {
    expect(() => claimTemplateRuleOn('StatefulSetAutoResizePVCGate')).toThrow(/StatefulSetAutoResizePVCGate/);
  });
});

describe('claimTemplatePolicyManifests', () => {
  it('is two policies, each with its binding, matching only Advanced StatefulSet updates', () => {
    const objects = claimTemplatePolicyManifests();
    expect(objects.map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual([
      'ValidatingAdmissionPolicy/kruiseless-asts-claim-templates',
      'ValidatingAdmissionPolicyBinding/kruiseless-asts-claim-templates',
      'ValidatingAdmissionPolicy/kruiseless-asts-claim-expansion',
      'ValidatingAdmissionPolicyBinding/kruiseless-asts-claim-expansion',
    ]);
    const rules = objects
      .filter((o) => o.kind === 'ValidatingAdmissionPolicy')
      .map((o) => (o as unknown as { spec: { matchConstraints: unknown } }).spec.matchConstraints);
    for (const r of rules)
      expect(r).toEqual({
        resourceRules: [
          {
            apiGroups: ['apps.kruise.io'],
            apiVersions: ['v1beta1'],
            operations: ['UPDATE'],
            resources: ['statefulsets'],
          },
        ],
      });
  });
});
