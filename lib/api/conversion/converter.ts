/**
 * What a CRD with more than one served version needs from its controller to answer the API server's conversion
 * webhook (`/convert`, Kubernetes' "Webhook conversion" of CustomResourceDefinitions): one converter per
 * group/Kind, given one object of one served version and the version asked for. The ConversionReview around it is
 * ./review.ts; the converters are listed once in lib/controllers/conversions.ts.
 */
import { KruiselessError } from '../../core/errors.js';
import type { JsonObject } from '../types.js';

/** Thrown by a converter for an object it cannot convert; the message goes to the API server's caller verbatim. */
export class ConversionError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'ConversionError';
  }
}

/** The converter of one group/Kind. */
export interface CrdConverter {
  /** API group, e.g. `apps.kruise.io`. */
  readonly group: string;
  /** Kind, e.g. `StatefulSet`. */
  readonly kind: string;
  /** The resource's plural, e.g. `statefulsets` (its CRD is `<plural>.<group>`). */
  readonly plural: string;
  /** The versions it converts between (the CRD's served versions), e.g. `['v1beta1', 'v1alpha1']`. */
  readonly versions: readonly string[];
  /**
   * `object` (of version `from`) as version `to`; `from` and `to` are two different members of `versions`. Pure:
   * the input is not modified, and only metadata.labels and metadata.annotations of metadata may change (the API
   * server refuses a converted object whose other metadata differs).
   * @throws ConversionError when the object cannot be converted (its message names the field)
   */
  convert(object: JsonObject, from: string, to: string): JsonObject;
}
