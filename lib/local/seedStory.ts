/**
 * The seed's story (examples/cs-no-pvc-sample.yaml), told by `npm run demo` and `npm run demo:aws` alike: create the
 * CloneSet (2 pods Ready), edit it (replicas 1, nginx:1.19-alpine), see one pod deleted and the other updated in
 * place, the revision change and no Warning. Only API objects are read; whatever runs the controller is the caller's.
 */
import { readFileSync } from 'node:fs';
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { kubectl } from '../../infra/local/cluster.js';
import type { CloneSet, Pod } from '../api/types.js';
import { ANNOTATION_INPLACE_UPDATE_STATE } from '../api/keys.js';

/** One checked step of the story. */
export interface Step {
  title: string;
  ok: boolean;
  detail: string;
}

/** What the story saw. */
export interface StoryResult {
  steps: Step[];
  ok: boolean;
  /** `status.updateRevision` after creation, then after the edit. */
  revisions: string[];
}

const NAME = 'cs-no-pvc-sample';

/** The revisions OpenKruise (and Kruiseless) name the seed's template before and after the edit. */
export const SEED_REVISIONS = ['cs-no-pvc-sample-7fb7468d98', 'cs-no-pvc-sample-6ccb957675'] as const;
const SEED = new URL('../../examples/cs-no-pvc-sample.yaml', import.meta.url);

/** Wait `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

async function table(kubeconfig: string, namespace: string): Promise<void> {
  const lines = await kubectl(['get', 'clone', '-n', namespace], kubeconfig).catch((e: Error) => [e.message]);
  const pods = await kubectl(
    [
      'get',
      'pods',
      '-n',
      namespace,
      '-o',
      'custom-columns=NAME:.metadata.name,READY:.status.conditions[?(@.type=="Ready")].status,IMAGE:.spec.containers[0].image,RESTARTS:.status.containerStatuses[0].restartCount,STATE:.metadata.labels.lifecycle\\.apps\\.kruise\\.io/state',
    ],
    kubeconfig,
  ).catch((e: Error) => [e.message]);
  console.log([...lines, '', ...pods].map((l) => `    ${l}`).join('\n'));
}

/**
 * Tell the story in `namespace` (deleted first if it exists, then created), printing each step and a
 * `kubectl get clone` table; `timeScale` multiplies every wait (slower controllers); the two story steps are
 * numbered from `firstStep`.
 * @returns the steps (ok or not) and the revisions seen; never throws for a step that did not happen
 * @throws API errors other than in the checks (e.g. the CloneSet cannot be created)
 */
export async function runSeedStory(
  kc: KubeConfig,
  kubeconfig: string,
  namespace: string,
  timeScale = 1,
  firstStep = 3,
): Promise<StoryResult> {
  const core = kc.makeApiClient(CoreV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const steps: Step[] = [];
  const check = (title: string, ok: boolean, detail: string) => {
    steps.push({ title, ok, detail });
    console.log(`    ${ok ? '✔' : '✘'} ${title}${detail ? ` — ${detail}` : ''}`);
  };
  const getCs = async () =>
    (await custom.getNamespacedCustomObject({
      group: 'apps.kruise.io',
      version: 'v1alpha1',
      namespace,
      plural: 'clonesets',
      name: NAME,
    })) as CloneSet;
  const listPods = async () => (await core.listNamespacedPod({ namespace })).items as unknown as Pod[];
  const activePods = async () => (await listPods()).filter((p) => !p.metadata.deletionTimestamp);
  const wait = <T>(label: string, ms: number, fn: () => Promise<T | undefined>) =>
    waitFor(label, ms * timeScale, fn);

  await core.deleteNamespace({ name: namespace }).catch(() => undefined);
  await wait('removing the previous demo namespace', 120_000, async () =>
    (await core
      .readNamespace({ name: namespace })
      .then(() => false)
      .catch(() => true))
      ? true
      : undefined,
  );
  await core.createNamespace({ body: { metadata: { name: namespace } } });

  console.log(
    `${firstStep}. apply the seed CloneSet ${NAME} (2 × nginx:1.18-alpine, InPlaceIfPossible, grace 5 s)`,
  );
  const seed = parse(readFileSync(SEED, 'utf8')) as CloneSet;
  await custom.createNamespacedCustomObject({
    group: 'apps.kruise.io',
    version: 'v1alpha1',
    namespace,
    plural: 'clonesets',
    body: seed,
  });
  const up = await wait('waiting for DESIRED 2 / READY 2', 180_000, async () => {
    const cs = await getCs();
    const s = cs.status;
    return s && s.replicas === 2 && s.readyReplicas === 2 && s.availableReplicas === 2 ? cs : undefined;
  });
  check('2 pods created, Running and Ready', !!up, up ? '' : 'timed out after 180 s');
  await table(kubeconfig, namespace);
  if (!up) return { steps, ok: false, revisions: [] };
  const before = await activePods();
  const firstRevision = up.status?.updateRevision ?? '';

  console.log(`${firstStep + 1}. edit: replicas 1, image nginx:1.19-alpine`);
  await custom.patchNamespacedCustomObject({
    group: 'apps.kruise.io',
    version: 'v1alpha1',
    namespace,
    plural: 'clonesets',
    name: NAME,
    body: [
      { op: 'replace', path: '/spec/replicas', value: 1 },
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.19-alpine' },
    ],
  });
  const afterDelete = await wait('waiting for one pod to be deleted', 60_000, async () => {
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
  await table(kubeconfig, namespace);

  const updated = await wait('waiting for the in-place update (grace period 5 s)', 90_000, async () => {
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
  const done = await wait(
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
  await table(kubeconfig, namespace);
  const warnings = (await core.listNamespacedEvent({ namespace })).items.filter((e) => e.type === 'Warning');
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

  return {
    steps,
    ok: steps.every((s) => s.ok),
    revisions: [firstRevision, cs.status?.updateRevision ?? ''],
  };
}
