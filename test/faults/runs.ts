/**
 * One run of `npm run test:faults`: a parity scenario (the Kruiseless side only) or the seed story, on the stage
 * (./stage.ts), with the fault front set to the run's faults, watched by a {@link PodObserver}, and the leases it
 * left read once it settled.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ParityCluster } from '../parity/cluster.js';
import { cloneSet } from '../parity/kinds/cloneset/index.js';
import { runScenario, type ScenarioRun } from '../parity/run.js';
import type { Scenario } from '../parity/scenario.js';
import { takeSnapshot } from '../parity/snapshot.js';
import { runSeedStory } from '../../lib/local/seedStory.js';
import { errorMessage } from '../../lib/core/errors.js';
import { FaultPlanner, NO_FAULTS, type FaultRates } from './faultPlan.js';
import { heldLeases } from './leases.js';
import { PodObserver } from './observer.js';
import type { FaultCounts } from './proxy.js';
import { seededRandom } from './rng.js';
import type { Stage } from './stage.js';
import type { RunRecord } from './verdict.js';

/** What a run runs: a scenario, or the seed story (lib/local/seedStory.ts). */
export type Subject = { scenario: Scenario } | { story: true };

/** The seed story's name in reports. */
export const STORY = 'seed-story(demo)';

/** The subject's name in reports. */
export function subjectName(s: Subject): string {
  return 'scenario' in s ? s.scenario.name : STORY;
}

/** The subject's feature gates (the story runs with none). */
export function subjectGates(s: Subject): Readonly<Record<string, boolean>> {
  return 'scenario' in s ? s.scenario.gates : {};
}

/** How long a lease may stay held after a run settled before it counts (an invocation may just be ending), ms. */
const LEASE_GRACE_MS = 15_000;
/**
 * A kill leaves the killed invocation's lease held until it runs out: the reconcile handler takes
 * `remaining + 60 s` (lib/runtime/handlers/reconcile.ts) and the local bus gives 120 s, so at most this, ms.
 */
const KILLED_LEASE_MS = 185_000;

/**
 * Extra quiet time a checkpoint waits for under the fault front, s: a fault delays a write by up to the client's
 * retry budget (4 retries, `Retry-After` up to 2 s, 1.5 s of latency), so a scenario's 3 s of quiet can end while
 * a requeue is still pending (e.g. an in-place update's 5 s grace period). Baselines wait as long, so that both
 * runs are judged alike.
 */
export const FAULT_EXTRA_QUIET_SECONDS = 8;

function quiet(s: Scenario): number {
  return Math.min(60, s.quietSeconds + FAULT_EXTRA_QUIET_SECONDS);
}

/** A finished run: its record and the faults injected. */
export interface RunResult {
  record: RunRecord;
  faults: FaultCounts;
  /** The faults with their requests, in order. */
  faultLog: readonly string[];
}

/**
 * Runs `subject` with faults drawn from `seed` at `rates` (NO_FAULTS for the baseline).
 * @throws only when the stage breaks (the reconciler cannot be restarted, the state table cannot be read)
 */
export async function runOnce(
  stage: Stage,
  subject: Subject,
  seed: number,
  rates: FaultRates,
): Promise<RunResult> {
  const cluster = new ParityCluster(stage.kubeconfig, cloneSet);
  // a namespace of its own per run: Events the controller folded while the previous run's namespace was deleted
  // must not land in this run's namespace of the same name
  const namespace = `f${(seed % 100000).toString().padStart(5, '0')}-${'scenario' in subject ? subject.scenario.name : 'seed-story-demo'}`;
  await cluster.deleteNamespace(namespace, 120_000);
  const observer = new PodObserver(cluster.kc, cluster.core, namespace);
  await observer.start();
  const killsBefore = stage.reconciler.kills;
  stage.proxy.use(new FaultPlanner(seededRandom(seed), rates));
  let run: ScenarioRun;
  let faults: FaultCounts;
  let faultLog: readonly string[];
  try {
    run =
      'scenario' in subject
        ? await runScenario(
            cluster,
            { ...subject.scenario, quietSeconds: quiet(subject.scenario) },
            {
              keep: true,
              namespace,
              busy: () => stage.reconciler.busy() || killedLeaseHolds(stage, killsBefore),
            },
          )
        : await storyRun(
            stage,
            cluster,
            namespace,
            rates.killAfterWrite !== undefined ? KILLED_STORY_SCALE : 1,
          );
  } finally {
    faults = stage.proxy.injected();
    faultLog = stage.proxy.log();
    stage.proxy.use(new FaultPlanner(seededRandom(seed), NO_FAULTS));
  }
  await stage.reconciler.settled();
  const killed = stage.reconciler.kills > killsBefore;
  const leasesHeld = await leasesLeft(stage, namespace, killed ? stage.reconciler.lastKillAt : 0);
  const observed = observer.stop();
  await cluster.deleteNamespace(namespace, 120_000).catch(() => undefined);
  // namespaces differ by run; Event messages may name them
  const neutral = JSON.parse(JSON.stringify(run).replaceAll(namespace, '<namespace>')) as ScenarioRun;
  return { record: { run: neutral, observed, leasesHeld }, faults, faultLog };
}

/**
 * Whether a kill of this run (one after the `killsBefore`-th) may have left a lease that still keeps its object from
 * every reconciler: the recovery (lib/reconcile/reconcile.ts `deferralRequeueSeconds`: a requeue 1 s after that
 * lease's end) cannot come earlier, in AWS either, so a checkpoint is not judged before.
 */
function killedLeaseHolds(stage: Stage, killsBefore: number): boolean {
  return stage.reconciler.kills > killsBefore && Date.now() < stage.reconciler.lastKillAt + KILLED_LEASE_MS;
}

/**
 * The seed story's waits are scaled by this in a run with a kill: its first wait (180 s) then covers the killed
 * invocation's lease ({@link KILLED_LEASE_MS}) and the recovery after it.
 */
const KILLED_STORY_SCALE = 3;

/** The seed story's steps (their waits multiplied by `timeScale`), then one snapshot of the end state. */
async function storyRun(
  stage: Stage,
  cluster: ParityCluster,
  namespace: string,
  timeScale: number,
): Promise<ScenarioRun> {
  const log = console.log;
  console.log = () => undefined; // the story prints its steps for a user; the report says what failed
  try {
    const story = await runSeedStory(cluster.kc, stage.kubeconfig, namespace, timeScale, 1);
    const state = await cluster.read(namespace, 'cs-no-pvc-sample');
    const failed = story.steps.filter((s) => !s.ok).map((s) => `${s.title}: ${s.detail}`);
    return {
      checkpoints: { end: takeSnapshot(cloneSet, state, new Set(), { maxPods: 0, minReady: 0 }, true) },
      ...(failed.length ? { error: `story steps failed: ${failed.join('; ')}` } : {}),
    };
  } catch (e) {
    return { checkpoints: {}, error: errorMessage(e) };
  } finally {
    console.log = log;
  }
}

/**
 * Leases of `namespace` still held {@link LEASE_GRACE_MS} after the run, as `<pk> holder <holder>`; a lease that a
 * kill at `killedAt` (epoch ms, 0 for none) can have left is excused.
 */
async function leasesLeft(stage: Stage, namespace: string, killedAt: number): Promise<string[]> {
  const client = stage.dynamo.client();
  const deadline = Date.now() + LEASE_GRACE_MS;
  for (;;) {
    const held = (await heldLeases(client, stage.table, namespace, Date.now())).filter(
      (l) => !(killedAt > 0 && l.expiresAt <= killedAt + KILLED_LEASE_MS),
    );
    if (held.length === 0 || Date.now() > deadline)
      return held.map((l) => `${l.pk} holder ${l.holder} until ${new Date(l.expiresAt).toISOString()}`);
    await sleep(1000);
  }
}
