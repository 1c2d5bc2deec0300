/**
 * lib/controllers/workloadspread/api/conversion.ts: WorkloadSpread v1alpha1 ↔ v1beta1 as OpenKruise v1.9.0's
 * `workloadspread_conversion.go` maps the fields that differ (the subsets' node selector fields, the subset status
 * conditions' required reason and message), every other field copied as it is, and the converter answering
 * ConversionReviews for workloadspreads.apps.kruise.io.
 */
import { describe, expect, it } from '@jest/globals';
import type { JsonObject } from '../../../../../lib/api/types.js';
import { handleConversionReview } from '../../../../../lib/api/conversion/review.js';
import { CRD_CONVERTERS } from '../../../../../lib/controllers/conversions.js';
import {
  workloadSpreadConverter,
  workloadSpreadToV1alpha1,
  workloadSpreadToV1beta1,
} from '../../../../../lib/controllers/workloadspread/api/conversion.js';

const required = { matchExpressions: [{ key: 'zone', operator: 'In', values: ['zone-a'] }] };
const preferred = [
  { weight: 5, preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] } },
];
const tolerations = [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }];
const meta = { name: 'ws', namespace: 'ns', uid: 'u', resourceVersion: '3' };
const target = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' };
const ledger = { creatingPods: { 'web-abcde': '2026-12-04T12:00:00Z' } };

const alpha = (): JsonObject => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'WorkloadSpread',
  metadata: meta,
  spec: {
    targetRef: target,
    scheduleStrategy: { type: 'Fixed' },
    subsets: [
      {
        name: 'a',
        requiredNodeSelectorTerm: required,
        preferredNodeSelectorTerms: preferred,
        maxReplicas: 2,
      },
      { name: 'b', tolerations, patch: { metadata: { labels: { s: 'b' } } } },
    ],
  },
  status: {
    observedGeneration: 2,
    subsetStatuses: [{ name: 'a', replicas: 1, missingReplicas: 1, ...ledger }],
    versionedSubsetStatuses: { rev1: [{ name: 'b', replicas: 0, missingReplicas: -1 }] },
  },
});

const beta = (): JsonObject => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'WorkloadSpread',
  metadata: meta,
  spec: {
    targetRef: target,
    scheduleStrategy: { type: 'Fixed' },
    subsets: [
      { name: 'a', maxReplicas: 2, requiredNodeSelector: required, preferredNodeSelector: preferred },
      { name: 'b', tolerations, patch: { metadata: { labels: { s: 'b' } } } },
    ],
  },
  status: {
    observedGeneration: 2,
    subsetStatuses: [{ name: 'a', replicas: 1, missingReplicas: 1, ...ledger }],
    versionedSubsetStatuses: { rev1: [{ name: 'b', replicas: 0, missingReplicas: -1 }] },
  },
});

describe('WorkloadSpread conversion', () => {
  it("renames a subset's node selector fields both ways, everything else as it is", () => {
    expect(workloadSpreadToV1beta1(alpha())).toEqual(beta());
    expect(workloadSpreadToV1alpha1(beta())).toEqual(alpha());
  });

  it("gives v1alpha1 subset conditions v1beta1's required reason (Unknown when empty) and message", () => {
    const cond = (extra: JsonObject): JsonObject => ({
      type: 'SchedulableReason',
      status: 'False',
      lastTransitionTime: '2026-12-04T12:00:00Z',
      ...extra,
    });
    const withConditions = (conditions: JsonObject[]): JsonObject => ({
      ...alpha(),
      status: { subsetStatuses: [{ name: 'a', replicas: 0, missingReplicas: 2, conditions }] },
    });
    const up = workloadSpreadToV1beta1(
      withConditions([cond({}), cond({ reason: '', message: 'm' }), cond({ reason: 'R' })]),
    );
    expect(up.status).toEqual({
      subsetStatuses: [
        {
          name: 'a',
          replicas: 0,
          missingReplicas: 2,
          conditions: [
            cond({ reason: 'Unknown', message: '' }),
            cond({ reason: 'Unknown', message: 'm' }),
            cond({ reason: 'R', message: '' }),
          ],
        },
      ],
    });
    const back = workloadSpreadToV1alpha1(withConditions([cond({ reason: 'R', message: 'm' })]));
    expect(back.status).toEqual({
      subsetStatuses: [
        { name: 'a', replicas: 0, missingReplicas: 2, conditions: [cond({ reason: 'R', message: 'm' })] },
      ],
    });
  });

  it('an object without spec or status converts its apiVersion only; the input is not modified', () => {
    const bare: JsonObject = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'WorkloadSpread',
      metadata: meta,
    };
    expect(workloadSpreadToV1beta1(bare)).toEqual({ ...bare, apiVersion: 'apps.kruise.io/v1beta1' });
    const input = alpha();
    const copy = structuredClone(input);
    workloadSpreadToV1beta1(input);
    expect(input).toEqual(copy);
  });

  it('is one of the converters /convert answers with, for workloadspreads.apps.kruise.io', () => {
    expect(CRD_CONVERTERS).toContain(workloadSpreadConverter);
    const body = JSON.stringify({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: { uid: 'r1', desiredAPIVersion: 'apps.kruise.io/v1beta1', objects: [alpha()] },
    });
    expect(handleConversionReview(body, CRD_CONVERTERS)).toEqual({
      statusCode: 200,
      review: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        response: { uid: 'r1', result: { status: 'Success' }, convertedObjects: [beta()] },
      },
    });
  });
});
