/**
 * `/validate` on a real kube-apiserver (lib/api/admission/validation.ts, lib/controllers/validations.ts): with the
 * ValidatingWebhookConfiguration registered (narrowed to this file's namespace, so parallel files that store invalid
 * objects on purpose are not refused), the API server refuses an invalid AdvancedCronJob and an invalid Advanced
 * DaemonSet with OpenKruise's words — `admission webhook "vadvancedcronjob.kb.io" denied the request: …` — and the
 * HTTP code each of
 * OpenKruise's handlers answers with (422, and 500 for the DaemonSet's create); a valid one is stored. (Most of
 * what the CloneSet webhook refuses, Kruiseless's CloneSet CRD already refuses through CEL rules, before any webhook.) With the server
 * stopped (the function down), `failurePolicy: Ignore` lets the invalid object through, for its controller to report.
 */
import { useTestNamespace } from './support/cluster.js';
import { createKubeClient, type KubeClient } from '../../lib/kube/index.js';
import { startConversionServer, type ConversionServer } from '../../lib/local/conversionServer.js';
import {
  registerValidatingWebhook,
  unregisterValidatingWebhook,
  VALIDATING_WEBHOOK_RESOURCE,
} from '../../lib/local/mutatingWebhook.js';
import { admissionValidators } from '../../lib/controllers/validations.js';
import {
  answerPodValidation,
  kubePubWebhookDeps,
} from '../../lib/controllers/podunavailablebudget/podWebhook.js';
import { waitFor } from './support/wait.js';

type Obj = Record<string, unknown>;
const t = useTestNamespace('validate');
const template = (app: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'main', image: 'nginx' }] },
});
const cronJob = (name: string, schedule: string) => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'AdvancedCronJob',
  metadata: { name },
  spec: {
    schedule,
    paused: true,
    template: {
      jobTemplate: { spec: { template: { spec: { ...template('web').spec, restartPolicy: 'Never' } } } },
    },
  },
});
const daemonSet = (name: string, maxUnavailable: number) => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'DaemonSet',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {
      ...template('web'),
      spec: { ...template('web').spec, nodeSelector: { 'kruiseless.io/no-such-node': 'x' } },
    },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable, maxSurge: 0 } },
  },
});
const ACJ = { group: 'apps.kruise.io', version: 'v1beta1', plural: 'advancedcronjobs' };
const DSET = { group: 'apps.kruise.io', version: 'v1beta1', plural: 'daemonsets' };
const PUBS = { group: 'policy.kruise.io', version: 'v1beta1', plural: 'podunavailablebudgets' };

/** The API server's refusal of a create, or 'stored'. */
async function create(api: typeof ACJ, body: Obj): Promise<string> {
  return t.custom.createNamespacedCustomObject({ ...api, namespace: t.namespace, body }).then(
    () => 'stored',
    (e: { code?: number; body?: string }) =>
      `${e.code}: ${(JSON.parse(e.body ?? '{}') as { message?: string }).message ?? ''}`,
  );
}

describe('the validating webhook on a real API server', () => {
  let server: ConversionServer | undefined;
  let kube: KubeClient;
  let name: string;

  beforeAll(async () => {
    kube = createKubeClient(t.kc);
    server = await startConversionServer({
      podValidation: (body) => answerPodValidation(body, kubePubWebhookDeps(kube)),
    });
    name = `kruiseless-test-validation-${t.namespace}`;
    await registerValidatingWebhook(
      kube,
      {
        name,
        url: server.validateUrl,
        caPem: server.caPem,
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': t.namespace } },
        podUrl: server.podValidateUrl,
      },
      admissionValidators(),
    );
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await unregisterValidatingWebhook(kube, name);
  });

  test("refuses an invalid AdvancedCronJob and DaemonSet with OpenKruise's words and codes; stores a valid one", async () => {
    // the API server takes a new configuration up within moments: create until the refusal comes
    let refused = 'stored';
    for (let i = 0; i < 50 && refused === 'stored'; i++) {
      refused = await create(ACJ, cronJob(`bad-${i}`, '*/5 * * *'));
      if (refused === 'stored') await new Promise((r) => setTimeout(r, 100));
    }
    expect(refused).toBe(
      '422: admission webhook "vadvancedcronjob.kb.io" denied the request: spec.schedule: Invalid value: "*/5 * * *": expected exactly 5 fields, found 4: [*/5 * * *]',
    );
    await expect(create(ACJ, cronJob('good', '*/5 * * * *'))).resolves.toBe('stored');
    await expect(create(DSET, daemonSet('bad', 0))).resolves.toBe(
      '500: admission webhook "vdaemonset.kb.io" denied the request: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    );
    await expect(create(DSET, daemonSet('good', 1))).resolves.toBe('stored');
    const pub = (name: string, budget: Obj) => ({
      apiVersion: 'policy.kruise.io/v1beta1',
      kind: 'PodUnavailableBudget',
      metadata: { name },
      spec: { selector: { matchLabels: { app: name } }, ...budget },
    });
    await expect(create(PUBS, pub('bad-pub', { maxUnavailable: 1, minAvailable: 1 }))).resolves.toBe(
      '400: admission webhook "vpodunavailablebudget.kb.io" denied the request: spec.maxUnavailable, minAvailable: Required value: maxUnavailable and minAvailable are mutually exclusive',
    );
    await expect(create(PUBS, pub('good-pub', { maxUnavailable: '50%' }))).resolves.toBe('stored');
    const registered = (await kube.get(VALIDATING_WEBHOOK_RESOURCE, { name })) as unknown as {
      webhooks: { name: string; failurePolicy: string }[];
    };
    expect(registered.webhooks.map((w) => `${w.name} ${w.failurePolicy}`)).toEqual([
      'vcloneset.kb.io Ignore',
      'vstatefulset.kb.io Ignore',
      'vdaemonset.kb.io Ignore',
      'vbroadcastjob.kb.io Ignore',
      'vadvancedcronjob.kb.io Ignore',
      'vsidecarset.kb.io Ignore',
      'vpodunavailablebudget.kb.io Ignore',
      'vworkloadspread.kb.io Ignore',
      'vpod.kb.io Fail',
      'vpodeviction.kb.io Fail',
    ]);
  }, 60_000);

  test("a PodUnavailableBudget with nothing to spare refuses its pod's delete with OpenKruise's words; with one to spare the delete goes through and is recorded", async () => {
    const PUB = { group: 'policy.kruise.io', version: 'v1beta1', plural: 'podunavailablebudgets' };
    await t.custom.createNamespacedCustomObject({
      ...PUB,
      namespace: t.namespace,
      body: {
        apiVersion: 'policy.kruise.io/v1beta1',
        kind: 'PodUnavailableBudget',
        metadata: { name: 'web-pub' },
        spec: { selector: { matchLabels: { app: 'pub' } }, maxUnavailable: 0 },
      },
    });
    const setStatus = async (unavailableAllowed: number) => {
      const pub = (await t.custom.getNamespacedCustomObject({
        ...PUB,
        namespace: t.namespace,
        name: 'web-pub',
      })) as Obj;
      await t.custom.replaceNamespacedCustomObjectStatus({
        ...PUB,
        namespace: t.namespace,
        name: 'web-pub',
        body: {
          ...pub,
          status: { unavailableAllowed, currentAvailable: 1, desiredAvailable: 1, totalReplicas: 1 },
        },
      });
    };
    await setStatus(0);
    const pod = (name: string) => ({
      metadata: { name, labels: { app: 'pub' }, annotations: { 'pub.kruise.io/related-pub': 'web-pub' } },
      spec: { containers: [{ name: 'main', image: 'nginx' }] },
    });
    for (const name of ['guarded', 'spared']) {
      await t.core.createNamespacedPod({ namespace: t.namespace, body: pod(name) });
      await waitFor(`${name} Ready`, 60_000, async () => {
        const p = await t.core.readNamespacedPod({ namespace: t.namespace, name });
        return p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? p : undefined;
      });
    }
    const remove = (name: string) =>
      t.core.deleteNamespacedPod({ namespace: t.namespace, name }).then(
        () => 'deleted',
        (e: { code?: number; body?: string }) =>
          `${e.code}: ${(JSON.parse(e.body ?? '{}') as { message?: string }).message ?? ''}`,
      );
    await expect(remove('guarded')).resolves.toBe(
      '403: admission webhook "vpod.kb.io" denied the request: podunavailablebudget.policy.kruise.io "web-pub" is forbidden: pub unavailable allowed is negative',
    );
    await setStatus(1);
    await expect(remove('spared')).resolves.toBe('deleted');
    const after = (await t.custom.getNamespacedCustomObject({
      ...PUB,
      namespace: t.namespace,
      name: 'web-pub',
    })) as { status: { unavailableAllowed: number; disruptedPods?: Record<string, string> } };
    expect(after.status.unavailableAllowed).toBe(0);
    expect(Object.keys(after.status.disruptedPods ?? {})).toEqual(['spared']);
    // a pod no budget names never reaches the function (the matchCondition): deleted while the budget is spent
    await t.core.createNamespacedPod({
      namespace: t.namespace,
      body: { metadata: { name: 'free', labels: { app: 'pub' } }, spec: pod('x').spec },
    });
    await expect(remove('free')).resolves.toBe('deleted');
  }, 120_000);

  test('with the webhook down, the invalid object is stored (failurePolicy Ignore)', async () => {
    await server?.close();
    server = undefined;
    await expect(create(ACJ, cronJob('while-down', '*/5 * * *'))).resolves.toBe('stored');
  }, 60_000);
});
