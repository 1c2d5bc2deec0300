/**
 * `npm run bench:webhook`: what the pod webhook costs a pod CREATE when the admission function answers it, beside
 * OpenKruise's webhook in the same run (issue 19: "measure p50/p99 warm and cold").
 *
 * Kruiseless's side is the packaged admission zip on emulated AWS (lib/local/awsSession.ts: moto, the template's
 * settings, 256 MB / 5 s, one Node process per warm instance) behind an emulated Function URL
 * (lib/local/functionUrl.ts), reading the cluster through the EKS authenticator proxy with its own role, the master
 * secret in SSM; the API server calls it as `mpod.kb.io` (lib/api/admission/webhookConfiguration.ts, limited to the
 * bench's namespace). OpenKruise's side is kruise-manager v1.9.0 on the reference control plane
 * (`npm run reference:up`) with its own `mpod.kb.io`. On each, one SidecarSet selects the bench's pods, so every
 * timed CREATE is injected (checked: the sidecar is in the created pod).
 *
 * Timed, client-side, one CREATE at a time, on each control plane: the API server alone (a namespace labelled
 * `control-plane`, which OpenKruise's `mpod.kb.io` leaves out and Kruiseless's bench webhook does not select), then
 * with the webhook, Kruiseless warm and OpenKruise interleaved in rounds of ten so that load on the machine falls on
 * both; then Kruiseless cold (the function's idle instances stopped before each CREATE, as after Lambda reclaims
 * them); then one CREATE with the Function URL down (`failurePolicy: Fail`: refused, with the API server's message).
 * The webhook's cost is each side's p50 with it minus its p50 alone. Also the function's own duration per call (warm
 * and cold). Ends with one line:
 * `bench:webhook: pod CREATE p50 ms, alone → with the webhook: Kruiseless a → b warm (+x), c cold, OpenKruise d → e
 * (+y); added latency ÷ OpenKruise's r×; p99 warm f, OpenKruise g; not injected 0; function down: refused in t ms`
 * and writes
 * `bench/results/<date>T<hhmm>-webhook.json`.
 *
 * Options: `--pods N` (timed CREATEs per warm series, default 100), `--cold K` (default 10), `--no-reference`.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { podMutatingWebhook } from '../lib/api/admission/webhookConfiguration.js';
import { ssm } from '../lib/emulator/aws/awsCall.js';
import { startAwsSession } from '../lib/local/awsSession.js';
import { serveFunctionUrl } from '../lib/local/functionUrl.js';
import { clusterPathSecret } from '../lib/source/admissionSecret.js';
import { errorMessage } from '../lib/core/errors.js';
import { benchCluster, createNamespace, deleteNamespace, type BenchCluster } from './support/kube.js';
import { reuseOrStartReference, type BenchReference } from './support/reference.js';
import { percentile, ratio } from './support/stats.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.KRUISELESS_REFERENCE_STATE_DIR ??= path.join(REPO, '.reference');

const opts = new Command('bench:webhook')
  .option('--pods <n>', 'timed CREATEs per warm series', (v) => Number(v), 100)
  .option('--cold <k>', 'timed cold CREATEs', (v) => Number(v), 10)
  .option('--no-reference', "leave out OpenKruise's side")
  .parse()
  .opts<{ pods: number; cold: number; reference: boolean }>();

const NAMESPACE = 'bench-webhook';
/** Where the API server alone is timed: a `control-plane` namespace no pod webhook of either side sees. */
const ALONE_NAMESPACE = 'bench-webhook-alone';
const SIDECARSET = 'bench-webhook-sidecar';
const WEBHOOK_CONFIG = 'kruiseless-bench-pod-webhook';
const CLUSTER = 'local';
const ROUND = 10;

/** p50 and p99 of a series, ms, one decimal. */
interface Figures {
  n: number;
  p50: number;
  p99: number;
}
const figures = (ms: readonly number[]): Figures => ({
  n: ms.length,
  p50: Math.round(percentile(ms, 50) * 10) / 10,
  p99: Math.round(percentile(ms, 99) * 10) / 10,
});

function progress(done: number, total: number, t0: number, what: string): void {
  const elapsed = (performance.now() - t0) / 1000;
  const eta = done > 0 ? (elapsed / done) * (total - done) : NaN;
  console.log(
    `[bench:webhook] ${Math.round((done / total) * 100)}% (${done}/${total} CREATEs), ${elapsed.toFixed(0)} s, ETA ${Number.isFinite(eta) ? eta.toFixed(0) : '?'} s: ${what}`,
  );
}

const sidecarSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  metadata: { name: SIDECARSET },
  spec: {
    // a namespaceSelector, not v1alpha1's `spec.namespace`: the SidecarSet CRD refuses that field where no conversion
    // webhook is registered, as on the emulated stack (README "SidecarSet versions")
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': NAMESPACE } },
    selector: { matchLabels: { app: 'bench-web' } },
    containers: [{ name: 'bench-sidecar', image: 'busybox:1.36', command: ['sleep', '3600'] }],
  },
};

let serial = 0;
/** Create one pod of the bench's app; the time of the POST, ms, and whether the sidecar was injected. */
async function timedCreate(
  c: BenchCluster,
  namespace = NAMESPACE,
): Promise<{ ms: number; injected: boolean }> {
  const name = `w-${process.pid}-${serial++}`;
  const t = performance.now();
  const created = (await c.request('POST', `/api/v1/namespaces/${namespace}/pods`, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'bench-web' } },
    spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] },
  })) as { spec: { containers: { name: string }[] } };
  const ms = performance.now() - t;
  return { ms, injected: created.spec.containers.some((x) => x.name === 'bench-sidecar') };
}

/** Create pods until one comes back injected (the API server's webhook and the SidecarSet caches catch up). */
async function untilInjected(c: BenchCluster, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last = '';
  while (performance.now() < deadline) {
    try {
      if ((await timedCreate(c)).injected) return;
      last = 'created without the sidecar';
    } catch (e) {
      last = errorMessage(e);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${c.name}: no injected pod within ${timeoutMs / 1000} s (last: ${last})`);
}

async function freshNamespaces(c: BenchCluster): Promise<void> {
  await deleteNamespace(c, NAMESPACE);
  await deleteNamespace(c, ALONE_NAMESPACE);
  await createNamespace(c, NAMESPACE);
  await c.request('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ALONE_NAMESPACE, labels: { 'control-plane': 'bench-webhook' } },
  });
}

async function main(): Promise<number> {
  const logDir = path.join(REPO, '.kruiseless', 'bench-webhook');
  mkdirSync(logDir, { recursive: true });
  const say = (l: string) => console.log(`    ${l}`);
  const session = await startAwsSession({ intervalScale: 1, say, heading: (l) => console.log(l) });
  let reference: BenchCluster | undefined;
  let started: BenchReference | undefined;
  const ours = benchCluster('kruiseless', session.info.kubeconfig);
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    if (opts.reference) {
      console.log("4. OpenKruise's control plane (npm run reference:up; built once)");
      started = await reuseOrStartReference(logDir, 'bench:webhook');
      reference = started.cluster;
    }

    console.log('5. the admission function behind a Function URL, the master secret in SSM');
    const fn = session.aws.functions.get('AdmissionLambdaFunction');
    if (!fn) throw new Error('the packaged template has no admission function (AdmissionLambdaFunction)');
    const param = fn.spec.env.ADMISSION_SECRET_PARAM;
    if (!param) throw new Error('the admission function has no ADMISSION_SECRET_PARAM');
    const master = randomBytes(32).toString('hex');
    await ssm(session.aws.endpoint, 'PutParameter', {
      Name: param,
      Value: master,
      Type: 'SecureString',
      Overwrite: true,
    });
    const front = await serveFunctionUrl(fn);
    cleanups.push(() => front.close());
    say(`${front.url} → ${fn.spec.name} (${fn.spec.memoryMb} MB, timeout ${fn.spec.timeoutSeconds} s)`);

    for (const c of [ours, ...(reference ? [reference] : [])]) {
      await freshNamespaces(c);
      await c
        .request('DELETE', `/apis/apps.kruise.io/v1alpha1/sidecarsets/${SIDECARSET}`)
        .catch(() => undefined);
      await c.request('POST', '/apis/apps.kruise.io/v1alpha1/sidecarsets', sidecarSet);
    }
    cleanups.push(async () => {
      for (const c of [ours, ...(reference ? [reference] : [])]) {
        await c
          .request('DELETE', `/apis/apps.kruise.io/v1alpha1/sidecarsets/${SIDECARSET}`)
          .catch(() => undefined);
        await deleteNamespace(c, NAMESPACE, 30_000);
        await deleteNamespace(c, ALONE_NAMESPACE, 30_000);
      }
    });

    const sides = reference ? 2 : 1;
    const total = opts.pods * sides * 2 + opts.cold;
    const t0 = performance.now();
    let done = 0;
    console.log('6. the API server alone (a namespace no pod webhook sees), both sides in turns of ten');
    const alone: number[] = [];
    const openKruiseAlone: number[] = [];
    for (let i = 0; i < opts.pods; i += ROUND) {
      for (let j = i; j < Math.min(i + ROUND, opts.pods); j++) {
        alone.push((await timedCreate(ours, ALONE_NAMESPACE)).ms);
        done++;
      }
      if (reference)
        for (let j = i; j < Math.min(i + ROUND, opts.pods); j++) {
          openKruiseAlone.push((await timedCreate(reference, ALONE_NAMESPACE)).ms);
          done++;
        }
      if (i % (ROUND * 5) === 0) progress(done, total, t0, 'API server alone');
    }

    const url = `${front.url}/${clusterPathSecret(master, CLUSTER)}/${CLUSTER}/mutate-pod`;
    await ours.request('DELETE', `/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/${WEBHOOK_CONFIG}`).catch(() => undefined); // prettier-ignore
    await ours.request('POST', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: WEBHOOK_CONFIG },
      webhooks: [
        {
          ...podMutatingWebhook(url, front.caPem),
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': NAMESPACE } },
        },
      ],
    });
    cleanups.unshift(() =>
      ours.request(
        'DELETE',
        `/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/${WEBHOOK_CONFIG}`,
      ),
    );
    console.log('7. warm: Kruiseless and OpenKruise in turns of ten (after one injected pod each)');
    await untilInjected(ours);
    if (reference) await untilInjected(reference);
    const warm: number[] = [];
    const openKruise: number[] = [];
    let notInjected = 0;
    const servedBeforeWarm = front.served.length;
    for (let i = 0; i < opts.pods; i += ROUND) {
      for (let j = i; j < Math.min(i + ROUND, opts.pods); j++) {
        const r = await timedCreate(ours);
        warm.push(r.ms);
        if (!r.injected) notInjected++;
        done++;
      }
      if (reference)
        for (let j = i; j < Math.min(i + ROUND, opts.pods); j++) {
          const r = await timedCreate(reference);
          openKruise.push(r.ms);
          if (!r.injected) notInjected++;
          done++;
        }
      progress(done, total, t0, 'warm');
    }
    const warmInvokes = front.served.slice(servedBeforeWarm).map((s) => s.invokeMs);

    console.log("8. cold: the function's idle instances stopped before each CREATE");
    const cold: number[] = [];
    const coldStartsBefore = fn.stats.coldStarts;
    const servedBeforeCold = front.served.length;
    for (let i = 0; i < opts.cold; i++) {
      await fn.recycle();
      const r = await timedCreate(ours);
      cold.push(r.ms);
      if (!r.injected) notInjected++;
      done++;
    }
    progress(done, total, t0, 'cold');
    const coldInvokes = front.served.slice(servedBeforeCold).map((s) => s.invokeMs);
    const coldStarts = fn.stats.coldStarts - coldStartsBefore;

    console.log('9. the Function URL down (failurePolicy: Fail)');
    await front.close();
    const t = performance.now();
    let down = { ms: NaN, message: 'the CREATE was admitted' };
    try {
      await timedCreate(ours);
    } catch (e) {
      down = { ms: Math.round(performance.now() - t), message: errorMessage(e).slice(0, 240) };
    }
    say(`refused in ${down.ms} ms: ${down.message}`);

    const result = {
      date: new Date().toISOString(),
      pods: opts.pods,
      aloneMs: figures(alone),
      openKruiseAloneMs: reference ? figures(openKruiseAlone) : undefined,
      kruiselessWarmMs: figures(warm),
      kruiselessColdMs: figures(cold),
      openKruiseMs: reference ? figures(openKruise) : undefined,
      functionWarmMs: figures(warmInvokes),
      functionColdMs: figures(coldInvokes),
      coldStarts,
      notInjected,
      functionDown: down,
    };
    const out = path.join(
      REPO,
      'bench',
      'results',
      `${result.date.slice(0, 16).replace(':', '')}-webhook.json`,
    );
    writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`\n| series | n | p50 ms | p99 ms |\n|---|---|---|---|`);
    const rows: [string, Figures | undefined][] = [
      ['Kruiseless control plane, API server alone', result.aloneMs],
      ['OpenKruise control plane, API server alone', result.openKruiseAloneMs],
      ['Kruiseless, admission function warm', result.kruiselessWarmMs],
      ['Kruiseless, admission function cold', result.kruiselessColdMs],
      ["OpenKruise's webhook (kruise-manager)", result.openKruiseMs],
      ['  the function alone, warm', result.functionWarmMs],
      ['  the function alone, cold', result.functionColdMs],
    ];
    for (const [label, f] of rows) if (f) console.log(`| ${label} | ${f.n} | ${f.p50} | ${f.p99} |`);
    console.log(`(written to ${path.relative(REPO, out)})`);
    const round1 = (x: number) => Math.round(x * 10) / 10;
    const ourAdded = round1(result.kruiselessWarmMs.p50 - result.aloneMs.p50);
    const theirAdded =
      result.openKruiseMs && result.openKruiseAloneMs
        ? round1(result.openKruiseMs.p50 - result.openKruiseAloneMs.p50)
        : undefined;
    const theirs =
      result.openKruiseMs && result.openKruiseAloneMs
        ? `OpenKruise ${result.openKruiseAloneMs.p50} → ${result.openKruiseMs.p50} (+${theirAdded})`
        : 'OpenKruise n/a';
    console.log(
      `\nbench:webhook: pod CREATE p50 ms, alone → with the webhook: Kruiseless ${result.aloneMs.p50} → ${result.kruiselessWarmMs.p50} warm (+${ourAdded}), ${result.kruiselessColdMs.p50} cold (${coldStarts} cold starts), ${theirs}; added latency ÷ OpenKruise's ${theirAdded !== undefined ? `${ratio(ourAdded, theirAdded)}×` : 'n/a'}; p99 warm ${result.kruiselessWarmMs.p99}, OpenKruise ${result.openKruiseMs?.p99 ?? 'n/a'}; not injected ${notInjected}; function down: refused in ${down.ms} ms`,
    );
    return notInjected === 0 && coldStarts === opts.cold ? 0 : 1;
  } finally {
    for (const c of cleanups)
      await c().catch((e: unknown) => console.error(`[bench:webhook] cleanup: ${errorMessage(e)}`));
    await session.close();
    await started?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`bench:webhook: FAILED: ${errorMessage(e)}`);
    process.exit(2);
  },
);
