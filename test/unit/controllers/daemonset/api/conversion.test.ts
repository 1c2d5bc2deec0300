/**
 * lib/controllers/daemonset/api/conversion.ts: Advanced DaemonSet v1alpha1 ↔ v1beta1 as OpenKruise v1.9.0's
 * `daemonset_conversion.go` maps the fields that differ (the revision hash's name, the progressive-create annotation
 * and `scaleStrategy.partitionedScaling`, the deprecated `Surging` type), every other field copied as it is, and
 * the converter answering ConversionReviews through lib/api/conversion.
 */
import { describe, expect, it } from '@jest/globals';
import type { JsonObject } from '../../../../../lib/api/types.js';
import {
  ANNOTATION_PROGRESSIVE_CREATE_POD,
  daemonSetConverter,
  daemonSetToV1alpha1,
  daemonSetToV1beta1,
} from '../../../../../lib/controllers/daemonset/api/conversion.js';
import { CRD_CONVERTERS } from '../../../../../lib/controllers/conversions.js';

const spec = {
  selector: { matchLabels: { app: 'a' } },
  template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } },
  updateStrategy: {
    type: 'RollingUpdate',
    rollingUpdate: {
      rollingUpdateType: 'InPlaceIfPossible',
      maxUnavailable: '20%',
      maxSurge: 0,
      selector: { matchLabels: { zone: 'a' } },
      partition: 1,
      paused: false,
    },
  },
  minReadySeconds: 5,
  burstReplicas: 10,
  revisionHistoryLimit: 3,
  lifecycle: { preDelete: { finalizersHandler: ['x/y'] } },
};
const status = {
  currentNumberScheduled: 3,
  numberMisscheduled: 0,
  desiredNumberScheduled: 3,
  numberReady: 2,
  observedGeneration: 4,
  updatedNumberScheduled: 1,
  numberAvailable: 2,
  numberUnavailable: 1,
  collisionCount: 1,
  conditions: [{ type: 'FailedValidation', status: 'False' }],
};
const meta = { name: 'd', namespace: 'ns', uid: 'u', resourceVersion: '7', annotations: { note: 'n' } };
const beta = (extra: JsonObject = {}): JsonObject => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'DaemonSet',
  metadata: meta,
  spec: { ...spec, ...extra },
  status: { ...status, updateRevision: 'abc123' },
});
const alpha = (annotations: Record<string, string> = {}): JsonObject => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'DaemonSet',
  metadata: { ...meta, annotations: { ...meta.annotations, ...annotations } },
  spec,
  status: { ...status, daemonSetHash: 'abc123' },
});

describe('Advanced DaemonSet conversion', () => {
  it('moves the revision hash between updateRevision and daemonSetHash and copies every shared field', () => {
    expect(daemonSetToV1alpha1(beta())).toEqual(alpha());
    expect(daemonSetToV1beta1(alpha())).toEqual(beta());
  });

  it('partitionedScaling is the progressive-create annotation in v1alpha1, both ways', () => {
    const withScaling = beta({ scaleStrategy: { partitionedScaling: true } });
    const asAlpha = daemonSetToV1alpha1(withScaling);
    expect(asAlpha).toEqual(alpha({ [ANNOTATION_PROGRESSIVE_CREATE_POD]: 'true' }));
    // back: the annotation stays, as OpenKruise copies the metadata
    expect(daemonSetToV1beta1(asAlpha)).toEqual({
      ...withScaling,
      metadata: { ...meta, annotations: { note: 'n', [ANNOTATION_PROGRESSIVE_CREATE_POD]: 'true' } },
    });
    // a scaleStrategy without partitionedScaling has no v1alpha1 form
    expect(daemonSetToV1alpha1(beta({ scaleStrategy: { partitionedScaling: false } }))).toEqual(alpha());
    // only "true" asks for it
    expect(
      (daemonSetToV1beta1(alpha({ [ANNOTATION_PROGRESSIVE_CREATE_POD]: 'yes' })).spec as JsonObject)
        .scaleStrategy,
    ).toBeUndefined();
  });

  it("v1alpha1's deprecated Surging type is Standard in v1beta1", () => {
    const surging = alpha();
    surging.spec = {
      ...spec,
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { rollingUpdateType: 'Surging', maxSurge: 1, maxUnavailable: 0 },
      },
    };
    expect((daemonSetToV1beta1(surging).spec as JsonObject).updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { rollingUpdateType: 'Standard', maxSurge: 1, maxUnavailable: 0 },
    });
  });

  it('an object without spec or status converts its apiVersion only; the input is not modified', () => {
    const bare: JsonObject = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'DaemonSet',
      metadata: { name: 'x' },
    };
    expect(daemonSetToV1alpha1(bare)).toEqual({ ...bare, apiVersion: 'apps.kruise.io/v1alpha1' });
    const input = beta({ scaleStrategy: { partitionedScaling: true } });
    const copy = structuredClone(input);
    daemonSetToV1alpha1(input);
    expect(input).toEqual(copy);
  });

  it('is one of the converters /convert answers with, for daemonsets.apps.kruise.io', () => {
    expect(CRD_CONVERTERS).toContain(daemonSetConverter);
    expect(daemonSetConverter.convert(beta(), 'v1beta1', 'v1alpha1')).toEqual(alpha());
    expect(daemonSetConverter.convert(alpha(), 'v1alpha1', 'v1beta1')).toEqual(beta());
  });
});
