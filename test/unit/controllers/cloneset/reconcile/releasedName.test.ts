/**
 * Review finding 2: a released pod still holds the name its replacement is given. With a volumeClaimTemplate the
 * released pod's PVC stays the CloneSet's and free (no claimed pod uses its instance id), so the replacement takes
 * that id (OpenKruise's `getOrGenAvailableIDs` takes free PVC ids first) and its name `<cs>-<id>` — which the
 * released pod holds. OpenKruise's `createOnePod` records FailedCreate and returns the error: `createPods` rolls
 * its create expectation back and `syncCloneSet` sets FailedScale; the rate limiter backs off, and as the PVC stays
 * free, the next attempt meets the same name (OpenKruise does not skip a taken name either). The same here: an
 * AlreadyExists is our own earlier create only when the object that holds the name is controlled by this CloneSet.
 */
import { failedCreateMessage } from './support/failedCreate.js';
import { reconcileCloneSet } from '../../../../../lib/controllers/cloneset/index.js';
import type { ReconcileOutcome } from '../../../../../lib/reconcile/reconcile.js';
import { CapturingLogger } from '../../../support/capturingLogger.js';
import { harness, REQUEST, seedCloneSet, type Harness } from './support/harness.js';

const KEY = {
  cluster: REQUEST.cluster,
  kind: REQUEST.kind,
  namespace: REQUEST.namespace,
  name: REQUEST.name,
};
const POD = 'cs-no-pvc-sample-aaaaa';
const PVC = 'data-cs-no-pvc-sample-aaaaa';
const ALREADY_EXISTS = `create pod ${POD}: 409 AlreadyExists: pods "${POD}" already exists`;

/** One replica with a PVC, settled; then the user takes its pod out of service by relabelling it. */
async function relabelled(): Promise<Harness> {
  const h = harness();
  const cs = seedCloneSet();
  cs.spec.replicas = 1;
  cs.spec.volumeClaimTemplates = [
    {
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    },
  ];
  h.kube.apply(cs);
  await reconcileCloneSet(h.deps(), REQUEST);
  h.kube.kubelet();
  h.clock.now += 30_000;
  expect([[...h.kube.pods.keys()], [...h.kube.pvcs.keys()]]).toEqual([[POD], [PVC]]);
  const pod = h.kube.pods.get(POD)!;
  pod.metadata.labels = { ...pod.metadata.labels, app: 'debugging' };
  h.journal.length = 0;
  h.kube.events.length = 0;
  return h;
}

function invoke(h: Harness, n: number, log: CapturingLogger): Promise<ReconcileOutcome> {
  return reconcileCloneSet(h.deps({ holder: `inv-${n}`, deadlineMs: h.clock.now + 60_000, log }), {
    ...REQUEST,
    reason: 'OwnedObjectChanged',
  });
}

describe('AlreadyExists for the name a released pod holds (finding 2)', () => {
  test('three invocations: the pod released once, then each create is a FailedCreate (never counted as ours), no create expectation left pending, failures 1, 2, 3', async () => {
    const h = await relabelled();
    const log = new CapturingLogger();
    const seen: unknown[] = [];
    for (let n = 1; n <= 3; n++) {
      const out = await invoke(h, n, log);
      const pending = await h.stores.expectations.get(KEY);
      seen.push([out.failures, out.requeuedAfterSeconds, out.error, pending.creates]);
      h.clock.now += (out.requeuedAfterSeconds ?? 0) * 1000;
    }
    expect(seen).toEqual([1, 2, 3].map((n) => [n, 2 ** (n - 1), ALREADY_EXISTS, []]));
    expect(log.lines.filter((l) => String(l.message).includes('counted as ours'))).toEqual([]);
    expect(h.kube.events.map((e) => [e.reason, e.message])).toEqual(
      [1, 2, 3].map(() => ['FailedCreate', failedCreateMessage(`pods "${POD}" already exists`, POD)]),
    );
    expect(h.journal.filter((l) => l.startsWith('patch pod') || l.startsWith('create pod'))).toEqual([
      `patch pod ${POD}`, // released (its owner reference removed)
      `create pod ${POD}`,
      `create pod ${POD}`,
      `create pod ${POD}`,
    ]);
    const released = h.kube.pods.get(POD)!;
    expect([released.metadata.labels?.app, released.metadata.ownerReferences ?? []]).toEqual([
      'debugging',
      [],
    ]);
    const conditions = h.kube.cloneSets.get(REQUEST.name)?.status?.conditions ?? [];
    expect(conditions.map((c) => [c.type, c.message])).toEqual([
      ['FailedScale', `pods "${POD}" already exists`],
    ]);
  });

  test('a foreign pod of that name (controlled by someone else) is no create of ours either', async () => {
    const h = await relabelled();
    const log = new CapturingLogger();
    await invoke(h, 1, log);
    h.kube.pods.get(POD)!.metadata.ownerReferences = [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'other', uid: 'rs-uid', controller: true },
    ];
    h.clock.now += 1000;
    const out = await invoke(h, 2, log);
    expect([out.failures, out.error]).toEqual([2, ALREADY_EXISTS]);
    expect((await h.stores.expectations.get(KEY)).creates).toEqual([]);
  });
});
