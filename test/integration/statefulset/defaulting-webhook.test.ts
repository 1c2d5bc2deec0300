/**
 * The embedded runtime's defaulting webhook end to end on the local control plane: `startEmbedded` with the
 * conversion server registers the MutatingWebhookConfiguration `kruiseless-local-defaults` for its `/mutate`, the
 * server defaults under the deployment's gates (here `TemplateNoDefaults`: the spec defaults are stored, the pod
 * template stays as written), and `stop()` takes the configuration away again.
 */
import type { Embedded } from '../../../lib/local/embedded.js';
import { startEmbedded } from '../../../lib/local/embedded.js';
import { LOCAL_MUTATING_WEBHOOK, MUTATING_WEBHOOK_RESOURCE } from '../../../lib/local/mutatingWebhook.js';
import { createKubeClient } from '../../../lib/kube/index.js';
import { useTestNamespace } from '../support/cluster.js';
import {
  namespaceScopedServerlessYml,
  RecordingLogger,
  testKubeconfig,
  E2E_CLUSTER,
} from '../support/pipeline.js';

const ctx = useTestNamespace('asts-defaulting');
let embedded: Embedded | undefined;

afterAll(async () => {
  await embedded?.stop();
});

type Obj = Record<string, unknown> & { spec: Record<string, unknown> };

test("stores OpenKruise's spec defaults under the deployment's gates, and unregisters at stop", async () => {
  embedded = await startEmbedded({
    kubeconfig: testKubeconfig(),
    clusterName: E2E_CLUSTER,
    logger: new RecordingLogger(),
    serverlessYml: namespaceScopedServerlessYml(ctx.namespace),
    settings: { statefulset: { templateNoDefaults: true } },
    conversion: {},
  });
  const kube = createKubeClient(ctx.kc);
  expect(await kube.get(MUTATING_WEBHOOK_RESOURCE, { name: LOCAL_MUTATING_WEBHOOK })).toBeDefined();
  const template = {
    metadata: { labels: { app: 'd' } },
    spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
  };
  // the API server takes the new webhook configuration up within moments: create until one comes back defaulted
  let stored: Obj | undefined;
  for (let i = 0; i < 50 && !stored?.spec.updateStrategy; i++) {
    await ctx.custom.createNamespacedCustomObject({
      group: 'apps.kruise.io',
      version: 'v1beta1',
      plural: 'statefulsets',
      namespace: ctx.namespace,
      body: {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'StatefulSet',
        metadata: { name: `d-${i}` },
        spec: { replicas: 0, selector: { matchLabels: { app: 'd' } }, template },
      },
    });
    stored = (await ctx.custom.getNamespacedCustomObject({
      group: 'apps.kruise.io',
      version: 'v1beta1',
      plural: 'statefulsets',
      namespace: ctx.namespace,
      name: `d-${i}`,
    })) as Obj;
    if (!stored.spec.updateStrategy) await new Promise((r) => setTimeout(r, 100));
  }
  expect(stored?.spec).toEqual({
    replicas: 0,
    selector: { matchLabels: { app: 'd' } },
    template,
    podManagementPolicy: 'OrderedReady',
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 },
    },
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    revisionHistoryLimit: 10,
  });
  await embedded.stop();
  embedded = undefined;
  expect(await kube.get(MUTATING_WEBHOOK_RESOURCE, { name: LOCAL_MUTATING_WEBHOOK })).toBeUndefined();
}, 60_000);
