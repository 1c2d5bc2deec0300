/**
 * Event correlation on the real control plane through the whole pipeline (docs/reliability.md#event-folding): a
 * CloneSet scaled from 0 to 30 replicas makes 30 SuccessfulCreate Events with 30 different messages in one
 * invocation. By client-go's EventCorrelator rules (lib/kube/eventCorrelation.ts), the first 9 messages are written
 * as they are, the 10th to the 25th are counted into one aggregate Event ("(combined from similar events): …",
 * count 16, the message of the 25th) and the last 5 find the spam filter's 25 tokens spent and are dropped: 10
 * Event objects whose counts add up to 25, as OpenKruise's recorder leaves them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CoreV1Event } from '@kubernetes/client-node';
import type { Embedded } from '../../../lib/local/embedded.js';
import { useTestNamespace } from '../support/cluster.js';
import {
  activePods,
  applySeed,
  eventsOf,
  getCloneSet,
  patchCloneSet,
  startPipeline,
} from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('e2e-event-correlation');
let embedded: Embedded;
const PREFIX = '(combined from similar events): ';

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace);
}, 30_000);

afterAll(async () => {
  await embedded?.stop();
});

/** `[message, count]` of the SuccessfulCreate Events, oldest first (by name order of creation: firstTimestamp). */
function created(events: CoreV1Event[]): Array<[string, number]> {
  return events
    .filter((e) => e.reason === 'SuccessfulCreate')
    .map((e): [string, number] => [e.message ?? '', e.count ?? 0]);
}

test('scaling 0 → 30: 9 SuccessfulCreate Events as they are, one aggregate counting 16, 5 dropped', async () => {
  const cs = await applySeed(ctx.custom, ctx.namespace, (c) => {
    c.spec.replicas = 0;
  });
  const uid = cs.metadata.uid ?? '';
  await waitFor('the empty CloneSet observed', 60_000, async () => {
    const s = (await getCloneSet(ctx.custom, ctx.namespace)).status;
    return s?.observedGeneration === 1 ? s : undefined;
  });
  await patchCloneSet(ctx.custom, ctx.namespace, [{ op: 'replace', path: '/spec/replicas', value: 30 }]);
  const pods = await waitFor('30 pods', 90_000, async () => {
    const p = await activePods(ctx.core, ctx.namespace);
    return p.length === 30 ? p : undefined;
  });
  const total = (events: CoreV1Event[]): number => created(events).reduce((n, [, c]) => n + c, 0);
  await waitFor('25 SuccessfulCreate counted', 60_000, async () =>
    total(await eventsOf(ctx.core, ctx.namespace, uid)) >= 25 ? true : undefined,
  );
  // nothing more arrives: the last 5 were dropped, not late
  await sleep(5000);
  const events = await eventsOf(ctx.core, ctx.namespace, uid);
  const byCreation = [...events].sort(
    (a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion),
  );
  const rows = created(byCreation);
  process.stderr.write(`[event-correlation] ${rows.map(([m, c]) => `${c}× ${m}`).join('\n')}\n`);

  const podNames = new Set(pods.map((p) => p.metadata?.name ?? ''));
  const plain = rows.filter(([m]) => !m.startsWith(PREFIX));
  const aggregates = rows.filter(([m]) => m.startsWith(PREFIX));
  expect(rows).toHaveLength(10);
  expect(plain).toHaveLength(9);
  expect(plain.map(([, c]) => c)).toEqual(Array(9).fill(1));
  expect(aggregates).toHaveLength(1);
  expect(aggregates[0][1]).toBe(16);
  expect(total(events)).toBe(25);
  // each message names one of the created pods, no pod twice
  const named = rows.map(([m]) => [...podNames].find((n) => m.endsWith(` ${n}`)));
  expect(named.every((n) => n !== undefined)).toBe(true);
  expect(new Set(named).size).toBe(10);
  const aggregate = events.find((e) => e.message?.startsWith(PREFIX));
  expect(aggregate).toMatchObject({ type: 'Normal', source: { component: 'kruiseless' } });
  expect(events.filter((e) => e.reason !== 'SuccessfulCreate')).toEqual([]);
}, 240_000);
