/**
 * The `spec.conversion` stanza that points a CRD at a Kruiseless conversion webhook (apiextensions.k8s.io/v1
 * `CustomResourceConversion`; OpenKruise's `pkg/webhook/util/crd/crd.go` `Ensure` sets the same, with its service
 * and `conversionReviewVersions` v1 and v1beta1), and the annotation that marks the CRD's webhook as Kruiseless's, so
 * `kruiseless install` tells it from OpenKruise's (lib/cli/install.ts `checkCrdTakeover`).
 */
import type { JsonObject } from '../types.js';
import { CONVERSION_REVIEW_API_VERSION } from './review.js';
import type { CrdConverter } from './converter.js';

/**
 * `kruiseless.io/conversion-webhook` on a CRD: who serves its conversion webhook — `admission` (the admission
 * function's Function URL) or `local` (the embedded runtime's HTTPS server).
 */
export const ANNOTATION_CONVERSION_WEBHOOK = 'kruiseless.io/conversion-webhook';

/** Who serves the webhook (the value of {@link ANNOTATION_CONVERSION_WEBHOOK}). */
export type ConversionWebhookServer = 'admission' | 'local';

/** Where the API server sends ConversionReviews. */
export interface ConversionWebhookTarget {
  /** `https://…/convert` (the admission function's carries the cluster's path secret: never print it). */
  url: string;
  /** PEM of the CA that signed the server's certificate; absent: the API server's system roots (a Function URL). */
  caPem?: string;
  server: ConversionWebhookServer;
}

/** The CRD name of a converter's kind: `<plural>.<group>`, e.g. `statefulsets.apps.kruise.io`. */
export function crdNameOf(converter: Pick<CrdConverter, 'plural' | 'group'>): string {
  return `${converter.plural}.${converter.group}`;
}

/**
 * The JSON merge patch of a CRD that makes the API server convert through `target`: strategy `Webhook`,
 * `clientConfig.url` and `caBundle` (base64 of the PEM), `conversionReviewVersions: [v1]` (the only review version
 * lib/api/conversion/review.ts answers), and the {@link ANNOTATION_CONVERSION_WEBHOOK} annotation.
 * @param versions the whole `spec.versions` list to set with it (a merge patch replaces the list), when the CRD
 *   serves another shape with the webhook than without (CloneSet's v1beta1); absent: versions left as they are
 */
export function conversionWebhookPatch(
  target: ConversionWebhookTarget,
  versions?: readonly JsonObject[],
): JsonObject {
  return {
    metadata: { annotations: { [ANNOTATION_CONVERSION_WEBHOOK]: target.server } },
    spec: { ...(versions ? { versions: [...versions] } : {}), conversion: conversionStanza(target) },
  };
}

/** `spec.conversion` alone (for a CRD manifest about to be applied). */
export function conversionStanza(target: ConversionWebhookTarget): JsonObject {
  return {
    strategy: 'Webhook',
    webhook: {
      clientConfig: {
        url: target.url,
        ...(target.caPem ? { caBundle: Buffer.from(target.caPem).toString('base64') } : {}),
      },
      conversionReviewVersions: [CONVERSION_REVIEW_API_VERSION.split('/')[1] ?? 'v1'],
    },
  };
}

/**
 * The merge patch that puts a CRD back to no conversion (`strategy: None`) and drops the annotation.
 * @param versions the whole `spec.versions` list it serves without the webhook (infra/crds), for a CRD whose
 *   versions change with it (CloneSet); absent: versions left as they are
 */
export function noConversionPatch(versions?: readonly JsonObject[]): JsonObject {
  return {
    metadata: { annotations: { [ANNOTATION_CONVERSION_WEBHOOK]: null } },
    spec: {
      ...(versions ? { versions: [...versions] } : {}),
      conversion: { strategy: 'None', webhook: null },
    },
  };
}
