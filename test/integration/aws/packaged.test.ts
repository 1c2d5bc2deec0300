/**
 * The packaged functions on emulated AWS (lib/emulator/aws): the zips `osls package` writes (built here when missing
 * or stale) run the seed story against the integration cluster, started only by the template's schedule rule (the
 * watch zip) and the template's EventBridge rule (the reconcile zip), with state in moto's DynamoDB and the cluster
 * reached with EKS tokens and the RBAC of infra/rbac. Asserted from API objects, the DLQ and the invocation counts;
 * then a requeue through EventBridge Scheduler, an AdvancedCronJob's one wake-up schedule (moved, fired again,
 * deleted with it), the admission zip with its SSM secret (its forwarding path, and
 * `/mutate-pod` reading the cluster as kruiseless:admission), and a request that must fail into the DLQ after Lambda's
 * retries.
 *
 * Skipped, with the reason printed, only when moto cannot be installed (`npm run moto:install` needs PyPI).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppsV1Api } from '@kubernetes/client-node';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { ListSchedulesCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { sqs } from '../../../lib/emulator/aws/awsCall.js';
import type { ControllerRevision } from '../../../lib/api/types.js';
import { ensureArtifacts } from '../../../lib/emulator/aws/artifacts.js';
import { SEED_REVISIONS } from '../../../lib/local/seedStory.js';
import { startEmulatedAws, type EmulatedAws } from '../../../lib/emulator/aws/emulatedAws.js';
import { clusterPathSecret } from '../../../lib/source/admissionSecret.js';
import { stateDir } from '../../../infra/local/versions.js';
import { ACJ_API, everyMinuteJob, jobNames, nextMinute } from '../support/advancedcronjob.js';
import { useTestNamespace } from '../support/cluster.js';
import { motoSuite } from '../support/moto.js';
import {
  SEED_NAME,
  activePods,
  applySeed,
  getCloneSet,
  listPods,
  patchCloneSet,
  testKubeconfig,
} from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

const describeIfMoto = motoSuite('test/integration/aws/packaged.test.ts');
const ctx = useTestNamespace('e2e-aws');
/** A namespace with a CloneSet of its own that this stack must leave alone (its rules are narrowed to `ctx`'s). */
const bystander = useTestNamespace('e2e-aws-bystander');
let aws: EmulatedAws;
/** `<role> <METHOD> <path>` of every request the EKS endpoint forwarded, as its observer saw them. */
const forwarded: string[] = [];
/** The HTTP versions the watch function's watches came over (the endpoint offers HTTP/2, as EKS's does). */
const watchVersions = new Set<string>();

describeIfMoto('the packaged watch and reconcile zips on moto', () => {
  beforeAll(async () => {
    const artifactDir = await ensureArtifacts(ROOT, (l) => process.stderr.write(`[packaged.test] ${l}\n`));
    aws = await startEmulatedAws({
      artifactDir,
      kubeconfig: testKubeconfig(),
      clusterName: 'e2e-aws',
      workDir: path.join(stateDir(), `aws-emulator-${ctx.namespace}`),
      // the watch every 10 s; other test files' CloneSets in this cluster are not this stack's to reconcile
      intervalScale: 1 / 6,
      narrowPatterns: { detail: { namespace: [ctx.namespace] } },
      proxyObserver: {
        forwarded: (r) => {
          const role = /assumed-role\/kruiseless-(\w+)\//.exec(r.user)?.[1];
          forwarded.push(`${role} ${r.method} ${r.url}`);
          if (role === 'WatchRole' && /[?&]watch=(true|1)/.test(r.url)) watchVersions.add(r.httpVersion);
        },
      },
    });
  }, 300_000);

  afterAll(async () => {
    await aws?.stop();
  });

  test('create, scale down and update in place, with nothing dead-lettered', async () => {
    await applySeed(bystander.custom, bystander.namespace, (cs) => (cs.spec.replicas = 0));
    const created = await applySeed(ctx.custom, ctx.namespace);
    const up = await waitFor('DESIRED 2 / READY 2 / AVAILABLE 2', 90_000, async () => {
      const s = (await getCloneSet(ctx.custom, ctx.namespace)).status;
      return s?.replicas === 2 && s.readyReplicas === 2 && s.availableReplicas === 2 ? s : undefined;
    });
    expect(up.updateRevision).toBe(SEED_REVISIONS[0]);
    const before = await listPods(ctx.core, ctx.namespace);
    expect(before.map((p) => p.metadata.labels?.['controller-revision-hash'])).toEqual([
      SEED_REVISIONS[0],
      SEED_REVISIONS[0],
    ]);

    await patchCloneSet(ctx.custom, ctx.namespace, [
      { op: 'replace', path: '/spec/replicas', value: 1 },
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.19-alpine' },
    ]);
    const final = await waitFor('DESIRED 1 UPDATED 1 UPDATED_READY 1 READY 1 TOTAL 1', 120_000, async () => {
      const c = await getCloneSet(ctx.custom, ctx.namespace);
      const s = c.status;
      const pods = await activePods(ctx.core, ctx.namespace);
      return s?.observedGeneration === 2 &&
        s.replicas === 1 &&
        s.updatedReplicas === 1 &&
        s.updatedReadyReplicas === 1 &&
        s.readyReplicas === 1 &&
        pods.length === 1 &&
        pods[0].status?.containerStatuses?.[0]?.restartCount === 1
        ? c
        : undefined;
    });
    expect(final.status?.updateRevision).toBe(SEED_REVISIONS[1]);
    expect(final.status?.currentRevision).toBe(SEED_REVISIONS[1]);

    const [kept] = await activePods(ctx.core, ctx.namespace);
    const original = before.find((p) => p.metadata.name === kept.metadata.name);
    expect(original?.metadata.uid).toBe(kept.metadata.uid);
    expect(kept.metadata.name).toMatch(new RegExp(`^${SEED_NAME}-[a-z0-9]{5}$`));
    expect(kept.metadata.labels?.['controller-revision-hash']).toBe(SEED_REVISIONS[1]);
    expect(kept.spec.containers.map((c) => c.image)).toEqual(['nginx:1.19-alpine']);
    expect(kept.status?.containerStatuses?.[0]?.image).toBe('nginx:1.19-alpine');
    expect(kept.metadata.ownerReferences?.[0]?.uid).toBe(created.metadata.uid);

    const apps = ctx.kc.makeApiClient(AppsV1Api);
    const revisions = (await apps.listNamespacedControllerRevision({ namespace: ctx.namespace }))
      .items as unknown as ControllerRevision[];
    expect(
      revisions.sort((a, b) => a.revision - b.revision).map((r) => [r.metadata.name, r.revision]),
    ).toEqual([
      [SEED_REVISIONS[0], 1],
      [SEED_REVISIONS[1], 2],
    ]);
    const warnings = (await ctx.core.listNamespacedEvent({ namespace: ctx.namespace })).items.filter(
      (e) => e.type === 'Warning',
    );
    expect(warnings.map((e) => `${e.reason}: ${e.message}`)).toEqual([]);

    await aws.idle('ReconcileLambdaFunction');
    expect(aws.failures).toEqual([]);
    expect(await aws.deadLetters()).toBe(0);
    expect(aws.proxy.refused()).toBe(0);
    const reconcile = aws.functions.get('ReconcileLambdaFunction')?.stats;
    const watch = aws.functions.get('WatchLambdaFunction')?.stats;
    expect(reconcile?.invocations).toBeGreaterThanOrEqual(2);
    expect(reconcile?.errors).toBe(0);
    expect(watch?.invocations).toBeGreaterThanOrEqual(1);
    // the reconciler wrote as the reconcile role's session, mapped to kruiseless:controller
    expect(
      [...aws.proxy.requests.keys()].some((u) => u.includes(':assumed-role/kruiseless-ReconcileRole/')),
    ).toBe(true);
    // the endpoint's observer (what npm run soak times) saw the reconciler's pod writes in this namespace and the pump's watch
    const podWrites = forwarded.filter((f) =>
      new RegExp(`^\\w+ (POST|DELETE) /api/v1/namespaces/${ctx.namespace}/pods`).test(f),
    );
    expect(podWrites.map((f) => f.split(' ').slice(0, 2).join(' ')).sort()).toEqual([
      'ReconcileRole DELETE',
      'ReconcileRole POST',
      'ReconcileRole POST',
    ]);
    expect(
      forwarded.some((f) =>
        /^WatchRole GET \/apis\/apps\.kruise\.io\/v1alpha1\/clonesets\?.*watch=(true|1)/.test(f),
      ),
    ).toBe(true);
    // the watches of the cluster shared one HTTP/2 connection (lib/kube/http2Session.ts)
    expect([...watchVersions]).toEqual(['2.0']);
    // the rules are narrowed to this file's namespace: the pump saw the bystander CloneSet (its watch and the resync
    // are cluster-wide), but no reconcile reached it — before the emulator passed the narrowing on to the rule, this
    // stack reconciled every CloneSet of the shared cluster and counted into other files' Events
    expect(forwarded.filter((f) => f.includes(`/namespaces/${bystander.namespace}/`))).toEqual([]);
  }, 240_000);

  test('a requeue longer than the inline wait goes through EventBridge Scheduler back to the reconcile rule', async () => {
    // minReadySeconds 15 > the handler's 10 s inline wait: availability needs a requeue (CreateSchedule at(...))
    await applySeed(ctx.custom, ctx.namespace, (cs) => {
      cs.metadata.name = 'cs-requeue';
      cs.spec.replicas = 1;
      cs.spec.minReadySeconds = 15;
    });
    const fired = await waitFor('the requeue schedule of cs-requeue fired', 100_000, async () =>
      aws.schedulesFired().find((f) => (f.detail as { name?: string }).name === 'cs-requeue'),
    );
    expect(aws.stack.scheduleGroups).toEqual([fired.group]);
    // cluster, group/Kind, namespace and name are longer than a readable schedule name allows: hashed per key
    expect(fired.name).toMatch(/^requeue_[0-9a-f]{40}_\d{12}$/);
    expect(fired.detail).toMatchObject({
      version: 2,
      cluster: 'e2e-aws',
      kind: 'apps.kruise.io/CloneSet',
      namespace: ctx.namespace,
      name: 'cs-requeue',
      reason: 'Requeue',
    });
    const s = await waitFor('READY 1 AVAILABLE 1', 30_000, async () => {
      const st = (await getCloneSet(ctx.custom, ctx.namespace, 'cs-requeue')).status;
      return st?.readyReplicas === 1 && st.availableReplicas === 1 ? st : undefined;
    });
    expect(s).toMatchObject({ replicas: 1, readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1 });
    await aws.idle('ReconcileLambdaFunction');
    expect(aws.failures).toEqual([]);
    expect(await aws.deadLetters()).toBe(0);
  }, 150_000);

  test('an AdvancedCronJob keeps one EventBridge Scheduler schedule: moved to each run, fired again, deleted with it', async () => {
    const created = (await ctx.custom.createNamespacedCustomObject({
      ...ACJ_API,
      namespace: ctx.namespace,
      body: everyMinuteJob('acj-wake'),
    })) as { metadata: { creationTimestamp: string } };
    const first = nextMinute(created.metadata.creationTimestamp);
    const wakes = () =>
      aws
        .schedulesFired()
        .filter((f) => f.name.startsWith('wake_') && (f.detail as { name?: string }).name === 'acj-wake');
    // the first wake-up fires in the first minute, the same schedule moved fires again in the next
    await waitFor('two runs, each woken by the same schedule', 170_000, async () => {
      const names = await jobNames(ctx.custom, ctx.namespace);
      return wakes().length >= 2 &&
        names.includes(`acj-wake-${first}`) &&
        names.includes(`acj-wake-${first + 60}`)
        ? true
        : undefined;
    });
    // cluster, group/Kind, namespace and name are longer than a readable schedule name allows: hashed per key
    const names = [...new Set(wakes().map((f) => f.name))];
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^wake_[0-9a-f]{40}$/);
    const scheduler = new SchedulerClient({
      endpoint: aws.endpoint.url,
      region: aws.endpoint.region,
      credentials: aws.endpoint.credentials,
    });
    const group = aws.stack.scheduleGroups[0];
    const listed = async () =>
      (
        (await scheduler.send(new ListSchedulesCommand({ GroupName: group, NamePrefix: 'wake_' })))
          .Schedules ?? []
      ).map((x) => x.Name);
    expect(await listed()).toEqual(names);
    await ctx.custom.deleteNamespacedCustomObject({ ...ACJ_API, namespace: ctx.namespace, name: 'acj-wake' });
    await waitFor('the schedule deleted with the object', 40_000, async () =>
      (await listed()).length === 0 ? true : undefined,
    );
    scheduler.destroy();
    await aws.idle('ReconcileLambdaFunction');
    expect(aws.failures).toEqual([]);
    expect(await aws.deadLetters()).toBe(0);
  }, 230_000);

  test('the admission zip reads its secret from SSM and forwards a CloneSet review to the reconcile rule', async () => {
    const admission = aws.functions.get('AdmissionLambdaFunction');
    const param = admission?.spec.env.ADMISSION_SECRET_PARAM ?? '';
    expect(param).toMatch(/^\/kruiseless\/.+\/admission-path-secret$/);
    const ssm = new SSMClient({
      endpoint: aws.endpoint.url,
      region: aws.endpoint.region,
      credentials: aws.endpoint.credentials,
    });
    // what the operator does before deploying (README "Deploy to AWS")
    await ssm.send(new PutParameterCommand({ Name: param, Type: 'SecureString', Value: 's3cr3t-path' }));
    ssm.destroy();
    const cs = await getCloneSet(ctx.custom, ctx.namespace);
    const review = {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: 'a1b2c3d4-0000-4000-8000-000000000002',
        kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'CloneSet' },
        namespace: ctx.namespace,
        operation: 'UPDATE',
        object: cs,
      },
    };
    const call = (rawPath: string) =>
      admission!.invoke({ rawPath, body: JSON.stringify(review), isBase64Encoded: false });
    for (const wrong of ['/wrong/e2e-aws', '/s3cr3t-path/e2e-aws']) {
      expect([wrong, await call(wrong)]).toMatchObject([
        wrong,
        { ok: true, result: { statusCode: 404, body: '{"message":"not found"}' } },
      ]);
    }
    const reconcilesBefore = aws.functions.get('ReconcileLambdaFunction')?.stats.invocations ?? 0;
    // the cluster's own path secret, derived from the parameter's value (docs/architecture.md#admission)
    const r = await call(`/${clusterPathSecret('s3cr3t-path', 'e2e-aws')}/e2e-aws`);
    expect(r).toMatchObject({ ok: true, result: { statusCode: 200 } });
    expect(JSON.parse((r as { result: { body: string } }).result.body)).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: review.request.uid, allowed: true },
    });
    await waitFor(
      'the forwarded request reconciled',
      30_000,
      async () => (aws.functions.get('ReconcileLambdaFunction')?.stats.invocations ?? 0) > reconcilesBefore,
    );
    await aws.idle('ReconcileLambdaFunction');
    expect(aws.failures).toEqual([]);

    // /mutate-pod (issue 19): a pod CREATE is answered after the WorkloadSpread and SidecarSet reads, made with the
    // admission role's EKS token as kruiseless:admission (its access entry, infra/rbac); no SidecarSet or
    // WorkloadSpread of this namespace selects the pod, so it is allowed unchanged
    const podCreate = {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: 'a1b2c3d4-0000-4000-8000-000000000003',
        resource: { group: '', version: 'v1', resource: 'pods' },
        namespace: ctx.namespace,
        operation: 'CREATE',
        object: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            generateName: 'web-',
            namespace: ctx.namespace,
            labels: { app: 'kruiseless-admission-test' },
            ownerReferences: [
              { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'rs-1', controller: true },
            ],
          },
          spec: { containers: [{ name: 'main', image: 'nginx' }] },
        },
      },
    };
    const before = forwarded.length;
    const mutated = await admission!.invoke({
      rawPath: `/${clusterPathSecret('s3cr3t-path', 'e2e-aws')}/e2e-aws/mutate-pod`,
      body: JSON.stringify(podCreate),
      isBase64Encoded: false,
    });
    expect(mutated).toMatchObject({ ok: true, result: { statusCode: 200 } });
    expect(JSON.parse((mutated as { result: { body: string } }).result.body)).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: podCreate.request.uid, allowed: true },
    });
    expect(
      forwarded
        .slice(before)
        .filter((f) => f.startsWith('AdmissionRole '))
        .map((f) => f.split('?')[0])
        // the four reads are issued together (lib/controllers/podMutations.ts): they reach the proxy in any order
        .sort(),
    ).toEqual([
      `AdmissionRole GET /api/v1/namespaces/${ctx.namespace}`,
      `AdmissionRole GET /apis/apps.kruise.io/v1alpha1/sidecarsets`,
      `AdmissionRole GET /apis/apps.kruise.io/v1beta1/namespaces/${ctx.namespace}/workloadspreads`,
      `AdmissionRole GET /apis/policy.kruise.io/v1beta1/namespaces/${ctx.namespace}/podunavailablebudgets`,
    ]);
    expect(aws.proxy.refused()).toBe(0);
    // a body that is not an AdmissionReview: a clear 400, not a crash
    const bad = await admission!.invoke({
      rawPath: `/${clusterPathSecret('s3cr3t-path', 'e2e-aws')}/e2e-aws/mutate-pod`,
      body: 'not json',
      isBase64Encoded: false,
    });
    expect(bad).toMatchObject({ ok: true, result: { statusCode: 400 } });
    expect(JSON.parse((bad as { result: { body: string } }).result.body)).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: '', allowed: false, status: { code: 400, message: 'body is not JSON' } },
    });
  }, 90_000);

  test('a reconcile request for an unregistered cluster fails three times, then its record is in the DLQ', async () => {
    const detail = {
      version: 2,
      cluster: 'not-registered',
      kind: 'apps.kruise.io/CloneSet',
      namespace: ctx.namespace,
      name: 'x',
      reason: 'Resync',
    };
    const events = new EventBridgeClient({
      endpoint: aws.endpoint.url,
      region: aws.endpoint.region,
      credentials: aws.endpoint.credentials,
    });
    const put = await events.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: aws.stack.physical.get('EventBus')?.ref,
            Source: 'kruiseless',
            DetailType: 'Reconcile Requested',
            Detail: JSON.stringify(detail),
          },
        ],
      }),
    );
    events.destroy();
    expect(put.FailedEntryCount).toBe(0);
    await waitFor('one dead letter', 30_000, async () => (await aws.deadLetters()) === 1);
    await aws.idle('ReconcileLambdaFunction');
    const failed =
      'UnknownClusterError: cluster "not-registered" is not registered (no registry/cluster#not-registered item)';
    expect(aws.failures).toEqual([
      { fn: 'kruiseless-dev-reconcile', error: failed },
      { fn: 'kruiseless-dev-reconcile', error: failed },
      { fn: 'kruiseless-dev-reconcile', error: failed },
    ]);
    const { Messages } = await sqs<{ Messages: { Body: string }[] }>(aws.endpoint, 'ReceiveMessage', {
      QueueUrl: aws.deadLetterQueues[0],
      MaxNumberOfMessages: 10,
    });
    expect(Messages.map((m) => JSON.parse(m.Body) as Record<string, unknown>)).toMatchObject([
      {
        requestContext: { condition: 'RetriesExhausted', approximateInvokeCount: 3 },
        requestPayload: { source: 'kruiseless', 'detail-type': 'Reconcile Requested', detail },
        responsePayload: { errorType: 'UnknownClusterError' },
      },
    ]);
  }, 60_000);
});
