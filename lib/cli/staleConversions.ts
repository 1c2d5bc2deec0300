/**
 * CRDs left converting through a Kruiseless conversion webhook nothing answers any more: a `kruiseless local` that
 * was killed before it put them back (it does so at stop), or an admission function that was removed. While such a
 * CRD points at the dead endpoint, every read of its non-storage version fails (kubectl's default CloneSet version
 * v1beta1, the garbage collector, namespace deletion). `kruiseless install` without `--admission-url` puts them back
 * to no conversion with the versions infra/crds gives them; a webhook that answers is left alone (a live
 * `kruiseless local` or admission function).
 */
import net from 'node:net';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { ANNOTATION_CONVERSION_WEBHOOK, noConversionPatch } from '../api/conversion/crd.js';
import type { JsonObject } from '../api/types.js';
import type { KubeClient } from '../kube/index.js';
import { CRD_RESOURCE } from '../kube/resources.js';

/** A CRD that converts through a webhook Kruiseless set (its {@link ANNOTATION_CONVERSION_WEBHOOK} annotation). */
export interface KruiselessConversion {
  crdName: string;
  /** the annotation's value: `local` (`kruiseless local`) or `admission` (`kruiseless install --admission-url`) */
  server: string;
  /** `spec.conversion.webhook.clientConfig.url`; empty when the CRD names a service instead */
  url: string;
}

/**
 * The CRDs of `current` that convert through a webhook Kruiseless set, in the map's order.
 * @param current the cluster's CRDs by name, as read
 */
export function kruiselessConversions(
  current: ReadonlyMap<string, V1CustomResourceDefinition>,
): KruiselessConversion[] {
  const out: KruiselessConversion[] = [];
  for (const [crdName, crd] of current) {
    const server = crd.metadata?.annotations?.[ANNOTATION_CONVERSION_WEBHOOK];
    if (server === undefined || crd.spec.conversion?.strategy !== 'Webhook') continue;
    out.push({ crdName, server, url: crd.spec.conversion.webhook?.clientConfig?.url ?? '' });
  }
  return out;
}

/**
 * Whether something accepts a TCP connection at the URL's host and port within `timeoutMs`: the API server could
 * not reach a webhook that does not.
 * @param url an https URL (port 443 when it names none); a URL that does not parse counts as not answering
 */
export function answers(url: string, timeoutMs = 2000): Promise<boolean> {
  let host: string;
  let port: number;
  try {
    const u = new URL(url);
    host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    port = u.port ? Number(u.port) : 443;
  } catch {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** What {@link releaseStaleConversions} did with one CRD. */
export interface ConversionOutcome extends KruiselessConversion {
  /** `released`: put back to no conversion; `kept`: its webhook answers; `would-release`: a dry run */
  action: 'released' | 'kept' | 'would-release';
}

/**
 * Puts every CRD of `conversions` whose webhook does not answer back to no conversion (JSON merge patch
 * {@link noConversionPatch}: strategy None, the annotation dropped, and for a CRD whose versions change with the
 * webhook — CloneSet's v1beta1 — the versions `versionsFor` gives).
 * @param versionsFor the versions a CRD serves without the webhook (lib/cli/webhookVersions.ts `plainVersionsFor`);
 *   undefined: the versions stay as they are
 * @param opts.probe how a webhook is tried ({@link answers} by default); opts.dryRun: nothing is patched
 * @throws KubeApiError from the patch (a CRD deleted meanwhile included)
 */
export async function releaseStaleConversions(
  kube: Pick<KubeClient, 'patch'>,
  conversions: readonly KruiselessConversion[],
  versionsFor: (crdName: string) => JsonObject[] | undefined,
  opts: { probe?: (url: string) => Promise<boolean>; dryRun?: boolean } = {},
): Promise<ConversionOutcome[]> {
  const probe = opts.probe ?? ((url: string) => answers(url));
  const outcomes: ConversionOutcome[] = [];
  for (const c of conversions) {
    if (c.url !== '' && (await probe(c.url))) {
      outcomes.push({ ...c, action: 'kept' });
      continue;
    }
    if (opts.dryRun) {
      outcomes.push({ ...c, action: 'would-release' });
      continue;
    }
    await kube.patch(
      CRD_RESOURCE,
      { name: c.crdName },
      { type: 'merge', body: noConversionPatch(versionsFor(c.crdName)) },
    );
    outcomes.push({ ...c, action: 'released' });
  }
  return outcomes;
}

/** The line `kruiseless install` prints for an outcome, kubectl style. */
export function conversionOutcomeLine(o: ConversionOutcome): string {
  const crd = `customresourcedefinition.apiextensions.k8s.io/${o.crdName}`;
  const where = o.url || '(a service)';
  switch (o.action) {
    case 'released':
      return `${crd} conversion webhook removed (${o.server} at ${where} does not answer)`;
    case 'would-release':
      return `${crd} conversion webhook would be removed (${o.server} at ${where} does not answer; server dry run)`;
    case 'kept':
      return `${crd} still converts through ${o.server} at ${where} (it answers; --admission-url points it at the admission function)`;
  }
}
