/**
 * Advanced StatefulSet conversion (lib/controllers/statefulset/api/conversion.ts): v1beta1 → v1alpha1 → v1beta1 and
 * v1alpha1 → v1beta1 → v1alpha1 are the identity for an object with every field of both versions set, the shared
 * fields convert as OpenKruise v1.9.0's own `/convert` does (golden answers in ./conversion-golden, from
 * `statefulset_conversion.go` itself), and the v1beta1-only fields OpenKruise drops travel in one annotation.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { JsonObject, JsonValue } from '../../../../../lib/api/types.js';
import { ConversionError } from '../../../../../lib/api/conversion/converter.js';
import {
  V1BETA1_ONLY_FIELDS,
  statefulSetConverter,
  toV1alpha1,
  toV1beta1,
} from '../../../../../lib/controllers/statefulset/api/conversion.js';
import { ANNOTATION_V1BETA1_FIELDS } from '../../../../../lib/controllers/statefulset/api/keys.js';
import type {
  RollingUpdateStatefulSetStrategy,
  StatefulSetSpec,
  StatefulSetStatus,
} from '../../../../../lib/controllers/statefulset/api/types.js';

const GOLDEN_DIR = path.join(process.cwd(), 'test/unit/controllers/statefulset/api/conversion-golden');
const golden = (f: string): JsonObject =>
  JSON.parse(fs.readFileSync(path.join(GOLDEN_DIR, f), 'utf8')) as JsonObject;
const beta = (): JsonObject => golden('every-field.v1beta1.json');
const alpha = (): JsonObject => golden('every-field.v1alpha1.json');
const obj = (v: JsonValue | undefined): JsonObject => v as JsonObject;

/** Every JSON name of v1beta1's spec (a missing or extra key is a compile error against lib's type). */
const SPEC_FIELDS: Record<keyof StatefulSetSpec, true> = {
  replicas: true,
  selector: true,
  template: true,
  volumeClaimTemplates: true,
  volumeClaimUpdateStrategy: true,
  serviceName: true,
  podManagementPolicy: true,
  updateStrategy: true,
  revisionHistoryLimit: true,
  reserveOrdinals: true,
  lifecycle: true,
  scaleStrategy: true,
  persistentVolumeClaimRetentionPolicy: true,
  ordinals: true,
};
const STATUS_FIELDS: Record<keyof StatefulSetStatus, true> = {
  observedGeneration: true,
  replicas: true,
  readyReplicas: true,
  availableReplicas: true,
  currentReplicas: true,
  updatedReplicas: true,
  updatedReadyReplicas: true,
  updatedAvailableReplicas: true,
  currentRevision: true,
  updateRevision: true,
  collisionCount: true,
  conditions: true,
  labelSelector: true,
  volumeClaims: true,
};
const ROLLING_UPDATE_FIELDS: Record<keyof RollingUpdateStatefulSetStrategy, true> = {
  partition: true,
  maxUnavailable: true,
  podUpdatePolicy: true,
  paused: true,
  unorderedUpdate: true,
  inPlaceUpdateStrategy: true,
  minReadySeconds: true,
};

/** Go's zero values OpenKruise's structs add (`creationTimestamp: null`, `resources: {}`), removed. */
function withoutGoZeroValues(v: JsonValue): JsonValue | undefined {
  if (v === null) return undefined;
  if (Array.isArray(v)) return v.map((x) => withoutGoZeroValues(x) ?? null);
  if (typeof v !== 'object') return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) {
    const y = withoutGoZeroValues(x);
    if (
      y === undefined ||
      (typeof y === 'object' && y !== null && !Array.isArray(y) && Object.keys(y).length === 0)
    )
      continue;
    out[k] = y;
  }
  return out;
}

function openKruiseAnswer(file: string): JsonObject {
  const review = golden(file);
  const response = obj(review.response);
  expect(obj(response.result).status).toBe('Success');
  return obj((response.convertedObjects as JsonValue[])[0]);
}

describe('the every-field fixtures', () => {
  test('v1beta1 sets every field of spec, status and rollingUpdate; v1alpha1 the same less the v1beta1-only ones', () => {
    const b = beta();
    expect(Object.keys(obj(b.spec)).sort()).toEqual(Object.keys(SPEC_FIELDS).sort());
    expect(Object.keys(obj(b.status)).sort()).toEqual(Object.keys(STATUS_FIELDS).sort());
    const rolling = obj(obj(obj(b.spec).updateStrategy).rollingUpdate);
    expect(Object.keys(rolling).sort()).toEqual(Object.keys(ROLLING_UPDATE_FIELDS).sort());
    const a = alpha();
    const specOnly: readonly string[] = V1BETA1_ONLY_FIELDS.spec;
    const statusOnly: readonly string[] = V1BETA1_ONLY_FIELDS.status;
    expect(Object.keys(obj(a.spec)).sort()).toEqual(
      Object.keys(SPEC_FIELDS)
        .filter((k) => !specOnly.includes(k))
        .sort(),
    );
    expect(Object.keys(obj(a.status)).sort()).toEqual(
      Object.keys(STATUS_FIELDS)
        .filter((k) => !statusOnly.includes(k))
        .sort(),
    );
  });
});

describe('v1beta1 → v1alpha1', () => {
  test('moves the six spec and three status fields v1alpha1 lacks into kruiseless.io/v1beta1-fields', () => {
    const b = beta();
    const out = toV1alpha1(b);
    const a = alpha();
    expect(out).toEqual({
      ...a,
      metadata: {
        ...obj(a.metadata),
        annotations: {
          team: 'storefront',
          [ANNOTATION_V1BETA1_FIELDS]:
            '{"spec":{"volumeClaimUpdateStrategy":{"type":"OnPodRollingUpdate"},"reserveOrdinals":[1,"3-5"],' +
            '"lifecycle":{"preDelete":{"finalizersHandler":["example.com/unready"],"markPodNotReady":true},' +
            '"inPlaceUpdate":{"labelsHandler":{"example.com/in-place":"true"}},' +
            '"preNormal":{"labelsHandler":{"example.com/normal":"true"}}},"scaleStrategy":{"maxUnavailable":2},' +
            '"persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Delete","whenScaled":"Retain"},' +
            '"ordinals":{"start":10}},"status":{"updatedReadyReplicas":2,"updatedAvailableReplicas":1,' +
            '"volumeClaims":[{"volumeClaimName":"data","compatibleReplicas":3,"compatibleReadyReplicas":2}]}}',
        },
      },
    });
    expect(b).toEqual(beta()); // input untouched
  });

  test('matches OpenKruise v1.9.0 /convert on every shared field (less Go zero values and our annotation)', () => {
    const ours = toV1alpha1(beta());
    const meta = obj(ours.metadata);
    const { [ANNOTATION_V1BETA1_FIELDS]: _kept, ...annotations } = obj(meta.annotations);
    expect({ ...ours, metadata: { ...meta, annotations } }).toEqual(
      withoutGoZeroValues(openKruiseAnswer('openkruise.v1beta1-to-v1alpha1.json')),
    );
  });

  test('an object with no v1beta1-only field gets no annotation, and a stale one it carried is removed', () => {
    const a = alpha();
    const b = { ...a, apiVersion: 'apps.kruise.io/v1beta1' };
    expect(toV1alpha1(b)).toEqual(a);
    const stale = {
      ...b,
      metadata: {
        name: 'web',
        annotations: { [ANNOTATION_V1BETA1_FIELDS]: '{"spec":{"ordinals":{"start":3}}}' },
      },
    };
    expect(toV1alpha1(stale)).toEqual({ ...a, metadata: { name: 'web' } });
  });

  test.each([
    ...V1BETA1_ONLY_FIELDS.spec.map((f) => ['spec', f] as const),
    ...V1BETA1_ONLY_FIELDS.status.map((f) => ['status', f] as const),
  ])('%s.%s alone survives v1beta1 → v1alpha1 → v1beta1', (part, field) => {
    const full = beta();
    const b: JsonObject = {
      ...alpha(),
      apiVersion: 'apps.kruise.io/v1beta1',
      [part]: { ...obj(alpha()[part]), [field]: obj(full[part])[field] },
    };
    const a = toV1alpha1(b);
    expect(obj(a[part])[field]).toBeUndefined();
    expect(JSON.parse(obj(obj(a.metadata).annotations)[ANNOTATION_V1BETA1_FIELDS] as string)).toEqual({
      [part]: { [field]: obj(full[part])[field] },
    });
    expect(toV1beta1(a)).toEqual(b);
  });
});

describe('v1alpha1 → v1beta1', () => {
  test('matches OpenKruise v1.9.0 /convert (less Go zero values)', () => {
    expect(toV1beta1(alpha())).toEqual(
      withoutGoZeroValues(openKruiseAnswer('openkruise.v1alpha1-to-v1beta1.json')),
    );
  });

  test('puts the annotation fields back and removes the annotation (the map too when it was the only one)', () => {
    const a: JsonObject = {
      ...alpha(),
      metadata: {
        name: 'web',
        annotations: {
          [ANNOTATION_V1BETA1_FIELDS]:
            '{"spec":{"reserveOrdinals":[2],"bogus":1},"status":{"volumeClaims":[]}}',
        },
      },
    };
    expect(toV1beta1(a)).toEqual({
      ...alpha(),
      apiVersion: 'apps.kruise.io/v1beta1',
      metadata: { name: 'web' },
      spec: { ...obj(alpha().spec), reserveOrdinals: [2] },
      status: { ...obj(alpha().status), volumeClaims: [] },
    });
  });

  test.each([
    ['not JSON', '{"spec":'],
    ['an array', '[1]'],
    ['spec not an object', '{"spec":[1]}'],
  ])('an annotation that is %s fails with a ConversionError naming it', (_what, value) => {
    const a: JsonObject = {
      ...alpha(),
      metadata: { name: 'web', annotations: { [ANNOTATION_V1BETA1_FIELDS]: value } },
    };
    expect(() => toV1beta1(a)).toThrow(ConversionError);
    expect(() => toV1beta1(a)).toThrow(
      'metadata.annotations[kruiseless.io/v1beta1-fields]: not the JSON {"spec": {...}, "status": {...}} Kruiseless ' +
        'writes there (remove the annotation to drop the v1beta1-only fields it carried)',
    );
  });
});

describe('round trips are the identity', () => {
  test('v1beta1 → v1alpha1 → v1beta1 with every field set', () => {
    expect(toV1beta1(toV1alpha1(beta()))).toEqual(beta());
  });

  test('v1alpha1 → v1beta1 → v1alpha1 with every field set, with and without the annotation', () => {
    expect(toV1alpha1(toV1beta1(alpha()))).toEqual(alpha());
    const annotated = toV1alpha1(beta());
    expect(toV1alpha1(toV1beta1(annotated))).toEqual(annotated);
  });

  test('through the converter interface, both directions', () => {
    const c = statefulSetConverter;
    expect(c.convert(c.convert(beta(), 'v1beta1', 'v1alpha1'), 'v1alpha1', 'v1beta1')).toEqual(beta());
    expect(c.convert(c.convert(alpha(), 'v1alpha1', 'v1beta1'), 'v1beta1', 'v1alpha1')).toEqual(alpha());
  });

  test('an object without annotations or status converts both ways', () => {
    const b: JsonObject = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'StatefulSet',
      metadata: { name: 'web' },
      spec: { ordinals: { start: 1 } },
    };
    expect(toV1beta1(toV1alpha1(b))).toEqual(b);
  });
});
