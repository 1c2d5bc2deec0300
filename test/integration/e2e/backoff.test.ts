/**
 * A write that keeps failing, on the real control plane through the whole pipeline (docs/reliability.md#backoff):
 * a 1-replica CloneSet with a volumeClaimTemplates entry whose pod is evicted (status phase Failed, reason
 * Evicted). The pod no longer counts, so the CloneSet is one short; the planner reuses the instance id of the
 * surviving PVC, whose pod name is still taken by the evicted pod, so every create fails with AlreadyExists for as
 * long as that pod exists. Expected: the same outcome (still one short, a FailedCreate Warning) at a backed-off
 * rate — creates retried after 1, 2, 4, 8, 16, 32 s (the default schedule) — and a FailedCreate Event per attempt:
 * the message dumps the pod as OpenKruise's does, and the pod's lifecycle timestamp (whole seconds) differs from one
 * attempt to the next, so client-go's EventCorrelator folds only attempts within one second into a counted Event.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { PatchStrategy, setHeaderOptions, type CoreV1Event } from '@kubernetes/client-node';
import type { Embedded } from '../../../lib/local/embedded.js';
import { DEFAULT_BACKOFF, backoffSeconds } from '../../../lib/reconcile/backoff.js';
import { difference, snapshot } from '../../../lib/runtime/counting.js';
import { useTestNamespace } from '../support/cluster.js';
import {
  SEED_NAME,
  activePods,
  applySeed,
  eventsOf,
  getCloneSet,
  startPipeline,
} from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('e2e-backoff');
let embedded: Embedded;
const STEP_TIMEOUT_MS = 150_000;
/** How long the failing creates are watched, ms. */
const OBSERVE_MS = 45_000;

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace);
}, 30_000);

afterAll(async () => {
  await embedded?.stop();
});

/**
 * Most create attempts the default schedule allows in `ms` after the first failure: one at 0, then one after each
 * backoff delay that still ends inside the window; +1 for the attempt whose failure started the window being
 * counted inside it. Retries triggered by the pod or CloneSet changing are not expected here (nothing changes).
 */
function maxAttempts(ms: number): number {
  let attempts = 1;
  let t = 0;
  for (let failures = 1; ; failures++) {
    t += backoffSeconds(failures, DEFAULT_BACKOFF) * 1000;
    if (t > ms) return attempts + 1;
    attempts++;
  }
}

test(
  'an evicted pod whose name is reused: creates back off, each refused create a FailedCreate Warning with the pod',
  async () => {
    const created = await applySeed(ctx.custom, ctx.namespace, (cs) => {
      cs.spec.replicas = 1;
      cs.spec.volumeClaimTemplates = [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ];
    });
    const uid = created.metadata.uid ?? '';
    // the PVC stays Pending (the local control plane has no provisioner), so the pod is never scheduled: enough
    // for an eviction, which only needs the pod to exist
    const [pod] = await waitFor('the pod and its PVC', 60_000, async () => {
      const pods = await activePods(ctx.core, ctx.namespace);
      const pvcs = (await ctx.core.listNamespacedPersistentVolumeClaim({ namespace: ctx.namespace })).items;
      return pods.length === 1 && pvcs.length === 1 ? pods : undefined;
    });
    const podName = pod.metadata.name ?? '';

    const c0 = snapshot(embedded.counts);
    const started = Date.now();
    // every state the FailedCreate Event passes through (polled), printed with the counts: a count above this
    // pipeline's own recordEvent calls then shows when, and by how much, it moved
    const history: string[] = [];
    let polling = true;
    const poll = (async () => {
      let last = '';
      while (polling) {
        const e = (await eventsOf(ctx.core, ctx.namespace, uid)).find((x) => x.reason === 'FailedCreate');
        const calls = difference(c0, embedded.counts).kube;
        const managers = (e?.metadata.managedFields ?? []).map((m) => m.manager).join(',');
        const now = e ? `count ${e.count} rv ${e.metadata.resourceVersion} by ${managers}` : 'none';
        if (now !== last)
          history.push(
            `${((Date.now() - started) / 1000).toFixed(1)}s creates ${calls['create pods'] ?? 0} records ${calls['recordEvent clonesets'] ?? 0}: ${now}`,
          );
        last = now;
        await sleep(500);
      }
    })();
    await ctx.core.patchNamespacedPodStatus(
      {
        namespace: ctx.namespace,
        name: podName,
        body: { status: { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource' } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await sleep(OBSERVE_MS - (Date.now() - started));
    // the Events first, then the calls: every FailedCreate follows its create, so a create made between the two
    // reads can only raise `creates` (read in the other order, a create and its Event in between made the Event's
    // count exceed the creates counted)
    const failed: CoreV1Event[] = (await eventsOf(ctx.core, ctx.namespace, uid)).filter(
      (e) => e.reason === 'FailedCreate',
    );
    const calls = difference(c0, embedded.counts).kube;
    polling = false;
    await poll;
    process.stderr.write(`[backoff] history:\n  ${history.join('\n  ')}\n`);
    const creates = calls['create pods'] ?? 0;
    process.stderr.write(
      `[backoff] ${OBSERVE_MS / 1000}s: create pods ${creates}, recordEvent clonesets ${calls['recordEvent clonesets'] ?? 0}, ` +
        `FailedCreate objects ${failed.length}, counts [${failed.map((e) => e.count).join(',')}]\n`,
    );

    // the outcome is unchanged: still one short, the evicted pod kept, the failure reported
    const cs = await getCloneSet(ctx.custom, ctx.namespace);
    expect(cs.status?.replicas).toBe(0);
    expect((await activePods(ctx.core, ctx.namespace)).map((p) => p.metadata.name)).toEqual([podName]);
    // a Warning per attempt, each naming the taken pod name and dumping the pod (OpenKruise's `failed to create
    // pod: <error>, pod: <JSON>`); the attempts recorded are at least two and no more than the creates made
    expect(failed.length).toBeGreaterThanOrEqual(2);
    for (const event of failed) {
      expect(event.type).toBe('Warning');
      expect(event.message).toMatch(
        new RegExp(
          `^failed to create pod: pods "${podName}" already exists, .*, pod: \\{"apiVersion":"v1","kind":"Pod",`,
        ),
      );
      expect(event.source?.component).toBe('kruiseless');
      expect(event.reportingComponent).toBe('kruiseless');
    }
    const recorded = failed.reduce((n, e) => n + (e.count ?? 1), 0);
    expect(recorded).toBeLessThanOrEqual(creates);
    // backed off: at least the first retries, at most what the schedule allows in the window
    expect(creates).toBeGreaterThanOrEqual(3);
    expect(creates).toBeLessThanOrEqual(maxAttempts(OBSERVE_MS));
    expect(SEED_NAME).toBe(cs.metadata.name);
  },
  STEP_TIMEOUT_MS,
);
