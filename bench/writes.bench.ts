/**
 * How long the first two reconcile passes of a new CloneSet take to write, by write concurrency
 * (lib/controllers/cloneset/execute.ts#write-concurrency): the real planner and executor against a real API server (the local
 * control plane of `npm run cluster:up`, or any cluster KUBECONFIG names), with in-memory state stores. Not a test:
 * it prints timings. Each run uses a fresh namespace, deleted afterwards.
 *
 * BENCH_RTT_MS=<ms> adds that much delay before every write the executor sends, as the round trip to a remote
 * API server would (a Lambda to EKS); the local control plane answers over loopback, where only its CPU counts.
 *
 * Run: `npm run bench:writes` (optionally `-- <replicas> <concurrency>...`, default `64 1 16`).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { CLONESET_KIND } from '../lib/controllers/cloneset/api/kinds.js';
import type { CloneSet } from '../lib/api/types.js';
import { planCloneSet } from '../lib/controllers/cloneset/plan/plan.js';
import { silentLogger } from '../lib/core/logger.js';
import { createKubeClient } from '../lib/kube/client.js';
import { kubeConfigFromFile } from '../lib/kube/config.js';
import type { KubeClient } from '../lib/kube/types.js';
import { RESOURCES } from '../lib/kube/resources.js';
import { DEFAULT_RETRY, requestJson } from '../lib/kube/request.js';
import { executePlan } from '../lib/controllers/cloneset/execute.js';
import { randomInstanceId } from '../lib/controllers/cloneset/pass.js';
import { createMemoryStores } from '../lib/state/index.js';
import { CLONESET_RESOURCE } from '../lib/controllers/cloneset/api/resource.js';

const kubeconfig =
  process.env.KUBECONFIG ?? `${process.env.KRUISELESS_STATE_DIR ?? '.kruiseless'}/kubeconfig`;
const kc = kubeConfigFromFile(kubeconfig);
const RTT_MS = Number(process.env.BENCH_RTT_MS ?? 0);
/** The client, with {@link RTT_MS} of delay before each write (reads are the bench's own set-up). */
const kube: KubeClient = new Proxy(createKubeClient(kc), {
  get(target, prop, receiver) {
    const value = Reflect.get(target, prop, receiver) as unknown;
    if (typeof value !== 'function' || RTT_MS <= 0 || /^(get|list)/.test(String(prop))) return value;
    return async (...args: unknown[]) => {
      await new Promise((r) => setTimeout(r, RTT_MS));
      return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
    };
  },
});
const seed = parse(
  readFileSync(new URL('../examples/cs-no-pvc-sample.yaml', import.meta.url), 'utf8'),
) as CloneSet;

/** POST/DELETE a namespace through the same client's transport (the KubeClient has no namespace methods). */
async function namespace(method: 'POST' | 'DELETE', name: string): Promise<void> {
  await requestJson(kc, `${method} namespace ${name}`, DEFAULT_RETRY, {
    method,
    path: method === 'POST' ? '/api/v1/namespaces' : `/api/v1/namespaces/${name}`,
    ...(method === 'POST' ? { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } } : {}),
  });
}

/**
 * The first two passes of a `replicas` CloneSet at `concurrency`: ms spent in executePlan creating the pods (and
 * the writes), then ms spent patching their readiness-gate condition (and the patches).
 */
async function firstPasses(
  replicas: number,
  concurrency: number,
): Promise<{ ms: number; writes: number; patchMs: number; patches: number }> {
  const ns = `bench-writes-${randomUUID().slice(0, 8)}`;
  await namespace('POST', ns);
  try {
    const body = { ...structuredClone(seed), metadata: { ...seed.metadata, namespace: ns } };
    body.spec.replicas = replicas;
    const created = await requestJson<CloneSet>(kc, 'create cloneset', DEFAULT_RETRY, {
      method: 'POST',
      path: `/apis/apps.kruise.io/v1alpha1/namespaces/${ns}/clonesets`,
      body,
    });
    const stores = createMemoryStores();
    const key = { cluster: 'bench', kind: CLONESET_KIND, namespace: ns, name: created.metadata.name ?? '' };
    const acquired = await stores.leases.acquire(key, 'bench', 600_000, Date.now());
    if (!acquired.acquired) throw new Error('lease');
    const plan = planCloneSet({
      cloneSet: created,
      pods: [],
      pvcs: [],
      revisions: [],
      now: new Date(),
      newInstanceId: randomInstanceId,
    });
    const t0 = performance.now();
    const ctx = {
      kube,
      lease: acquired.lease,
      expectations: stores.expectations,
      ledger: stores.ledger,
      cloneSet: created,
      pods: [],
      pvcs: [],
      pending: { creates: [], deletes: [], updates: [] },
      clock: Date.now,
      newIntentId: randomUUID,
      log: silentLogger,
      writeConcurrency: concurrency,
    };
    const result = await executePlan(ctx, plan);
    const ms = performance.now() - t0;
    if (result.error) throw result.error;
    // the second pass: the readiness-gate condition patch of every new pod (a run of pod patches)
    const cloneSet = (await kube.get(CLONESET_RESOURCE, { namespace: ns, name: key.name })) ?? created;
    const selected = { namespace: ns, labelSelector: 'app=cs-no-pvc-sample' };
    const pods = (await kube.list(RESOURCES.pods, selected)).items;
    const revisions = (await kube.list(RESOURCES.controllerrevisions, selected)).items;
    const plan2 = planCloneSet({
      cloneSet,
      pods,
      pvcs: [],
      revisions,
      now: new Date(),
      newInstanceId: randomInstanceId,
    });
    const t1 = performance.now();
    const second = await executePlan(
      {
        ...ctx,
        cloneSet,
        pods,
        pending: { creates: [], deletes: [], updates: [] },
      },
      plan2,
    );
    const patchMs = performance.now() - t1;
    if (second.error) throw second.error;
    return { ms, writes: result.writes, patchMs, patches: plan2.actions.length };
  } finally {
    await namespace('DELETE', ns);
  }
}

const args = process.argv.slice(2).map(Number);
const replicas = args[0] > 0 ? args[0] : 64;
const concurrencies = args.slice(1).filter((n) => n > 0);
for (const c of concurrencies.length ? concurrencies : [1, 16]) {
  const runs: { ms: number; writes: number; patchMs: number; patches: number }[] = [];
  for (let i = 0; i < 3; i++) runs.push(await firstPasses(replicas, c));
  const median = (f: (r: (typeof runs)[number]) => number) =>
    [...runs.map(f)].sort((a, b) => a - b)[1].toFixed(0);
  console.log(
    `replicas=${replicas} rtt=${RTT_MS} ms writeConcurrency=${c}: create pass ${median((r) => r.ms)} ms ` +
      `(${runs[0].writes} writes), patch pass ${median((r) => r.patchMs)} ms (${runs[0].patches} patches), ` +
      `median of 3 [${runs.map((r) => `${r.ms.toFixed(0)}/${r.patchMs.toFixed(0)}`).join(', ')}]`,
  );
}
