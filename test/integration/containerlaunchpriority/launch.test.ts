/**
 * Container launch priority on the local control plane (OpenKruise v1.9.0's pod webhook step and
 * `container-launch-priority-controller`): a pod of two containers, the second with `KRUISE_CONTAINER_PRIORITY=10`,
 * goes through `/mutate-pod` (this file's own configuration, narrowed to its namespace, as the WorkloadSpread and
 * SidecarSet files) and is stored with the barrier env on both containers; the embedded runtime's controller creates
 * `<pod>-barrier` owned by the pod with `p_10` (redis may start), and once redis reports ready adds `p_0` and marks the
 * pod `apps.kruise.io/container-launch-priority-completed`. The pod selects a node label no node has, so it is never
 * scheduled, no kubelet (kwok) touches it, and the test plays the kubelet through the status subresource. Asserted
 * from API objects only.
 */
import { answerPodMutationReview } from '../../../lib/api/admission/podMutation.js';
import type { ConfigMap, Pod } from '../../../lib/api/types.js';
import { podMutationSteps } from '../../../lib/controllers/podMutations.js';
import { createKubeClient, type KubeClient } from '../../../lib/kube/index.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import { startConversionServer, type ConversionServer } from '../../../lib/local/conversionServer.js';
import { startEmbedded, type Embedded } from '../../../lib/local/embedded.js';
import { MUTATING_WEBHOOK_RESOURCE } from '../../../lib/local/mutatingWebhook.js';
import { useTestNamespace } from '../support/cluster.js';
import {
  E2E_CLUSTER,
  RecordingLogger,
  namespaceScopedServerlessYml,
  testKubeconfig,
} from '../support/pipeline.js';
import { podWebhookConfiguration } from '../support/podWebhook.js';
import { waitFor } from '../support/wait.js';

const t = useTestNamespace('launch');
const CONFIG = `kruiseless-it-launch-${Math.random().toString(36).slice(2, 8)}`;

let kube: KubeClient;
let server: ConversionServer | undefined;
let embedded: Embedded | undefined;

const barrierEnv = (key: string) => ({
  name: 'KRUISE_CONTAINER_BARRIER',
  valueFrom: { configMapKeyRef: { name: 'web-0-barrier', key } },
});
const getPod = async () => (await kube.get(RESOURCES.pods, { namespace: t.namespace, name: 'web-0' })) as Pod;
const getBarrier = (): Promise<ConfigMap | undefined> =>
  kube.get(RESOURCES.configmaps, { namespace: t.namespace, name: 'web-0-barrier' });

/** Report the containers `ready` as a kubelet would (a strategic-merge patch of the status subresource). */
async function setReady(ready: string[]): Promise<void> {
  await kube.patch(
    RESOURCES.pods,
    { namespace: t.namespace, name: 'web-0' },
    {
      type: 'strategic-merge',
      body: {
        status: {
          conditions: [{ type: 'ContainersReady', status: ready.length === 2 ? 'True' : 'False' }],
          containerStatuses: ['nginx', 'redis'].map((name) => ({
            name,
            image: name === 'nginx' ? 'nginx:1.25' : 'redis:7',
            imageID: '',
            ready: ready.includes(name),
            restartCount: 0,
          })),
        },
      },
    },
    { subresource: 'status' },
  );
}

beforeAll(async () => {
  kube = createKubeClient(t.kc);
  const steps = podMutationSteps(kube);
  server = await startConversionServer({ podAdmission: (body) => answerPodMutationReview(body, steps) });
  await kube.create(MUTATING_WEBHOOK_RESOURCE, podWebhookConfiguration(server, CONFIG, t.namespace, []));
  embedded = await startEmbedded({
    kubeconfig: testKubeconfig(),
    clusterName: E2E_CLUSTER,
    logger: new RecordingLogger(),
    serverlessYml: namespaceScopedServerlessYml(t.namespace),
  });
}, 60_000);

afterAll(async () => {
  await embedded?.stop();
  await kube.delete(MUTATING_WEBHOOK_RESOURCE, { name: CONFIG }).catch(() => undefined);
  await server?.close();
});

test('the barrier env at creation, p_10 released first, then p_0 once redis is ready, and the pod completed', async () => {
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-0', namespace: t.namespace },
    spec: {
      nodeSelector: { 'kruiseless.io/launch-no-such-node': 'true' },
      automountServiceAccountToken: false,
      containers: [
        { name: 'nginx', image: 'nginx:1.25' },
        { name: 'redis', image: 'redis:7', env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '10' }] },
      ],
    },
  };
  // the API server takes a new webhook configuration up within moments: create until the pod comes back ordered
  await waitFor('the pod stored with its barrier env', 20_000, async () => {
    const created = await kube.create(RESOURCES.pods, pod);
    if (created.spec.containers[0].env) return true;
    // never scheduled: deleted at once
    await kube.delete(RESOURCES.pods, { namespace: t.namespace, name: 'web-0' });
    await waitFor(
      'the unordered pod gone',
      10_000,
      async () => !(await kube.get(RESOURCES.pods, { namespace: t.namespace, name: 'web-0' })),
    );
    return false;
  });
  const stored = await getPod();
  expect(stored.spec.containers.map((c) => c.env)).toEqual([
    [barrierEnv('p_0')],
    [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '10' }, barrierEnv('p_10')],
  ]);
  await waitFor('the barrier with p_10', 30_000, async () => (await getBarrier())?.data?.p_10 === 'true');
  const barrier = await getBarrier();
  expect(barrier?.data).toEqual({ p_10: 'true' });
  expect(barrier?.metadata.ownerReferences).toEqual([
    { apiVersion: 'v1', kind: 'Pod', name: 'web-0', uid: stored.metadata.uid },
  ]);
  expect((await getPod()).metadata.annotations).toBeUndefined();

  await setReady(['redis']);
  await waitFor(
    'the pod marked completed',
    30_000,
    async () =>
      (await getPod()).metadata.annotations?.['apps.kruise.io/container-launch-priority-completed'] ===
      'true',
  );
  expect((await getBarrier())?.data).toEqual({ p_10: 'true', p_0: 'true' });
}, 120_000);
