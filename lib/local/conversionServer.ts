/**
 * The embedded runtime's CRD conversion webhook (issue 17): an HTTPS server on `https://<host>:<port>/convert`
 * answering ConversionReviews with the registered converters (lib/api/conversion, lib/controllers/conversions.ts),
 * on `/mutate` AdmissionReviews with the mutators (lib/api/admission/mutation.ts, lib/controllers/mutations.ts), and
 * on `/validate` AdmissionReviews with the validators (lib/api/admission/validation.ts, lib/controllers/validations.ts),
 * on `/validate-pod` pod DELETEs and evictions with the PodUnavailableBudget check
 * (lib/controllers/podunavailablebudget/podWebhook.ts), on `/mutate-pod` pod CREATEs with SidecarSet injection (lib/controllers/sidecarset/podWebhook.ts),
 * under a certificate of its own CA (generated with the openssl command line, as infra/local/pki.ts does for the
 * control plane; fresh for every start, kept in memory only), and the CRD patch that points the API server at it.
 * In AWS the admission function answers the same reviews (lib/runtime/handlers/admission.ts).
 */
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@aws-lambda-powertools/logger';
import { run } from '../../infra/local/build.js';
import type { CrdConverter } from '../api/conversion/converter.js';
import {
  ANNOTATION_CONVERSION_WEBHOOK,
  conversionWebhookPatch,
  crdNameOf,
  noConversionPatch,
  type ConversionWebhookTarget,
} from '../api/conversion/crd.js';
import type { JsonObject } from '../api/types.js';
import { plainVersionsFor, webhookVersionsFor } from '../cli/webhookVersions.js';
import { MAX_CONVERSION_BODY_BYTES, handleConversionReview } from '../api/conversion/review.js';
import { CRD_CONVERTERS } from '../controllers/conversions.js';
import {
  MAX_MUTATION_BODY_BYTES,
  handleMutationReview,
  refusal,
  type MutationAnswer,
  type Mutator,
} from '../api/admission/mutation.js';
import { admissionMutators } from '../controllers/mutations.js';
import { handleValidationReview, type Validator } from '../api/admission/validation.js';
import { admissionValidators } from '../controllers/validations.js';
import { POD_MUTATE_PATH } from '../controllers/sidecarset/podWebhook.js';
import { POD_VALIDATE_PATH } from '../controllers/podunavailablebudget/podWebhook.js';
import { errorMessage } from '../core/errors.js';
import { isNotFound, type KubeClient } from '../kube/index.js';
import { CRD_RESOURCE } from '../kube/resources.js';

/** The path of the conversion webhook. */
export const CONVERT_PATH = '/convert';

/** The path of the mutating admission webhook; any other path is 404. */
export const MUTATE_PATH = '/mutate';

/** The path of the validating admission webhook. */
export const VALIDATE_PATH = '/validate';

/** The path of the pod webhook (SidecarSet injection, lib/controllers/sidecarset/podWebhook.ts). */
export { POD_MUTATE_PATH } from '../controllers/sidecarset/podWebhook.js';

/** apiextensions.k8s.io/v1 CustomResourceDefinitions, for the conversion patch (lib/kube/resources.ts). */
export { CRD_RESOURCE };

/** Options of {@link startConversionServer}. */
export interface ConversionServerOptions {
  /**
   * The address to listen on, which is also the certificate's subject alternative name and the URL's host
   * (default `127.0.0.1`: the API server of the local control plane runs on this machine). An IP or a DNS name.
   */
  host?: string;
  /** TCP port (default 0: any free one). */
  port?: number;
  /** The converters (default lib/controllers/conversions.ts `CRD_CONVERTERS`). */
  converters?: readonly CrdConverter[];
  /** The mutators of `/mutate` (default lib/controllers/mutations.ts `admissionMutators()`, OpenKruise's gate defaults). */
  mutators?: readonly Mutator[];
  /** The validators of `/validate` (default lib/controllers/validations.ts `admissionValidators()`). */
  validators?: readonly Validator[];
  /**
   * The answer of `/mutate-pod` to one AdmissionReview body (lib/controllers/sidecarset/podWebhook.ts
   * `answerPodAdmission` over the cluster's client); absent: `/mutate-pod` is 404.
   */
  podAdmission?: (body: string) => Promise<MutationAnswer>;
  /**
   * The answer of `/validate-pod` to one AdmissionReview body (lib/controllers/podunavailablebudget/podWebhook.ts
   * `answerPodValidation` over the cluster's client); absent: `/validate-pod` is 404.
   */
  podValidation?: (body: string) => Promise<MutationAnswer>;
  logger?: Pick<Logger, 'warn' | 'debug'>;
}

/** A running conversion server. */
export interface ConversionServer {
  /** `https://<host>:<port>/convert` */
  url: string;
  /** `https://<host>:<port>/mutate` */
  mutateUrl: string;
  /** `https://<host>:<port>/validate` */
  validateUrl: string;
  /** `https://<host>:<port>/validate-pod` (served only with {@link ConversionServerOptions.podValidation}). */
  podValidateUrl: string;
  /** `https://<host>:<port>/mutate-pod` (served only with {@link ConversionServerOptions.podAdmission}). */
  podMutateUrl: string;
  /** PEM of the CA that signed the server certificate (the CRD's `caBundle`). */
  caPem: string;
  /** Stop listening (open connections are closed). */
  close(): Promise<void>;
}

/**
 * A CA and a server certificate for `host` (RSA 2048, 10 days), made in a temporary folder that is removed before
 * this returns.
 * @throws Error when openssl is missing or fails (with its output)
 */
export async function conversionCertificates(
  host: string,
): Promise<{ caPem: string; cert: string; key: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kruiseless-convert-'));
  try {
    const ssl = (...args: string[]): Promise<string[]> => run('openssl', args, { cwd: dir });
    const san = /^[0-9.]+$|:/.test(host) ? `IP:${host}` : `DNS:${host}`;
    fs.writeFileSync(path.join(dir, 'server.ext'), `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`);
    await ssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '10',
      '-subj',
      '/CN=kruiseless-conversion-ca',
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
    );
    await ssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      `/CN=${host}`,
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
    );
    await ssl(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '10',
      '-out',
      'server.crt',
      '-extfile',
      'server.ext',
    );
    const read = (f: string): string => fs.readFileSync(path.join(dir, f), 'utf8');
    return { caPem: read('ca.crt'), cert: read('server.crt'), key: read('server.key') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts the HTTPS conversion server: POST {@link CONVERT_PATH} with a ConversionReview gets the review's answer
 * (lib/api/conversion/review.ts: 200, or 400/413 with a Failure review), POST {@link MUTATE_PATH} with an
 * AdmissionReview the mutators' answer (lib/api/admission/mutation.ts), POST {@link VALIDATE_PATH} the validators'
 * (lib/api/admission/validation.ts), any other path 404, another method 405.
 * @throws Error when the certificates cannot be made or the port cannot be bound
 */
export async function startConversionServer(opts: ConversionServerOptions = {}): Promise<ConversionServer> {
  const host = opts.host ?? '127.0.0.1';
  const converters = opts.converters ?? CRD_CONVERTERS;
  const mutators = opts.mutators ?? admissionMutators();
  const validators = opts.validators ?? admissionValidators();
  const { caPem, cert, key } = await conversionCertificates(host);
  const server = https.createServer({ cert, key }, (req, res) => {
    const reply = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    /**
     * Replies with an asynchronous handler's AdmissionReview answer, logged as `refused` (warn) or `allowed` (debug,
     * with whether it patched when `patches`). The handlers never throw by contract; a bug must still answer (a 500
     * refusal, `<webhook> failed: <error>`), not crash the server.
     */
    const replyLater = (
      answer: Promise<MutationAnswer>,
      webhook: string,
      refused: string,
      allowed: string,
      patches = false,
    ): void => {
      void answer
        .catch((e: unknown) => refusal('', 500, `${webhook} failed: ${errorMessage(e)}`))
        .then(({ statusCode, review }) => {
          if (!review.response.allowed)
            opts.logger?.warn(refused, { statusCode, error: review.response.status?.message });
          else if (patches) opts.logger?.debug(allowed, { patched: review.response.patch !== undefined });
          else opts.logger?.debug(allowed);
          reply(statusCode, review);
        });
    };
    const route = (req.url ?? '').split('?')[0];
    const podRoute = route === POD_MUTATE_PATH && opts.podAdmission !== undefined;
    const podValidateRoute = route === POD_VALIDATE_PATH && opts.podValidation !== undefined;
    if (
      route !== CONVERT_PATH &&
      route !== MUTATE_PATH &&
      route !== VALIDATE_PATH &&
      !podRoute &&
      !podValidateRoute
    )
      return reply(404, { message: 'not found' });
    if (req.method !== 'POST')
      return reply(405, { message: 'POST a ConversionReview or an AdmissionReview' });
    const limit = route === CONVERT_PATH ? MAX_CONVERSION_BODY_BYTES : MAX_MUTATION_BODY_BYTES;
    const chunks: Buffer[] = [];
    let bytes = 0;
    req.on('data', (c: Buffer) => {
      bytes += c.length;
      if (bytes <= limit + 1) chunks.push(c);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (podRoute && opts.podAdmission)
        return replyLater(opts.podAdmission(body), 'pod webhook', 'pod refused', 'pod admitted', true);
      if (podValidateRoute && opts.podValidation)
        return replyLater(
          opts.podValidation(body),
          'pod webhook',
          'pod operation refused',
          'pod operation allowed',
        );
      if (route === VALIDATE_PATH)
        return replyLater(
          handleValidationReview(body, validators),
          'validating webhook',
          'validation refused',
          'validated',
        );
      if (route === MUTATE_PATH) {
        const { statusCode, review } = handleMutationReview(body, mutators);
        if (!review.response.allowed)
          opts.logger?.warn('mutation refused', { statusCode, error: review.response.status?.message });
        else opts.logger?.debug('mutated', { patched: review.response.patch !== undefined });
        return reply(statusCode, review);
      }
      const { statusCode, review } = handleConversionReview(body, converters);
      if (review.response.result.status === 'Failure')
        opts.logger?.warn('conversion failed', { statusCode, error: review.response.result.message });
      else opts.logger?.debug('converted', { objects: review.response.convertedObjects.length });
      reply(statusCode, review);
    });
    req.on('error', (e) => opts.logger?.warn('conversion request failed', { error: errorMessage(e) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `https://${urlHost}:${port}${CONVERT_PATH}`,
    mutateUrl: `https://${urlHost}:${port}${MUTATE_PATH}`,
    validateUrl: `https://${urlHost}:${port}${VALIDATE_PATH}`,
    podMutateUrl: `https://${urlHost}:${port}${POD_MUTATE_PATH}`,
    podValidateUrl: `https://${urlHost}:${port}${POD_VALIDATE_PATH}`,
    caPem,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Points the CRD of every converter at `target` (JSON merge patch of `spec.conversion` and the
 * `kruiseless.io/conversion-webhook` annotation, lib/api/conversion/crd.ts); a CRD the cluster does not have is
 * skipped. A CRD whose versions change with the webhook (`versionsFor` answers: CloneSet's v1beta1 becomes
 * OpenKruise's shape, lib/cli/webhookVersions.ts) gets them in the same patch, unless it converts through a webhook
 * that is not Kruiseless's (OpenKruise's CRD): that one is skipped, its versions and storage left alone.
 * @returns the names of the CRDs patched
 * @throws KubeApiError for any other failed read or patch
 */
export async function pointCrdsAtConverter(
  kube: Pick<KubeClient, 'patch' | 'get'>,
  target: ConversionWebhookTarget,
  converters: readonly CrdConverter[] = CRD_CONVERTERS,
  versionsFor: (crdName: string) => JsonObject[] | undefined = webhookVersionsFor,
): Promise<string[]> {
  const patched: string[] = [];
  for (const c of converters) {
    const name = crdNameOf(c);
    const versions = versionsFor(name);
    if (versions) {
      const current = (await kube.get(CRD_RESOURCE, { name })) as
        | {
            metadata?: { annotations?: Record<string, string> };
            spec?: { conversion?: { strategy?: string } };
          }
        | undefined;
      if (!current) continue;
      const foreign =
        current.spec?.conversion?.strategy === 'Webhook' &&
        current.metadata?.annotations?.[ANNOTATION_CONVERSION_WEBHOOK] === undefined;
      if (foreign) continue;
    }
    try {
      await kube.patch(
        CRD_RESOURCE,
        { name },
        { type: 'merge', body: conversionWebhookPatch(target, versions) },
      );
      patched.push(name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
  return patched;
}

/**
 * Puts the CRDs named back to no conversion with the versions infra/crds gives them (CloneSet: v1beta1 an alias of
 * v1alpha1 again), for the ones whose versions change with the webhook; the others (Advanced StatefulSet) keep
 * pointing at the webhook, as README says. A CRD the cluster no longer has is skipped.
 * @returns the names of the CRDs put back
 * @throws KubeApiError for any other failed patch
 */
export async function releaseCrdsFromConverter(
  kube: Pick<KubeClient, 'patch'>,
  crdNames: readonly string[],
  versionsFor: (crdName: string) => JsonObject[] | undefined = plainVersionsFor,
): Promise<string[]> {
  const released: string[] = [];
  for (const name of crdNames) {
    const versions = versionsFor(name);
    if (!versions) continue;
    try {
      await kube.patch(CRD_RESOURCE, { name }, { type: 'merge', body: noConversionPatch(versions) });
      released.push(name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
  return released;
}
