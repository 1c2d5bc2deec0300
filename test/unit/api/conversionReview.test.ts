/**
 * The ConversionReview v1 exchange (lib/api/conversion/review.ts): objects converted in order with the request's
 * uid, and every bad input — a body that is not JSON or not a ConversionReview v1, an unknown group/Kind or
 * version, a converter that throws — answered with a Failure result naming it, never an exception.
 */
import type { JsonObject } from '../../../lib/api/types.js';
import { ConversionError, type CrdConverter } from '../../../lib/api/conversion/converter.js';
import { MAX_CONVERSION_BODY_BYTES, handleConversionReview } from '../../../lib/api/conversion/review.js';
import { CRD_CONVERTERS } from '../../../lib/controllers/conversions.js';

const sts = (name: string, version: string, spec: JsonObject = {}): JsonObject => ({
  apiVersion: `apps.kruise.io/${version}`,
  kind: 'StatefulSet',
  metadata: { name, namespace: 'shop' },
  spec,
});
const review = (desiredAPIVersion: string, objects: JsonObject[], uid = 'u-1'): string =>
  JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    request: { uid, desiredAPIVersion, objects },
  });
const failure = (statusCode: number, uid: string, message: string) => ({
  statusCode,
  review: {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    response: { uid, convertedObjects: [], result: { status: 'Failure', message } },
  },
});

describe('handleConversionReview', () => {
  test('converts every object in order, echoes the uid, and reports Success', () => {
    const body = review('apps.kruise.io/v1alpha1', [
      sts('a', 'v1beta1', { replicas: 1 }),
      sts('b', 'v1beta1', { replicas: 2, ordinals: { start: 5 } }),
      sts('c', 'v1alpha1', { replicas: 3 }),
    ]);
    expect(handleConversionReview(body, CRD_CONVERTERS)).toEqual({
      statusCode: 200,
      review: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        response: {
          uid: 'u-1',
          convertedObjects: [
            sts('a', 'v1alpha1', { replicas: 1 }),
            {
              ...sts('b', 'v1alpha1', { replicas: 2 }),
              metadata: {
                name: 'b',
                namespace: 'shop',
                annotations: { 'kruiseless.io/v1beta1-fields': '{"spec":{"ordinals":{"start":5}}}' },
              },
            },
            sts('c', 'v1alpha1', { replicas: 3 }),
          ],
          result: { status: 'Success' },
        },
      },
    });
  });

  test('an empty objects list is a Success with no objects', () => {
    expect(
      handleConversionReview(review('apps.kruise.io/v1beta1', []), CRD_CONVERTERS).review.response,
    ).toEqual({
      uid: 'u-1',
      convertedObjects: [],
      result: { status: 'Success' },
    });
  });

  test('a body that is not JSON: 400, Failure "body is not JSON"', () => {
    expect(handleConversionReview('{"apiVersion":', CRD_CONVERTERS)).toEqual(
      failure(400, '', 'body is not JSON'),
    );
  });

  test('JSON that is not a ConversionReview v1: 400, Failure naming each wrong field, the uid kept when readable', () => {
    const body = JSON.stringify({
      apiVersion: 'apiextensions.k8s.io/v1beta1',
      kind: 'ConversionReview',
      request: { uid: 'u-2', objects: {} },
    });
    expect(handleConversionReview(body, CRD_CONVERTERS)).toEqual(
      failure(
        400,
        'u-2',
        'not a ConversionReview apiextensions.k8s.io/v1: apiVersion: Invalid input: expected "apiextensions.k8s.io/v1"; ' +
          'request.desiredAPIVersion: Invalid input: expected string, received undefined; ' +
          'request.objects: Invalid input: expected array, received object',
      ),
    );
    expect(handleConversionReview('null', CRD_CONVERTERS)).toEqual(
      failure(
        400,
        '',
        'not a ConversionReview apiextensions.k8s.io/v1: (root): Invalid input: expected object, received null',
      ),
    );
  });

  test('an unknown desired version fails the review, naming the object and the versions served', () => {
    const body = review('apps.kruise.io/v2', [sts('a', 'v1beta1')]);
    expect(handleConversionReview(body, CRD_CONVERTERS)).toEqual(
      failure(
        200,
        'u-1',
        'StatefulSet shop/a: StatefulSet.apps.kruise.io has no version v2 (converts v1beta1, v1alpha1)',
      ),
    );
  });

  test('an unknown object version, kind or group, or an object without apiVersion, fails the review', () => {
    const cases: [JsonObject, string, string][] = [
      [
        sts('a', 'v9'),
        'apps.kruise.io/v1beta1',
        'StatefulSet shop/a: StatefulSet.apps.kruise.io has no version v9 (converts v1beta1, v1alpha1)',
      ],
      [
        { ...sts('a', 'v1beta1'), kind: 'UnitedDeployment' },
        'apps.kruise.io/v1alpha1',
        'UnitedDeployment shop/a: no converter for UnitedDeployment.apps.kruise.io',
      ],
      [
        sts('a', 'v1beta1'),
        'apps/v1',
        'StatefulSet shop/ok: cannot convert apps.kruise.io/v1beta1 to another group (apps/v1)',
      ],
      [
        { kind: 'StatefulSet', metadata: { name: 'a' } },
        'apps.kruise.io/v1alpha1',
        'StatefulSet a: an object to convert needs apiVersion and kind',
      ],
    ];
    for (const [o, desired, message] of cases)
      expect(handleConversionReview(review(desired, [sts('ok', 'v1beta1'), o]), CRD_CONVERTERS)).toEqual(
        failure(200, 'u-1', message),
      );
  });

  test("a converter's ConversionError is the message; any other error is wrapped, never thrown", () => {
    const throwing = (e: Error): CrdConverter => ({
      group: 'apps.kruise.io',
      kind: 'StatefulSet',
      plural: 'statefulsets',
      versions: ['v1beta1', 'v1alpha1'],
      convert: () => {
        throw e;
      },
    });
    const body = review('apps.kruise.io/v1alpha1', [sts('a', 'v1beta1')]);
    expect(handleConversionReview(body, [throwing(new ConversionError('spec.x: bad'))])).toEqual(
      failure(200, 'u-1', 'spec.x: bad'),
    );
    expect(handleConversionReview(body, [throwing(new TypeError('boom'))])).toEqual(
      failure(200, 'u-1', 'conversion failed: boom'),
    );
  });

  test('a bad kruiseless.io/v1beta1-fields annotation fails the review with the converter message', () => {
    const o = {
      ...sts('a', 'v1alpha1'),
      metadata: { name: 'a', annotations: { 'kruiseless.io/v1beta1-fields': 'x' } },
    };
    const out = handleConversionReview(review('apps.kruise.io/v1beta1', [o]), CRD_CONVERTERS);
    expect(out.statusCode).toBe(200);
    expect(out.review.response.result).toEqual({
      status: 'Failure',
      message:
        'metadata.annotations[kruiseless.io/v1beta1-fields]: not the JSON {"spec": {...}, "status": {...}} Kruiseless ' +
        'writes there (remove the annotation to drop the v1beta1-only fields it carried)',
    });
  });

  test('a body over the limit: 413, Failure', () => {
    expect(handleConversionReview(' '.repeat(MAX_CONVERSION_BODY_BYTES + 1), CRD_CONVERTERS)).toEqual(
      failure(413, '', `ConversionReview body larger than ${MAX_CONVERSION_BODY_BYTES} bytes`),
    );
  });
});
