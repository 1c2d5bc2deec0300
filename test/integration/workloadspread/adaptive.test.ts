/**
 * WorkloadSpread's Adaptive strategy on the local control plane (issue 19; OpenKruise v1.9.0's `rescheduleSubset`):
 * a CloneSet of 3 spread over subset-a (maxReplicas 2, a required node label no node has) and subset-b (any node),
 * `rescheduleCriticalSeconds: 3`. The pod webhook (this file's own configuration, narrowed to its namespace, as the
 * SidecarSet files) places two pods in subset-a and one in subset-b; kube-scheduler leaves subset-a's pods Pending
 * with `PodScheduled=False` reason `Unschedulable`; after 3 s the controller (run by `kruiseless local`'s embedded
 * runtime, as the CloneSet's) marks subset-a `Schedulable=False` / `PodUnschedulable` and deletes them; the CloneSet's
 * replacements
 * skip subset-a and go to subset-b, where kwok runs them. Asserted from API objects only: the pods, both statuses'
 * conditions, and the WorkloadSpread's Events (none: no delete failed).
 */
import { answerPodMutationReview } from '../../../lib/api/admission/podMutation.js';
import type { Pod } from '../../../lib/api/types.js';
import { CLONESET_RESOURCE } from '../../../lib/controllers/cloneset/api/resource.js';
import { podMutationSteps } from '../../../lib/controllers/podMutations.js';
import { WORKLOADSPREAD_RESOURCE } from '../../../lib/controllers/workloadspread/api/resource.js';
import type {
  WorkloadSpread,
  WorkloadSpreadSubsetStatus,
} from '../../../lib/controllers/workloadspread/api/types.js';
import { createKubeClient, type KubeClient, type KubeObject } from '../../../lib/kube/index.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import { startConversionServer, type ConversionServer } from '../../../lib/local/conversionServer.js';
import { startEmbedded, type Embedded } from '../../../lib/local/embedded.js';
import { MUTATING_WEBHOOK_RESOURCE } from '../../../lib/local/mutatingWebhook.js';
import { useTestNamespace } from '../support/cluster.js';
import { E2E_CLUSTER, RecordingLogger, testKubeconfig } from '../support/pipeline.js';
import { podWebhookConfiguration } from '../support/podWebhook.js';
import { waitFor } from '../support/wait.js';

const t = useTestNamespace('wsad');
const CONFIG = `kruiseless-it-wsad-${Math.random().toString(36).slice(2, 8)}`;
const NOWHERE = 'kruiseless.io/wsad-nowhere';

let kube: KubeClient;
let server: ConversionServer | undefined;
let embedded: Embedded | undefined;

/** The repository's reconcile rule, narrowed to this file's namespace, its WorkloadSpread and CloneSet. */
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
                detail: {
                  kind: ['apps.kruise.io/WorkloadSpread', 'apps.kruise.io/CloneSet'],
                  namespace: [t.namespace],
                },
              },
            },
          },
        ],
      },
    },
  });
}

const subsetOf = (p: Pod) =>
  (
    JSON.parse(p.metadata.annotations?.['apps.kruise.io/matched-workloadspread'] ?? '{}') as {
      subset?: string;
    }
  ).subset;
const listPods = async () =>
  (await kube.list(RESOURCES.pods, { namespace: t.namespace })).items
    .filter((p) => !p.metadata.deletionTimestamp)
    .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
const summary = (pods: Pod[]) =>
  pods.map((p) => `${p.metadata.name} ${subsetOf(p) ?? '-'} ${p.status?.phase ?? '-'}`).join(', ');
const getSpread = (): Promise<WorkloadSpread | undefined> =>
  kube.get(WORKLOADSPREAD_RESOURCE, { namespace: t.namespace, name: 'spread' });

beforeAll(async () => {
  kube = createKubeClient(t.kc);
  const steps = podMutationSteps(kube);
  server = await startConversionServer({ podAdmission: (body) => answerPodMutationReview(body, steps) });
  await kube.create(MUTATING_WEBHOOK_RESOURCE, podWebhookConfiguration(server, CONFIG, t.namespace, []));
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
  await server?.close();
});

test('subset-a, whose pods cannot be scheduled, is marked unschedulable and its pods go to subset-b', async () => {
  await kube.create(WORKLOADSPREAD_RESOURCE, {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'WorkloadSpread',
    metadata: { name: 'spread', namespace: t.namespace },
    spec: {
      targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' },
      subsets: [
        {
          name: 'subset-a',
          requiredNodeSelector: { matchExpressions: [{ key: NOWHERE, operator: 'In', values: ['true'] }] },
          maxReplicas: 2,
        },
        { name: 'subset-b' },
      ],
      scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 3 } },
    },
  } as unknown as KubeObject);
  const started = Date.now();
  await kube.create(CLONESET_RESOURCE, {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'web', namespace: t.namespace },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          automountServiceAccountToken: false,
          terminationGracePeriodSeconds: 0,
          containers: [{ name: 'main', image: 'nginx:1.25' }],
        },
      },
    },
  } as unknown as KubeObject);

  const first = await waitFor('three pods placed', 60_000, async () => {
    const pods = await listPods();
    // the API server takes the new webhook configuration up within moments: a pod created before is made again
    for (const p of pods.filter((x) => !subsetOf(x)))
      await kube
        .delete(RESOURCES.pods, { namespace: t.namespace, name: p.metadata.name ?? '' })
        .catch(() => undefined);
    if (pods.length === 3 && pods.every((p) => subsetOf(p))) return pods;
    throw new Error(summary(pods));
  });
  const inA = first.filter((p) => subsetOf(p) === 'subset-a').map((p) => p.metadata.name);
  expect(inA).toHaveLength(2);
  expect(first.filter((p) => subsetOf(p) === 'subset-b')).toHaveLength(1);

  const settled = await waitFor('three running pods in subset-b', 120_000, async () => {
    const pods = await listPods();
    if (pods.length === 3 && pods.every((p) => subsetOf(p) === 'subset-b' && p.status?.phase === 'Running'))
      return pods;
    throw new Error(summary(pods));
  });
  // subset-a's pods were deleted, not moved: the CloneSet made two new ones
  for (const name of inA) expect(settled.map((p) => p.metadata.name)).not.toContain(name);
  for (const p of settled) expect(JSON.stringify(p.spec.affinity ?? {})).not.toContain(NOWHERE);

  const ws = await waitFor('the status counting the three pods in subset-b', 60_000, async () => {
    const s = await getSpread();
    return s?.status?.subsetStatuses?.[1]?.replicas === 3 ? s : undefined;
  });
  const times = (statuses: WorkloadSpreadSubsetStatus[] | undefined) =>
    (statuses ?? []).map((s) => s.conditions?.[0]?.lastTransitionTime ?? '');
  const [aTime, bTime] = times(ws.status?.subsetStatuses);
  // subset-a was marked after its pods' 3 critical seconds; subset-b at the first pass
  expect(Date.parse(aTime)).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000 + 3_000);
  expect(Date.parse(aTime)).toBeLessThanOrEqual(Date.now());
  expect(Date.parse(bTime)).toBeLessThanOrEqual(Date.parse(aTime));
  const statuses = (a: string, b: string) => [
    {
      name: 'subset-a',
      replicas: 0,
      missingReplicas: 2,
      conditions: [
        {
          type: 'Schedulable',
          status: 'False',
          reason: 'PodUnschedulable',
          message: '',
          lastTransitionTime: a,
        },
      ],
    },
    {
      name: 'subset-b',
      replicas: 3,
      missingReplicas: -1,
      conditions: [
        { type: 'Schedulable', status: 'True', reason: 'Sufficient', message: '', lastTransitionTime: b },
      ],
    },
  ];
  expect(ws.status?.subsetStatuses).toEqual(statuses(aTime, bTime));
  // a CloneSet's pods have one version (upstream's versionIgnored)
  const versioned = ws.status?.versionedSubsetStatuses?.versionIgnored;
  expect(versioned).toEqual(statuses(...(times(versioned) as [string, string])));
  expect(times(versioned)[0]).toBe(aTime);

  // no DeletePodFailed (upstream records no Event for a delete that succeeds)
  const events = await t.core.listNamespacedEvent({
    namespace: t.namespace,
    fieldSelector: 'involvedObject.kind=WorkloadSpread,involvedObject.name=spread',
  });
  expect(events.items.map((e) => `${e.type} ${e.reason}`)).toEqual([]);
  // kube-scheduler's reason for each pod deleted
  const scheduling = await t.core.listNamespacedEvent({
    namespace: t.namespace,
    fieldSelector: 'reason=FailedScheduling',
  });
  expect([...new Set(scheduling.items.map((e) => e.involvedObject.name))].sort()).toEqual([...inA].sort());
}, 240_000);
