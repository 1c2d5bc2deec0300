/**
 * `npm run demo`: the seed's story end to end on the local control plane, through the same pipeline as in AWS
 * (watch pump → bus → reconcile handler → DynamoDB state → API server). Prints a live progress line and a
 * `kubectl get clone` table at each step; returns whether every step happened.
 */
import { readFileSync } from 'node:fs';
import { CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { Logger } from '@aws-lambda-powertools/logger';
import type { LogLevel } from '@aws-lambda-powertools/logger/types';
import { parse } from 'yaml';
import { clusterUp, kubectl } from '../../infra/local/cluster.js';
import type { CloneSet, Pod } from '../api/types.js';
import { ANNOTATION_INPLACE_UPDATE_STATE } from '../api/keys.js';
import { EVENT_VERSION } from '../events/index.js';
import { difference, snapshot, total } from '../runtime/counting.js';
import { startEmbedded, type Embedded } from './embedded.js';

const NAMESPACE = 'kruiseless-demo';
const NAME = 'cs-no-pvc-sample';
const SEED = new URL('../../examples/cs-no-pvc-sample.yaml', import.meta.url);

/** One checked step of the demo. */
interface Step {
  title: string;
  ok: boolean;
  detail: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function progress(line: string): void {
  if (process.stdout.isTTY) process.stdout.write(`\r\x1b[2K${line}`);
}

function endProgress(): void {
  if (process.stdout.isTTY) process.stdout.write('\r\x1b[2K');
}

/** Poll `check` every 500 ms until it returns a value or `timeoutMs` passes; shows `label` with elapsed time. */
async function waitFor<T>(
  label: string,
  timeoutMs: number,
  check: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const t0 = Date.now();
  for (;;) {
    const v = await check().catch(() => undefined);
    if (v !== undefined) {
      endProgress();
      return v;
    }
    if (Date.now() - t0 > timeoutMs) {
      endProgress();
      return undefined;
    }
    progress(`  … ${label} (${((Date.now() - t0) / 1000).toFixed(0)}s)`);
    await sleep(500);
  }
}

async function table(kubeconfig: string): Promise<void> {
  const lines = await kubectl(['get', 'clone', '-n', NAMESPACE], kubeconfig).catch((e: Error) => [e.message]);
  const pods = await kubectl(
    [
      'get',
      'pods',
      '-n',
      NAMESPACE,
      '-o',
      'custom-columns=NAME:.metadata.name,READY:.status.conditions[?(@.type=="Ready")].status,IMAGE:.spec.containers[0].image,RESTARTS:.status.containerStatuses[0].restartCount,STATE:.metadata.labels.lifecycle\\.apps\\.kruise\\.io/state',
    ],
    kubeconfig,
  ).catch((e: Error) => [e.message]);
  console.log([...lines, '', ...pods].map((l) => `    ${l}`).join('\n'));
}

/**
 * Run the demo.
 * @returns true when every step happened
 */
export async function runDemo(): Promise<boolean> {
  const t0 = Date.now();
  console.log(
    'Kruiseless demo: the seed CloneSet through watch pump → bus → reconcile → DynamoDB → API server\n',
  );
  console.log('1. local control plane');
  const { info } = await clusterUp((l) => console.log(`    ${l}`));
  const kc = new KubeConfig();
  kc.loadFromFile(info.kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);

  console.log('2. kruiseless local (embedded default: dynalite + in-process bus + the Lambda handlers)');
  const embedded: Embedded = await startEmbedded({
    kubeconfig: info.kubeconfig,
    logger: new Logger({
      serviceName: 'kruiseless',
      logLevel: (process.env.KRUISELESS_LOG_LEVEL ?? 'SILENT') as LogLevel,
    }),
  });
  const steps: Step[] = [];
  const check = (title: string, ok: boolean, detail: string) => {
    steps.push({ title, ok, detail });
    console.log(`    ${ok ? '✔' : '✘'} ${title}${detail ? ` — ${detail}` : ''}`);
  };
  const getCs = async () =>
    (await custom.getNamespacedCustomObject({
      group: 'apps.kruise.io',
      version: 'v1alpha1',
      namespace: NAMESPACE,
      plural: 'clonesets',
      name: NAME,
    })) as CloneSet;
  const listPods = async () =>
    (await core.listNamespacedPod({ namespace: NAMESPACE })).items as unknown as Pod[];
  const activePods = async () => (await listPods()).filter((p) => !p.metadata.deletionTimestamp);

  try {
    await core.deleteNamespace({ name: NAMESPACE }).catch(() => undefined);
    await waitFor('removing the previous demo namespace', 120_000, async () =>
      (await core
        .readNamespace({ name: NAMESPACE })
        .then(() => false)
        .catch(() => true))
        ? true
        : undefined,
    );
    await core.createNamespace({ body: { metadata: { name: NAMESPACE } } });

    console.log(`3. apply the seed CloneSet ${NAME} (2 × nginx:1.18-alpine, InPlaceIfPossible, grace 5 s)`);
    const seed = parse(readFileSync(SEED, 'utf8')) as CloneSet;
    await custom.createNamespacedCustomObject({
      group: 'apps.kruise.io',
      version: 'v1alpha1',
      namespace: NAMESPACE,
      plural: 'clonesets',
      body: seed,
    });
    const up = await waitFor('waiting for DESIRED 2 / READY 2', 180_000, async () => {
      const cs = await getCs();
      const s = cs.status;
      return s && s.replicas === 2 && s.readyReplicas === 2 && s.availableReplicas === 2 ? cs : undefined;
    });
    check('2 pods created, Running and Ready', !!up, up ? '' : 'timed out after 180 s');
    await table(info.kubeconfig);
    if (!up) return false;
    const before = await activePods();
    const firstRevision = up.status?.updateRevision ?? '';

    console.log('4. edit: replicas 1, image nginx:1.19-alpine');
    await custom.patchNamespacedCustomObject({
      group: 'apps.kruise.io',
      version: 'v1alpha1',
      namespace: NAMESPACE,
      plural: 'clonesets',
      name: NAME,
      body: [
        { op: 'replace', path: '/spec/replicas', value: 1 },
        { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.19-alpine' },
      ],
    });
    const afterDelete = await waitFor('waiting for one pod to be deleted', 60_000, async () => {
      const pods = await activePods();
      return pods.length === 1 ? pods : undefined;
    });
    const kept = afterDelete?.[0];
    const original = before.find((p) => p.metadata.name === kept?.metadata.name);
    check(
      'one pod deleted',
      !!afterDelete && !!original,
      kept
        ? `kept ${kept.metadata.name}, deleted ${before.find((p) => p !== original)?.metadata.name}`
        : 'timed out',
    );
    await table(info.kubeconfig);

    const updated = await waitFor('waiting for the in-place update (grace period 5 s)', 90_000, async () => {
      const pod = (await activePods()).find((p) => p.metadata.name === kept?.metadata.name);
      const st = pod?.status?.containerStatuses?.[0];
      return pod && st && st.image === 'nginx:1.19-alpine' && st.restartCount === 1 ? pod : undefined;
    });
    const cs = await getCs();
    const state = updated?.metadata.annotations?.[ANNOTATION_INPLACE_UPDATE_STATE];
    const stateRevision = state ? (JSON.parse(state) as { revision?: string }).revision : undefined;
    check(
      'kept pod updated in place',
      !!updated &&
        updated.metadata.uid === original?.metadata.uid &&
        updated.spec.containers[0].image === 'nginx:1.19-alpine' &&
        stateRevision === cs.status?.updateRevision,
      updated
        ? `same name and uid ${updated.metadata.uid}, restartCount 1, image nginx:1.19-alpine, inplace-update-state revision ${stateRevision}`
        : 'timed out',
    );
    check(
      'status.updateRevision changed',
      !!cs.status?.updateRevision && cs.status.updateRevision !== firstRevision,
      `${firstRevision} → ${cs.status?.updateRevision}`,
    );
    const done = await waitFor(
      'waiting for DESIRED 1 UPDATED 1 UPDATED_READY 1 READY 1 TOTAL 1',
      90_000,
      async () => {
        const c = await getCs();
        const s = c.status;
        return c.spec.replicas === 1 &&
          s &&
          s.replicas === 1 &&
          s.updatedReplicas === 1 &&
          s.updatedReadyReplicas === 1 &&
          s.readyReplicas === 1
          ? c
          : undefined;
      },
    );
    check('DESIRED 1 UPDATED 1 UPDATED_READY 1 READY 1 TOTAL 1', !!done, done ? '' : 'timed out');
    await table(info.kubeconfig);
    const warnings = (await core.listNamespacedEvent({ namespace: NAMESPACE })).items.filter(
      (e) => e.type === 'Warning',
    );
    const failures = (done?.status?.conditions ?? []).filter((c) => c.type.startsWith('Failed'));
    check(
      'no Warning Event and no failure condition',
      warnings.length === 0 && failures.length === 0,
      warnings.length || failures.length
        ? [
            ...warnings.map((e) => `${e.reason}: ${e.message}`),
            ...failures.map((c) => `${c.type}: ${c.message}`),
          ].join('; ')
        : '',
    );

    await embedded.drain();
    await sleep(1500);
    await embedded.drain();
    const c0 = snapshot(embedded.counts);
    await embedded.bus.publish([
      { version: EVENT_VERSION, cluster: 'local', namespace: NAMESPACE, name: NAME, reason: 'Resync' },
    ]);
    await embedded.drain();
    const noop = difference(c0, embedded.counts);
    console.log(
      `\n5. one no-op reconcile: ${total(noop.kube)} API calls ${JSON.stringify(noop.kube)}, ` +
        `${total(noop.dynamo)} DynamoDB operations ${JSON.stringify(noop.dynamo)}`,
    );
    const ok = steps.every((s) => s.ok);
    console.log(
      `\n${ok ? 'demo passed' : 'demo FAILED'}: ${steps.filter((s) => s.ok).length}/${steps.length} steps in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    console.log(
      '(the control plane keeps running: `npm run kubectl -- get clone -A`, `npm run cluster:down`)',
    );
    return ok;
  } finally {
    await embedded.stop();
  }
}
