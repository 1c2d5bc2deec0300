/**
 * CloneSet `apps.kruise.io/v1beta1` on a real kube-apiserver (README.md#cloneset-versions). Without the conversion
 * webhook (infra/crds as it is) v1beta1 is an alias of the stored v1alpha1: same fields, nothing lost through it,
 * v1beta1's own shape refused. With Kruiseless's webhook (the embedded runtime's /convert, the CRD patch
 * `kruiseless local` makes) a v1beta1 CloneSet written in OpenKruise's shape is reconciled by the controller (which
 * reads v1alpha1) and reads back identically through both versions, read-modify-writes through either included;
 * while the webhook is down v1alpha1, the controller's version, still answers.
 */
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { useTestNamespace } from './support/cluster.js';
import { startPipeline } from './support/pipeline.js';
import { waitFor } from './support/wait.js';
import { convertCloneSet } from '../../lib/controllers/cloneset/api/conversion.js';
import { cloneSetConverter } from '../../lib/controllers/cloneset/api/conversion.js';
import type { JsonObject } from '../../lib/api/types.js';
import { createKubeClient, type KubeClient } from '../../lib/kube/index.js';
import {
  pointCrdsAtConverter,
  releaseCrdsFromConverter,
  startConversionServer,
  type ConversionServer,
} from '../../lib/local/conversionServer.js';
import type { Embedded } from '../../lib/local/embedded.js';

const group = 'apps.kruise.io';
const plural = 'clonesets';
const crdName = 'clonesets.apps.kruise.io';

type CloneSetObj = JsonObject & {
  metadata: JsonObject & { annotations?: Record<string, string>; resourceVersion: string };
  spec: JsonObject;
  status?: JsonObject;
};

const t = useTestNamespace('cs-versions');

const template = (app: string): JsonObject => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'nginx', image: 'nginx:1.25-alpine' }] },
});

const get = async (version: string, name: string) =>
  (await t.custom.getNamespacedCustomObject({
    group,
    version,
    plural,
    namespace: t.namespace,
    name,
  })) as CloneSetObj;

const create = (version: string, body: JsonObject) =>
  t.custom.createNamespacedCustomObject({ group, version, plural, namespace: t.namespace, body });

const mergePatch = (version: string, name: string, body: JsonObject) =>
  t.custom.patchNamespacedCustomObject(
    { group, version, plural, namespace: t.namespace, name, body },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );

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

describe('CloneSet v1beta1 without the conversion webhook: an alias of v1alpha1', () => {
  test('a v1alpha1 CloneSet reads the same through v1beta1, and a write through v1beta1 keeps every field', async () => {
    const spec = {
      replicas: 0,
      selector: { matchLabels: { app: 'alias' } },
      template: template('alias'),
      scaleStrategy: { disablePVCReuse: true, maxUnavailable: 1 },
      updateStrategy: { type: 'InPlaceIfPossible', partition: 1, paused: true },
    };
    await create('v1alpha1', {
      apiVersion: `${group}/v1alpha1`,
      kind: 'CloneSet',
      metadata: { name: 'alias' },
      spec,
    });
    const alpha = await get('v1alpha1', 'alias');
    const beta = await get('v1beta1', 'alias');
    expect(beta.apiVersion).toBe(`${group}/v1beta1`);
    expect(beta.spec).toEqual(alpha.spec);
    await mergePatch('v1beta1', 'alias', { spec: { replicas: 0, minReadySeconds: 2 } });
    expect((await get('v1alpha1', 'alias')).spec).toEqual({ ...alpha.spec, minReadySeconds: 2 });
    // v1beta1's own shape needs the webhook: its strategy type is refused, its other fields are not kept
    expect(
      await refusal(
        create('v1beta1', {
          apiVersion: `${group}/v1beta1`,
          kind: 'CloneSet',
          metadata: { name: 'shaped' },
          spec: { ...spec, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } },
        }),
      ),
    ).toContain('spec.updateStrategy.type: Unsupported value: "RollingUpdate"');
  });
});

describe('CloneSet v1beta1 with the conversion webhook serving', () => {
  let server: ConversionServer | undefined;
  let kube: KubeClient;
  let embedded: Embedded | undefined;

  /** A v1beta1 CloneSet in OpenKruise's shape, with the fields v1alpha1 spells otherwise. */
  const betaBody = (name: string): JsonObject => ({
    apiVersion: `${group}/v1beta1`,
    kind: 'CloneSet',
    metadata: { name, labels: { tier: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: template(name),
      revisionHistoryLimit: 5,
      scaleStrategy: { enablePVCReuse: true, excludePreparingDelete: true, maxUnavailable: 1 },
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: {
          partition: 0,
          maxUnavailable: '50%',
          maxSurge: 0,
          podUpdatePolicy: 'InPlaceIfPossible',
          paused: false,
          inPlaceUpdateStrategy: { gracePeriodSeconds: 3, imagePreDownloadParallelism: 2 },
        },
      },
    },
  });

  beforeAll(async () => {
    kube = createKubeClient(t.kc);
    server = await startConversionServer();
    expect(
      await pointCrdsAtConverter(kube, { url: server.url, caPem: server.caPem, server: 'local' }, [
        cloneSetConverter,
      ]),
    ).toEqual([crdName]);
    embedded = await startPipeline(t.namespace);
  }, 60_000);

  afterAll(async () => {
    await embedded?.stop();
    await releaseCrdsFromConverter(kube, [crdName]);
    await server?.close();
  }, 60_000);

  test('a v1beta1 CloneSet is reconciled and reads back identically through v1alpha1 and v1beta1', async () => {
    const body = betaBody('beta');
    // the API server takes the CRD's new versions up within moments: create until the v1beta1 shape is accepted
    await waitFor('the v1beta1 shape accepted', 30_000, () =>
      create('v1beta1', body).then(
        () => true,
        () => false,
      ),
    );
    await waitFor(
      '2 ready replicas',
      90_000,
      async () => (await get('v1alpha1', 'beta')).status?.readyReplicas === 2,
    );
    const beta = await get('v1beta1', 'beta');
    const alpha = await get('v1alpha1', 'beta');
    expect(beta.spec).toEqual(body.spec);
    expect(beta.metadata.labels).toEqual({ tier: 'web' });
    expect(beta.metadata.annotations).toBeUndefined();
    // the controller's view: OpenKruise's mapping, the pre-download setting as its annotation
    expect(alpha.spec.updateStrategy).toEqual({
      type: 'InPlaceIfPossible',
      partition: 0,
      maxUnavailable: '50%',
      maxSurge: 0,
      inPlaceUpdateStrategy: { gracePeriodSeconds: 3 },
    });
    expect(alpha.spec.scaleStrategy).toEqual({ maxUnavailable: 1 });
    expect(alpha.metadata.annotations?.['apps.kruise.io/image-predownload-parallelism']).toBe('2');
    expect(alpha.status).toEqual(beta.status);
    expect(alpha.status?.observedGeneration).toBe(beta.metadata.generation);
    // the same object: each read converted is the other
    expect(convertCloneSet(alpha, 'v1alpha1', 'v1beta1')).toEqual(beta);
    const pods = await t.core.listNamespacedPod({ namespace: t.namespace, labelSelector: 'app=beta' });
    expect(pods.items.map((p) => p.metadata?.ownerReferences?.[0]?.kind)).toEqual(['CloneSet', 'CloneSet']);
  }, 150_000);

  test('a read-modify-write through v1alpha1 (PUT) and a merge patch through v1beta1 keep every v1beta1 field', async () => {
    const alpha = await get('v1alpha1', 'beta');
    await t.custom.replaceNamespacedCustomObject({
      group,
      version: 'v1alpha1',
      plural,
      namespace: t.namespace,
      name: 'beta',
      body: { ...alpha, metadata: { ...alpha.metadata, labels: { tier: 'web', touched: 'yes' } } },
    });
    await mergePatch('v1beta1', 'beta', { spec: { updateStrategy: { rollingUpdate: { partition: 1 } } } });
    const expected = betaBody('beta').spec as { updateStrategy: { rollingUpdate: JsonObject } };
    expected.updateStrategy.rollingUpdate.partition = 1;
    const beta = await get('v1beta1', 'beta');
    expect(beta.spec).toEqual(expected);
    expect(beta.metadata.labels).toEqual({ tier: 'web', touched: 'yes' });
    expect((await get('v1alpha1', 'beta')).spec.updateStrategy).toMatchObject({ partition: 1 });
  });

  test("while the webhook is down, v1alpha1 (the controller's version) answers and v1beta1 fails with 500", async () => {
    const url = server!.url;
    await server!.close();
    server = undefined;
    const port = new URL(url).port;
    const failure = await get('v1beta1', 'beta').then(
      () => undefined,
      (e: { code?: number; body?: string }) => ({
        code: e.code,
        message: (JSON.parse(e.body ?? '{}') as { message?: string }).message,
      }),
    );
    expect(failure).toEqual({
      code: 500,
      message:
        `conversion webhook for apps.kruise.io/v1alpha1, Kind=CloneSet failed: Post ` +
        `"https://127.0.0.1:${port}/convert?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    });
    expect((await get('v1alpha1', 'beta')).spec.replicas).toBe(2);
    // released: v1beta1 an alias of v1alpha1 again
    expect(await releaseCrdsFromConverter(kube, [crdName])).toEqual([crdName]);
    await waitFor('v1beta1 answering again', 30_000, () =>
      get('v1beta1', 'beta').then(
        () => true,
        () => false,
      ),
    );
    expect((await get('v1beta1', 'beta')).spec.updateStrategy).toMatchObject({
      type: 'InPlaceIfPossible',
      partition: 1,
    });
  });
});
