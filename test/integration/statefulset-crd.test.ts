/**
 * OpenKruise's Advanced StatefulSet CRD as infra/crds installs it, on a real kube-apiserver: the example is
 * accepted as v1beta1 and read back unchanged; with no conversion webhook, a v1alpha1 read changes only apiVersion
 * and prunes the fields v1alpha1's schema lacks, here `lifecycle` and `reserveOrdinals`
 * (infra/crds/apps.kruise.io_statefulsets.yaml's header). With Kruiseless's conversion webhook serving (issue 17)
 * nothing is lost through v1alpha1, and while it is down v1alpha1 reads fail with the API server's error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { useTestNamespace } from './support/cluster.js';
import { noConversionPatch } from '../../lib/api/conversion/crd.js';
import { ANNOTATION_V1BETA1_FIELDS } from '../../lib/controllers/statefulset/api/keys.js';
import { statefulSetConverter } from '../../lib/controllers/statefulset/api/conversion.js';
import { createKubeClient, type KubeClient } from '../../lib/kube/index.js';
import {
  CRD_RESOURCE,
  pointCrdsAtConverter,
  startConversionServer,
  type ConversionServer,
} from '../../lib/local/conversionServer.js';
import {
  LOCAL_MUTATING_WEBHOOK,
  MUTATING_WEBHOOK_RESOURCE,
  registerMutatingWebhook,
  unregisterMutatingWebhook,
} from '../../lib/local/mutatingWebhook.js';
import { startEmbedded } from '../../lib/local/embedded.js';
import {
  namespaceScopedServerlessYml,
  RecordingLogger,
  testKubeconfig,
  E2E_CLUSTER,
} from './support/pipeline.js';
import { admissionMutators } from '../../lib/controllers/mutations.js';

type Obj = Record<string, unknown>;
const group = 'apps.kruise.io';
const plural = 'statefulsets';
const example = parse(
  fs.readFileSync(path.join(process.cwd(), 'examples', 'asts-web-sample.yaml'), 'utf8'),
) as Obj & { spec: Obj };

const t = useTestNamespace('asts-crd');

describe('Advanced StatefulSet CRD (apps.kruise.io v1beta1 stored, v1alpha1 served)', () => {
  test('examples/asts-web-sample.yaml is stored as written; v1alpha1 reads it without v1beta1-only fields', async () => {
    const body = {
      ...example,
      spec: { ...example.spec, lifecycle: { preDelete: { labelsHandler: { hold: 'x' } } } },
    };
    await t.custom.createNamespacedCustomObject({
      group,
      version: 'v1beta1',
      plural,
      namespace: t.namespace,
      body,
    });
    const beta = (await t.custom.getNamespacedCustomObject({
      group,
      version: 'v1beta1',
      plural,
      namespace: t.namespace,
      name: 'web',
    })) as Obj & { spec: Obj };
    expect(beta.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(beta.spec).toEqual(body.spec);
    const alpha = (await t.custom.getNamespacedCustomObject({
      group,
      version: 'v1alpha1',
      plural,
      namespace: t.namespace,
      name: 'web',
    })) as Obj & { spec: Obj };
    expect(alpha.apiVersion).toBe('apps.kruise.io/v1alpha1');
    const { lifecycle: _lifecycle, reserveOrdinals: _reserveOrdinals, ...sharedFields } = body.spec as Obj;
    expect(alpha.spec).toEqual(sharedFields);
  });

  test("an update of serviceName, selector or podManagementPolicy is refused with OpenKruise's message; defaults count as set", async () => {
    const { podManagementPolicy: _p, ...specNoPolicy } = example.spec;
    await t.custom.createNamespacedCustomObject({
      group,
      version: 'v1beta1',
      plural,
      namespace: t.namespace,
      body: { ...example, metadata: { name: 'frozen' }, spec: specNoPolicy },
    });
    const patch = (spec: Obj) =>
      t.custom.patchNamespacedCustomObject(
        { group, version: 'v1beta1', plural, namespace: t.namespace, name: 'frozen', body: { spec } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    const refusal = async (spec: Obj): Promise<string> => {
      try {
        await patch(spec);
      } catch (e) {
        return String((e as { body?: string }).body ?? e);
      }
      return 'accepted';
    };
    const forbidden =
      "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'reserveOrdinals', 'lifecycle', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', `volumeClaimTemplates`, `VolumeClaimUpdateStrategy` and 'updateStrategy' are forbidden";
    expect(await refusal({ serviceName: 'other' })).toContain(forbidden);
    expect(await refusal({ podManagementPolicy: 'Parallel' })).toContain(forbidden);
    expect(await refusal({ selector: { matchLabels: { app: 'other' } } })).toContain(forbidden);
    // the default written out is no change (OpenKruise's webhook compares defaulted objects)
    expect(await refusal({ podManagementPolicy: 'OrderedReady' })).toBe('accepted');
    expect(await refusal({ replicas: 5, revisionHistoryLimit: 3, reserveOrdinals: [1] })).toBe('accepted');
  });
});

/**
 * Issue 17, both versions served: the embedded runtime's conversion webhook (lib/local/conversionServer.ts, the
 * server and CRD patch `startEmbedded({conversion})` uses) on the real API server. The CRD is put back to no
 * conversion afterwards, as the rest of the suite expects it.
 */
describe('Advanced StatefulSet with the conversion webhook serving (v1alpha1 converted, nothing lost)', () => {
  let server: ConversionServer | undefined;
  let kube: KubeClient;
  const crdName = 'statefulsets.apps.kruise.io';
  const betaOnly = {
    reserveOrdinals: [1, '3-5'],
    ordinals: { start: 2 },
    volumeClaimUpdateStrategy: { type: 'OnDelete' },
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
    scaleStrategy: { maxUnavailable: 1 },
    lifecycle: { preDelete: { labelsHandler: { hold: 'x' } } },
  };
  const get = async (version: string, name: string) =>
    (await t.custom.getNamespacedCustomObject({
      group,
      version,
      plural,
      namespace: t.namespace,
      name,
    })) as Obj & {
      metadata: Obj & { annotations?: Record<string, string>; resourceVersion: string };
      spec: Obj;
    };

  beforeAll(async () => {
    kube = createKubeClient(t.kc);
    server = await startConversionServer();
    expect(
      await pointCrdsAtConverter(kube, { url: server.url, caPem: server.caPem, server: 'local' }, [
        statefulSetConverter,
      ]),
    ).toEqual([crdName]);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await kube.patch(CRD_RESOURCE, { name: crdName }, { type: 'merge', body: noConversionPatch() });
  });

  test('v1beta1-only fields survive a v1alpha1 read, a v1alpha1 write and a v1beta1 read', async () => {
    const body = { ...example, metadata: { name: 'db' }, spec: { ...example.spec, ...betaOnly } };
    await t.custom.createNamespacedCustomObject({
      group,
      version: 'v1beta1',
      plural,
      namespace: t.namespace,
      body,
    });
    // the API server picks up the CRD's new conversion within moments: read v1alpha1 until it carries the fields
    let alpha = await get('v1alpha1', 'db');
    for (let i = 0; i < 100 && !alpha.metadata.annotations?.[ANNOTATION_V1BETA1_FIELDS]; i++) {
      await new Promise((r) => setTimeout(r, 100));
      alpha = await get('v1alpha1', 'db');
    }
    expect(alpha.apiVersion).toBe('apps.kruise.io/v1alpha1');
    const shared = { ...example.spec };
    delete shared.reserveOrdinals;
    expect(alpha.spec).toEqual(shared);
    expect(JSON.parse(alpha.metadata.annotations?.[ANNOTATION_V1BETA1_FIELDS] ?? 'null')).toEqual({
      spec: betaOnly,
    });

    // a v1alpha1 read-modify-write (PUT with the resourceVersion read)
    const changed = { ...alpha, spec: { ...alpha.spec, replicas: 4 } };
    await t.custom.replaceNamespacedCustomObject({
      group,
      version: 'v1alpha1',
      plural,
      namespace: t.namespace,
      name: 'db',
      body: changed,
    });
    // a v1alpha1 merge patch
    await t.custom.patchNamespacedCustomObject(
      {
        group,
        version: 'v1alpha1',
        plural,
        namespace: t.namespace,
        name: 'db',
        body: { metadata: { labels: { tier: 'data' } } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const beta = await get('v1beta1', 'db');
    expect(beta.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(beta.spec).toEqual({ ...body.spec, replicas: 4 });
    expect(beta.metadata.labels).toEqual({ tier: 'data' });
    expect(beta.metadata.annotations).toBeUndefined();
  });

  test('a v1alpha1 create is stored as v1beta1, and a stored annotation-less v1beta1 object reads as before', async () => {
    const alphaBody = {
      ...example,
      apiVersion: 'apps.kruise.io/v1alpha1',
      metadata: { name: 'legacy' },
      spec: { ...example.spec, reserveOrdinals: undefined },
    };
    await t.custom.createNamespacedCustomObject({
      group,
      version: 'v1alpha1',
      plural,
      namespace: t.namespace,
      body: JSON.parse(JSON.stringify(alphaBody)) as object,
    });
    const beta = await get('v1beta1', 'legacy');
    const shared = { ...example.spec };
    delete shared.reserveOrdinals;
    expect(beta.spec).toEqual(shared);
    expect(beta.metadata.annotations).toBeUndefined();
  });

  test("with the defaulting webhook registered, an Advanced StatefulSet is stored with OpenKruise's defaults; unregistered, as written", async () => {
    const { updateStrategy: _u, ...written } = example.spec;
    const create = (name: string) =>
      t.custom.createNamespacedCustomObject({
        group,
        version: 'v1beta1',
        plural,
        namespace: t.namespace,
        body: { ...example, metadata: { name }, spec: written },
      });
    // narrowed to this file's namespace: cloneset-versions.test.ts creates CloneSets in parallel, as written
    const target = {
      name: LOCAL_MUTATING_WEBHOOK,
      url: server?.mutateUrl ?? '',
      caPem: server?.caPem ?? '',
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': t.namespace } },
    };
    await registerMutatingWebhook(kube, target, admissionMutators());
    // the API server takes a new webhook configuration up within moments: create until one comes back defaulted
    let stored = { spec: {} as Obj };
    for (let i = 0; i < 50 && !stored.spec.updateStrategy; i++) {
      await create(`defaulted-${i}`);
      stored = await get('v1beta1', `defaulted-${i}`);
      if (!stored.spec.updateStrategy) await new Promise((r) => setTimeout(r, 100));
    }
    expect(stored.spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 },
    });
    expect(stored.spec.revisionHistoryLimit).toBe(10);
    expect(stored.spec.persistentVolumeClaimRetentionPolicy).toEqual({
      whenDeleted: 'Retain',
      whenScaled: 'Retain',
    });
    expect((stored.spec.template as { spec: Obj }).spec.restartPolicy).toBe('Always');
    // registering again replaces the configuration in place
    await registerMutatingWebhook(kube, target, admissionMutators());
    await unregisterMutatingWebhook(kube, LOCAL_MUTATING_WEBHOOK);
    await unregisterMutatingWebhook(kube, LOCAL_MUTATING_WEBHOOK);
    let plain = { spec: { updateStrategy: {} } as Obj };
    for (let i = 0; i < 50 && plain.spec.updateStrategy; i++) {
      await create(`plain-${i}`);
      plain = await get('v1beta1', `plain-${i}`);
      if (plain.spec.updateStrategy) await new Promise((r) => setTimeout(r, 100));
    }
    expect(plain.spec).toEqual(written);
  });

  // in this describe, not a file of its own: startEmbedded points the shared cluster's CRD at its converter, which
  // the other files' tests must not meet; the CRD is pointed back at this describe's server afterwards
  test("startEmbedded's defaulting webhook answers under the deployment's gates (TemplateNoDefaults: spec defaults, template as written) and is unregistered at stop", async () => {
    const embedded = await startEmbedded({
      kubeconfig: testKubeconfig(),
      clusterName: E2E_CLUSTER,
      logger: new RecordingLogger(),
      serverlessYml: namespaceScopedServerlessYml(t.namespace),
      settings: { statefulset: { templateNoDefaults: true } },
      // this file's CRD only: cloneset-versions.test.ts, in parallel, points the CloneSet CRD at a server of its own
      conversion: { converters: [statefulSetConverter] },
      // no cluster-wide failurePolicy Fail pod webhook while other files create pods in parallel (the pod webhook's
      // registration is sidecarset/injection.test.ts's, narrowed to its namespace)
      podWebhook: false,
      // nor a cluster-wide validating webhook: bad-input.test.ts stores an invalid CloneSet in parallel
      validatingWebhook: false,
    });
    try {
      const registered = (await kube.get(MUTATING_WEBHOOK_RESOURCE, {
        name: LOCAL_MUTATING_WEBHOOK,
      })) as unknown as {
        webhooks: {
          name: string;
          failurePolicy: string;
          clientConfig: { url: string };
          namespaceSelector?: unknown;
        }[];
      };
      // the namespaces the deployment's rules serve: this file's only (cloneset-versions.test.ts, in parallel,
      // creates CloneSets that must be stored as written)
      expect(new Set(registered.webhooks.map((w) => JSON.stringify(w.namespaceSelector)))).toEqual(
        new Set([
          JSON.stringify({
            matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: [t.namespace] }],
          }),
        ]),
      );
      // the defaulting webhooks (Ignore) at the embedded server; without podWebhook no mpod
      expect(registered.webhooks.map((w) => [w.name, w.failurePolicy, w.clientConfig.url])).toEqual([
        ['clonesets.apps.kruise.io.kruiseless.io', 'Ignore', embedded.conversion?.mutateUrl],
        ['statefulsets.apps.kruise.io.kruiseless.io', 'Ignore', embedded.conversion?.mutateUrl],
        ['sidecarsets.apps.kruise.io.kruiseless.io', 'Ignore', embedded.conversion?.mutateUrl],
        ['daemonsets.apps.kruise.io.kruiseless.io', 'Ignore', embedded.conversion?.mutateUrl],
        ['broadcastjobs.apps.kruise.io.kruiseless.io', 'Ignore', embedded.conversion?.mutateUrl],
        ['advancedcronjobs.apps.kruise.io.kruiseless.io', 'Ignore', embedded.conversion?.mutateUrl],
      ]);
      const template = {
        metadata: { labels: { app: 'd' } },
        spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
      };
      // the API server takes the new webhook configuration up within moments: create until one comes back defaulted
      let stored = { spec: {} as Obj };
      for (let i = 0; i < 50 && !stored.spec.updateStrategy; i++) {
        await t.custom.createNamespacedCustomObject({
          group,
          version: 'v1beta1',
          plural,
          namespace: t.namespace,
          body: {
            apiVersion: 'apps.kruise.io/v1beta1',
            kind: 'StatefulSet',
            metadata: { name: `gated-${i}` },
            spec: { replicas: 0, selector: { matchLabels: { app: 'd' } }, template },
          },
        });
        stored = await get('v1beta1', `gated-${i}`);
        if (!stored.spec.updateStrategy) await new Promise((r) => setTimeout(r, 100));
      }
      // the template not defaulted, but written back as Go's round trip writes it (OpenKruise's webhook does the same)
      expect(stored.spec).toEqual({
        replicas: 0,
        selector: { matchLabels: { app: 'd' } },
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'd' } },
          spec: { containers: [{ name: 'main', image: 'nginx:1', resources: {} }] },
        },
        volumeClaimUpdateStrategy: {},
        podManagementPolicy: 'OrderedReady',
        updateStrategy: {
          type: 'RollingUpdate',
          rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 },
        },
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
        revisionHistoryLimit: 10,
      });
    } finally {
      await embedded.stop();
      await pointCrdsAtConverter(
        kube,
        { url: server?.url ?? '', caPem: server?.caPem ?? '', server: 'local' },
        [statefulSetConverter],
      );
      // the API server takes a CRD's new conversion settings up moments after the patch: until a v1alpha1 read
      // converts again, it may still call the stopped embedded converter (and the next test would see its port)
      for (let i = 0; i < 100; i++) {
        const converted = await get('v1alpha1', 'db').then(
          () => true,
          () => false,
        );
        if (converted) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(await kube.get(MUTATING_WEBHOOK_RESOURCE, { name: LOCAL_MUTATING_WEBHOOK })).toBeUndefined();
  }, 60_000);

  test("while the webhook is down, a v1alpha1 read fails with the API server's conversion error; v1beta1 reads work", async () => {
    const url = server!.url;
    await server!.close();
    server = undefined;
    const failure = await get('v1alpha1', 'db').then(
      () => undefined,
      (e: { code?: number; body?: string }) => ({ code: e.code, body: JSON.parse(e.body ?? '{}') as Obj }),
    );
    const port = new URL(url).port;
    expect(failure).toEqual({
      code: 500,
      body: expect.objectContaining({
        kind: 'Status',
        status: 'Failure',
        code: 500,
        message:
          `conversion webhook for apps.kruise.io/v1beta1, Kind=StatefulSet failed: Post ` +
          `"https://127.0.0.1:${port}/convert?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
      }) as unknown,
    });
    expect((await get('v1beta1', 'db')).spec.replicas).toBe(4);
  });
});
