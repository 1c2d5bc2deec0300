/**
 * OpenKruise's validation of a CloneSet written through v1beta1 (lib/controllers/cloneset/api/validationV1beta1.ts;
 * upstream `ValidateCloneSetV1beta1`, `ValidateCloneSetUpdateV1beta1`): the exact errors, paths and words, and what
 * its v1beta1 rules do not check that v1alpha1's do.
 */
import { describe, expect, it } from '@jest/globals';
import type { CloneSetV1beta1, RollingUpdateCloneSetStrategy } from '../../../../../lib/api/v1beta1.js';
import { aggregateMessage } from '../../../../../lib/api/admission/validation.js';
import { applyV1beta1Defaults } from '../../../../../lib/controllers/cloneset/api/defaults.js';
import { validateCloneSetV1beta1 } from '../../../../../lib/controllers/cloneset/api/validationV1beta1.js';

const beta = (spec: Partial<CloneSetV1beta1['spec']> = {}): CloneSetV1beta1 =>
  applyV1beta1Defaults({
    metadata: { name: 'web', namespace: 'ns' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
      },
      ...spec,
    },
  });
const rolling = (ru: RollingUpdateCloneSetStrategy) =>
  beta({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: ru } });
const messages = (cs: CloneSetV1beta1, old?: CloneSetV1beta1) =>
  aggregateMessage(validateCloneSetV1beta1(cs, old));

describe('validateCloneSetV1beta1', () => {
  it('a defaulted CloneSet, RollingUpdate or OnDelete with or without a block, is valid', () => {
    expect(validateCloneSetV1beta1(beta())).toEqual([]);
    expect(validateCloneSetV1beta1(beta({ updateStrategy: { type: 'OnDelete' } }))).toEqual([]);
    expect(
      validateCloneSetV1beta1(
        beta({ updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1, maxUnavailable: 1 } } }),
      ),
    ).toEqual([]);
  });

  it('the update type and podUpdatePolicy, with v1beta1 words and paths', () => {
    expect(messages(beta({ updateStrategy: { type: 'Rolling' } }))).toBe(
      `spec.updateStrategy.type: Invalid value: "Rolling": must be 'RollingUpdate' or 'OnDelete'`,
    );
    expect(messages(rolling({ podUpdatePolicy: 'Sometimes', partition: 0, maxUnavailable: 1 }))).toBe(
      `spec.updateStrategy.rollingUpdate.podUpdatePolicy: Invalid value: "Sometimes": must be 'ReCreate', 'InPlaceIfPossible' or 'InPlaceOnly'`,
    );
  });

  it('a rollingUpdate block without a partition is refused as upstream scales nil (an OnDelete one, undefaulted)', () => {
    expect(
      messages(beta({ updateStrategy: { type: 'OnDelete', rollingUpdate: { maxUnavailable: 1 } } })),
    ).toBe(
      'spec.updateStrategy.rollingUpdate.partition: Invalid value: "<nil>": failed GetScaledValueFromIntOrPercent for partition: nil value for IntOrString',
    );
  });

  it('maxSurge with InPlaceOnly; maxUnavailable and maxSurge both below 1', () => {
    expect(
      messages(rolling({ podUpdatePolicy: 'InPlaceOnly', partition: 0, maxUnavailable: 1, maxSurge: 1 })),
    ).toBe(
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "1": can not use maxSurge with podUpdatePolicy InPlaceOnly',
    );
    expect(
      messages(rolling({ podUpdatePolicy: 'ReCreate', partition: 0, maxUnavailable: 0, maxSurge: 0 })),
    ).toBe(
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: maxUnavailable and maxSurge should not both be less than 1',
    );
  });

  it('the pre-download fields: no percentage, an integer string, not negative', () => {
    const ips = (imagePreDownloadParallelism: number | string, more = {}) =>
      messages(
        rolling({
          podUpdatePolicy: 'InPlaceIfPossible',
          partition: 0,
          maxUnavailable: 1,
          inPlaceUpdateStrategy: { imagePreDownloadParallelism, ...more },
        }),
      );
    const p = 'spec.updateStrategy.rollingUpdate.inPlaceUpdateStrategy';
    expect(ips('50%')).toBe(
      `${p}.imagePreDownloadParallelism: Invalid value: "50%": imagePreDownloadParallelism does not support percentage value`,
    );
    expect(ips('abc')).toBe(
      `${p}.imagePreDownloadParallelism: Invalid value: "abc": imagePreDownloadParallelism must be a valid integer: strconv.ParseInt: parsing "abc": invalid syntax`,
    );
    expect(ips('-2')).toBe(
      `${p}.imagePreDownloadParallelism: Invalid value: "-2": imagePreDownloadParallelism must be non-negative`,
    );
    expect(ips(-1)).toBe(
      `${p}.imagePreDownloadParallelism: Invalid value: -1: imagePreDownloadParallelism must be non-negative`,
    );
    expect(ips('5', { imagePreDownloadTimeoutSeconds: -1, imagePreDownloadMinUpdatedReadyPods: -3 })).toBe(
      `[${p}.imagePreDownloadTimeoutSeconds: Invalid value: -1: must be greater than or equal to 0, ${p}.imagePreDownloadMinUpdatedReadyPods: Invalid value: -3: must be greater than or equal to 0]`,
    );
  });

  it('the rules v1alpha1 shares: selector against the template labels', () => {
    expect(messages(beta({ selector: { matchLabels: { app: 'other' } } }))).toBe(
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    );
  });

  it('has none of v1alpha1’s progressDeadlineSeconds rule nor its InPlaceOnly images-only update rule', () => {
    expect(validateCloneSetV1beta1(beta({ minReadySeconds: 10, progressDeadlineSeconds: 5 }))).toEqual([]);
    const old = rolling({ podUpdatePolicy: 'InPlaceOnly', partition: 0, maxUnavailable: 1 });
    const changed = structuredClone(old);
    changed.spec.template.spec.containers[0].env = [{ name: 'A', value: '1' }];
    expect(validateCloneSetV1beta1(changed, old)).toEqual([]);
  });

  it('an UPDATE of a fixed field is refused first, then the create rules', () => {
    const old = beta();
    const changed = beta({ selector: { matchLabels: { app: 'web', tier: 'x' } } });
    expect(messages(changed, old)).toBe(
      "[spec: Forbidden: updates to cloneset spec for fields other than 'replicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', 'progressDeadlineSeconds', 'volumeClaimTemplates' and 'revisionHistoryLimit' are forbidden, spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"web\"}: `selector` does not match template `labels`]",
    );
  });
});
