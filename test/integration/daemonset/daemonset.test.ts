/**
 * Advanced DaemonSet through the whole pipeline on the local control plane (issue 20), on two fake kwok nodes of
 * this file's own (labelled and tainted with its namespace, so no other file's pods land there and this DaemonSet
 * selects only them): one pod per node, bound there by kube-scheduler and made Ready by kwok, with the status
 * counting them; a node relabelled out of the selector loses its pod (the Node watch names the DaemonSet: its
 * verdict for the node no longer matches the pod on it); a pod that fails is deleted with a `FailedDaemonPod` Warning
 * and replaced, and the node's failed-pod delay (1 s, then 2 s) is kept with the DaemonSet's expectations in the
 * state table; then the DaemonSet deleted with `--cascade=orphan` and created again adopts the pods and revision it
 * finds; an invalid one gets FailedValidation and no pod; read as v1alpha1 through Kruiseless's `/convert` (the CRD
 * stays pointed at that stopped server afterwards, as `kruiseless local` leaves it: only v1alpha1 reads need it, and
 * no other file makes one). Asserted from API objects and the state store only.
 */
import type { Embedded } from '../../../lib/local/embedded.js';
import type { Pod } from '../../../lib/api/types.js';
import type { DaemonSet } from '../../../lib/controllers/daemonset/api/types.js';
import { AppsV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { daemonSetConverter } from '../../../lib/controllers/daemonset/api/conversion.js';
import { createKubeClient } from '../../../lib/kube/index.js';
import { pointCrdsAtConverter, startConversionServer } from '../../../lib/local/conversionServer.js';
import { useTestNamespace } from '../support/cluster.js';
import { E2E_CLUSTER, startPipeline } from '../support/pipeline.js';
import { agentDaemonSet, createFileNodes, deleteNodes, DS_API, getDaemonSet } from '../support/daemonset.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('ads');
const LABEL = 'kruiseless.io/ds-test';
let embedded: Embedded;
let nodes: string[] = [];

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace);
  nodes = await createFileNodes(ctx.core, 'kwok-ads', LABEL, ctx.namespace);
}, 30_000);

afterAll(async () => {
  await embedded?.stop();
  await deleteNodes(ctx.core, nodes);
});

const getSet = (): Promise<DaemonSet> => getDaemonSet(ctx.custom, ctx.namespace);

async function livePods(): Promise<Pod[]> {
  return ((await ctx.core.listNamespacedPod({ namespace: ctx.namespace })).items as unknown as Pod[]).filter(
    (p) => !p.metadata.deletionTimestamp,
  );
}

const podOn = async (node: string) => (await livePods()).find((p) => p.spec.nodeName === node);

async function failedDaemonPodEvents(): Promise<string[]> {
  return (await ctx.core.listNamespacedEvent({ namespace: ctx.namespace })).items
    .filter((e) => e.reason === 'FailedDaemonPod')
    .map((e) => `${e.type} ${e.message} ×${e.count}`);
}

describe('Advanced DaemonSet on the local control plane', () => {
  test('one pod per node, a node leaving the selector loses its pod, a failing pod is replaced under its node delay', async () => {
    const ds = agentDaemonSet(ctx.namespace, LABEL);
    await ctx.custom.createNamespacedCustomObject({ ...DS_API, namespace: ctx.namespace, body: ds });
    const uid = (await getSet()).metadata.uid ?? '';

    // one Ready pod per node, counted
    const ready = await waitFor('2 pods scheduled and ready', 120_000, async () => {
      const s = (await getSet()).status;
      return s?.desiredNumberScheduled === 2 && s.numberReady === 2 && s.observedGeneration === 1
        ? s
        : undefined;
    });
    expect(ready).toMatchObject({
      currentNumberScheduled: 2,
      numberMisscheduled: 0,
      desiredNumberScheduled: 2,
      numberReady: 2,
      updatedNumberScheduled: 2,
    });
    const pods = await livePods();
    expect(pods.map((p) => p.spec.nodeName).sort()).toEqual(nodes);
    for (const p of pods) {
      expect(p.metadata.generateName).toBe('agent-');
      expect(p.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'DaemonSet', uid, controller: true });
    }

    // node b leaves the selector: the Node watch names the DaemonSet, which deletes its pod there
    await ctx.core.patchNode(
      { name: nodes[1], body: { metadata: { labels: { [LABEL]: 'elsewhere' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    // the pod is deleted (terminating first: until it is gone a pass still counts it misscheduled), then the status
    // settles on one node
    const shrunk = await waitFor(
      'the pod on node b gone, the status settled on one node',
      60_000,
      async () => {
        const s = (await getSet()).status;
        const onB = (await ctx.core.listNamespacedPod({ namespace: ctx.namespace })).items.some(
          (p) => p.spec?.nodeName === nodes[1],
        );
        return !onB && s?.desiredNumberScheduled === 1 && s.numberMisscheduled === 0 ? s : undefined;
      },
    );
    expect(shrunk).toMatchObject({
      currentNumberScheduled: 1,
      numberMisscheduled: 0,
      desiredNumberScheduled: 1,
    });

    // the pod on node a fails: FailedDaemonPod, deleted, replaced; the node's delay of 1 s stored
    const key = {
      cluster: E2E_CLUSTER,
      kind: 'apps.kruise.io/DaemonSet',
      namespace: ctx.namespace,
      name: 'agent',
    };
    const fail = async (pod: Pod) =>
      ctx.core.patchNamespacedPodStatus(
        {
          namespace: ctx.namespace,
          name: pod.metadata.name ?? '',
          body: {
            status: { phase: 'Failed', reason: 'UnexpectedAdmissionError', message: 'rejected by the test' },
          },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    const first = await podOn(nodes[0]);
    if (!first) throw new Error('no pod on node a');
    await fail(first);
    const second = await waitFor('a replacement on node a', 60_000, async () => {
      const p = await podOn(nodes[0]);
      return p && p.metadata.uid !== first.metadata.uid ? p : undefined;
    });
    const stored = await embedded.runtime.stores.expectations.get(key);
    expect(stored.backoffs?.map((b) => [b.key, b.delayMs])).toEqual([[`1/${nodes[0]}`, 1000]]);
    expect(await failedDaemonPodEvents()).toEqual([
      `Warning Found failed daemon pod ${ctx.namespace}/${first.metadata.name} on node ${nodes[0]}, will try to kill it ×1`,
    ]);

    // its replacement fails too: replaced again once the delay has passed, the delay doubled
    await fail(second);
    await waitFor('a second replacement on node a', 60_000, async () => {
      const p = await podOn(nodes[0]);
      return p && p.metadata.uid !== second.metadata.uid ? p : undefined;
    });
    const again = await embedded.runtime.stores.expectations.get(key);
    expect(again.backoffs?.map((b) => [b.key, b.delayMs])).toEqual([[`1/${nodes[0]}`, 2000]]);
    const [before] = stored.backoffs ?? [];
    const [after] = again.backoffs ?? [];
    expect(after.at - before.at).toBeGreaterThanOrEqual(1000);
    expect(await failedDaemonPodEvents()).toHaveLength(2);
  }, 300_000);

  test('deleted with --cascade=orphan and created again: the new DaemonSet adopts the pods and revision it finds', async () => {
    const before = await livePods();
    expect(before.length).toBeGreaterThan(0);
    const revisionsBefore = (
      await ctx.kc.makeApiClient(AppsV1Api).listNamespacedControllerRevision({ namespace: ctx.namespace })
    ).items.map((r) => r.metadata?.name);
    const spec = (await getSet()).spec;
    await ctx.custom.deleteNamespacedCustomObject({
      ...DS_API,
      namespace: ctx.namespace,
      name: 'agent',
      propagationPolicy: 'Orphan',
    });
    // the pods and the revision both: orphaned in no set order, and a revision still owned by the deleted set is
    // not adoptable, so the new set would make its own (a hash collision, then a rolling update of one pod)
    await waitFor('the garbage collector orphans the pods and the revision', 60_000, async () => {
      const pods = await livePods();
      const revisions = (
        await ctx.kc.makeApiClient(AppsV1Api).listNamespacedControllerRevision({ namespace: ctx.namespace })
      ).items;
      if (
        pods.length === before.length &&
        pods.every((p) => !p.metadata.ownerReferences?.length) &&
        revisions.every((r) => !r.metadata?.ownerReferences?.length)
      )
        return pods;
      // not yet: what is still in the way, for the timeout's message (it flaked once under CI load, 2026-12-05)
      const owned = (o: { metadata?: { name?: string; ownerReferences?: unknown[] } }) =>
        `${o.metadata?.name ?? ''}${o.metadata?.ownerReferences?.length ? ' (owned)' : ''}`;
      throw new Error(
        `${pods.length} live pods of ${before.length} before: ${pods.map(owned).join(', ')}; revisions: ` +
          revisions.map(owned).join(', '),
      );
    });
    await ctx.custom.createNamespacedCustomObject({
      ...DS_API,
      namespace: ctx.namespace,
      body: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec },
    });
    const uid = (await getSet()).metadata.uid ?? '';
    const adopted = await waitFor('every orphan adopted', 60_000, async () => {
      const pods = await livePods();
      return pods.every((p) => p.metadata.ownerReferences?.[0]?.uid === uid) ? pods : undefined;
    });
    // the same pods (no second pod on a node), and the same revision, now the new DaemonSet's
    expect(adopted.map((p) => p.metadata.uid).sort()).toEqual(before.map((p) => p.metadata.uid).sort());
    const revisions = (
      await ctx.kc.makeApiClient(AppsV1Api).listNamespacedControllerRevision({ namespace: ctx.namespace })
    ).items;
    expect(revisions.map((r) => r.metadata?.name)).toEqual(revisionsBefore);
    for (const r of revisions) expect(r.metadata?.ownerReferences?.[0]?.uid).toBe(uid);
    // a status written by an invocation that ran while the adoption was under way may count fewer pods; the one
    // after it counts them all (it flaked once under load, 2026-12-06)
    const s = await waitFor('status observed with every adopted pod', 60_000, async () => {
      const st = (await getSet()).status;
      return st?.observedGeneration === 1 && st.currentNumberScheduled === before.length ? st : undefined;
    });
    expect(s.numberMisscheduled).toBe(0);
  }, 180_000);

  test("a DaemonSet OpenKruise's webhook refuses gets FailedValidation and no pod; its selector cannot change", async () => {
    const body: DaemonSet = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'DaemonSet',
      metadata: { name: 'frozen' },
      spec: {
        selector: { matchLabels: { app: 'frozen' } },
        template: {
          metadata: { labels: { app: 'frozen' } },
          spec: {
            nodeSelector: { [LABEL]: ctx.namespace },
            tolerations: [{ key: LABEL, operator: 'Exists' }],
            containers: [{ name: 'main', image: 'nginx:1.25' }],
          },
        },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } },
      },
    };
    await ctx.custom.createNamespacedCustomObject({ ...DS_API, namespace: ctx.namespace, body });
    const get = async () =>
      (await ctx.custom.getNamespacedCustomObject({
        ...DS_API,
        namespace: ctx.namespace,
        name: 'frozen',
      })) as DaemonSet;
    const message =
      'DaemonSet is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0';
    const condition = await waitFor('the FailedValidation condition', 60_000, async () =>
      ((await get()).status?.conditions as { type: string; message?: string }[] | undefined)?.find(
        (c) => c.type === 'FailedValidation',
      ),
    );
    expect(condition.message).toBe(message);
    const events = (await ctx.core.listNamespacedEvent({ namespace: ctx.namespace })).items.filter(
      (e) => e.involvedObject.name === 'frozen',
    );
    expect(events.map((e) => `${e.type} ${e.reason} ${e.message}`)).toEqual([
      `Warning FailedValidation ${message}`,
    ]);
    expect((await livePods()).filter((p) => p.metadata.labels?.app === 'frozen')).toEqual([]);
    // the CRD's transition rule refuses a selector change, as OpenKruise's validating webhook does
    const refused = await ctx.custom
      .patchNamespacedCustomObject(
        {
          ...DS_API,
          namespace: ctx.namespace,
          name: 'frozen',
          body: { spec: { selector: { matchLabels: { app: 'thawed' } } } },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      )
      .then(
        () => 'accepted',
        (e: { code?: number; body?: string }) => `${e.code}: ${e.body ?? ''}`,
      );
    expect(refused).toMatch(
      /^422: .*Forbidden: updates to daemonset spec for fields other than 'BurstReplicas'/,
    );
  }, 120_000);

  test("read as v1alpha1 through Kruiseless's /convert: updateRevision is daemonSetHash, partitionedScaling the annotation", async () => {
    await ctx.custom.patchNamespacedCustomObject(
      {
        ...DS_API,
        namespace: ctx.namespace,
        name: 'agent',
        body: { spec: { scaleStrategy: { partitionedScaling: true } } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const server = await startConversionServer({ converters: [daemonSetConverter] });
    try {
      const kube = createKubeClient(ctx.kc);
      await pointCrdsAtConverter(kube, { url: server.url, caPem: server.caPem, server: 'local' }, [
        daemonSetConverter,
      ]);
      const beta = await getSet();
      // the API server takes the new conversion stanza up by rebuilding the CRD's storage: moments alone, but a CI run
      // with every file in parallel saw that one test pass its whole 60 s
      const alpha = await waitFor('the v1alpha1 read converted by Kruiseless', 120_000, async () => {
        const a = (await ctx.custom
          .getNamespacedCustomObject({
            ...DS_API,
            version: 'v1alpha1',
            namespace: ctx.namespace,
            name: 'agent',
          })
          .catch(() => undefined)) as (DaemonSet & { status?: { daemonSetHash?: string } }) | undefined;
        return a?.status?.daemonSetHash ? a : undefined;
      });
      expect(alpha.apiVersion).toBe('apps.kruise.io/v1alpha1');
      expect(alpha.status?.daemonSetHash).toBe(beta.status?.updateRevision);
      expect(alpha.metadata.annotations?.['daemonset.kruise.io/progressive-create-pod']).toBe('true');
      expect(alpha.spec.scaleStrategy).toBeUndefined();
      expect(alpha.spec.template).toEqual(beta.spec.template);
    } finally {
      await server.close();
    }
  }, 180_000);
});
