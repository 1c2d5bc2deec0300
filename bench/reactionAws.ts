/**
 * `npm run bench:reaction-aws`: the reaction time of the packaged functions on emulated AWS, beside OpenKruise's in
 * the same run (issue 21: "reaction … measured on `demo:aws` with Lambda's 1 s flush").
 *
 * Kruiseless's side is what `npm run demo:aws` runs (lib/local/awsSession.ts): the zips `osls package` makes, on moto,
 * with serverless.yml's schedules — the watch function every minute (its 1 s flush, DEFAULT_FLUSH_INTERVAL_MS), the
 * resync every 5 minutes — the reconcile function started by the bus for each request, its leases and expectations in
 * moto's DynamoDB, the cluster reached through the EKS authenticator proxy. OpenKruise's side is kruise-manager
 * v1.9.0 on the reference control plane (`npm run reference:up`). On each, bench/scenarios/reaction.ts's samples, as
 * `npm run bench -- --only reaction` takes them: a pod deleted, and a CloneSet's replicas edited, one at a time on a
 * settled CloneSet of 10 pods; timed from the bench's request to the controller's first write seen on the bench's
 * watch, and to a correct status.
 *
 * Ends with one line:
 * `bench:reaction-aws: p50 / p99 s, first write: pod deleted Kruiseless a / b, OpenKruise c / d; CloneSet edited …;
 * correct status: …; first write ÷ OpenKruise (p50) x, y`; before it, the reconcile function's invocations, cold starts,
 * errors and duration (p50 / p99) during Kruiseless's samples
 * and writes `bench/results/<date>T<hhmm>-reaction-aws.json`.
 *
 * Options: `--samples N` (each kind, default 20), `--no-reference`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { errorMessage } from '../lib/core/errors.js';
import { startAwsSession } from '../lib/local/awsSession.js';
import { runReactionIn, type Reaction } from './scenarios/reaction.js';
import { benchCluster, ensureNodes, nodesFor, type BenchCluster } from './support/kube.js';
import { reuseOrStartReference, type BenchReference } from './support/reference.js';
import { percentile, ratio } from './support/stats.js';
import { Tracker } from './support/tracker.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const opts = new Command('bench:reaction-aws')
  .option('--samples <n>', 'samples of each kind on each side', (v) => Number(v), 20)
  .option('--no-reference', "leave out OpenKruise's side")
  .parse()
  .opts<{ samples: number; reference: boolean }>();

/** Both reactions of one side. */
type Reactions = { podDeleted: Reaction; cloneSetEdited: Reaction };

/** The settle of a first CloneSet may wait for the first watch run to open its streams. */
const WARM_UP_SAMPLES = 1;

/** Samples on one side, with progress lines. */
async function sample(c: BenchCluster, label: string, samples: number): Promise<Reactions> {
  const t0 = performance.now();
  console.log(`[bench:reaction-aws] ${label}: ${samples} samples of each kind`);
  const r = await runReactionIn(c, (ns) => new Tracker(c, ns), label, samples);
  console.log(`[bench:reaction-aws] ${label}: done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return r;
}

const pair = (r: { p50: number; p99: number } | undefined): string =>
  r ? `${r.p50.toFixed(3)} / ${r.p99.toFixed(3)}` : 'n/a';

async function main(): Promise<number> {
  const logDir = path.join(REPO, '.kruiseless', 'bench-reaction-aws');
  mkdirSync(logDir, { recursive: true });
  const say = (l: string) => console.log(`    ${l}`);
  const load0 = os.loadavg()[0] ?? 0;
  const session = await startAwsSession({ intervalScale: 1, say, heading: (l) => console.log(l) });
  const ours = benchCluster('kruiseless', session.info.kubeconfig);
  let reference: BenchCluster | undefined;
  let started: BenchReference | undefined;
  try {
    const reconcile = session.aws.functions.get('ReconcileLambdaFunction');
    if (!reconcile)
      throw new Error('the packaged template has no reconcile function (ReconcileLambdaFunction)');
    if (opts.reference) {
      console.log("4. OpenKruise's control plane (npm run reference:up; built once)");
      started = await reuseOrStartReference(logDir, 'bench:reaction-aws');
      reference = started.cluster;
    }
    const nodes = nodesFor(11);
    for (const c of [ours, ...(reference ? [reference] : [])]) await ensureNodes(c, nodes);

    console.log('5. warm-up: one sample on emulated AWS (the first watch run opens its streams)');
    await sample(ours, 'aws-warmup', WARM_UP_SAMPLES);
    const before = { ...reconcile.stats };
    const durations: number[] = [];
    const unobserve = reconcile.onInvoked((r) => durations.push(r.durationMs));
    console.log('6. Kruiseless on emulated AWS');
    const kruiseless = await sample(ours, 'aws', opts.samples);
    unobserve();
    const after = { ...reconcile.stats };
    let openkruise: Reactions | undefined;
    if (reference) {
      console.log('7. OpenKruise');
      openkruise = await sample(reference, 'openkruise', opts.samples);
    }
    const load1 = os.loadavg()[0] ?? 0;

    const result = {
      date: new Date().toISOString(),
      samples: opts.samples,
      load: { start: load0, end: load1 },
      kruiselessOnEmulatedAws: kruiseless,
      openkruise,
      reconcileFunction: {
        invocations: after.invocations - before.invocations,
        coldStarts: after.coldStarts - before.coldStarts,
        errors: after.errors - before.errors,
        durationMs: {
          p50: percentile(durations, 50),
          p99: percentile(durations, 99),
        },
      },
    };
    const out = path.join(
      REPO,
      'bench',
      'results',
      `${result.date.slice(0, 16).replace(':', '')}-reaction-aws.json`,
    );
    writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);

    console.log('\n| p50 / p99 (s) | Kruiseless, emulated AWS | OpenKruise |\n|---|---|---|');
    const rows: [string, (r: Reactions) => { p50: number; p99: number }][] = [
      ['pod deleted → first write', (r) => r.podDeleted.firstWrite],
      ['pod deleted → correct status', (r) => r.podDeleted.correctStatus],
      ['replicas edited → first write', (r) => r.cloneSetEdited.firstWrite],
      ['replicas edited → correct status', (r) => r.cloneSetEdited.correctStatus],
    ];
    for (const [label, of] of rows)
      console.log(`| ${label} | ${pair(of(kruiseless))} | ${pair(openkruise && of(openkruise))} |`);
    console.log(
      `reconcile function during the samples: ${result.reconcileFunction.invocations} invocations, ` +
        `${result.reconcileFunction.coldStarts} cold starts, ${result.reconcileFunction.errors} errors, ` +
        `duration p50 / p99 ${result.reconcileFunction.durationMs.p50} / ${result.reconcileFunction.durationMs.p99} ms; ` +
        `load ${load0.toFixed(2)} → ${load1.toFixed(2)}`,
    );
    console.log(`(written to ${path.relative(REPO, out)})`);
    const theirs = (of: (r: Reactions) => { p50: number; p99: number }) =>
      openkruise ? pair(of(openkruise)) : 'n/a';
    const times = (of: (r: Reactions) => { p50: number }) =>
      openkruise ? `${ratio(of(kruiseless).p50, of(openkruise).p50)}` : 'n/a';
    console.log(
      `\nbench:reaction-aws: p50 / p99 s, first write: pod deleted Kruiseless ${pair(kruiseless.podDeleted.firstWrite)}, ` +
        `OpenKruise ${theirs((r) => r.podDeleted.firstWrite)}; CloneSet edited Kruiseless ${pair(kruiseless.cloneSetEdited.firstWrite)}, ` +
        `OpenKruise ${theirs((r) => r.cloneSetEdited.firstWrite)}; correct status: pod deleted Kruiseless ${pair(kruiseless.podDeleted.correctStatus)}, ` +
        `OpenKruise ${theirs((r) => r.podDeleted.correctStatus)}; first write ÷ OpenKruise (p50) ` +
        `${times((r) => r.podDeleted.firstWrite)}, ${times((r) => r.cloneSetEdited.firstWrite)}`,
    );
    return result.reconcileFunction.errors === 0 ? 0 : 1;
  } finally {
    await session.close();
    await started?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`bench:reaction-aws: FAILED: ${errorMessage(e)}`);
    process.exit(2);
  },
);
