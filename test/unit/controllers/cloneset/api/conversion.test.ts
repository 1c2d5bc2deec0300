/**
 * CloneSet conversion (lib/controllers/cloneset/api/conversion.ts): every field of both versions maps as
 * OpenKruise v1.9.0's `cloneset_conversion.go` maps it, v1alpha1 → v1beta1 → v1alpha1 and v1beta1 → v1alpha1 →
 * v1beta1 are the identity (exact objects), and what OpenKruise's mapping loses travels in a marker annotation.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { JsonObject, JsonValue } from '../../../../../lib/api/types.js';
import type {
  CloneSet,
  CloneSetSpec,
  CloneSetStatus,
  CloneSetUpdateStrategy,
} from '../../../../../lib/api/types.js';
import type {
  CloneSetScaleStrategyV1beta1,
  CloneSetSpecV1beta1,
  InPlaceUpdateStrategyV1beta1,
  RollingUpdateCloneSetStrategy,
} from '../../../../../lib/api/v1beta1.js';
import { ConversionError } from '../../../../../lib/api/conversion/converter.js';
import { handleConversionReview } from '../../../../../lib/api/conversion/review.js';
import {
  ANNOTATION_CLONESET_V1ALPHA1_FIELDS,
  ANNOTATION_CLONESET_V1BETA1_FIELDS,
  cloneSetConverter,
  convertCloneSet,
  v1beta1View,
} from '../../../../../lib/controllers/cloneset/api/conversion.js';
import { applyDefaults } from '../../../../../lib/controllers/cloneset/api/defaults.js';
import { resolveStrategy } from '../../../../../lib/controllers/cloneset/plan/strategy.js';
import { DEFAULT_PLANNER_OPTIONS } from '../../../../../lib/controllers/cloneset/plan/types.js';
import { CRD_CONVERTERS } from '../../../../../lib/controllers/conversions.js';

const EXCLUDE = 'apps.kruise.io/cloneset-scaling-exclude-preparing-delete';
const PAR = 'apps.kruise.io/image-predownload-parallelism';
const TMO = 'apps.kruise.io/image-predownload-timeout-seconds';
const MIN = 'apps.kruise.io/image-predownload-min-updated-ready-pods';

/** Every JSON name of each type: a missing or extra key is a compile error against lib's types. */
const ALPHA_SPEC: Record<keyof CloneSetSpec, true> = {
  replicas: true,
  selector: true,
  template: true,
  volumeClaimTemplates: true,
  scaleStrategy: true,
  updateStrategy: true,
  revisionHistoryLimit: true,
  minReadySeconds: true,
  lifecycle: true,
  progressDeadlineSeconds: true,
};
const ALPHA_UPDATE: Record<keyof CloneSetUpdateStrategy, true> = {
  type: true,
  partition: true,
  maxUnavailable: true,
  maxSurge: true,
  paused: true,
  priorityStrategy: true,
  scatterStrategy: true,
  inPlaceUpdateStrategy: true,
};
const BETA_SPEC: Record<keyof CloneSetSpecV1beta1, true> = { ...ALPHA_SPEC };
const BETA_ROLLING: Record<keyof RollingUpdateCloneSetStrategy, true> = {
  partition: true,
  maxUnavailable: true,
  maxSurge: true,
  podUpdatePolicy: true,
  paused: true,
  priorityStrategy: true,
  scatterStrategy: true,
  inPlaceUpdateStrategy: true,
};
const BETA_SCALE: Record<keyof CloneSetScaleStrategyV1beta1, true> = {
  podsToDelete: true,
  maxUnavailable: true,
  enablePVCReuse: true,
  excludePreparingDelete: true,
};
const BETA_IPS: Record<keyof InPlaceUpdateStrategyV1beta1, true> = {
  gracePeriodSeconds: true,
  imagePreDownloadParallelism: true,
  imagePreDownloadTimeoutSeconds: true,
  imagePreDownloadMinUpdatedReadyPods: true,
};
const STATUS: Record<keyof CloneSetStatus, true> = {
  observedGeneration: true,
  replicas: true,
  readyReplicas: true,
  availableReplicas: true,
  updatedReplicas: true,
  updatedReadyReplicas: true,
  updatedAvailableReplicas: true,
  expectedUpdatedReplicas: true,
  updateRevision: true,
  currentRevision: true,
  collisionCount: true,
  labelSelector: true,
  conditions: true,
};

const metadata = (labels: JsonObject, annotations: JsonObject): JsonObject => ({
  name: 'web',
  namespace: 'demo',
  uid: '9d1c0e8e-0000-4000-8000-000000000001',
  resourceVersion: '42',
  generation: 3,
  creationTimestamp: '2026-12-02T10:00:00Z',
  labels: { app: 'web', ...labels },
  annotations: { note: 'kept', ...annotations },
  finalizers: ['example.com/hold'],
});

const shared = (): JsonObject => ({
  replicas: 5,
  selector: { matchLabels: { app: 'web' } },
  template: {
    metadata: { labels: { app: 'web' } },
    spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
  },
  volumeClaimTemplates: [
    {
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    },
  ],
  revisionHistoryLimit: 7,
  minReadySeconds: 3,
  lifecycle: {
    preDelete: { labelsHandler: { hold: 'true' }, finalizersHandler: ['a/b'], markPodNotReady: true },
    inPlaceUpdate: { labelsHandler: { upd: 'true' } },
    preNormal: { finalizersHandler: ['c/d'] },
  },
  progressDeadlineSeconds: 600,
});

const priorityStrategy = {
  weightPriority: [{ weight: 50, matchSelector: { matchLabels: { zone: 'a' } } }],
};
const scatterStrategy = [{ key: 'zone', value: 'a' }];

const status = (): JsonObject => ({
  observedGeneration: 3,
  replicas: 5,
  readyReplicas: 4,
  availableReplicas: 4,
  updatedReplicas: 2,
  updatedReadyReplicas: 2,
  updatedAvailableReplicas: 1,
  expectedUpdatedReplicas: 3,
  updateRevision: 'web-2',
  currentRevision: 'web-1',
  collisionCount: 1,
  labelSelector: 'app=web',
  conditions: [
    {
      type: 'Progressing',
      status: 'True',
      lastUpdateTime: '2026-12-02T10:01:00Z',
      lastTransitionTime: '2026-12-02T10:00:30Z',
      reason: 'CloneSetUpdated',
      message: 'rolling',
    },
  ],
});

/** A v1alpha1 CloneSet with every field set (and the label and annotations the mapping reads). */
const alpha = (): JsonObject => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: metadata({ [EXCLUDE]: 'true' }, { [PAR]: '50%', [TMO]: '600', [MIN]: '2' }),
  spec: {
    ...shared(),
    scaleStrategy: { podsToDelete: ['web-abc'], maxUnavailable: 1, disablePVCReuse: true },
    updateStrategy: {
      type: 'InPlaceIfPossible',
      partition: '40%',
      maxUnavailable: 2,
      maxSurge: '10%',
      paused: true,
      priorityStrategy,
      scatterStrategy,
      inPlaceUpdateStrategy: { gracePeriodSeconds: 10 },
    },
  },
  status: status(),
});

/** {@link alpha} as OpenKruise's ConvertTo maps it (no marker: nothing is lost). */
const alphaAsBeta = (): JsonObject => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'CloneSet',
  metadata: metadata({ [EXCLUDE]: 'true' }, { [PAR]: '50%', [TMO]: '600', [MIN]: '2' }),
  spec: {
    ...shared(),
    scaleStrategy: {
      podsToDelete: ['web-abc'],
      maxUnavailable: 1,
      excludePreparingDelete: true,
    },
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: {
        partition: '40%',
        maxUnavailable: 2,
        maxSurge: '10%',
        priorityStrategy,
        scatterStrategy,
        podUpdatePolicy: 'InPlaceIfPossible',
        paused: true,
        inPlaceUpdateStrategy: {
          gracePeriodSeconds: 10,
          imagePreDownloadParallelism: '50%',
          imagePreDownloadTimeoutSeconds: 600,
          imagePreDownloadMinUpdatedReadyPods: 2,
        },
      },
    },
  },
  status: status(),
});

/** A v1beta1 CloneSet with every field set, as a v1beta1 client writes it (no v1alpha1 label or annotations). */
const beta = (): JsonObject => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'CloneSet',
  metadata: metadata({}, {}),
  spec: {
    ...shared(),
    scaleStrategy: {
      podsToDelete: ['web-abc'],
      maxUnavailable: '10%',
      enablePVCReuse: true,
      excludePreparingDelete: false,
    },
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: {
        partition: 1,
        maxUnavailable: '30%',
        maxSurge: 1,
        podUpdatePolicy: 'InPlaceOnly',
        paused: false,
        priorityStrategy: { orderPriority: [{ orderedKey: 'rank' }] },
        scatterStrategy,
        inPlaceUpdateStrategy: {
          gracePeriodSeconds: 5,
          imagePreDownloadParallelism: 3,
          imagePreDownloadTimeoutSeconds: 300,
          imagePreDownloadMinUpdatedReadyPods: 1,
        },
      },
    },
  },
  status: status(),
});

const keysOf = (o: JsonObject, path: string[]): string[] => {
  let v: unknown = o;
  for (const p of path) v = (v as JsonObject)[p];
  return Object.keys(v as JsonObject).sort();
};
const sorted = (r: Record<string, true>) => Object.keys(r).sort();
const annotationsOf = (o: JsonObject): Record<string, string> =>
  ((o.metadata as JsonObject).annotations ?? {}) as Record<string, string>;

const GOLDEN_DIR = path.join(process.cwd(), 'test/unit/controllers/cloneset/api/conversion-golden');
const golden = (f: string): JsonObject =>
  JSON.parse(fs.readFileSync(path.join(GOLDEN_DIR, f), 'utf8')) as JsonObject;

/** Go's zero values OpenKruise's structs add (`creationTimestamp: null`, `resources: {}`, `status: {}`), removed. */
function withoutGoZeroValues(v: JsonValue): JsonValue | undefined {
  if (v === null) return undefined;
  if (Array.isArray(v)) return v.map((x) => withoutGoZeroValues(x) ?? null);
  if (typeof v !== 'object') return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) {
    const y = withoutGoZeroValues(x);
    const empty = typeof y === 'object' && y !== null && !Array.isArray(y) && Object.keys(y).length === 0;
    if (y !== undefined && !empty) out[k] = y;
  }
  return out;
}

/** What OpenKruise v1.9.0's own `/convert` answered (./conversion-golden/README.md). */
function openKruiseAnswer(from: string, to: string): JsonValue | undefined {
  const review = golden(`openkruise.${from}-to-${to}.json`);
  const response = review.response as { result: { status: string }; convertedObjects: JsonValue[] };
  expect(response.result.status).toBe('Success');
  return withoutGoZeroValues(response.convertedObjects[0] ?? null);
}

const withoutMarkers = (o: JsonObject): JsonObject => {
  const meta = o.metadata as JsonObject;
  const {
    [ANNOTATION_CLONESET_V1BETA1_FIELDS]: _b,
    [ANNOTATION_CLONESET_V1ALPHA1_FIELDS]: _a,
    ...annotations
  } = (meta.annotations ?? {}) as Record<string, string>;
  return { ...o, metadata: { ...meta, annotations } };
};

describe('OpenKruise v1.9.0 /convert (golden answers of cloneset_conversion.go)', () => {
  test('the fixtures are the golden inputs', () => {
    expect(alpha()).toEqual(golden('every-field.v1alpha1.json'));
    expect(beta()).toEqual(golden('every-field.v1beta1.json'));
  });
  test('v1alpha1 → v1beta1 is its answer (less Go zero values)', () => {
    expect(convertCloneSet(alpha(), 'v1alpha1', 'v1beta1')).toEqual(openKruiseAnswer('v1alpha1', 'v1beta1'));
  });
  test('v1beta1 → v1alpha1 is its answer (less Go zero values and our marker)', () => {
    expect(withoutMarkers(convertCloneSet(beta(), 'v1beta1', 'v1alpha1'))).toEqual(
      openKruiseAnswer('v1beta1', 'v1alpha1'),
    );
  });
});

describe('the test objects set every field of both versions', () => {
  it('v1alpha1', () => {
    expect(keysOf(alpha(), ['spec'])).toEqual(sorted(ALPHA_SPEC));
    expect(keysOf(alpha(), ['spec', 'updateStrategy'])).toEqual(sorted(ALPHA_UPDATE));
    expect(keysOf(alpha(), ['status'])).toEqual(sorted(STATUS));
  });
  it('v1beta1', () => {
    expect(keysOf(beta(), ['spec'])).toEqual(sorted(BETA_SPEC));
    expect(keysOf(beta(), ['spec', 'scaleStrategy'])).toEqual(sorted(BETA_SCALE));
    expect(keysOf(beta(), ['spec', 'updateStrategy', 'rollingUpdate'])).toEqual(sorted(BETA_ROLLING));
    expect(keysOf(beta(), ['spec', 'updateStrategy', 'rollingUpdate', 'inPlaceUpdateStrategy'])).toEqual(
      sorted(BETA_IPS),
    );
  });
});

describe('v1alpha1 → v1beta1 → v1alpha1', () => {
  it('maps every field as OpenKruise does and comes back unchanged, with no marker', () => {
    const b = convertCloneSet(alpha(), 'v1alpha1', 'v1beta1');
    expect(b).toEqual(alphaAsBeta());
    expect(convertCloneSet(b, 'v1beta1', 'v1alpha1')).toEqual(alpha());
  });

  it('does not modify its input', () => {
    const a = alpha();
    convertCloneSet(a, 'v1alpha1', 'v1beta1');
    expect(a).toEqual(alpha());
  });

  it('OnDelete with rolling fields: v1beta1 has no rollingUpdate (as OpenKruise) and the marker brings them back', () => {
    const a = alpha();
    (a.spec as JsonObject).updateStrategy = {
      type: 'OnDelete',
      partition: 2,
      maxUnavailable: 1,
      paused: true,
    };
    const b = convertCloneSet(a, 'v1alpha1', 'v1beta1');
    expect((b.spec as JsonObject).updateStrategy).toEqual({ type: 'OnDelete' });
    expect(JSON.parse(annotationsOf(b)[ANNOTATION_CLONESET_V1ALPHA1_FIELDS] ?? '')).toEqual({
      was: {
        scaleStrategy: { podsToDelete: ['web-abc'], maxUnavailable: 1, disablePVCReuse: true },
        updateStrategy: { type: 'OnDelete', partition: 2, maxUnavailable: 1, paused: true },
        labels: { [EXCLUDE]: 'true' },
        annotations: { [PAR]: '50%', [TMO]: '600', [MIN]: '2' },
      },
      as: {
        scaleStrategy: { podsToDelete: ['web-abc'], maxUnavailable: 1, excludePreparingDelete: true },
        updateStrategy: { type: 'OnDelete' },
        labels: { [EXCLUDE]: 'true' },
        annotations: { [PAR]: '50%', [TMO]: '600', [MIN]: '2' },
      },
    });
    expect(convertCloneSet(b, 'v1beta1', 'v1alpha1')).toEqual(a);
  });

  it('no updateStrategy, an empty inPlaceUpdateStrategy, a pre-download annotation that is no int32: all come back', () => {
    for (const updateStrategy of [undefined, { type: 'ReCreate', inPlaceUpdateStrategy: {} }]) {
      const a = alpha();
      const spec = a.spec as JsonObject;
      if (updateStrategy) spec.updateStrategy = updateStrategy;
      else delete spec.updateStrategy;
      (a.metadata as JsonObject).annotations = { [TMO]: 'soon', [PAR]: '007' };
      const b = convertCloneSet(a, 'v1alpha1', 'v1beta1');
      expect(annotationsOf(b)[ANNOTATION_CLONESET_V1ALPHA1_FIELDS]).toBeDefined();
      expect(convertCloneSet(b, 'v1beta1', 'v1alpha1')).toEqual(a);
    }
  });
});

describe('v1beta1 → v1alpha1 → v1beta1', () => {
  it('maps every field as OpenKruise does and comes back unchanged', () => {
    const a = convertCloneSet(beta(), 'v1beta1', 'v1alpha1');
    const { [ANNOTATION_CLONESET_V1BETA1_FIELDS]: marker, ...annotations } = annotationsOf(a);
    // OpenKruise's ConvertFrom: the pre-download fields as annotations, paused: false and
    // excludePreparingDelete: false (its zero values) not written, enablePVCReuse negated
    expect({ ...a, metadata: { ...(a.metadata as JsonObject), annotations } }).toEqual({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: metadata({}, { [PAR]: '3', [TMO]: '300', [MIN]: '1' }),
      spec: {
        ...shared(),
        scaleStrategy: { podsToDelete: ['web-abc'], maxUnavailable: '10%' },
        updateStrategy: {
          type: 'InPlaceOnly',
          partition: 1,
          maxUnavailable: '30%',
          maxSurge: 1,
          priorityStrategy: { orderPriority: [{ orderedKey: 'rank' }] },
          scatterStrategy,
          inPlaceUpdateStrategy: { gracePeriodSeconds: 5 },
        },
      },
      status: status(),
    });
    // the annotations v1beta1 did not have, and the explicit false values, are what the marker keeps
    expect(JSON.parse(marker ?? '')).toMatchObject({ was: { labels: {}, annotations: {} } });
    expect(convertCloneSet(a, 'v1alpha1', 'v1beta1')).toEqual(beta());
  });

  it('without the values only v1beta1 spells out, needs no marker', () => {
    const b = beta();
    const metaB = b.metadata as JsonObject;
    metaB.annotations = { note: 'kept', [PAR]: '3', [TMO]: '300', [MIN]: '1' };
    const spec = b.spec as JsonObject;
    spec.scaleStrategy = { podsToDelete: ['web-abc'], maxUnavailable: '10%', enablePVCReuse: true };
    const ru = (spec.updateStrategy as JsonObject).rollingUpdate as JsonObject;
    delete ru.paused;
    const a = convertCloneSet(b, 'v1beta1', 'v1alpha1');
    expect(annotationsOf(a)[ANNOTATION_CLONESET_V1BETA1_FIELDS]).toBeUndefined();
    expect(convertCloneSet(a, 'v1alpha1', 'v1beta1')).toEqual(b);
  });

  it('excludePreparingDelete without the label, OnDelete with a rollingUpdate, no scaleStrategy: all come back', () => {
    const b = beta();
    const spec = b.spec as JsonObject;
    delete spec.scaleStrategy;
    (spec.updateStrategy as JsonObject).type = 'OnDelete';
    const a = convertCloneSet(b, 'v1beta1', 'v1alpha1');
    expect((a.spec as JsonObject).updateStrategy).toMatchObject({ type: 'OnDelete', partition: 1 });
    expect((a.spec as JsonObject).scaleStrategy).toEqual({ disablePVCReuse: true });
    expect(convertCloneSet(a, 'v1alpha1', 'v1beta1')).toEqual(b);

    const c = beta();
    (c.spec as JsonObject).scaleStrategy = { excludePreparingDelete: true, enablePVCReuse: false };
    const ca = convertCloneSet(c, 'v1beta1', 'v1alpha1');
    expect((ca.metadata as JsonObject).labels).toEqual({ app: 'web' });
    expect(convertCloneSet(ca, 'v1alpha1', 'v1beta1')).toEqual(c);
  });

  it('a marker still matches after the API server defaults the stored v1alpha1 object', () => {
    const b = beta();
    ((b.spec as JsonObject).updateStrategy as JsonObject).rollingUpdate = {
      podUpdatePolicy: 'InPlaceIfPossible',
    };
    const a = convertCloneSet(b, 'v1beta1', 'v1alpha1');
    expect((a.spec as JsonObject).updateStrategy).toEqual({ type: 'InPlaceIfPossible' });
    // infra/crds/apps.kruise.io_clonesets.yaml's defaults, applied on read from etcd
    (a.spec as JsonObject).updateStrategy = {
      type: 'InPlaceIfPossible',
      partition: 0,
      maxUnavailable: '20%',
      maxSurge: 0,
    };
    expect(convertCloneSet(a, 'v1alpha1', 'v1beta1')).toEqual(b);
  });

  it('a marker whose part was edited since is dropped: the edit wins through the plain mapping', () => {
    const a = convertCloneSet(beta(), 'v1beta1', 'v1alpha1');
    ((a.spec as JsonObject).updateStrategy as JsonObject).partition = 4;
    const b = convertCloneSet(a, 'v1alpha1', 'v1beta1');
    const ru = ((b.spec as JsonObject).updateStrategy as JsonObject).rollingUpdate as JsonObject;
    expect(ru.partition).toBe(4);
    expect(ru.paused).toBeUndefined();
    expect(annotationsOf(b)[ANNOTATION_CLONESET_V1BETA1_FIELDS]).toBeUndefined();
  });
});

describe('the converter', () => {
  it('refuses a marker that is not its JSON, naming the annotation', () => {
    const a = alpha();
    (a.metadata as JsonObject).annotations = { [ANNOTATION_CLONESET_V1BETA1_FIELDS]: '{"was":1}' };
    expect(() => convertCloneSet(a, 'v1alpha1', 'v1beta1')).toThrow(
      new ConversionError(
        `metadata.annotations[${ANNOTATION_CLONESET_V1BETA1_FIELDS}]: not the JSON {"was": {...}, "as": {...}} ` +
          'Kruiseless writes there (remove the annotation to convert without it)',
      ),
    );
  });

  it('is registered for CloneSet and answers a ConversionReview both ways', () => {
    expect(CRD_CONVERTERS).toContain(cloneSetConverter);
    const review = (desired: string, o: JsonObject) =>
      JSON.stringify({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        request: { uid: 'u1', desiredAPIVersion: desired, objects: [o] },
      });
    const up = handleConversionReview(review('apps.kruise.io/v1beta1', alpha()), CRD_CONVERTERS);
    expect(up.review.response).toEqual({
      uid: 'u1',
      convertedObjects: [alphaAsBeta()],
      result: { status: 'Success' },
    });
    const down = handleConversionReview(review('apps.kruise.io/v1alpha1', alphaAsBeta()), CRD_CONVERTERS);
    expect(down.review.response?.convertedObjects).toEqual([alpha()]);
  });
});

/**
 * OpenKruise's controller reads v1beta1, whose `scaleStrategy.excludePreparingDelete` its v1alpha1 spells as a label
 * and does not carry back: a CloneSet written through v1beta1 with the field kept it only in the marker, and
 * Kruiseless's controller (reading v1alpha1) ignored it — OpenKruise's v1beta1 e2e spec `specific scale down with
 * lifecycle and then scale up, when scalingExcludePreparingDelete is enabled` failed on Kruiseless alone.
 */
describe('v1beta1View: excludePreparingDelete as the controller reads it', () => {
  const beta = (scaleStrategy: JsonObject): JsonObject => ({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'CloneSet',
    metadata: { name: 'x', namespace: 'ns' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'x' } },
      template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      scaleStrategy,
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { podUpdatePolicy: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 },
      },
    },
  });
  const stored = (scaleStrategy: JsonObject) => convertCloneSet(beta(scaleStrategy), 'v1beta1', 'v1alpha1');

  it('true for a v1beta1 write with the field, false without it', () => {
    expect(v1beta1View(stored({ excludePreparingDelete: true }))).toEqual({
      excludePreparingDelete: true,
      onDeleteRollingUpdate: false,
    });
    expect(v1beta1View(stored({})).excludePreparingDelete).toBe(false);
  });

  it('false once the strategy recorded in the marker was changed through v1alpha1 (the marker no longer holds)', () => {
    const alpha = stored({ excludePreparingDelete: true });
    const edited = {
      ...alpha,
      spec: { ...(alpha.spec as JsonObject), updateStrategy: { type: 'InPlaceIfPossible', partition: 1 } },
    };
    expect(v1beta1View(edited).excludePreparingDelete).toBe(false);
  });

  it('false, never a throw, for a marker that is not the converter’s JSON', () => {
    const alpha = stored({ excludePreparingDelete: true });
    const meta = alpha.metadata as JsonObject;
    const broken = {
      ...alpha,
      metadata: { ...meta, annotations: { [ANNOTATION_CLONESET_V1BETA1_FIELDS]: '{not json' } },
    };
    expect(v1beta1View(broken)).toEqual({ excludePreparingDelete: false, onDeleteRollingUpdate: false });
  });

  it('counts as the label in the resolved strategy', () => {
    const cs = applyDefaults(stored({ excludePreparingDelete: true }) as unknown as CloneSet);
    expect(resolveStrategy(cs, DEFAULT_PLANNER_OPTIONS).excludePreparingDelete).toBe(false);
    expect(
      resolveStrategy(cs, DEFAULT_PLANNER_OPTIONS, v1beta1View(stored({ excludePreparingDelete: true })))
        .excludePreparingDelete,
    ).toBe(true);
  });
});

/**
 * OpenKruise's `calculateDiffsWithExpectation` reads the partition, maxSurge and maxUnavailable of a `rollingUpdate`
 * block whatever the type, so an OnDelete CloneSet written through v1beta1 with one counts its partition in
 * `expectedUpdatedReplicas` (parity scenario `v1beta1-ondelete`: 2 of 3 on OpenKruise, 3 on Kruiseless before).
 */
describe('v1beta1View: an OnDelete rollingUpdate block as the controller reads it', () => {
  const beta = (updateStrategy: JsonObject): JsonObject => ({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'CloneSet',
    metadata: { name: 'ondel', namespace: 'ns' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'ondel' } },
      template: { metadata: { labels: { app: 'ondel' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      updateStrategy,
    },
  });
  const stored = (updateStrategy: JsonObject) => convertCloneSet(beta(updateStrategy), 'v1beta1', 'v1alpha1');

  it('OnDelete with a block: the block counts, its partition in expectedUpdatedReplicas', () => {
    const alpha = stored({ type: 'OnDelete', rollingUpdate: { partition: 1, maxUnavailable: 1 } });
    const view = v1beta1View(alpha);
    expect(view).toEqual({ excludePreparingDelete: false, onDeleteRollingUpdate: true });
    const s = resolveStrategy(applyDefaults(alpha as unknown as CloneSet), DEFAULT_PLANNER_OPTIONS, view);
    expect([s.rollingUpdate, s.partition, s.maxUnavailable, s.expectedUpdatedReplicas]).toEqual([
      true,
      1,
      1,
      2,
    ]);
    expect(s.updateType).toBe('OnDelete');
  });

  it('OnDelete without a block (and so any OnDelete written through v1alpha1): no rolling numbers', () => {
    const alpha = stored({ type: 'OnDelete' });
    const view = v1beta1View(alpha);
    expect(view.onDeleteRollingUpdate).toBe(false);
    const s = resolveStrategy(applyDefaults(alpha as unknown as CloneSet), DEFAULT_PLANNER_OPTIONS, view);
    expect([s.rollingUpdate, s.partition, s.maxUnavailable, s.expectedUpdatedReplicas]).toEqual([
      false,
      0,
      0,
      3,
    ]);
  });

  it('a RollingUpdate write is no OnDelete block', () => {
    const alpha = stored({
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', partition: 1 },
    });
    expect(v1beta1View(alpha).onDeleteRollingUpdate).toBe(false);
  });
});
