/**
 * Pod readiness on the local control plane (OpenKruise v1.9.0's `pod-readiness-controller` and its pod webhook step
 * `injectPodReadinessGate`): a bare pod created with the `KruisePodReady` readiness gate — a pod no Kruiseless
 * workload pass handles — gets the condition True from the embedded runtime's pod registration and becomes Ready
 * (kwok plays the kubelet, readiness gates included); with gate `KruisePodReadinessGate` on, `/mutate-pod` (this
 * file's own configuration, narrowed to its namespace, as the launch priority file's) gives a bare pod sent without
 * the gate the gate, and then the same condition. Asserted from API objects only.
 */
import { answerPodMutationReview } from '../../../lib/api/admission/podMutation.js';
import type { Pod } from '../../../lib/api/types.js';
import { podMutationSteps } from '../../../lib/controllers/podMutations.js';
import { createKubeClient, type KubeClient } from '../../../lib/kube/index.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import { startConversionServer, type ConversionServer } from '../../../lib/local/conversionServer.js';
import { startEmbedded, type Embedded } from '../../../lib/local/embedded.js';
import { MUTATING_WEBHOOK_RESOURCE } from '../../../lib/local/mutatingWebhook.js';
import { controllerSettings } from '../../../lib/runtime/config.js';
import { useTestNamespace } from '../support/cluster.js';
import {
  E2E_CLUSTER,
  RecordingLogger,
  namespaceScopedServerlessYml,
  testKubeconfig,
} from '../support/pipeline.js';
import { podWebhookConfiguration } from '../support/podWebhook.js';
import { waitFor } from '../support/wait.js';

const t = useTestNamespace('readiness');
const CONFIG = `kruiseless-it-readiness-${Math.random().toString(36).slice(2, 8)}`;
// the deployment's gates as `kruiseless local --feature-gates` and the admission function read them
const { settings } = controllerSettings('KruisePodReadinessGate=true', {});

let kube: KubeClient;
let server: ConversionServer | undefined;
let embedded: Embedded | undefined;

const bare = (name: string, gates?: string[]): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: t.namespace },
  spec: {
    automountServiceAccountToken: false,
    containers: [{ name: 'main', image: 'nginx:1.25' }],
    ...(gates ? { readinessGates: gates.map((conditionType) => ({ conditionType })) } : {}),
  },
});
const getPod = async (name: string) =>
  (await kube.get(RESOURCES.pods, { namespace: t.namespace, name })) as Pod;
const condition = (p: Pod, type: string) => p.status?.conditions?.find((c) => c.type === type);

/** Waits until the pod has `KruisePodReady` True and `Ready` True, and returns it. */
async function readyPod(name: string): Promise<Pod> {
  await waitFor(`${name} Ready through KruisePodReady`, 30_000, async () => {
    const p = await getPod(name);
    return condition(p, 'KruisePodReady')?.status === 'True' && condition(p, 'Ready')?.status === 'True';
  });
  return getPod(name);
}

beforeAll(async () => {
  kube = createKubeClient(t.kc);
  const steps = podMutationSteps(kube, settings);
  server = await startConversionServer({ podAdmission: (body) => answerPodMutationReview(body, steps) });
  await kube.create(MUTATING_WEBHOOK_RESOURCE, podWebhookConfiguration(server, CONFIG, t.namespace, []));
  embedded = await startEmbedded({
    kubeconfig: testKubeconfig(),
    clusterName: E2E_CLUSTER,
    logger: new RecordingLogger(),
    serverlessYml: namespaceScopedServerlessYml(t.namespace),
    settings,
  });
}, 60_000);

afterAll(async () => {
  await embedded?.stop();
  await kube.delete(MUTATING_WEBHOOK_RESOURCE, { name: CONFIG }).catch(() => undefined);
  await server?.close();
});

test('a bare pod created with the KruisePodReady gate gets the condition True and becomes Ready', async () => {
  await kube.create(RESOURCES.pods, bare('gated', ['KruisePodReady']));
  const p = await readyPod('gated');
  expect(p.spec.readinessGates).toEqual([{ conditionType: 'KruisePodReady' }]);
  expect(condition(p, 'KruisePodReady')).toEqual({
    type: 'KruisePodReady',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: expect.any(String) as string,
  });
}, 60_000);

test('with KruisePodReadinessGate on, a bare pod sent without the gate gets it at creation, then the condition', async () => {
  // the API server takes a new webhook configuration up within moments: create until a pod comes back gated (the
  // ones before it stay, ungated, in the test namespace)
  let name = '';
  let attempt = 0;
  await waitFor('a pod stored with the KruisePodReady gate', 20_000, async () => {
    name = `plain-${++attempt}`;
    const created = await kube.create(RESOURCES.pods, bare(name, ['Other']));
    return created.spec.readinessGates?.length === 2;
  });
  expect((await getPod(name)).spec.readinessGates).toEqual([
    { conditionType: 'Other' },
    { conditionType: 'KruisePodReady' },
  ]);
  // its other gate holds it not Ready: the condition is there, Ready waits for `Other`
  await waitFor(
    'KruisePodReady True',
    30_000,
    async () => condition(await getPod(name), 'KruisePodReady')?.status === 'True',
  );
  await kube.patch(
    RESOURCES.pods,
    { namespace: t.namespace, name },
    { type: 'strategic-merge', body: { status: { conditions: [{ type: 'Other', status: 'True' }] } } },
    { subresource: 'status' },
  );
  await readyPod(name);
}, 90_000);
