/**
 * Between two runs of an AdvancedCronJob nothing invokes it (issue 20), counted on the whole pipeline on the local
 * control plane: the object's one wake-up (the embedded runtime's timer; EventBridge Scheduler's `wake_<key>`
 * schedule on AWS) brings each run, three resyncs in between publish nothing for it, a moved schedule moves the
 * wake-up (still one), and deleting the object removes it. The invocations are counted from the reconcile handler's
 * `reconcile finished` log lines for the object's key — what CloudWatch would receive.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { objectKeyText } from '../../../lib/core/objectKey.js';
import { LocalRequeueScheduler } from '../../../lib/emulator/index.js';
import type { Embedded } from '../../../lib/local/embedded.js';
import type { AdvancedCronJob } from '../../../lib/controllers/advancedcronjob/api/types.js';
import { resyncHandler } from '../../../lib/runtime/handlers/resync.js';
import { ACJ_API, everyMinuteJob, jobNames, nextMinute } from '../support/advancedcronjob.js';
import { useTestNamespace } from '../support/cluster.js';
import { CapturingLogger, E2E_CLUSTER, startPipeline } from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('acj-wake');
const logger = new CapturingLogger();
let embedded: Embedded;

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace, logger);
}, 30_000);

afterAll(async () => {
  await embedded?.stop();
});

/** The timer scheduler of the embedded runtime. @throws Error when it is another one */
function timers(): LocalRequeueScheduler {
  const { requeue } = embedded.runtime;
  if (!(requeue instanceof LocalRequeueScheduler)) throw new Error('the pipeline has no local timers');
  return requeue;
}

/** The times (epoch ms) of the reconcile invocations of `key` that finished at or after `fromLine`. */
function invocations(key: string, fromLine = 0): number[] {
  return logger.lines
    .slice(fromLine)
    .filter((l) => l.message === 'reconcile finished' && l.key === key)
    .map((l) => Date.parse(String(l.timestamp)));
}

test('one wake-up per run, nothing between two runs (resyncs included), moved with the schedule, gone with the object', async () => {
  const created = (await ctx.custom.createNamespacedCustomObject({
    ...ACJ_API,
    namespace: ctx.namespace,
    body: everyMinuteJob('tick'),
  })) as AdvancedCronJob;
  const objectKey = {
    cluster: E2E_CLUSTER,
    kind: 'apps.kruise.io/AdvancedCronJob',
    namespace: ctx.namespace,
    name: 'tick',
  };
  const key = objectKeyText(objectKey);
  const first = nextMinute(created.metadata.creationTimestamp ?? '') * 1000;
  const second = first + 60_000;

  await waitFor('the first run', 90_000, async () =>
    (await jobNames(ctx.custom, ctx.namespace)).includes(`tick-${first / 1000}`) ? true : undefined,
  );
  // the run's own invocations (the wake-up's, then the one its status write brings) are over within seconds
  await sleep(Math.max(0, first + 12_000 - Date.now()));
  const quietFrom = Date.now();
  const mark = logger.lines.length;
  expect(timers().wakeUpCount).toBe(1);
  expect(timers().wakeUpDueMs(objectKey)).toBe(second);

  // three resyncs between the runs: each lists the AdvancedCronJob and leaves it to its wake-up
  const resync = resyncHandler(() => embedded.runtime, logger);
  for (let i = 0; i < 3; i++) {
    await resync(undefined, { awsRequestId: `acj-wake-${i}`, getRemainingTimeInMillis: () => 30_000 });
    await embedded.drain();
    await sleep(5_000);
  }
  const resyncLines = logger.lines.slice(mark).filter((l) => l.message === 'resync finished');
  expect(resyncLines).toHaveLength(3);
  for (const line of resyncLines) expect(line.leftToWakeUp).toBeGreaterThanOrEqual(1);

  await waitFor('the second run', 75_000, async () =>
    (await jobNames(ctx.custom, ctx.namespace)).includes(`tick-${second / 1000}`) ? true : undefined,
  );
  // the Job is created inside the run's invocation; its `reconcile finished` line comes after the status write
  await waitFor("the second run's invocation finished", 20_000, async () =>
    invocations(key, mark).some((t) => t >= second) ? true : undefined,
  );
  const between = invocations(key, mark).filter((t) => t >= quietFrom && t < second);
  expect(between).toEqual([]);
  expect(timers().wakeUpCount).toBe(1);

  // a yearly schedule moves the wake-up to the new year: still one
  await ctx.custom.patchNamespacedCustomObject({
    ...ACJ_API,
    namespace: ctx.namespace,
    name: 'tick',
    body: [{ op: 'replace', path: '/spec/schedule', value: '0 0 1 1 *' }],
  });
  const newYear = Date.UTC(new Date().getUTCFullYear() + 1, 0, 1);
  await waitFor('the wake-up moved to the new year', 20_000, async () =>
    timers().wakeUpCount === 1 && timers().wakeUpDueMs(objectKey) === newYear ? true : undefined,
  );

  await ctx.custom.deleteNamespacedCustomObject({ ...ACJ_API, namespace: ctx.namespace, name: 'tick' });
  await waitFor('the wake-up removed', 20_000, async () => (timers().wakeUpCount === 0 ? true : undefined));
}, 240_000);
