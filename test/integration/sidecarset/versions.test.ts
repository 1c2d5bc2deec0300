/**
 * SidecarSet `apps.kruise.io/v1beta1` on a real kube-apiserver (README.md#sidecarset-versions): the CRD of
 * infra/crds serves v1alpha1 and v1beta1 and stores v1beta1, as OpenKruise v1.9.0's. With Kruiseless's conversion
 * webhook (the CRD patch `kruiseless local` makes, here from this file's own server) a v1beta1 SidecarSet with a
 * `customVersion` is stored through `/mutate` (hashed), injects a pod created in its namespace through
 * `/mutate-pod` (which lists SidecarSets as v1alpha1, through the webhook), and reads back through v1alpha1 and
 * v1beta1 as the same object: its `customVersion` the v1alpha1 label. A v1alpha1 `spec.namespace` reads back as
 * the namespaceSelector OpenKruise gives it. With the conversion put back to None (no webhook), a v1alpha1
 * `spec.namespace` that no `/mutate` turned into a selector is refused instead of pruned.
 *
 * The pod webhook is narrowed to this file's namespace, as ./injection.test.ts says why.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { V1Pod } from '@kubernetes/client-node';
import type { JsonObject } from '../../../lib/api/types.js';
import { rawCrd } from '../../../lib/cli/webhookVersions.js';
import {
  sidecarSetConverter,
  sidecarSetToV1alpha1,
  sidecarSetToV1beta1,
} from '../../../lib/controllers/sidecarset/api/conversion.js';
import { sidecarSetMutator } from '../../../lib/controllers/sidecarset/api/mutation.js';
import { answerPodAdmission, kubePodInjectionReads } from '../../../lib/controllers/sidecarset/podWebhook.js';
import { createKubeClient, type KubeClient } from '../../../lib/kube/index.js';
import {
  pointCrdsAtConverter,
  releaseCrdsFromConverter,
  startConversionServer,
  type ConversionServer,
} from '../../../lib/local/conversionServer.js';
import { MUTATING_WEBHOOK_RESOURCE } from '../../../lib/local/mutatingWebhook.js';
import { useTestNamespace } from '../support/cluster.js';
import { sidecarSetWebhookConfiguration } from '../support/sidecarset.js';
import { waitFor } from '../support/wait.js';

const group = 'apps.kruise.io';
const plural = 'sidecarsets';
const crdName = 'sidecarsets.apps.kruise.io';
const CUSTOM = 'apps.kruise.io/sidecarset-custom-version';

type SidecarSetObj = JsonObject & {
  metadata: JsonObject & { annotations?: Record<string, string>; labels?: Record<string, string> };
  spec: JsonObject;
};

const t = useTestNamespace('scversions');
const CONFIG = `kruiseless-it-scversions-${Math.random().toString(36).slice(2, 8)}`;
const names: string[] = [];

let kube: KubeClient;
let server: ConversionServer | undefined;

const get = async (version: string, name: string) =>
  (await t.custom.getClusterCustomObject({ group, version, plural, name })) as SidecarSetObj;

const create = (version: string, body: JsonObject) =>
  t.custom.createClusterCustomObject({ group, version, plural, body });

async function remove(name: string): Promise<void> {
  await t.custom
    .deleteClusterCustomObject({ group, version: 'v1beta1', plural, name })
    .catch(() => undefined);
  while (
    await get('v1beta1', name).then(
      () => true,
      () => false,
    )
  )
    await sleep(50);
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (
      (JSON.parse(String((e as { body?: string }).body ?? '{}')) as { message?: string }).message ?? String(e)
    );
  }
  return 'accepted';
}

/** Creates `body` through `version` until `/mutate` has hashed it (the API server takes new webhooks up within moments). */
async function createHashed(version: string, name: string, body: JsonObject) {
  names.push(name);
  for (let i = 0; i < 50; i++) {
    const created = await create(version, body).then(
      () => true,
      () => false,
    );
    if (created) {
      const stored = await get(version, name);
      if (stored.metadata.annotations?.['kruise.io/sidecarset-hash']) return stored;
      await remove(name);
    }
    await sleep(100);
  }
  throw new Error(`${name} was never stored hashed`);
}

const pod = (name: string): V1Pod => ({
  metadata: { name, labels: { app: 'web' } },
  spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'nginx:1.25' }] },
});

beforeAll(async () => {
  kube = createKubeClient(t.kc);
  const reads = kubePodInjectionReads(kube);
  server = await startConversionServer({
    converters: [sidecarSetConverter],
    mutators: [sidecarSetMutator],
    podAdmission: (body) => answerPodAdmission(body, reads),
  });
  expect(
    await pointCrdsAtConverter(kube, { url: server.url, caPem: server.caPem, server: 'local' }, [
      sidecarSetConverter,
    ]),
  ).toEqual([crdName]);
  await kube.create(MUTATING_WEBHOOK_RESOURCE, sidecarSetWebhookConfiguration(server, CONFIG, t.namespace));
}, 60_000);

afterAll(async () => {
  await kube.delete(MUTATING_WEBHOOK_RESOURCE, { name: CONFIG }).catch(() => undefined);
  for (const n of names) await remove(n);
  // back to the file's CRD without a webhook (this file's server goes away)
  const versions = (rawCrd(crdName) as { spec: { versions: JsonObject[] } }).spec.versions;
  await releaseCrdsFromConverter(kube, [crdName], () => versions);
  await server?.close();
}, 60_000);

describe('SidecarSet v1beta1 with the conversion webhook serving', () => {
  test('a v1beta1 SidecarSet is stored hashed, injects a pod, and reads back as one object through both versions', async () => {
    const name = `beta-${t.namespace}`;
    const spec = {
      selector: { matchLabels: { app: 'web' } },
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': t.namespace } },
      customVersion: 'v7',
      containers: [{ name: 'logger', image: 'fluentd:1' }],
      updateStrategy: { type: 'NotUpdate' },
    };
    const stored = await createHashed('v1beta1', name, {
      apiVersion: `${group}/v1beta1`,
      kind: 'SidecarSet',
      metadata: { name, labels: { tier: 'logs' } },
      spec,
    });
    const beta = await get('v1beta1', name);
    const alpha = await get('v1alpha1', name);
    expect(stored).toEqual(beta);
    expect(beta.spec.customVersion).toBe('v7');
    expect(beta.metadata.labels).toEqual({ tier: 'logs' });
    expect(alpha.metadata.labels).toEqual({ tier: 'logs', [CUSTOM]: 'v7' });
    expect('customVersion' in alpha.spec).toBe(false);
    expect(alpha.spec.namespaceSelector).toEqual(spec.namespaceSelector);
    // the same object: each read converted is the other
    expect(sidecarSetToV1beta1(alpha)).toEqual(beta);
    expect(sidecarSetToV1alpha1(beta)).toEqual(alpha);

    const created = await t.core.createNamespacedPod({ namespace: t.namespace, body: pod('web-0') });
    expect(created.spec?.containers.map((c) => c.name)).toEqual(['logger', 'main']);
    expect(created.metadata?.annotations?.['kruise.io/sidecarset-injected-list']).toBe(name);
    expect(
      JSON.parse(created.metadata?.annotations?.['kruise.io/sidecarset-hash'] ?? '{}') as JsonObject,
    ).toMatchObject({ [name]: { hash: beta.metadata.annotations?.['kruise.io/sidecarset-hash'] } });
  }, 60_000);

  test("a v1alpha1 spec.namespace reads back through both versions as the namespaceSelector OpenKruise's conversion gives it", async () => {
    const name = `alpha-${t.namespace}`;
    await createHashed('v1alpha1', name, {
      apiVersion: `${group}/v1alpha1`,
      kind: 'SidecarSet',
      metadata: { name, labels: { [CUSTOM]: 'v1' } },
      spec: {
        selector: { matchLabels: { app: 'other' } },
        namespace: t.namespace,
        containers: [{ name: 'logger', image: 'fluentd:1' }],
      },
    });
    const selector = { matchLabels: { 'kubernetes.io/metadata.name': t.namespace } };
    const alpha = await get('v1alpha1', name);
    const beta = await get('v1beta1', name);
    expect(alpha.spec.namespaceSelector).toEqual(selector);
    expect('namespace' in alpha.spec).toBe(false);
    expect(alpha.metadata.labels).toEqual({ [CUSTOM]: 'v1' });
    expect(beta.spec.namespaceSelector).toEqual(selector);
    expect(beta.spec.customVersion).toBe('v1');
    expect(beta.metadata.labels).toBeUndefined();
  }, 60_000);
});

describe('SidecarSet without the conversion webhook', () => {
  test('a v1alpha1 spec.namespace no /mutate turned into a selector is refused, not pruned', async () => {
    await kube.delete(MUTATING_WEBHOOK_RESOURCE, { name: CONFIG });
    const versions = (rawCrd(crdName) as { spec: { versions: JsonObject[] } }).spec.versions;
    expect(await releaseCrdsFromConverter(kube, [crdName], () => versions)).toEqual([crdName]);
    const name = `none-${t.namespace}`;
    names.push(name);
    const body = {
      apiVersion: `${group}/v1alpha1`,
      kind: 'SidecarSet',
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        namespace: t.namespace,
        containers: [{ name: 'logger', image: 'fluentd:1' }],
      },
    };
    // the webhook configuration's removal is taken up within moments: until then /mutate still answers
    const message = await waitFor('the refusal', 30_000, async () => {
      const m = await refusal(create('v1alpha1', body));
      if (m === 'accepted') await remove(name);
      return m === 'accepted' ? undefined : m;
    });
    expect(message).toContain('spec.namespace: Invalid value');
    expect(message).toContain("spec.namespace needs Kruiseless's SidecarSet webhook");
  }, 60_000);
});
