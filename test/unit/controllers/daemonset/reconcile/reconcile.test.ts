/**
 * The Advanced DaemonSet reconcile invocation against the recording API server and the in-memory stores: the
 * ordered writes of OpenKruise's `syncDaemonSet` (revision → create expectations → pod creates → status → Events),
 * the pass after the pods appear, and the Node watch's mapping.
 */
import { silentLogger } from '../../../../../lib/core/logger.js';
import {
  reconcileDaemonSet,
  type DaemonSetReconcileDeps,
} from '../../../../../lib/controllers/daemonset/index.js';
import { daemonSetsForNode } from '../../../../../lib/controllers/daemonset/nodeWatch.js';
import { DAEMONSET_RESOURCE } from '../../../../../lib/controllers/daemonset/api/resource.js';
import type { DaemonSet } from '../../../../../lib/controllers/daemonset/api/types.js';
import { RESOURCES } from '../../../../../lib/kube/resources.js';
import type { ReconcileRequest, RequeueScheduler } from '../../../../../lib/requests/index.js';
import { createMemoryStores } from '../../../../../lib/state/index.js';
import {
  internalError,
  RecordingKube,
  recordingStores,
  type Journal,
} from '../../cloneset/reconcile/support/recordingKube.js';

const T0 = Date.parse('2024-05-01T08:00:00Z');
const REQUEST: ReconcileRequest = {
  version: 2,
  cluster: 'test',
  kind: 'apps.kruise.io/DaemonSet',
  namespace: 'default',
  name: 'agent',
  reason: 'ObjectChanged',
};
/** `ComputeHash` of the template below, by Go (test/unit/podset/revision/spew-golden's spewgen). */
const HASH = '5f7fb5cbc6';

function setup(nodeNames = ['n0', 'n1', 'n2']) {
  const journal: Journal = [];
  const clock = { now: T0 };
  const kube = new RecordingKube(journal, () => new Date(clock.now));
  const recorded = recordingStores(createMemoryStores(), journal, { expectations: true });
  const requeue: RequeueScheduler = {
    async requeueAfter(_r, seconds) {
      journal.push(`requeue ${seconds}s`);
    },
  };
  const sets = kube.objects(DAEMONSET_RESOURCE);
  const ds: DaemonSet = {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default', uid: 'ds-uid', generation: 1, resourceVersion: '1' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: {
          containers: [{ name: 'agent', image: 'nginx:1.25', resources: { requests: { cpu: '100m' } } }],
        },
      },
    },
  };
  sets.set('agent', ds);
  const nodes = kube.objects(RESOURCES.nodes);
  for (const name of nodeNames) nodes.set(name, { metadata: { name } });
  let n = 0;
  const deps = (options?: DaemonSetReconcileDeps['options']): DaemonSetReconcileDeps => ({
    ...(options ? { options } : {}),
    kube,
    ...recorded,
    requeue,
    log: silentLogger,
    holder: 'inv-1',
    clock: () => clock.now,
    sleep: async (ms) => {
      clock.now += ms;
    },
    deadlineMs: T0 + 600_000,
    leaseDurationMs: 120_000,
    maxInlineWaitSeconds: 10,
    maxPasses: 20,
    newSuffix: () => `abc0${n++}`,
  });
  return { journal, kube, clock, sets, deps };
}

/**
 * After `h`'s first pass: its DaemonSet deleted with `--cascade=orphan` (the garbage collector took its reference
 * off the pods and the revision) and created again with the same name and selector and a new UID (`ds-uid-2`); the
 * journal emptied.
 * @returns the set created again and the ControllerRevisions' store
 */
function orphanedAndCreatedAgain(h: ReturnType<typeof setup>) {
  for (const [name, p] of h.kube.pods)
    h.kube.pods.set(name, { ...p, metadata: { ...p.metadata, ownerReferences: [] } });
  const revisions = h.kube.objects(RESOURCES.controllerrevisions);
  for (const [name, r] of revisions)
    revisions.set(name, { ...r, metadata: { ...r.metadata, ownerReferences: [] } });
  const again = structuredClone(h.sets.get('agent')!);
  again.metadata = { ...again.metadata, uid: 'ds-uid-2', resourceVersion: '9' };
  delete again.status;
  h.sets.set('agent', again);
  h.journal.length = 0;
  return { again, revisions };
}
describe('reconcileDaemonSet', () => {
  test('a new DaemonSet: its revision, one pod per node in slow-start batches, status, Events; then observed', async () => {
    const h = setup();
    await reconcileDaemonSet(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      `create controllerrevision agent-${HASH}`,
      'expectations.put creates[agent-abc00]',
      'create pod agent-abc00',
      'event SuccessfulCreate: Created pod: agent-abc00',
      'expectations.put creates[agent-abc00,agent-abc01,agent-abc02]',
      'create pod agent-abc01',
      'create pod agent-abc02',
      'event SuccessfulCreate: Created pod: agent-abc01',
      'event SuccessfulCreate: Created pod: agent-abc02',
      // their KruisePodReady condition in the creating pass (issue 20), as OpenKruise's pod-readiness controller
      // writes it when the new pod appears
      'patch pod status agent-abc00',
      'patch pod status agent-abc01',
      'patch pod status agent-abc02',
      'replace daemonset status agent',
      // the next pass sees the pods: expectations observed, nothing left to patch, the generation
      'expectations.get',
      'expectations.put (none)',
      'replace daemonset status agent',
      'lease.release',
    ]);
    expect([...h.kube.pods.values()].map((p) => [p.metadata.name, p.status?.conditions])).toEqual(
      ['agent-abc00', 'agent-abc01', 'agent-abc02'].map((name) => [
        name,
        [{ type: 'KruisePodReady', status: 'True', lastTransitionTime: '2024-05-01T08:00:00Z' }],
      ]),
    );
    expect([...h.kube.pods.values()].map((p) => [p.metadata.name, p.metadata.labels])).toEqual([
      ['agent-abc00', { app: 'agent', 'controller-revision-hash': HASH }],
      ['agent-abc01', { app: 'agent', 'controller-revision-hash': HASH }],
      ['agent-abc02', { app: 'agent', 'controller-revision-hash': HASH }],
    ]);
    expect(h.sets.get('agent')?.status).toEqual({
      currentNumberScheduled: 3,
      numberMisscheduled: 0,
      desiredNumberScheduled: 3,
      numberReady: 0,
      updatedNumberScheduled: 3,
      numberUnavailable: 3,
      updateRevision: HASH,
      observedGeneration: 1,
    });
  });

  test('a failed create: the KruisePodReady condition of the pods made only, in the creating pass', async () => {
    const h = setup();
    h.kube.failOn((call) => (call === 'create pod agent-abc01' ? internalError(call) : undefined));
    await reconcileDaemonSet({ ...h.deps(), maxPasses: 1 }, REQUEST);
    expect(h.journal.filter((l) => /^(create pod|patch pod|event)/.test(l))).toEqual([
      'create pod agent-abc00',
      'event SuccessfulCreate: Created pod: agent-abc00',
      'create pod agent-abc01',
      'create pod agent-abc02',
      'event FailedCreate: Error creating: etcd is unavailable',
      'event SuccessfulCreate: Created pod: agent-abc02',
      'patch pod status agent-abc00',
      'patch pod status agent-abc02',
    ]);
    expect([...h.kube.pods.values()].map((p) => [p.metadata.name, p.status?.conditions?.[0]?.type])).toEqual([
      ['agent-abc00', 'KruisePodReady'],
      ['agent-abc02', 'KruisePodReady'],
    ]);
  });

  test('a pod that keeps failing on its node is replaced at most once per delay, the delay kept with the expectations', async () => {
    const h = setup(['n0']);
    await reconcileDaemonSet(h.deps(), REQUEST);
    const key = { cluster: 'test', kind: 'apps.kruise.io/DaemonSet', namespace: 'default', name: 'agent' };
    const fail = (name: string) => {
      const p = h.kube.pods.get(name);
      if (!p) throw new Error(`no pod ${name}`);
      h.kube.pods.set(name, { ...p, status: { ...p.status, phase: 'Failed' } });
    };
    const stores = h.deps().expectations;

    // the first failure: deleted at once with FailedDaemonPod, replaced; the node's 1 s delay stored first
    fail('agent-abc00');
    h.journal.length = 0;
    const t1 = h.clock.now;
    await reconcileDaemonSet(h.deps(), REQUEST);
    expect(h.journal.filter((l) => /^(delete pod|create pod|event FailedDaemonPod)/.test(l))).toEqual([
      'event FailedDaemonPod: Found failed daemon pod default/agent-abc00 on node n0, will try to kill it',
      'delete pod agent-abc00',
      'create pod agent-abc01',
    ]);
    expect((await stores.get(key)).backoffs).toEqual([{ key: '1/n0', delayMs: 1000, at: t1 }]);

    // its replacement fails within the delay: left as it is, no Event, the pass comes back after the delay (a
    // requeue here: no inline wait allowed)
    fail('agent-abc01');
    h.clock.now = t1 + 500;
    h.journal.length = 0;
    await reconcileDaemonSet({ ...h.deps(), maxInlineWaitSeconds: 0 }, REQUEST);
    expect(h.journal.filter((l) => /^(delete pod|create pod|event|requeue)/.test(l))).toEqual(['requeue 1s']);
    expect([...h.kube.pods.keys()]).toEqual(['agent-abc01']);

    // after it: deleted and replaced, the delay doubled
    h.clock.now = t1 + 1000;
    h.journal.length = 0;
    await reconcileDaemonSet(h.deps(), REQUEST);
    expect(h.journal.filter((l) => /^(delete pod|create pod)/.test(l))).toEqual([
      'delete pod agent-abc01',
      'create pod agent-abc02',
    ]);
    expect((await stores.get(key)).backoffs).toEqual([{ key: '1/n0', delayMs: 2000, at: t1 + 1000 }]);
  });

  test('a DaemonSet created again under the name of one whose creates were never seen does not wait for them', async () => {
    const h = setup();
    // the first DaemonSet's pass records three creates and makes the pods; no pass sees them before it is deleted
    // (in the background: the garbage collector takes its pods and revision) and created again with a new UID
    await reconcileDaemonSet({ ...h.deps(), maxPasses: 1 }, REQUEST);
    const key = { cluster: 'test', kind: 'apps.kruise.io/DaemonSet', namespace: 'default', name: 'agent' };
    const stores = h.deps().expectations;
    expect((await stores.get(key)).creates.map((c) => c.name)).toEqual([
      'agent-abc00',
      'agent-abc01',
      'agent-abc02',
    ]);
    h.kube.pods.clear();
    h.kube.objects(RESOURCES.controllerrevisions).clear();
    const again = structuredClone(h.sets.get('agent')!);
    again.metadata = { ...again.metadata, uid: 'ds-uid-2', resourceVersion: '9' };
    delete again.status;
    h.sets.set('agent', again);
    h.journal.length = 0;

    await reconcileDaemonSet({ ...h.deps(), maxPasses: 1 }, REQUEST);
    // before: the new set's pass waited for the old set's three creates (`requeue 2s`, no write) until they timed
    // out after 5 minutes; now they are another object's and it makes its own pods at once
    expect(h.journal.filter((l) => /^(create|requeue|expectations\.put)/.test(l))).toEqual([
      `create controllerrevision agent-${HASH}`,
      'expectations.put creates[agent-abc03]',
      'create pod agent-abc03',
      'expectations.put creates[agent-abc03,agent-abc04,agent-abc05]',
      'create pod agent-abc04',
      'create pod agent-abc05',
      'requeue 1s',
    ]);
    expect(await stores.get(key)).toMatchObject({ ownerUid: 'ds-uid-2' });
  });

  test('a DaemonSet created again over the orphans of one deleted with --cascade=orphan adopts its pods and revision', async () => {
    const h = setup();
    await reconcileDaemonSet(h.deps(), REQUEST);
    const { revisions } = orphanedAndCreatedAgain(h);
    // and a pod of another controller, selected too, left alone
    h.kube.pods.set('other', {
      metadata: {
        name: 'other',
        namespace: 'default',
        uid: 'uid-other',
        labels: { app: 'agent' },
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid', controller: true },
        ],
      },
      spec: { containers: [{ name: 'c', image: 'busybox' }], nodeName: 'n0' },
    });

    await reconcileDaemonSet(h.deps(), REQUEST);
    const writes = h.journal.filter((l) => /^(create|patch pod |replace controllerrevision|delete)/.test(l));
    expect(writes).toEqual([
      'patch pod agent-abc00',
      'patch pod agent-abc01',
      'patch pod agent-abc02',
      `replace controllerrevision agent-${HASH}`,
    ]);
    const ref = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'DaemonSet',
      name: 'agent',
      uid: 'ds-uid-2',
      controller: true,
      blockOwnerDeletion: true,
    };
    for (const name of ['agent-abc00', 'agent-abc01', 'agent-abc02'])
      expect(h.kube.pods.get(name)?.metadata.ownerReferences).toEqual([ref]);
    expect(h.kube.pods.get('other')?.metadata.ownerReferences?.[0]?.uid).toBe('rs-uid');
    expect(revisions.get(`agent-${HASH}`)?.metadata.ownerReferences).toEqual([ref]);
    expect(h.sets.get('agent')?.status).toMatchObject({
      desiredNumberScheduled: 3,
      currentNumberScheduled: 3,
      updatedNumberScheduled: 3,
    });
  });

  test('deleted with --cascade=orphan between the pass reading it and its pods: nothing adopted (the recheck)', async () => {
    const h = setup();
    await reconcileDaemonSet(h.deps(), REQUEST);
    // the garbage collector has orphaned the pods and the revision of a DaemonSet created again (new UID)...
    const { again, revisions } = orphanedAndCreatedAgain(h);
    // ...and that one is deleted with --cascade=orphan once the pass has read it, before it lists the pods (a fault
    // that fails nothing: it sees each call before it runs)
    let deleted = false;
    h.kube.failOn((call) => {
      if (!deleted && call === 'list pods') {
        deleted = true;
        const deletionTimestamp = new Date(T0).toISOString();
        h.sets.set('agent', { ...again, metadata: { ...again.metadata, deletionTimestamp } });
      }
      return undefined;
    });

    await reconcileDaemonSet(h.deps(), REQUEST);
    expect(deleted).toBe(true);
    // before the recheck the pass adopted all three pods and the revision for the set being deleted: the garbage
    // collector would then delete them (the integration test's orphans vanished under load)
    expect(h.journal.filter((l) => /^(patch pod |replace controllerrevision)/.test(l))).toEqual([]);
    for (const name of ['agent-abc00', 'agent-abc01', 'agent-abc02'])
      expect(h.kube.pods.get(name)?.metadata.ownerReferences).toEqual([]);
    expect(revisions.get(`agent-${HASH}`)?.metadata.ownerReferences).toEqual([]);
    // nor planned from that read: before, the pass saw three nodes without a pod and created three for the set
    // being deleted (the garbage collector removed them unseen, and their create expectations held the set created
    // again after it for 5 minutes: the integration test's flake, 2026-12-07)
    expect(h.journal.filter((l) => /^(create|delete|replace daemonset)/.test(l))).toEqual([]);
    expect([...h.kube.pods.keys()]).toEqual(['agent-abc00', 'agent-abc01', 'agent-abc02']);
  });

  test('a second revision recording the template, numbered higher: pods relabelled to it, then the first deleted', async () => {
    const h = setup();
    await reconcileDaemonSet(h.deps(), REQUEST);
    const revisions = h.kube.objects(RESOURCES.controllerrevisions);
    const first = revisions.get(`agent-${HASH}`)!;
    revisions.set('agent-dup', {
      ...structuredClone(first),
      metadata: {
        ...structuredClone(first.metadata),
        name: 'agent-dup',
        labels: { app: 'agent', 'controller-revision-hash': 'dup' },
      },
      revision: 2,
    });
    h.journal.length = 0;

    await reconcileDaemonSet(h.deps(), REQUEST);
    expect(h.journal.filter((l) => /^(create|patch|replace controllerrevision|delete)/.test(l))).toEqual([
      'patch pod agent-abc00',
      'patch pod agent-abc01',
      'patch pod agent-abc02',
      `delete controllerrevision agent-${HASH}`,
    ]);
    expect([...h.kube.pods.values()].map((p) => p.metadata.labels)).toEqual([
      { app: 'agent', 'controller-revision-hash': 'dup' },
      { app: 'agent', 'controller-revision-hash': 'dup' },
      { app: 'agent', 'controller-revision-hash': 'dup' },
    ]);
    expect([...revisions.keys()]).toEqual(['agent-dup']);
    expect(h.sets.get('agent')?.status).toMatchObject({ updatedNumberScheduled: 3, updateRevision: 'dup' });
  });

  test('a selector changed so its template no longer matches: FailedValidation, its pods kept, none released or made', async () => {
    const h = setup(['n0']);
    await reconcileDaemonSet(h.deps(), REQUEST);
    const ds = h.sets.get('agent')!;
    ds.spec.selector = { matchLabels: { app: 'other' } };
    ds.metadata.generation = 2;
    h.journal.length = 0;
    await reconcileDaemonSet(h.deps(), REQUEST);
    await reconcileDaemonSet(h.deps(), REQUEST);
    expect([...h.kube.pods.keys()]).toEqual(['agent-abc00']);
    const message =
      'DaemonSet is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"agent"}: `selector` does not match template `labels`';
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'replace daemonset status agent',
      `event FailedValidation: ${message}`,
      'lease.release',
      // the second invocation: the condition already says it, nothing written
      'lease.acquire',
      'expectations.get',
      'lease.release',
    ]);
    expect(h.sets.get('agent')?.status?.conditions).toEqual([
      {
        type: 'FailedValidation',
        status: 'True',
        lastTransitionTime: '2024-05-01T08:00:00Z',
        reason: 'InvalidSpec',
        message,
      },
    ]);
  });

  test("a DaemonSet OpenKruise's webhook would refuse creates nothing until it is fixed; then its condition goes", async () => {
    const h = setup(['n0']);
    const ds = h.sets.get('agent')!;
    ds.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' } };
    await reconcileDaemonSet(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'replace daemonset status agent',
      'event FailedValidation: DaemonSet is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
      'lease.release',
    ]);
    // every count the CRD requires (updatedNumberScheduled among them), at 0, and the condition
    expect(h.sets.get('agent')?.status).toEqual({
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
      updatedNumberScheduled: 0,
      conditions: [expect.objectContaining({ type: 'FailedValidation', reason: 'InvalidSpec' })],
    });
    h.sets.get('agent')!.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 1 },
    };
    await reconcileDaemonSet(h.deps(), REQUEST);
    expect([...h.kube.pods.keys()]).toEqual(['agent-abc00']);
    expect(h.sets.get('agent')?.status?.conditions).toBeUndefined();
  });

  test('the Node watch names a DaemonSet only where the node disagrees with it, and every one for a node gone', async () => {
    const h = setup(['n0', 'n1']);
    await reconcileDaemonSet(h.deps(), REQUEST);
    const reads = { cluster: 'test', kube: h.kube };
    const nodes = h.kube.objects(RESOURCES.nodes);
    const mapped = async (name: string) => daemonSetsForNode({ metadata: { name } }, reads);
    const AGENT = [{ namespace: 'default', name: 'agent' }];
    // bind the pods as kube-scheduler would (the recording server leaves them unbound)
    for (const [name, p] of h.kube.pods)
      h.kube.pods.set(name, { ...p, spec: { ...p.spec, nodeName: `n${name.slice(-1)}` } });

    // a heartbeat: the node should run the pod and has it
    expect(await mapped('n0')).toEqual([]);
    // a node whose pod is gone, and a new node without one
    h.kube.pods.delete('agent-abc01');
    expect(await mapped('n1')).toEqual(AGENT);
    nodes.set('n2', { metadata: { name: 'n2' } });
    expect(await mapped('n2')).toEqual(AGENT);
    // a node tainted NoExecute that the pod does not tolerate, its pod still there
    nodes.set('n0', { metadata: { name: 'n0' }, spec: { taints: [{ key: 'drain', effect: 'NoExecute' }] } });
    expect(await mapped('n0')).toEqual(AGENT);
    // a node that no longer exists: every DaemonSet, as upstream's deleteNode
    expect(await mapped('n9')).toEqual(AGENT);
    // no DaemonSet: nothing
    h.sets.delete('agent');
    expect(await mapped('n9')).toEqual([]);
  });

  test('the Node watch names a DaemonSet when a node labelled into its rolling-update selector has an old pod', async () => {
    const h = setup(['n0', 'n1']);
    await reconcileDaemonSet(h.deps(), REQUEST);
    const reads = { cluster: 'test', kube: h.kube };
    const nodes = h.kube.objects(RESOURCES.nodes);
    const mapped = async (name: string) => daemonSetsForNode({ metadata: { name } }, reads);
    const AGENT = [{ namespace: 'default', name: 'agent' }];
    for (const [name, p] of h.kube.pods)
      h.kube.pods.set(name, { ...p, spec: { ...p.spec, nodeName: `n${name.slice(-1)}` } });
    // a canary selector, and a template change: every pod is now at an old revision
    const ds = h.sets.get('agent') as DaemonSet;
    h.sets.set('agent', {
      ...ds,
      spec: {
        ...ds.spec,
        updateStrategy: {
          type: 'RollingUpdate',
          rollingUpdate: { maxUnavailable: 1, selector: { matchLabels: { canary: 'true' } } },
        },
      },
      status: { ...ds.status, desiredNumberScheduled: 2, updateRevision: 'newhash' },
    });
    // outside the selector: nothing to do there
    expect(await mapped('n0')).toEqual([]);
    // labelled into it (upstream: NodeShouldUpdateBySelector changed): the old pod there may now be updated
    nodes.set('n0', { metadata: { name: 'n0', labels: { canary: 'true' } } });
    expect(await mapped('n0')).toEqual(AGENT);
    // once its pod is at the update revision, the node's heartbeats name nothing
    for (const [name, p] of h.kube.pods)
      if (p.spec?.nodeName === 'n0')
        h.kube.pods.set(name, {
          ...p,
          metadata: {
            ...p.metadata,
            labels: { ...p.metadata.labels, 'controller-revision-hash': 'newhash' },
          },
        });
    expect(await mapped('n0')).toEqual([]);
  });
});

describe('reconcileDaemonSet: image pre-download (gates PreDownloadImageForDaemonSetUpdate, KruiseDaemon)', () => {
  const ON = { preDownloadImageForDaemonSetUpdate: true };
  /** `agent` on three nodes, all pods at the first revision and Ready, maxUnavailable 1; then the image changed. */
  async function rolled(options: DaemonSetReconcileDeps['options'], serve = true) {
    const h = setup();
    if (serve) h.kube.serve(RESOURCES.imagepulljobs);
    for (let i = 0; i < 2; i++) {
      await reconcileDaemonSet(h.deps(options), REQUEST);
      h.kube.kubelet();
      h.clock.now += 1000;
    }
    const ds = h.sets.get('agent')!;
    ds.metadata.annotations = { 'apps.kruise.io/image-predownload-parallelism': '2' };
    ds.spec.template.spec.containers[0].image = 'nginx:1.26';
    ds.metadata.generation = 2;
    h.journal.length = 0;
    await reconcileDaemonSet(h.deps(options), REQUEST);
    return h;
  }

  test("a new revision: an ImagePullJob per changed image on the old pods' nodes, the revision labelled, before the pods", async () => {
    const h = await rolled(ON);
    const update = [...h.kube.objects(RESOURCES.controllerrevisions).values()].find(
      (r) => r.metadata.labels?.['apps.kruise.io/pre-predownload-created'] === 'true',
    );
    const name = update?.metadata.name ?? '';
    expect(name).toMatch(/^agent-[0-9a-z]+$/);
    const writes = h.journal.filter((l) => /^(create|patch|delete|event) /.test(l));
    expect(writes.slice(0, 4)).toEqual([
      `create controllerrevision ${name}`,
      `create imagepulljob ${name}-agent`,
      `patch controllerrevision ${name} {"metadata":{"labels":{"apps.kruise.io/pre-predownload-created":"true"}}}`,
      `event CreatedImagePullJob: created ImagePullJob ${name}-agent for image: nginx:1.26`,
    ]);
    // the pod writes of the rolling update come after
    expect(writes[4]).toMatch(/^(create|delete) pod agent-abc\d+$/);
    const [job] = [...h.kube.objects(RESOURCES.imagepulljobs).values()];
    expect(job?.spec).toMatchObject({
      image: 'nginx:1.26',
      parallelism: 2,
      // DaemonSet revisions carry no controller.kubernetes.io/hash label: upstream's selector names an empty hash
      podSelector: {
        matchLabels: { app: 'agent' },
        matchExpressions: [{ key: 'controller-revision-hash', operator: 'NotIn', values: [name, ''] }],
      },
    });
    expect(job?.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'DaemonSet',
      name: 'agent',
      uid: 'ds-uid',
    });
  });

  test('partition 0 with maxUnavailable covering every node: the revision labelled ignored, no job', async () => {
    const h = setup();
    h.kube.serve(RESOURCES.imagepulljobs);
    h.sets.get('agent')!.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '100%' },
    };
    for (let i = 0; i < 2; i++) {
      await reconcileDaemonSet(h.deps(ON), REQUEST);
      h.kube.kubelet();
    }
    const ds = h.sets.get('agent')!;
    ds.spec.template.spec.containers[0].image = 'nginx:1.26';
    h.journal.length = 0;
    await reconcileDaemonSet(h.deps(ON), REQUEST);
    expect(h.journal.filter((l) => /imagepulljob|predownload/.test(l))).toEqual([
      expect.stringMatching(
        /^patch controllerrevision agent-[0-9a-z]+ .*"apps.kruise.io\/image-predownload-ignored":"true"/,
      ),
    ]);
  });

  test('without the gate, with KruiseDaemon off, or without the resource: no ImagePullJob read or written', async () => {
    for (const [options, serve] of [
      [{}, true],
      [{ ...ON, kruiseDaemon: false }, true],
      [ON, false],
    ] as const) {
      const h = await rolled(options, serve);
      expect(h.journal.filter((l) => /imagepulljob|patch controllerrevision/.test(l))).toEqual([]);
    }
  });
});
