/**
 * lib/controllers/daemonset/api/validation.ts: what OpenKruise v1.9.0's validating webhook for v1beta1 DaemonSets
 * (`validateDaemonSetSpecV1beta1`) refuses, with its paths and messages, on the object as its mutating webhook
 * defaults it.
 */
import { describe, expect, it } from '@jest/globals';
import { withDefaults } from '../../../../../lib/controllers/daemonset/api/defaults.js';
import type { DaemonSet, DaemonSetSpec } from '../../../../../lib/controllers/daemonset/api/types.js';
import { validateDaemonSet } from '../../../../../lib/controllers/daemonset/api/validation.js';

const ds = (spec: Partial<DaemonSetSpec> = {}, name = 'agent'): DaemonSet =>
  withDefaults({
    metadata: { name, namespace: 'ns' },
    spec: {
      selector: { matchLabels: { app: 'a' } },
      template: {
        metadata: { labels: { app: 'a' } },
        spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
      },
      ...spec,
    },
  });
const errors = (d: DaemonSet) => validateDaemonSet(d).map((e) => `${e.path}: ${e.message}`);
const rolling = (rollingUpdate: Record<string, unknown>) =>
  ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate } });

describe('validateDaemonSet', () => {
  it('takes a defaulted DaemonSet, OnDelete, InPlaceIfPossible, a surge, a percent partition', () => {
    expect(errors(ds())).toEqual([]);
    expect(errors(ds({ updateStrategy: { type: 'OnDelete' } }))).toEqual([]);
    expect(errors(rolling({ rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: '50%' }))).toEqual([]);
    expect(errors(rolling({ maxUnavailable: 0, maxSurge: 1, partition: '30%' }))).toEqual([]);
  });

  it('refuses the name, a selector its template does not match, and bad template labels', () => {
    expect(errors(ds({}, 'Agent_1'))).toEqual([
      `metadata.name: Invalid value: "Agent_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]);
    expect(errors(ds({ selector: { matchLabels: { app: 'b' } } }))).toEqual([
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"a"}: `selector` does not match template `labels`',
    ]);
  });

  it('refuses a template restartPolicy other than Always and an activeDeadlineSeconds', () => {
    const template = (extra: Record<string, unknown>) => ({
      metadata: { labels: { app: 'a' } },
      spec: { containers: [{ name: 'c', image: 'nginx:1' }], ...extra },
    });
    expect(errors(ds({ template: template({ restartPolicy: 'Never', activeDeadlineSeconds: 5 }) }))).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported',
    ]);
  });

  it('refuses both or neither of maxUnavailable and maxSurge, bad percentages, and surge with InPlaceIfPossible', () => {
    expect(errors(rolling({ maxUnavailable: 0, maxSurge: '0%' }))).toEqual([
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    ]);
    expect(errors(rolling({ maxUnavailable: 1, maxSurge: '150%' }))).toEqual([
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: may not be set when maxUnavailable is non-zero',
    ]);
    expect(errors(rolling({ maxUnavailable: -1 }))).toEqual([
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
    ]);
    expect(
      errors(rolling({ rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 0, maxSurge: 1 })),
    ).toEqual([
      'spec.updateStrategy.rollingUpdate.maxSurge: Required value: must be 0 for InPlaceIfPossible type',
    ]);
  });

  it("refuses Surge as a v1beta1 rollingUpdateType and a bad partition, at upstream's doubled paths", () => {
    expect(
      errors(rolling({ rollingUpdateType: 'Surge', maxUnavailable: 0, maxSurge: 1, partition: -2 })),
    ).toEqual([
      'spec.updateStrategy.rollingUpdate.rollingUpdate.type: Unsupported value: "Surge": supported values: "Standard", "InPlaceIfPossible"',
      'spec.updateStrategy.rollingUpdate.rollingUpdate.partition: Invalid value: -2: must be greater than or equal to 0',
    ]);
    expect(errors(rolling({ maxUnavailable: 1, partition: '101%' }))).toEqual([
      'spec.updateStrategy.rollingUpdate.rollingUpdate.partition: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%',
    ]);
  });

  it('refuses negative minReadySeconds and revisionHistoryLimit, an unknown strategy type, an inPlaceUpdate hook', () => {
    expect(
      errors(
        ds({
          minReadySeconds: -1,
          revisionHistoryLimit: -3,
          updateStrategy: { type: 'Blue' },
          lifecycle: { inPlaceUpdate: { markPodNotReady: true } },
        }),
      ),
    ).toEqual([
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.updateStrategy: Unsupported value: {"type":"Blue"}: supported values: "RollingUpdate", "OnDelete"',
      'spec.revisionHistoryLimit: Invalid value: -3: must be greater than or equal to 0',
      'spec.lifecycle.inPlaceUpdate: Forbidden: inPlaceUpdate hook has not supported yet',
    ]);
  });
});
