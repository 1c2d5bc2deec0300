/**
 * SidecarSet injection through the embedded webhook server on a real kube-apiserver (issue 19): the SidecarSet is
 * stored through `/mutate` (defaults, hash annotations), a pod created in a matching namespace goes through
 * `/mutate-pod` and is stored with the sidecar, its volume, env and the annotations; with the server down the pod
 * is refused (failurePolicy Fail).
 *
 * The shared test cluster runs other files at the same time, so the configuration here has a name of its own and
 * its pod webhook is narrowed to this file's namespace (the production one, lib/api/admission/webhookConfiguration.ts
 * `podMutatingWebhook`, takes every namespace but the system ones): a webhook with failurePolicy Fail left behind by
 * a crash must not block the other files' pods.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { V1Pod } from '@kubernetes/client-node';
import { sidecarSetMutator } from '../../../lib/controllers/sidecarset/api/mutation.js';
import { SIDECARSET_RESOURCE } from '../../../lib/controllers/sidecarset/api/resource.js';
import type { SidecarSet } from '../../../lib/controllers/sidecarset/api/types.js';
import { answerPodAdmission, kubePodInjectionReads } from '../../../lib/controllers/sidecarset/podWebhook.js';
import { createKubeClient, type KubeClient, type KubeObject } from '../../../lib/kube/index.js';
import { startConversionServer, type ConversionServer } from '../../../lib/local/conversionServer.js';
import { MUTATING_WEBHOOK_RESOURCE } from '../../../lib/local/mutatingWebhook.js';
import { useTestNamespace } from '../support/cluster.js';
import { sidecarSetWebhookConfiguration } from '../support/sidecarset.js';

const t = useTestNamespace('sidecarset');
const CONFIG = `kruiseless-it-sidecarset-${Math.random().toString(36).slice(2, 8)}`;

let kube: KubeClient;
let server: ConversionServer | undefined;
let sidecarSetName = '';

const pod = (name: string, labels: Record<string, string>): V1Pod => ({
  metadata: { name, labels, annotations: { 'kruise.io/sidecarset-injected-list': '' } },
  spec: {
    automountServiceAccountToken: false,
    containers: [
      {
        name: 'main',
        image: 'nginx:1.25',
        env: [{ name: 'LOG_LEVEL', value: 'debug' }],
        volumeMounts: [{ name: 'data', mountPath: '/data' }],
      },
    ],
    volumes: [{ name: 'data', emptyDir: {} }],
  },
});

beforeAll(async () => {
  kube = createKubeClient(t.kc);
  const reads = kubePodInjectionReads(kube);
  server = await startConversionServer({
    mutators: [sidecarSetMutator],
    podAdmission: (body) => answerPodAdmission(body, reads),
  });
  await kube.create(MUTATING_WEBHOOK_RESOURCE, sidecarSetWebhookConfiguration(server, CONFIG, t.namespace));
  sidecarSetName = `log-${t.namespace}`;
}, 60_000);

afterAll(async () => {
  await kube.delete(MUTATING_WEBHOOK_RESOURCE, { name: CONFIG }).catch(() => undefined);
  if (sidecarSetName) await kube.delete(SIDECARSET_RESOURCE, { name: sidecarSetName }).catch(() => undefined);
  await server?.close();
});

test('a SidecarSet is stored hashed; a matching pod is stored with the sidecar, its volume, env and annotations', async () => {
  // the API server takes a new webhook configuration up within moments: create until the SidecarSet comes back hashed
  let stored: SidecarSet | undefined;
  // (before /mutate is taken up the CRD refuses v1alpha1's spec.namespace: its storage is v1beta1, which has none)
  for (let i = 0; i < 50; i++) {
    const created = await kube
      .create(SIDECARSET_RESOURCE, {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'SidecarSet',
        metadata: { name: sidecarSetName },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          namespace: t.namespace,
          containers: [
            {
              name: 'logger',
              image: 'fluentd:v1.16',
              volumeMounts: [{ name: 'logs', mountPath: '/var/log/app' }],
              shareVolumePolicy: { type: 'enabled' },
              transferEnv: [{ sourceContainerName: 'main', envName: 'LOG_LEVEL' }],
            },
          ],
          volumes: [{ name: 'logs', emptyDir: {} }],
        },
      } as unknown as KubeObject)
      .then(
        () => true,
        () => false,
      );
    if (!created) {
      await sleep(100);
      continue;
    }
    stored = (await kube.get(SIDECARSET_RESOURCE, { name: sidecarSetName })) as unknown as SidecarSet;
    if (stored.metadata.annotations?.['kruise.io/sidecarset-hash']) break;
    await kube.delete(SIDECARSET_RESOURCE, { name: sidecarSetName });
    while (await kube.get(SIDECARSET_RESOURCE, { name: sidecarSetName })) await sleep(50);
    await sleep(100);
  }
  const hash = stored?.metadata.annotations?.['kruise.io/sidecarset-hash'] ?? '';
  const hashWithoutImage = stored?.metadata.annotations?.['kruise.io/sidecarset-hash-without-image'] ?? '';
  expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{64}$/);
  expect(stored?.spec.containers?.[0]).toMatchObject({
    podInjectPolicy: 'BeforeAppContainer',
    imagePullPolicy: 'IfNotPresent',
  });

  await t.core.createNamespacedPod({ namespace: t.namespace, body: pod('web-0', { app: 'web' }) });
  await t.core.createNamespacedPod({ namespace: t.namespace, body: pod('db-0', { app: 'db' }) });
  const web = await t.core.readNamespacedPod({ namespace: t.namespace, name: 'web-0' });
  const db = await t.core.readNamespacedPod({ namespace: t.namespace, name: 'db-0' });

  const apiDefaults = {
    resources: {},
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: 'IfNotPresent',
  };
  const main = {
    name: 'main',
    image: 'nginx:1.25',
    env: [{ name: 'LOG_LEVEL', value: 'debug' }],
    volumeMounts: [{ name: 'data', mountPath: '/data' }],
    ...apiDefaults,
  };
  expect(web.spec?.containers).toEqual([
    {
      name: 'logger',
      image: 'fluentd:v1.16',
      env: [
        { name: 'IS_INJECTED', value: 'true' },
        { name: 'LOG_LEVEL', value: 'debug' },
      ],
      volumeMounts: [
        { name: 'logs', mountPath: '/var/log/app' },
        { name: 'data', mountPath: '/data' },
      ],
      ...apiDefaults,
    },
    main,
  ]);
  expect(web.spec?.volumes).toEqual([
    { name: 'data', emptyDir: {} },
    { name: 'logs', emptyDir: {} },
  ]);
  const annotations = web.metadata?.annotations ?? {};
  const at = /"updateTimestamp":"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"/.exec(
    annotations['kruise.io/sidecarset-hash'] ?? '',
  )?.[1];
  expect(annotations).toEqual({
    'kruise.io/sidecarset-hash': `{"${sidecarSetName}":{"updateTimestamp":"${at}","hash":"${hash}","sidecarSetName":"${sidecarSetName}","sidecarList":["logger"]}}`,
    'kruise.io/sidecarset-hash-without-image': `{"${sidecarSetName}":{"updateTimestamp":"${at}","hash":"${hashWithoutImage}","sidecarSetName":"${sidecarSetName}","sidecarList":["logger"]}}`,
    'kruise.io/sidecarset-injected-list': sidecarSetName,
  });
  // a pod the selector does not take is stored as sent
  expect(db.spec?.containers).toEqual([main]);
  expect(db.metadata?.annotations).toEqual({ 'kruise.io/sidecarset-injected-list': '' });
}, 120_000);

test('with the webhook server down, a pod in a namespace it serves is refused (failurePolicy Fail)', async () => {
  await server?.close();
  server = undefined;
  let refusal = '';
  try {
    await t.core.createNamespacedPod({ namespace: t.namespace, body: pod('web-down', { app: 'web' }) });
  } catch (e) {
    const body = (e as { body?: string }).body;
    refusal = body ? (JSON.parse(body) as { message: string }).message : String(e);
  }
  expect(refusal).toMatch(
    /^Internal error occurred: failed calling webhook "mpod\.kb\.io": failed to call webhook: Post "https:\/\/127\.0\.0\.1:\d+\/mutate-pod\?timeout=5s": dial tcp 127\.0\.0\.1:\d+: connect: connection refused$/,
  );
  // the system namespaces are not served: they keep creating pods
  const config = (await kube.get(MUTATING_WEBHOOK_RESOURCE, { name: CONFIG })) as unknown as {
    webhooks: { name: string; namespaceSelector?: unknown }[];
  };
  expect(config.webhooks.find((w) => w.name.startsWith('mpod.'))?.namespaceSelector).toEqual({
    matchExpressions: [
      { key: 'control-plane', operator: 'DoesNotExist' },
      {
        key: 'kubernetes.io/metadata.name',
        operator: 'NotIn',
        values: ['kube-system', 'kube-public', 'kube-node-lease'],
      },
      { key: 'kruiseless.io/pod-webhook', operator: 'NotIn', values: ['disabled'] },
      { key: 'kubernetes.io/metadata.name', operator: 'In', values: [t.namespace] },
    ],
  });
}, 60_000);
