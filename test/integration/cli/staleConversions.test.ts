/**
 * lib/cli/staleConversions.ts on the real API server: a CRD that converts through a Kruiseless webhook nothing
 * answers (a killed `kruiseless local`) is put back to no conversion; one whose webhook answers is left alone; a dry
 * run patches nothing. Two throwaway CRDs of their own group, so no other test's CRD is touched.
 */
import net from 'node:net';
import { ApiextensionsV1Api, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { useTestNamespace } from '../support/cluster.js';
import { ANNOTATION_CONVERSION_WEBHOOK } from '../../../lib/api/conversion/crd.js';
import {
  answers,
  conversionOutcomeLine,
  kruiselessConversions,
  releaseStaleConversions,
} from '../../../lib/cli/staleConversions.js';
import { createKubeClient } from '../../../lib/kube/index.js';

const t = useTestNamespace('stale-conv');
const group = `${Math.random().toString(36).slice(2, 8)}.stale.kruiseless.io`;
let live: net.Server;
let livePort = 0;
let deadPort = 0;

const crd = (plural: string, port: number): V1CustomResourceDefinition => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${group}`, annotations: { [ANNOTATION_CONVERSION_WEBHOOK]: 'local' } },
  spec: {
    group,
    scope: 'Namespaced',
    names: {
      plural,
      singular: plural.slice(0, -1),
      kind: plural.charAt(0).toUpperCase() + plural.slice(1, -1),
    },
    versions: [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
      { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
    ],
    conversion: {
      strategy: 'Webhook',
      webhook: {
        clientConfig: { url: `https://127.0.0.1:${port}/convert` },
        conversionReviewVersions: ['v1'],
      },
    },
  },
});

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

beforeAll(async () => {
  live = net.createServer((c) => c.destroy());
  await new Promise<void>((r) => live.listen(0, '127.0.0.1', r));
  livePort = (live.address() as net.AddressInfo).port;
  deadPort = await freePort();
  const ext = t.kc.makeApiClient(ApiextensionsV1Api);
  await ext.createCustomResourceDefinition({ body: crd('deads', deadPort) });
  await ext.createCustomResourceDefinition({ body: crd('lives', livePort) });
});

afterAll(async () => {
  live.close();
  const ext = t.kc.makeApiClient(ApiextensionsV1Api);
  for (const plural of ['deads', 'lives'])
    await ext.deleteCustomResourceDefinition({ name: `${plural}.${group}` }).catch(() => undefined);
});

async function read(): Promise<Map<string, V1CustomResourceDefinition>> {
  const ext = t.kc.makeApiClient(ApiextensionsV1Api);
  const out = new Map<string, V1CustomResourceDefinition>();
  for (const plural of ['deads', 'lives'])
    out.set(`${plural}.${group}`, await ext.readCustomResourceDefinition({ name: `${plural}.${group}` }));
  return out;
}

const view = (m: Map<string, V1CustomResourceDefinition>) =>
  [...m].map(
    ([name, c]) =>
      `${name} ${c.spec.conversion?.strategy ?? ''} ${c.metadata?.annotations?.[ANNOTATION_CONVERSION_WEBHOOK] ?? '-'}`,
  );

test('answers: a listening port answers, a closed one does not', async () => {
  expect([
    await answers(`https://127.0.0.1:${livePort}/convert`),
    await answers(`https://127.0.0.1:${deadPort}/convert`),
  ]).toEqual([true, false]);
});

test('a dry run names the dead webhook and patches nothing; the real run puts only that CRD back', async () => {
  const kube = createKubeClient(t.kc);
  const before = await read();
  const ours = kruiselessConversions(before);
  expect(ours.map((c) => `${c.crdName} ${c.server} ${c.url}`)).toEqual([
    `deads.${group} local https://127.0.0.1:${deadPort}/convert`,
    `lives.${group} local https://127.0.0.1:${livePort}/convert`,
  ]);
  const dry = await releaseStaleConversions(kube, ours, () => undefined, { dryRun: true });
  expect(dry.map(conversionOutcomeLine)).toEqual([
    `customresourcedefinition.apiextensions.k8s.io/deads.${group} conversion webhook would be removed (local at https://127.0.0.1:${deadPort}/convert does not answer; server dry run)`,
    `customresourcedefinition.apiextensions.k8s.io/lives.${group} still converts through local at https://127.0.0.1:${livePort}/convert (it answers; --admission-url points it at the admission function)`,
  ]);
  expect(view(await read())).toEqual([`deads.${group} Webhook local`, `lives.${group} Webhook local`]);

  const run = await releaseStaleConversions(kube, ours, () => undefined);
  expect(run.map((o) => `${o.crdName} ${o.action}`)).toEqual([
    `deads.${group} released`,
    `lives.${group} kept`,
  ]);
  const after = await read();
  expect(view(after)).toEqual([`deads.${group} None -`, `lives.${group} Webhook local`]);
  expect(after.get(`deads.${group}`)?.spec.conversion?.webhook).toBeUndefined();
  expect(kruiselessConversions(after).map((c) => c.crdName)).toEqual([`lives.${group}`]);
});
