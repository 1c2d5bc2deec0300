/**
 * The SidecarSet controller on the local control plane (issue 19): pods injected through the pod webhook (this
 * file's own configuration, narrowed to its namespace, as ./injection.test.ts), the controller run by
 * `kruiseless local`'s embedded runtime, kwok running the pods. The status reaches the exact counts and names the
 * latest ControllerRevision (kept in kruise-system, one per spec); a new sidecar image reaches every pod in place
 * (the pod's `logger` image, kwok's restarted container, the annotations OpenKruise writes, the revision, the
 * `SidecarSetUpgradable` condition) with the app container untouched and the pods never recreated, and the status
 * counts them updated and ready. Asserted from API objects only.
 *
 * The bus delivers only this file's SidecarSet (cluster-scoped: no namespace to narrow the rule by), so the other
 * files' objects are not reconciled from here.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { V1Pod } from '@kubernetes/client-node';
import type { Pod } from '../../../lib/api/types.js';
import { sidecarSetMutator } from '../../../lib/controllers/sidecarset/api/mutation.js';
import { SIDECARSET_RESOURCE } from '../../../lib/controllers/sidecarset/api/resource.js';
import type { SidecarSet } from '../../../lib/controllers/sidecarset/api/types.js';
import { newSidecarSetRevision } from '../../../lib/controllers/sidecarset/plan/revision.js';
import { answerPodAdmission, kubePodInjectionReads } from '../../../lib/controllers/sidecarset/podWebhook.js';
import { createKubeClient, type KubeClient, type KubeObject } from '../../../lib/kube/index.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import { startConversionServer, type ConversionServer } from '../../../lib/local/conversionServer.js';
import { startEmbedded, type Embedded } from '../../../lib/local/embedded.js';
import { MUTATING_WEBHOOK_RESOURCE } from '../../../lib/local/mutatingWebhook.js';
import { useTestNamespace } from '../support/cluster.js';
import { E2E_CLUSTER, RecordingLogger, testKubeconfig } from '../support/pipeline.js';
import { sidecarSetWebhookConfiguration } from '../support/sidecarset.js';
import { waitFor } from '../support/wait.js';

const t = useTestNamespace('scctl');
const CONFIG = `kruiseless-it-scctl-${Math.random().toString(36).slice(2, 8)}`;

let kube: KubeClient;
let server: ConversionServer | undefined;
let embedded: Embedded | undefined;
let name = '';

/** The repository's reconcile rule, narrowed to this file's SidecarSet. */
function serverlessYml(): string {
  return JSON.stringify({
    service: 'kruiseless-e2e',
    functions: {
      reconcile: {
        events: [
          {
            eventBridge: {
              name: 'kruiseless-e2e-reconcile',
              pattern: {
                source: ['kruiseless'],
                'detail-type': ['Reconcile Requested'],
                detail: { kind: ['apps.kruise.io/SidecarSet'], name: [name] },
              },
            },
          },
        ],
      },
    },
  });
}

const sidecarSetSpec = (image: string) => ({
  selector: { matchLabels: { app: 'web' } },
  namespace: t.namespace,
  containers: [{ name: 'logger', image }],
  updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 },
});

const pod = (podName: string): V1Pod => ({
  metadata: { name: podName, labels: { app: 'web' } },
  spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'nginx:1.25' }] },
});

const getSidecarSet = async () =>
  (await kube.get(SIDECARSET_RESOURCE, { name })) as unknown as SidecarSet | undefined;
const listPods = async () =>
  (await kube.list(RESOURCES.pods, { namespace: t.namespace })).items.sort((a, b) =>
    (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1,
  );
const image = (p: Pod, c: string) => p.spec.containers.find((x) => x.name === c)?.image;

beforeAll(async () => {
  kube = createKubeClient(t.kc);
  name = `log-${t.namespace}`;
  const reads = kubePodInjectionReads(kube);
  server = await startConversionServer({
    mutators: [sidecarSetMutator],
    podAdmission: (body) => answerPodAdmission(body, reads),
  });
  await kube.create(MUTATING_WEBHOOK_RESOURCE, sidecarSetWebhookConfiguration(server, CONFIG, t.namespace));
  embedded = await startEmbedded({
    kubeconfig: testKubeconfig(),
    clusterName: E2E_CLUSTER,
    logger: new RecordingLogger(),
    serverlessYml: serverlessYml(),
  });
}, 60_000);

afterAll(async () => {
  await embedded?.stop();
  await kube.delete(MUTATING_WEBHOOK_RESOURCE, { name: CONFIG }).catch(() => undefined);
  if (name) await kube.delete(SIDECARSET_RESOURCE, { name }).catch(() => undefined);
  await server?.close();
});

test('status counts the injected pods; a new sidecar image reaches every pod in place', async () => {
  // the API server takes a new webhook configuration up within moments: create until it comes back hashed
  // (before /mutate is taken up the CRD refuses v1alpha1's spec.namespace: its storage is v1beta1, which has none)
  for (let i = 0; i < 50; i++) {
    const created = await kube
      .create(SIDECARSET_RESOURCE, {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'SidecarSet',
        metadata: { name },
        spec: sidecarSetSpec('fluentd:1'),
      } as unknown as KubeObject)
      .then(
        () => true,
        () => false,
      );
    if (!created) {
      await sleep(100);
      continue;
    }
    if ((await getSidecarSet())?.metadata.annotations?.['kruise.io/sidecarset-hash']) break;
    await kube.delete(SIDECARSET_RESOURCE, { name });
    while (await getSidecarSet()) await sleep(50);
    await sleep(100);
  }
  for (const p of ['web-0', 'web-1', 'web-2'])
    await t.core.createNamespacedPod({ namespace: t.namespace, body: pod(p) });
  const uids = (await listPods()).map((p) => p.metadata.uid);
  expect((await listPods()).map((p) => image(p, 'logger'))).toEqual(['fluentd:1', 'fluentd:1', 'fluentd:1']);

  const ready = await waitFor('status with three ready pods', 120_000, async () => {
    const s = await getSidecarSet();
    return s?.status?.readyPods === 3 ? s : undefined;
  });
  // the revision OpenKruise would name (unit-tested against v1.9.0's NewRevision), kept in kruise-system
  const v1Revision = newSidecarSetRevision(ready, 1, 0).metadata.name;
  expect(ready.status).toEqual({
    observedGeneration: 1,
    matchedPods: 3,
    updatedPods: 3,
    readyPods: 3,
    updatedReadyPods: 3,
    latestRevision: v1Revision,
    collisionCount: 0,
  });

  const current = (await getSidecarSet())!;
  await kube.replace(SIDECARSET_RESOURCE, {
    ...current,
    spec: { ...current.spec, containers: [{ ...current.spec.containers![0], image: 'fluentd:2' }] },
  } as unknown as KubeObject);
  const v2 = (await getSidecarSet())!;
  const hash = v2.metadata.annotations?.['kruise.io/sidecarset-hash'];
  expect(hash).not.toBe(current.metadata.annotations?.['kruise.io/sidecarset-hash']);

  const done = await waitFor('every pod updated and ready', 180_000, async () => {
    const s = await getSidecarSet();
    return s?.status?.observedGeneration === 2 && s.status.updatedReadyPods === 3 && s.status.readyPods === 3
      ? s
      : undefined;
  });
  const v2Revision = newSidecarSetRevision(v2, 2, 0).metadata.name;
  expect(done.status).toEqual({
    observedGeneration: 2,
    matchedPods: 3,
    updatedPods: 3,
    readyPods: 3,
    updatedReadyPods: 3,
    latestRevision: v2Revision,
    collisionCount: 0,
  });
  const history = await kube.list(RESOURCES.controllerrevisions, {
    namespace: 'kruise-system',
    labelSelector: `kruise.io/sidecarset-name=${name}`,
  });
  expect(history.items.map((r) => `${r.metadata.name} ${r.revision}`).sort()).toEqual(
    [`${v1Revision} 1`, `${v2Revision} 2`].sort(),
  );
  const pods = await listPods();
  expect(pods.map((p) => p.metadata.uid)).toEqual(uids);
  expect(pods.map((p) => `${image(p, 'logger')} ${image(p, 'main')}`)).toEqual([
    'fluentd:2 nginx:1.25',
    'fluentd:2 nginx:1.25',
    'fluentd:2 nginx:1.25',
  ]);
  for (const p of pods) {
    const annotations = p.metadata.annotations ?? {};
    const entry = (JSON.parse(annotations['kruise.io/sidecarset-hash']) as Record<string, unknown>)[name];
    expect(entry).toMatchObject({
      hash,
      sidecarSetName: name,
      sidecarList: ['logger'],
      controllerRevision: v2Revision,
    });
    const state = JSON.parse(annotations['kruise.io/sidecarset-inplace-update-state']) as Record<
      string,
      { revision: string; lastContainerStatuses: Record<string, { imageID: string }> }
    >;
    expect(Object.keys(state)).toEqual([name]);
    expect(state[name].revision).toBe(hash);
    expect(Object.keys(state[name].lastContainerStatuses)).toEqual(['logger']);
    expect(state[name].lastContainerStatuses.logger.imageID).toMatch(/fluentd:1@sha256:/);
    const logger = p.status?.containerStatuses?.find((c) => c.name === 'logger');
    expect(logger).toMatchObject({ image: 'fluentd:2', ready: true, restartCount: 1 });
    expect(p.status?.conditions?.find((c) => c.type === 'SidecarSetUpgradable')).toMatchObject({
      status: 'True',
      reason: 'AllSidecarsetUpgradable',
      message: `{"${name}":true}`,
    });
  }
}, 360_000);
