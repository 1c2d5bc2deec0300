/**
 * The AdvancedCronJob CRD of infra/crds on a real kube-apiserver: it is accepted with its CEL transition rules
 * (the API server refuses a CRD whose rules' estimated cost is past its budget), and the rules refuse what OpenKruise
 * v1.9.0's validating webhook refuses on update (`validateAdvancedCronJobUpdate`): any change of `spec.template` but
 * its `imageListPullJobTemplate` once the old object has one, with the webhook's message under `spec: Forbidden:`.
 * The CRD is applied here first (a running control plane keeps the CRDs it has), so the file runs alone
 * (jest.config.js ALONE).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ApiextensionsV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { CRD_DIR } from '../../../infra/local/versions.js';
import { applyServerSide, parseManifests } from '../../../lib/kube/apply.js';
import { useTestNamespace } from '../support/cluster.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('acj-crd');
const ACJ = { group: 'apps.kruise.io', version: 'v1beta1', plural: 'advancedcronjobs' };
const FORBIDDEN =
  "spec: Forbidden: updates to advancedcronjob spec for fields other than 'imageListPullJobTemplate', 'schedule', " +
  "'concurrencyPolicy', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit', 'startingDeadlineSeconds', " +
  "'timeZone' and 'paused' are forbidden";

const jobTemplate = (image: string) => ({
  spec: {
    template: {
      spec: { containers: [{ name: 'box', image }], restartPolicy: 'Never' },
    },
  },
});

const pullTemplate = (image: string) => ({
  spec: { images: [image], completionPolicy: { type: 'Always' } },
});

/** Creates an AdvancedCronJob whose schedule does not fire during the test (no controller runs here anyway). */
async function create(name: string, template: Record<string, unknown>, version = 'v1beta1'): Promise<void> {
  await ctx.custom.createNamespacedCustomObject({
    ...ACJ,
    version,
    namespace: ctx.namespace,
    body: {
      apiVersion: `apps.kruise.io/${version}`,
      kind: 'AdvancedCronJob',
      metadata: { name },
      spec: { schedule: '0 0 1 1 *', template },
    },
  });
}

/** A merge patch of `spec`: `accepted`, or the API server's status code and message. */
async function patch(name: string, spec: Record<string, unknown>, version = 'v1beta1'): Promise<string> {
  return ctx.custom
    .patchNamespacedCustomObject(
      { ...ACJ, version, namespace: ctx.namespace, name, body: { spec } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )
    .then(
      () => 'accepted',
      (e: { code?: number; body?: string }) =>
        `${e.code}: ${(JSON.parse(e.body ?? '{}') as { message?: string }).message ?? ''}`,
    );
}

const refused = (name: string) => `422: AdvancedCronJob.apps.kruise.io "${name}" is invalid: ${FORBIDDEN}`;

beforeAll(async () => {
  const file = 'apps.kruise.io_advancedcronjobs.yaml';
  const crds = parseManifests(fs.readFileSync(path.join(CRD_DIR, file), 'utf8'), `infra/crds/${file}`);
  await applyServerSide(ctx.kc, crds, 'kruiseless-test-setup');
  const api = ctx.kc.makeApiClient(ApiextensionsV1Api);
  await waitFor('the AdvancedCronJob CRD Established', 60_000, async () => {
    const crd = await api.readCustomResourceDefinition({ name: 'advancedcronjobs.apps.kruise.io' });
    return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') || undefined;
  });
  // the API server serves the new schema moments after Established: wait until the rule answers
  await create('probe', { jobTemplate: jobTemplate('busybox') });
  let tag = 0;
  await waitFor('the transition rule in force', 60_000, async () => {
    tag += 1;
    const answer = await patch('probe', { template: { jobTemplate: jobTemplate(`busybox:${tag}`) } });
    return answer === 'accepted' ? undefined : answer;
  });
}, 150_000);

describe('AdvancedCronJob CRD: the template is immutable, as OpenKruise refuses it', () => {
  test('schedule, concurrencyPolicy, history limits, startingDeadlineSeconds, timeZone and paused may change', async () => {
    await create('mutable', { jobTemplate: jobTemplate('busybox') });
    expect(
      await patch('mutable', {
        schedule: '0 0 2 1 *',
        concurrencyPolicy: 'Forbid',
        successfulJobsHistoryLimit: 1,
        failedJobsHistoryLimit: 2,
        startingDeadlineSeconds: 30,
        timeZone: 'Europe/Paris',
        paused: true,
      }),
    ).toBe('accepted');
    // the same template written again is no change
    expect(await patch('mutable', { template: { jobTemplate: jobTemplate('busybox') } })).toBe('accepted');
  });

  test('a changed jobTemplate, an added broadcastJobTemplate or imageListPullJobTemplate are refused', async () => {
    await create('job', { jobTemplate: jobTemplate('busybox') });
    expect(await patch('job', { template: { jobTemplate: jobTemplate('busybox:1.36') } })).toBe(
      refused('job'),
    );
    expect(await patch('job', { template: { jobTemplate: { metadata: { labels: { team: 'a' } } } } })).toBe(
      refused('job'),
    );
    expect(
      await patch('job', {
        template: { broadcastJobTemplate: { spec: { template: jobTemplate('busybox').spec.template } } },
      }),
    ).toBe(refused('job'));
    expect(await patch('job', { template: { imageListPullJobTemplate: pullTemplate('nginx') } })).toBe(
      refused('job'),
    );
  });

  test('a changed broadcastJobTemplate is refused', async () => {
    await create('broadcast', {
      broadcastJobTemplate: { spec: { template: jobTemplate('busybox').spec.template } },
    });
    expect(await patch('broadcast', { template: { broadcastJobTemplate: { spec: { paused: true } } } })).toBe(
      refused('broadcast'),
    );
  });

  test('imageListPullJobTemplate may change once there; adding another template is refused', async () => {
    await create('pull', { imageListPullJobTemplate: pullTemplate('nginx') });
    expect(await patch('pull', { template: { imageListPullJobTemplate: pullTemplate('redis') } })).toBe(
      'accepted',
    );
    expect(await patch('pull', { template: { jobTemplate: jobTemplate('busybox') } })).toBe(refused('pull'));
    expect(
      await patch('pull', {
        template: { broadcastJobTemplate: { spec: { template: jobTemplate('busybox').spec.template } } },
      }),
    ).toBe(refused('pull'));
  });

  test('v1alpha1 refuses a template change too', async () => {
    await create('alpha', { jobTemplate: jobTemplate('busybox') }, 'v1alpha1');
    expect(await patch('alpha', { paused: true }, 'v1alpha1')).toBe('accepted');
    expect(await patch('alpha', { template: { jobTemplate: jobTemplate('busybox:1.36') } }, 'v1alpha1')).toBe(
      refused('alpha'),
    );
  });
});
