/**
 * lib/controllers/sidecarset/api/conversion.ts: SidecarSet v1alpha1 ↔ v1beta1 as OpenKruise v1.9.0's
 * `apis/apps/v1alpha1/sidecarset_conversion.go` maps them (`spec.namespace` → a namespaceSelector, the
 * custom-version label ↔ `spec.customVersion`, Go's `omitempty` on `paused`), every other field copied, round trips
 * checked field by field, and the converter answering ConversionReviews for sidecarsets.apps.kruise.io.
 */
import { describe, expect, it } from '@jest/globals';
import type { JsonObject } from '../../../../../lib/api/types.js';
import { handleConversionReview } from '../../../../../lib/api/conversion/review.js';
import { CRD_CONVERTERS } from '../../../../../lib/controllers/conversions.js';
import {
  sidecarSetConverter,
  sidecarSetToV1alpha1,
  sidecarSetToV1beta1,
} from '../../../../../lib/controllers/sidecarset/api/conversion.js';

const CUSTOM = 'apps.kruise.io/sidecarset-custom-version';
const annotations = { 'kruise.io/sidecarset-hash': 'h1', 'kruise.io/sidecarset-hash-without-image': 'h2' };
const meta = (labels?: Record<string, string>): JsonObject => ({
  name: 'sc',
  uid: 'u',
  resourceVersion: '7',
  generation: 3,
  annotations,
  ...(labels ? { labels } : {}),
});

/** Every spec field the two versions share, each with a non-zero value. */
const commonSpec = (): JsonObject => ({
  selector: { matchLabels: { app: 'web' } },
  namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['a', 'b'] }] },
  initContainers: [
    {
      name: 'init',
      image: 'busybox:1',
      restartPolicy: 'Always',
      resources: {},
      podInjectPolicy: 'BeforeAppContainer',
      upgradeStrategy: {},
      shareVolumePolicy: { type: 'disabled' },
    },
  ],
  containers: [
    {
      name: 'proxy',
      image: 'nginx:1',
      resources: { limits: { cpu: '100m' } },
      podInjectPolicy: 'AfterAppContainer',
      upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' },
      shareVolumePolicy: { type: 'enabled' },
      shareVolumeDevicePolicy: { type: 'enabled' },
      transferEnv: [
        { sourceContainerName: 'main', envName: 'A' },
        {
          sourceContainerNameFrom: { fieldRef: { fieldPath: "metadata.labels['c']" } },
          envNames: ['B', 'C'],
        },
      ],
      resourcesPolicy: {
        targetContainersMode: 'sum',
        targetContainersNameRegex: '^app$',
        resourcesExpr: { limits: { cpu: 'max(cpu*50%, 50m)' }, requests: { memory: '200Mi' } },
      },
    },
  ],
  volumes: [{ name: 'v', emptyDir: {} }],
  updateStrategy: {
    type: 'RollingUpdate',
    paused: true,
    selector: { matchLabels: { canary: 'true' } },
    partition: '50%',
    maxUnavailable: 2,
    priorityStrategy: { weightPriority: [{ weight: 5, matchSelector: { matchLabels: { p: 'x' } } }] },
    scatterStrategy: [{ key: 'zone', value: 'a' }],
  },
  injectionStrategy: {
    paused: true,
    revision: { customVersion: 'v2', revisionName: 'sc-abc', policy: 'Partial' },
  },
  imagePullSecrets: [{ name: 'regcred' }],
  revisionHistoryLimit: 4,
  patchPodMetadata: [{ annotations: { 'x/y': 'z' }, patchPolicy: 'MergePatchJson' }],
});

const status = (): JsonObject => ({
  observedGeneration: 3,
  matchedPods: 4,
  updatedPods: 3,
  readyPods: 2,
  updatedReadyPods: 1,
  latestRevision: 'sc-abc',
  collisionCount: 1,
});

const alpha = (): JsonObject => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  metadata: meta({ app: 'x', [CUSTOM]: 'v3' }),
  spec: commonSpec(),
  status: status(),
});

const beta = (): JsonObject => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'SidecarSet',
  metadata: meta({ app: 'x' }),
  spec: { ...commonSpec(), customVersion: 'v3' },
  status: status(),
});

describe('SidecarSet v1alpha1 ↔ v1beta1', () => {
  it('v1alpha1 → v1beta1: the custom-version label moves into spec.customVersion, the rest is copied', () => {
    expect(sidecarSetToV1beta1(alpha())).toEqual(beta());
  });

  it('v1beta1 → v1alpha1: spec.customVersion becomes the label again, the rest is copied', () => {
    expect(sidecarSetToV1alpha1(beta())).toEqual(alpha());
  });

  const fields = Object.keys(commonSpec());
  it.each(fields)('spec.%s alone survives both round trips unchanged', (field) => {
    const spec: JsonObject = { [field]: commonSpec()[field]! };
    const a: JsonObject = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: meta(),
      spec,
    };
    const b: JsonObject = { ...a, apiVersion: 'apps.kruise.io/v1beta1' };
    expect(sidecarSetToV1beta1(a)).toEqual(b);
    expect(sidecarSetToV1alpha1(b)).toEqual(a);
    expect(sidecarSetToV1alpha1(sidecarSetToV1beta1(a))).toEqual(a);
    expect(sidecarSetToV1beta1(sidecarSetToV1alpha1(b))).toEqual(b);
  });

  it.each(Object.keys(status()))('status.%s survives both round trips unchanged', (field) => {
    const a: JsonObject = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: meta(),
      spec: {},
      status: { [field]: status()[field]! },
    };
    expect(sidecarSetToV1alpha1(sidecarSetToV1beta1(a))).toEqual(a);
    expect(sidecarSetToV1beta1(a).status).toEqual(a.status);
  });

  it('the whole objects survive both round trips', () => {
    expect(sidecarSetToV1alpha1(sidecarSetToV1beta1(alpha()))).toEqual(alpha());
    expect(sidecarSetToV1beta1(sidecarSetToV1alpha1(beta()))).toEqual(beta());
  });

  it("a v1alpha1 spec.namespace becomes a namespaceSelector on the name label, replacing one beside it (upstream's one way)", () => {
    const a = alpha();
    (a.spec as JsonObject).namespace = 'team-a';
    const b = sidecarSetToV1beta1(a);
    expect((b.spec as JsonObject).namespaceSelector).toEqual({
      matchLabels: { 'kubernetes.io/metadata.name': 'team-a' },
    });
    expect('namespace' in (b.spec as JsonObject)).toBe(false);
    // the way back keeps the selector: a v1alpha1 client reads it, and no namespace
    const back = sidecarSetToV1alpha1(b);
    expect((back.spec as JsonObject).namespaceSelector).toEqual({
      matchLabels: { 'kubernetes.io/metadata.name': 'team-a' },
    });
    expect('namespace' in (back.spec as JsonObject)).toBe(false);
    // an empty namespace is dropped, the selector beside it kept
    const empty = alpha();
    (empty.spec as JsonObject).namespace = '';
    expect(sidecarSetToV1beta1(empty)).toEqual(beta());
  });

  it('paused: false is not written in either direction (Go omitempty); paused: true is kept', () => {
    const a = alpha();
    const spec = a.spec as { updateStrategy: JsonObject; injectionStrategy: JsonObject };
    spec.updateStrategy.paused = false;
    spec.injectionStrategy.paused = false;
    const b = sidecarSetToV1beta1(a).spec as { updateStrategy: JsonObject; injectionStrategy: JsonObject };
    expect('paused' in b.updateStrategy).toBe(false);
    expect('paused' in b.injectionStrategy).toBe(false);
    expect(b.updateStrategy.type).toBe('RollingUpdate');
    const fromBeta = beta();
    (fromBeta.spec as { updateStrategy: JsonObject }).updateStrategy.paused = false;
    const back = sidecarSetToV1alpha1(fromBeta).spec as { updateStrategy: JsonObject };
    expect('paused' in back.updateStrategy).toBe(false);
  });

  it('an empty custom-version label is dropped (no customVersion), the labels map with it when it was the only one', () => {
    const a = alpha();
    a.metadata = meta({ [CUSTOM]: '' });
    const b = sidecarSetToV1beta1(a);
    expect(b.metadata).toEqual(meta());
    expect('customVersion' in (b.spec as JsonObject)).toBe(false);
  });

  it('without a customVersion the v1alpha1 labels are the v1beta1 ones; a v1beta1 label is overwritten by customVersion', () => {
    const b = beta();
    (b.spec as JsonObject).customVersion = undefined as unknown as string;
    delete (b.spec as JsonObject).customVersion;
    expect(sidecarSetToV1alpha1(b).metadata).toEqual(meta({ app: 'x' }));
    const both = beta();
    both.metadata = meta({ [CUSTOM]: 'old' });
    expect(sidecarSetToV1alpha1(both).metadata).toEqual(meta({ [CUSTOM]: 'v3' }));
  });

  it('an object without spec or status converts its apiVersion only; the input is not modified', () => {
    const bare: JsonObject = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: meta() };
    expect(sidecarSetToV1beta1(bare)).toEqual({ ...bare, apiVersion: 'apps.kruise.io/v1beta1' });
    const input = alpha();
    (input.spec as { updateStrategy: JsonObject }).updateStrategy.paused = false;
    const copy = structuredClone(input);
    sidecarSetToV1beta1(input);
    expect(input).toEqual(copy);
    const b = beta();
    const bCopy = structuredClone(b);
    sidecarSetToV1alpha1(b);
    expect(b).toEqual(bCopy);
  });

  it('is one of the converters /convert answers with, for sidecarsets.apps.kruise.io', () => {
    expect(CRD_CONVERTERS).toContain(sidecarSetConverter);
    const body = JSON.stringify({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: { uid: 'r1', desiredAPIVersion: 'apps.kruise.io/v1alpha1', objects: [beta()] },
    });
    expect(handleConversionReview(body, CRD_CONVERTERS)).toEqual({
      statusCode: 200,
      review: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        response: { uid: 'r1', result: { status: 'Success' }, convertedObjects: [alpha()] },
      },
    });
  });
});
