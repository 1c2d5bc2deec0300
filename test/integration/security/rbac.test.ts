/**
 * The cluster access Kruiseless asks for (infra/rbac/), proven on the real API server:
 * - SubjectAccessReview, as the groups EKS access entries map the Lambda roles to: every call the code makes is
 *   allowed, and Secrets, other workloads, escalation (bind, escalate, impersonate) and token minting are not;
 * - the ValidatingAdmissionPolicy of kruiseless-pod-guard.yaml: as kruiseless:controller, writes to pods and PVCs
 *   that no CloneSet controls are refused by the API server, CloneSet-owned ones go through; and what a stolen
 *   controller identity could do with a forged CloneSet owner reference is refused (review finding 5): any write in
 *   a system namespace, a pod with host access (unless the namespace allows it), a pod with a ServiceAccount its
 *   namespace does not list;
 * - kruiseless-namespace-opt-in.yaml, applied after the guard's tests: no pod in a namespace not labelled
 *   kruiseless.io/managed=true, only listed ServiceAccounts, and the pipeline below runs under it in a labelled one;
 * - the whole pipeline (watch pump, bus, reconcile, DynamoDB) running as those groups and nothing more — through
 *   `kubectl proxy --as --as-group`, the API server's own impersonation — takes the seed CloneSet through create,
 *   in-place update and scale-down, and a CloneSet with volumeClaimTemplates through PVC create and delete.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppsV1Api, AuthorizationV1Api } from '@kubernetes/client-node';
import type { Embedded } from '../../../lib/local/embedded.js';
import { binPath } from '../../../infra/local/versions.js';
import { useTestNamespace } from '../support/cluster.js';
import { kubectl, writeKubeconfig } from '../support/kube.js';
import {
  E2E_CLUSTER,
  RecordingLogger,
  activePods,
  applySeed,
  getCloneSet,
  namespaceScopedServerlessYml,
  patchCloneSet,
  testKubeconfig,
} from '../support/pipeline.js';
import { startEmbedded } from '../../../lib/local/embedded.js';
import { waitFor } from '../support/wait.js';
import {
  ADMISSION_GROUP,
  CONTROLLER_GROUP,
  WATCHER_GROUP,
  accessLabel,
  reviewAccess,
  type ResourceAccess,
} from '../../../lib/kube/access.js';
import {
  CONTROLLER_ACCESS,
  DENIED_TO_ALL,
  WATCHER_ACCESS,
  WATCHER_DENIED,
} from '../../../lib/controllers/access.js';
import { ADMISSION_ACCESS, ADMISSION_DENIED } from '../../../lib/controllers/podWebhookAccess.js';

const ctx = useTestNamespace('rbac');
/** The pod guard's own namespace: its stray pods stay out of the pipeline's way. */
const guardNs = useTestNamespace('rbac-guard');
/** A namespace not opted in (no kruiseless.io/managed label). */
const outsideNs = useTestNamespace('rbac-outside');
/** A namespace that allows pods with host access (kruiseless.io/privileged-pods=allowed). */
const privilegedNs = useTestNamespace('rbac-privileged');
const OPT_IN_FILE = new URL('../../../infra/rbac/kruiseless-namespace-opt-in.yaml', import.meta.url).pathname;
const RBAC_FILES = ['kruiseless-rbac.yaml', 'kruiseless-pod-guard.yaml'].map(
  (f) => new URL(`../../../infra/rbac/${f}`, import.meta.url).pathname,
);
const CONTROLLER = CONTROLLER_GROUP;
const WATCHER = WATCHER_GROUP;
const USER = 'kruiseless-rbac-test';
const STEP_TIMEOUT_MS = 120_000;

let proxy: ChildProcess | undefined;
let proxyUrl = '';
let tmpDir = '';

/** `kubectl proxy` on a free port, impersonating USER in `groups`; resolves with its base URL. */
function startProxy(groups: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    binPath('kubectl'),
    [
      `--kubeconfig=${testKubeconfig()}`,
      'proxy',
      '--port=0',
      `--as=${USER}`,
      ...groups.map((g) => `--as-group=${g}`),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve({ child, url: `http://127.0.0.1:${m[1]}` });
    });
    child.on('exit', (code) => reject(new Error(`kubectl proxy exited ${code}: ${out}`)));
  });
}

/** One request through the impersonating proxy. */
async function asController(
  method: string,
  apiPath: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<{ status: number; message: string }> {
  const res = await fetch(`${proxyUrl}${apiPath}`, {
    method,
    headers: { 'content-type': contentType },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { message?: string };
  return { status: res.status, message: json.message ?? '' };
}

/** One SubjectAccessReview as USER in `groups`, in the test namespace. */
function allowed(groups: string[], a: ResourceAccess): Promise<boolean> {
  return reviewAccess(ctx.kc.makeApiClient(AuthorizationV1Api), { user: USER, groups }, a, ctx.namespace);
}

beforeAll(async () => {
  if (!fs.existsSync(binPath('kubectl')))
    throw new Error(
      `${binPath('kubectl')} is missing: run \`npm run cluster:build\` (the test drives kubectl proxy)`,
    );
  kubectl(testKubeconfig(), 'apply', ...RBAC_FILES.flatMap((f) => ['-f', f]));
  for (const ns of [ctx.namespace, guardNs.namespace, privilegedNs.namespace])
    kubectl(testKubeconfig(), 'label', 'namespace', ns, 'kruiseless.io/managed=true');
  kubectl(
    testKubeconfig(),
    'label',
    'namespace',
    privilegedNs.namespace,
    'kruiseless.io/privileged-pods=allowed',
  );
  kubectl(
    testKubeconfig(),
    'annotate',
    'namespace',
    guardNs.namespace,
    'kruiseless.io/service-accounts=app, worker',
  );
  const started = await startProxy([CONTROLLER, WATCHER]);
  proxy = started.child;
  proxyUrl = started.url;
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kruiseless-rbac-'));
}, 30_000);

afterAll(() => {
  // the opt-in is this file's choice, not the cluster's: other files' namespaces carry no label
  kubectl(testKubeconfig(), 'delete', '--ignore-not-found', '-f', OPT_IN_FILE);
  proxy?.kill();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

describe('SubjectAccessReview of the RBAC in infra/rbac/kruiseless-rbac.yaml', () => {
  test('kruiseless:controller may make every call the reconciler makes', async () => {
    const answers = await Promise.all(CONTROLLER_ACCESS.map((a) => allowed([CONTROLLER], a)));
    expect(Object.fromEntries(CONTROLLER_ACCESS.map((a, i) => [accessLabel(a), answers[i]]))).toEqual(
      Object.fromEntries(CONTROLLER_ACCESS.map((a) => [accessLabel(a), true])),
    );
  });

  test('kruiseless:watcher may only read CloneSets, pods and PVCs', async () => {
    const all = [...WATCHER_ACCESS, ...WATCHER_DENIED];
    const answers = await Promise.all(all.map((a) => allowed([WATCHER], a)));
    expect(Object.fromEntries(all.map((a, i) => [accessLabel(a), answers[i]]))).toEqual(
      Object.fromEntries(all.map((a, i) => [accessLabel(a), i < WATCHER_ACCESS.length])),
    );
  });

  test('kruiseless:admission may make every call of the pod webhooks, and write no pod nor what they only read', async () => {
    const all = [...ADMISSION_ACCESS, ...ADMISSION_DENIED];
    const answers = await Promise.all(all.map((a) => allowed([ADMISSION_GROUP], a)));
    expect(Object.fromEntries(all.map((a, i) => [accessLabel(a), answers[i]]))).toEqual(
      Object.fromEntries(all.map((a, i) => [accessLabel(a), i < ADMISSION_ACCESS.length])),
    );
  });

  test('no group, nor all three together, can read Secrets, touch other workloads or escalate', async () => {
    const answers = await Promise.all(
      DENIED_TO_ALL.map((a) => allowed([CONTROLLER, WATCHER, ADMISSION_GROUP], a)),
    );
    expect(Object.fromEntries(DENIED_TO_ALL.map((a, i) => [accessLabel(a), answers[i]]))).toEqual(
      Object.fromEntries(DENIED_TO_ALL.map((a) => [accessLabel(a), false])),
    );
  });
});

describe('the pod guard (infra/rbac/kruiseless-pod-guard.yaml) as kruiseless:controller', () => {
  const podsPath = (): string => `/api/v1/namespaces/${guardNs.namespace}/pods`;
  const pod = (name: string, owner?: { apiVersion: string; kind: string; name: string; uid: string }) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: guardNs.namespace,
      ...(owner ? { ownerReferences: [{ ...owner, controller: true }] } : {}),
    },
    spec: { containers: [{ name: 'main', image: 'nginx:1.19-alpine' }] },
  });
  const denial = (op: string, resource: string, name: string): string =>
    `kruiseless:controller may only ${op} ${resource} owned by a CloneSet, an Advanced StatefulSet, an Advanced DaemonSet or a BroadcastJob (apps.kruise.io), upgrade the sidecars a SidecarSet injected, mark a pod launch-priority-completed, give a pod its first KruisePodReady condition, or write the launch barrier ConfigMap of a pod; ${guardNs.namespace}/${name} is not`;
  let cloneSetOwner: { apiVersion: string; kind: string; name: string; uid: string };
  let replicaSetOwner: { apiVersion: string; kind: string; name: string; uid: string };
  let broadcastJobOwner: { apiVersion: string; kind: string; name: string; uid: string };
  let daemonSetOwner: { apiVersion: string; kind: string; name: string; uid: string };

  beforeAll(async () => {
    // real owners, so that the garbage collector keeps their dependents; nothing reconciles this namespace's
    // CloneSet (no pipeline watches it), and kube-controller-manager runs no ReplicaSet controller here
    const cs = await applySeed(guardNs.custom, guardNs.namespace, (c) => {
      c.metadata.name = 'guard-owner';
      c.spec.replicas = 0;
      c.spec.selector = { matchLabels: { app: 'guard-owner' } };
      c.spec.template.metadata = { labels: { app: 'guard-owner' } };
    });
    cloneSetOwner = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      name: 'guard-owner',
      uid: cs.metadata.uid ?? '',
    };
    const apps = guardNs.kc.makeApiClient(AppsV1Api);
    const rs = await apps.createNamespacedReplicaSet({
      namespace: guardNs.namespace,
      body: {
        metadata: { name: 'other-controller' },
        spec: {
          replicas: 0,
          selector: { matchLabels: { app: 'other' } },
          template: {
            metadata: { labels: { app: 'other' } },
            spec: { containers: [{ name: 'main', image: 'nginx:1.19-alpine' }] },
          },
        },
      },
    });
    replicaSetOwner = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      name: 'other-controller',
      uid: rs.metadata?.uid ?? '',
    };
    // paused: nothing may place its pods (no pipeline watches this namespace anyway)
    const bcj = (await guardNs.custom.createNamespacedCustomObject({
      group: 'apps.kruise.io',
      version: 'v1beta1',
      namespace: guardNs.namespace,
      plural: 'broadcastjobs',
      body: {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'BroadcastJob',
        metadata: { name: 'guard-job' },
        spec: {
          paused: true,
          template: {
            spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36' }] },
          },
        },
      },
    })) as { metadata: { uid: string } };
    broadcastJobOwner = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'BroadcastJob',
      name: 'guard-job',
      uid: bcj.metadata.uid,
    };
    // an Advanced DaemonSet no pipeline here reconciles: a node selector no node has
    const ds = (await guardNs.custom.createNamespacedCustomObject({
      group: 'apps.kruise.io',
      version: 'v1beta1',
      namespace: guardNs.namespace,
      plural: 'daemonsets',
      body: {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'DaemonSet',
        metadata: { name: 'guard-daemon' },
        spec: {
          selector: { matchLabels: { app: 'guard-daemon' } },
          template: {
            metadata: { labels: { app: 'guard-daemon' } },
            spec: {
              nodeSelector: { 'kruiseless.io/no-such-node': 'true' },
              containers: [{ name: 'main', image: 'nginx:1.19-alpine' }],
            },
          },
        },
      },
    })) as { metadata: { uid: string } };
    daemonSetOwner = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'DaemonSet',
      name: 'guard-daemon',
      uid: ds.metadata.uid,
    };
    // a new policy takes a moment to be loaded by the API server
    await waitFor('the pod guard enforced', 20_000, async () => {
      const r = await asController('POST', podsPath(), pod('probe'), 'application/json');
      if (r.status === 201)
        await guardNs.core.deleteNamespacedPod({ name: 'probe', namespace: guardNs.namespace });
      return r.status === 403;
    });
  }, 60_000);

  test('creating a pod without a CloneSet owner is refused; with one it is accepted', async () => {
    expect(await asController('POST', podsPath(), pod('orphan-create'))).toEqual({
      status: 403,
      message: expect.stringContaining(denial('create', 'pods', 'orphan-create')) as string,
    });
    expect((await asController('POST', podsPath(), pod('owned', cloneSetOwner))).status).toBe(201);
  });

  test("another controller's pod can be neither adopted, relabelled nor deleted", async () => {
    await guardNs.core.createNamespacedPod({
      namespace: guardNs.namespace,
      body: pod('foreign', replicaSetOwner),
    });
    const adopt = await asController(
      'PATCH',
      `${podsPath()}/foreign`,
      { metadata: { ownerReferences: [{ ...cloneSetOwner, controller: true }] } },
      'application/merge-patch+json',
    );
    const relabel = await asController(
      'PATCH',
      `${podsPath()}/foreign`,
      { metadata: { labels: { x: 'y' } } },
      'application/merge-patch+json',
    );
    const del = await asController('DELETE', `${podsPath()}/foreign`);
    expect([adopt, relabel, del]).toEqual([
      { status: 403, message: expect.stringContaining(denial('update', 'pods', 'foreign')) as string },
      { status: 403, message: expect.stringContaining(denial('update', 'pods', 'foreign')) as string },
      { status: 403, message: expect.stringContaining(denial('delete', 'pods', 'foreign')) as string },
    ]);
    const still = await guardNs.core.readNamespacedPod({ name: 'foreign', namespace: guardNs.namespace });
    expect(still.metadata?.labels).toBeUndefined();
    expect(still.metadata?.ownerReferences?.map((r) => r.kind)).toEqual(['ReplicaSet']);
  });

  test('any pod may be marked launch-priority-completed and given its launch barrier, and nothing more', async () => {
    const created = await guardNs.core.createNamespacedPod({
      namespace: guardNs.namespace,
      body: pod('launching', replicaSetOwner),
    });
    const podPath = `${podsPath()}/launching`;
    const cmPath = `/api/v1/namespaces/${guardNs.namespace}/configmaps`;
    const mark = (annotations: Record<string, string>, labels?: Record<string, string>) =>
      asController(
        'PATCH',
        podPath,
        { metadata: { annotations, ...(labels ? { labels } : {}) } },
        'application/strategic-merge-patch+json',
      );
    const podOwner = { apiVersion: 'v1', kind: 'Pod', name: 'launching', uid: created.metadata?.uid ?? '' };
    const barrier = (name: string, data: Record<string, string>, owner = podOwner) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, ownerReferences: [owner] },
      data,
    });
    const refused = (op: string, resource: string, name: string) => ({
      status: 403,
      message: expect.stringContaining(denial(op, resource, name)) as string,
    });
    expect([
      await mark({ 'apps.kruise.io/container-launch-priority-completed': 'false' }),
      await mark({ 'apps.kruise.io/container-launch-priority-completed': 'true', other: 'x' }),
      await mark({ 'apps.kruise.io/container-launch-priority-completed': 'true' }, { x: 'y' }),
      await asController('POST', cmPath, barrier('launching-barrier', { p_1: 'true', other: 'x' })),
      await asController('POST', cmPath, barrier('not-a-barrier', {})),
      await asController(
        'POST',
        cmPath,
        barrier('launching-barrier', {}, { ...podOwner, name: 'someone-else' }),
      ),
    ]).toEqual([
      refused('update', 'pods', 'launching'),
      refused('update', 'pods', 'launching'),
      refused('update', 'pods', 'launching'),
      refused('create', 'configmaps', 'launching-barrier'),
      refused('create', 'configmaps', 'not-a-barrier'),
      refused('create', 'configmaps', 'launching-barrier'),
    ]);
    expect((await asController('POST', cmPath, barrier('launching-barrier', {}))).status).toBe(201);
    const patchBarrier = (data: Record<string, string>) =>
      asController(
        'PATCH',
        `${cmPath}/launching-barrier`,
        { data },
        'application/strategic-merge-patch+json',
      );
    expect((await patchBarrier({ p_10: 'true' })).status).toBe(200);
    expect((await patchBarrier({ 'p_-1': 'true' })).status).toBe(200);
    expect(await patchBarrier({ secret: 'x' })).toEqual(refused('update', 'configmaps', 'launching-barrier'));
    expect((await asController('DELETE', `${cmPath}/launching-barrier`)).status).toBe(403);
    expect((await mark({ 'apps.kruise.io/container-launch-priority-completed': 'true' })).status).toBe(200);
    const after = await guardNs.core.readNamespacedPod({ name: 'launching', namespace: guardNs.namespace });
    expect(after.metadata?.annotations).toEqual({
      'apps.kruise.io/container-launch-priority-completed': 'true',
    });
    expect(after.metadata?.labels).toBeUndefined();
    const cm = await guardNs.core.readNamespacedConfigMap({
      name: 'launching-barrier',
      namespace: guardNs.namespace,
    });
    expect(cm.data).toEqual({ p_10: 'true', 'p_-1': 'true' });
  });

  test('any pod with the KruisePodReady gate may be given its first KruisePodReady condition True, and nothing more', async () => {
    // never scheduled (no node has the label): no kubelet writes its status meanwhile
    const gated = (name: string, gates: string[]) => {
      const p = pod(name, replicaSetOwner);
      return {
        ...p,
        spec: {
          ...p.spec,
          nodeSelector: { 'kruiseless.io/guard-no-such-node': 'true' },
          readinessGates: gates.map((conditionType) => ({ conditionType })),
        },
      };
    };
    await guardNs.core.createNamespacedPod({
      namespace: guardNs.namespace,
      body: gated('gated', ['KruisePodReady']),
    });
    await guardNs.core.createNamespacedPod({
      namespace: guardNs.namespace,
      body: gated('ungated', ['Other']),
    });
    const ready = (status: string) => ({
      type: 'KruisePodReady',
      status,
      lastTransitionTime: '2026-12-06T10:00:00Z',
    });
    const patchStatus = (name: string, status: Record<string, unknown>) =>
      asController(
        'PATCH',
        `${podsPath()}/${name}/status`,
        { status },
        'application/strategic-merge-patch+json',
      );
    const refused = (name: string) => ({
      status: 403,
      message: expect.stringContaining(denial('update', 'pods', name)) as string,
    });
    expect([
      await patchStatus('gated', { conditions: [ready('False')] }),
      await patchStatus('gated', { conditions: [ready('True'), { type: 'Ready', status: 'True' }] }),
      await patchStatus('gated', {
        conditions: [ready('True')],
        podIP: '10.1.2.3',
        podIPs: [{ ip: '10.1.2.3' }],
      }),
      await patchStatus('gated', { conditions: [ready('True')], phase: 'Failed' }),
      await patchStatus('ungated', { conditions: [ready('True')] }),
    ]).toEqual([refused('gated'), refused('gated'), refused('gated'), refused('gated'), refused('ungated')]);
    expect((await patchStatus('gated', { conditions: [ready('True')] })).status).toBe(200);
    // once it has the condition, the guard lets no second write of it through
    expect(await patchStatus('gated', { conditions: [ready('False')] })).toEqual(refused('gated'));
    const after = await guardNs.core.readNamespacedPod({ name: 'gated', namespace: guardNs.namespace });
    expect(after.status?.conditions?.find((c) => c.type === 'KruisePodReady')).toMatchObject({
      type: 'KruisePodReady',
      status: 'True',
    });
    expect(after.status?.podIP).toBeUndefined();
  });

  test('an orphan may be adopted (as OpenKruise claims pods) but not deleted while it is unowned', async () => {
    await guardNs.core.createNamespacedPod({ namespace: guardNs.namespace, body: pod('orphan') });
    expect((await asController('DELETE', `${podsPath()}/orphan`)).status).toBe(403);
    const adopt = await asController(
      'PATCH',
      `${podsPath()}/orphan`,
      { metadata: { ownerReferences: [{ ...cloneSetOwner, controller: true, blockOwnerDeletion: true }] } },
      'application/merge-patch+json',
    );
    expect(adopt.status).toBe(200);
    expect((await asController('DELETE', `${podsPath()}/orphan`)).status).toBe(200);
  });

  test("a BroadcastJob's pod and an Advanced DaemonSet's may be created and deleted; an apps/v1 DaemonSet's may not", async () => {
    const appsDaemonSet = { ...daemonSetOwner, apiVersion: 'apps/v1' };
    expect([
      (await asController('POST', podsPath(), pod('job-pod', broadcastJobOwner))).status,
      (await asController('DELETE', `${podsPath()}/job-pod`)).status,
      (await asController('POST', podsPath(), pod('daemon-pod', daemonSetOwner))).status,
      (await asController('DELETE', `${podsPath()}/daemon-pod`)).status,
      await asController('POST', podsPath(), pod('apps-daemon-pod', appsDaemonSet)),
    ]).toEqual([
      201,
      200,
      201,
      200,
      {
        status: 403,
        message: expect.stringContaining(denial('create', 'pods', 'apps-daemon-pod')) as string,
      },
    ]);
  });

  test("a SidecarSet may upgrade the sidecars it injected into another controller's pod, and nothing else of it", async () => {
    const injected = pod('injected', replicaSetOwner);
    (injected.metadata as Record<string, unknown>).annotations = {
      'kruise.io/sidecarset-injected-list': 'log-agent',
    };
    injected.spec.containers.push({
      name: 'log-agent',
      image: 'busybox:1.35',
      env: [{ name: 'IS_INJECTED', value: 'true' }],
    } as (typeof injected.spec.containers)[number]);
    await guardNs.core.createNamespacedPod({ namespace: guardNs.namespace, body: injected });
    const patch = (body: unknown, sub = '', type = 'application/strategic-merge-patch+json') =>
      asController('PATCH', `${podsPath()}/injected${sub}`, body, type);
    const sidecar = await patch({
      metadata: { annotations: { 'kruise.io/sidecarset-hash': '{}' } },
      spec: { containers: [{ name: 'log-agent', image: 'busybox:1.36' }] },
    });
    const condition = await patch(
      { status: { conditions: [{ type: 'SidecarSetUpgradable', status: 'True' }] } },
      '/status',
    );
    const refused = denial('update', 'pods', 'injected');
    const attempts = [
      await patch({ spec: { containers: [{ name: 'main', image: 'nginx:1.20-alpine' }] } }),
      await patch({ metadata: { finalizers: ['example.com/hold'] } }, '', 'application/merge-patch+json'),
      await patch(
        { metadata: { ownerReferences: [{ ...cloneSetOwner, controller: true }] } },
        '',
        'application/merge-patch+json',
      ),
      await patch({ spec: { activeDeadlineSeconds: 1 } }, '', 'application/merge-patch+json'),
      await patch({ status: { phase: 'Failed' } }, '/status', 'application/merge-patch+json'),
      await asController('DELETE', `${podsPath()}/injected`),
    ];
    expect({ sidecar: sidecar.status, condition: condition.status, attempts }).toEqual({
      sidecar: 200,
      condition: 200,
      attempts: [
        { status: 403, message: expect.stringContaining(refused) as string },
        { status: 403, message: expect.stringContaining(refused) as string },
        { status: 403, message: expect.stringContaining(refused) as string },
        { status: 403, message: expect.stringContaining(refused) as string },
        { status: 403, message: expect.stringContaining(refused) as string },
        { status: 403, message: expect.stringContaining(denial('delete', 'pods', 'injected')) as string },
      ],
    });
    const now = await guardNs.core.readNamespacedPod({ name: 'injected', namespace: guardNs.namespace });
    expect({
      images: now.spec?.containers.map((c) => `${c.name}=${c.image}`),
      finalizers: now.metadata?.finalizers,
      owners: now.metadata?.ownerReferences?.map((r) => r.kind),
      deadline: now.spec?.activeDeadlineSeconds,
      upgradable: now.status?.conditions?.find((c) => c.type === 'SidecarSetUpgradable')?.status,
    }).toEqual({
      images: ['main=nginx:1.19-alpine', 'log-agent=busybox:1.36'],
      finalizers: undefined,
      owners: ['ReplicaSet'],
      deadline: undefined,
      upgradable: 'True',
    });
  });

  test("pods/resize (an in-place cpu/memory change): a CloneSet's pod may be resized; another controller's pod and an orphan may not", async () => {
    const sized = (name: string, owner?: typeof cloneSetOwner) => {
      const body = pod(name, owner);
      (body.spec.containers[0] as { resources?: object }).resources = { requests: { cpu: '100m' } };
      return body;
    };
    for (const [name, owner] of [
      ['resize-owned', cloneSetOwner],
      ['resize-foreign', replicaSetOwner],
      ['resize-orphan', undefined],
    ] as const)
      await guardNs.core.createNamespacedPod({
        namespace: guardNs.namespace,
        body: sized(name, owner),
      });
    const resize = (name: string) =>
      asController(
        'PATCH',
        `${podsPath()}/${name}/resize`,
        { spec: { containers: [{ name: 'main', resources: { requests: { cpu: '150m' } } }] } },
        'application/strategic-merge-patch+json',
      );
    const owned = await resize('resize-owned');
    expect(owned.status).toBe(200);
    expect([await resize('resize-foreign'), await resize('resize-orphan')]).toEqual([
      { status: 403, message: expect.stringContaining(denial('update', 'pods', 'resize-foreign')) as string },
      { status: 403, message: expect.stringContaining(denial('update', 'pods', 'resize-orphan')) as string },
    ]);
    const cpu = async (name: string) =>
      (await guardNs.core.readNamespacedPod({ name, namespace: guardNs.namespace })).spec?.containers[0]
        .resources?.requests?.cpu;
    expect([await cpu('resize-owned'), await cpu('resize-foreign'), await cpu('resize-orphan')]).toEqual([
      '150m',
      '100m',
      '100m',
    ]);
  });

  test('a CloneSet owner reference that is not the controller reference is refused', async () => {
    const body = pod('not-controller');
    body.metadata.ownerReferences = [{ ...cloneSetOwner, controller: false }];
    expect(await asController('POST', podsPath(), body)).toEqual({
      status: 403,
      message: expect.stringContaining(denial('create', 'pods', 'not-controller')) as string,
    });
  });

  test('a stolen controller identity cannot write in kube-system, even with a CloneSet owner reference', async () => {
    const body = {
      ...pod('in-kube-system', cloneSetOwner),
      metadata: {
        name: 'in-kube-system',
        namespace: 'kube-system',
        ownerReferences: [{ ...cloneSetOwner, controller: true }],
      },
    };
    const r = await asController('POST', '/api/v1/namespaces/kube-system/pods', body);
    expect(r).toEqual({
      status: 403,
      message: expect.stringContaining(
        'kruiseless:controller may not write pods in the system namespace kube-system',
      ) as string,
    });
    const pvc = await asController('POST', '/api/v1/namespaces/kube-system/persistentvolumeclaims', {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'in-kube-system', ownerReferences: [{ ...cloneSetOwner, controller: true }] },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    expect(pvc).toEqual({
      status: 403,
      message: expect.stringContaining(
        'kruiseless:controller may not write persistentvolumeclaims in the system namespace kube-system',
      ) as string,
    });
  });

  const hostAccess: [string, (spec: Record<string, unknown>) => void][] = [
    [
      'a privileged container',
      (spec) => {
        spec.containers = [
          { name: 'main', image: 'nginx:1.19-alpine', securityContext: { privileged: true } },
        ];
      },
    ],
    [
      'an added SYS_ADMIN capability',
      (spec) => {
        spec.containers = [
          {
            name: 'main',
            image: 'nginx:1.19-alpine',
            securityContext: { capabilities: { add: ['SYS_ADMIN'] } },
          },
        ];
      },
    ],
    [
      'hostNetwork',
      (spec) => {
        spec.hostNetwork = true;
      },
    ],
    [
      'hostPID',
      (spec) => {
        spec.hostPID = true;
      },
    ],
    [
      'a hostPath volume',
      (spec) => {
        spec.volumes = [{ name: 'root', hostPath: { path: '/' } }];
      },
    ],
    [
      'a privileged init container',
      (spec) => {
        spec.initContainers = [
          { name: 'init', image: 'nginx:1.19-alpine', securityContext: { privileged: true } },
        ];
      },
    ],
  ];
  test.each(hostAccess)(
    'a CloneSet pod with %s is refused, and accepted where the namespace allows it',
    async (_what, change) => {
      const refused = pod('host-access', cloneSetOwner);
      change(refused.spec);
      expect(await asController('POST', podsPath(), refused)).toEqual({
        status: 403,
        message: expect.stringContaining(
          `kruiseless:controller may not create pods with host access (privileged, added capabilities, host namespaces, hostPath) in ${guardNs.namespace} unless it is labelled kruiseless.io/privileged-pods=allowed`,
        ) as string,
      });
      // a forged owner: no CloneSet of that uid exists in this namespace, which a policy cannot see
      const allowedPod = {
        ...refused,
        metadata: {
          name: `host-access-${Math.random().toString(36).slice(2, 8)}`,
          namespace: privilegedNs.namespace,
          ownerReferences: [{ ...cloneSetOwner, controller: true }],
        },
      };
      expect(
        (await asController('POST', `/api/v1/namespaces/${privilegedNs.namespace}/pods`, allowedPod)).status,
      ).toBe(201);
    },
  );

  test('a pod may run as default or a ServiceAccount its namespace lists, and as no other', async () => {
    const withAccount = (name: string, serviceAccountName?: string) => {
      const p = pod(name, cloneSetOwner);
      return { ...p, spec: { ...p.spec, ...(serviceAccountName ? { serviceAccountName } : {}) } };
    };
    const answers = await Promise.all(
      [
        ['sa-admin', 'cluster-admin-sa'],
        ['sa-app', 'app'],
        ['sa-worker', 'worker'],
        ['sa-default', 'default'],
        ['sa-unset', undefined],
      ].map(async ([name, sa]) => [
        name,
        await asController('POST', podsPath(), withAccount(name as string, sa)),
      ]),
    );
    expect(Object.fromEntries(answers)).toEqual({
      'sa-admin': {
        status: 403,
        message: expect.stringContaining(
          `kruiseless:controller may only create pods in ${guardNs.namespace} with ServiceAccount default or one its annotation kruiseless.io/service-accounts lists, not cluster-admin-sa`,
        ) as string,
      },
      'sa-app': { status: 201, message: '' },
      'sa-worker': { status: 201, message: '' },
      'sa-default': { status: 201, message: '' },
      'sa-unset': { status: 201, message: '' },
    });
  });

  test('a PVC without an owner may only ask for a new empty volume (a Retain/Retain claim); naming a volume or data is refused', async () => {
    const claim = (name: string, extra: object) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...extra },
    });
    const path = `/api/v1/namespaces/${guardNs.namespace}/persistentvolumeclaims`;
    expect((await asController('POST', path, claim('data-web-9', {}))).status).toBe(201);
    const refused = (name: string) => ({
      status: 403,
      message: expect.stringContaining(
        `kruiseless:controller may only create a persistentvolumeclaim without an owner for a new empty volume (no volumeName, dataSource or dataSourceRef); ${guardNs.namespace}/${name} names one`,
      ) as string,
    });
    expect(await asController('POST', path, claim('steal-pv', { volumeName: 'pv-of-another-app' }))).toEqual(
      refused('steal-pv'),
    );
    expect(
      await asController(
        'POST',
        path,
        claim('copy-pvc', { dataSource: { kind: 'PersistentVolumeClaim', name: 'data-of-another-app' } }),
      ),
    ).toEqual(refused('copy-pvc'));
    // not the controller's to change or delete afterwards
    expect(
      await asController(
        'PATCH',
        `${path}/data-web-9`,
        { metadata: { labels: { x: 'y' } } },
        'application/merge-patch+json',
      ),
    ).toEqual({
      status: 403,
      message: expect.stringContaining(denial('update', 'persistentvolumeclaims', 'data-web-9')) as string,
    });
  });

  test('Advanced StatefulSet: its pod is accepted; its PVC owned (not controlled) by the set is, and may move to its pod; one owned by a ReplicaSet is not', async () => {
    // real owners: the garbage collector deletes a claim or pod whose owners are all missing, and on a busy
    // machine it did so between the create and the patch below (a 404)
    const set = (await guardNs.custom.createNamespacedCustomObject({
      group: 'apps.kruise.io',
      version: 'v1beta1',
      plural: 'statefulsets',
      namespace: guardNs.namespace,
      body: {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'StatefulSet',
        metadata: { name: 'web' },
        spec: {
          replicas: 0,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'c', image: 'x' }] },
          },
        },
      },
    })) as { metadata: { uid: string } };
    const setOwner = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'StatefulSet',
      name: 'web',
      uid: set.metadata.uid,
    };
    const pvcsPath = `/api/v1/namespaces/${guardNs.namespace}/persistentvolumeclaims`;
    const claim = (name: string, ownerReferences: object[]) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name, ownerReferences },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    expect((await asController('POST', podsPath(), pod('web-0', setOwner))).status).toBe(201);
    expect((await asController('POST', pvcsPath, claim('data-web-0', [setOwner]))).status).toBe(201);
    const podUid =
      (await guardNs.core.readNamespacedPod({ name: 'web-0', namespace: guardNs.namespace })).metadata?.uid ??
      '';
    const toPod = await asController(
      'PATCH',
      `${pvcsPath}/data-web-0`,
      { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'web-0', uid: podUid }] } },
      'application/merge-patch+json',
    );
    expect(toPod.status).toBe(200);
    const foreign = { ...replicaSetOwner, controller: false };
    expect(await asController('POST', pvcsPath, claim('data-rs-0', [foreign]))).toEqual({
      status: 403,
      message: expect.stringContaining(denial('create', 'persistentvolumeclaims', 'data-rs-0')) as string,
    });
  });
});

describe('the namespace opt-in (infra/rbac/kruiseless-namespace-opt-in.yaml) as kruiseless:controller', () => {
  const podIn = (namespace: string, name: string, serviceAccountName?: string) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      // a forged CloneSet owner: the pod guard alone would accept it in any non-system namespace
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          name: 'forged',
          uid: '00000000-0000-4000-8000-000000000000',
          controller: true,
        },
      ],
    },
    spec: {
      containers: [{ name: 'main', image: 'nginx:1.19-alpine' }],
      ...(serviceAccountName ? { serviceAccountName } : {}),
    },
  });

  // applied after the pod guard's tests (which must see the guard alone), kept for the pipeline's (a labelled namespace)
  beforeAll(() => {
    kubectl(testKubeconfig(), 'apply', '-f', OPT_IN_FILE);
  });

  test('no pod is created in a namespace without the kruiseless.io/managed=true label', async () => {
    const r = await waitFor('the opt-in policy enforced', 20_000, async () => {
      const a = await asController(
        'POST',
        `/api/v1/namespaces/${outsideNs.namespace}/pods`,
        podIn(outsideNs.namespace, 'outside'),
      );
      if (a.status === 201)
        await outsideNs.core.deleteNamespacedPod({ name: 'outside', namespace: outsideNs.namespace });
      return a.status === 403 ? a : undefined;
    });
    expect(r).toEqual({
      status: 403,
      message: expect.stringContaining(
        `kruiseless:controller may only write pods in namespaces labelled kruiseless.io/managed=true; ${outsideNs.namespace} is not`,
      ) as string,
    });
  });

  test('in an opted-in namespace that lists no ServiceAccount, only default is allowed', async () => {
    const ns = privilegedNs.namespace;
    const foreign = await asController(
      'POST',
      `/api/v1/namespaces/${ns}/pods`,
      podIn(ns, 'foreign-sa', 'admin'),
    );
    const own = await asController('POST', `/api/v1/namespaces/${ns}/pods`, podIn(ns, 'default-sa'));
    expect([foreign, own.status]).toEqual([
      {
        status: 403,
        message: expect.stringContaining(
          `kruiseless:controller may only create pods in ${ns} with ServiceAccount default or one its annotation kruiseless.io/service-accounts lists, not admin`,
        ) as string,
      },
      201,
    ]);
  });
});

describe('the whole pipeline with nothing but the granted access', () => {
  let embedded: Embedded;
  const logger = new RecordingLogger();

  beforeAll(async () => {
    const kubeconfig = writeKubeconfig(path.join(tmpDir, 'kubeconfig'), {
      server: proxyUrl,
      cluster: { 'insecure-skip-tls-verify': true },
    });
    embedded = await startEmbedded({
      kubeconfig,
      clusterName: E2E_CLUSTER,
      logger,
      serverlessYml: namespaceScopedServerlessYml(ctx.namespace),
    });
  }, 30_000);

  afterAll(async () => {
    await embedded?.stop();
  });

  test(
    'the seed CloneSet is created, updated in place and scaled down; a PVC CloneSet gets and loses its PVC',
    async () => {
      await applySeed(ctx.custom, ctx.namespace);
      await waitFor('2 Ready pods', 90_000, async () => {
        const s = (await getCloneSet(ctx.custom, ctx.namespace)).status;
        return s?.readyReplicas === 2 && s.updatedReadyReplicas === 2;
      });
      const before = await activePods(ctx.core, ctx.namespace);
      await patchCloneSet(ctx.custom, ctx.namespace, [
        { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.19-alpine' },
      ]);
      const updated = await waitFor('in-place update to 1.19-alpine', 90_000, async () => {
        const cs = await getCloneSet(ctx.custom, ctx.namespace);
        const s = cs.status;
        return s?.updateRevision === 'cs-no-pvc-sample-6ccb957675' && s.updatedReadyReplicas === 2
          ? cs
          : undefined;
      });
      expect(updated.status?.updateRevision).toBe('cs-no-pvc-sample-6ccb957675');
      const after = await activePods(ctx.core, ctx.namespace);
      // updated in place: the same pods (uids), now running the new image
      expect(after.map((p) => p.metadata.uid).sort()).toEqual(before.map((p) => p.metadata.uid).sort());
      await patchCloneSet(ctx.custom, ctx.namespace, [{ op: 'replace', path: '/spec/replicas', value: 1 }]);
      await waitFor(
        '1 pod left',
        60_000,
        async () => (await activePods(ctx.core, ctx.namespace)).length === 1,
      );

      await applySeed(ctx.custom, ctx.namespace, (c) => {
        c.metadata.name = 'with-pvc';
        c.spec.replicas = 1;
        c.spec.selector = { matchLabels: { app: 'with-pvc' } };
        c.spec.template.metadata = { labels: { app: 'with-pvc' } };
        c.spec.volumeClaimTemplates = [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ];
      });
      await waitFor('the PVC of with-pvc', 60_000, async () => {
        const pvcs = await ctx.core.listNamespacedPersistentVolumeClaim({ namespace: ctx.namespace });
        return pvcs.items.length === 1;
      });
      await patchCloneSet(
        ctx.custom,
        ctx.namespace,
        [{ op: 'replace', path: '/spec/replicas', value: 0 }],
        'with-pvc',
      );
      await waitFor('with-pvc scaled to 0 and its PVC deleted', 60_000, async () => {
        const pvcs = await ctx.core.listNamespacedPersistentVolumeClaim({ namespace: ctx.namespace });
        return pvcs.items.every((p) => p.metadata?.deletionTimestamp);
      });
      const refused = logger.records.filter((r) =>
        /forbidden|403/i.test(`${r.message} ${JSON.stringify(r.extra)}`),
      );
      expect(refused).toEqual([]);
      expect(embedded.deadLetters()).toEqual([]);
    },
    STEP_TIMEOUT_MS * 3,
  );
});
