/**
 * A PodUnavailableBudget over a workload of a kind with no finder of its own (an Argo Rollout, any custom resource
 * with a scale subresource), as OpenKruise v1.9.0's `GetPodsForRef` default case, `GetExpectedScaleForPods` and
 * `GetPubForPod` read it through `getScaleController`: the pods it owns or, when it owns none, those its scale's
 * selector matches; the scale's replicas; a new pod of it matched to the budget that targets it. Reads of a recording
 * client, discovery and scale of a stand-in.
 */
import { describe, expect, it } from '@jest/globals';
import type { Pod } from '../../../../lib/api/types.js';
import type { PodUnavailableBudget } from '../../../../lib/controllers/podunavailablebudget/api/types.js';
import {
  kubePubMutationReads,
  pubOfNewPod,
} from '../../../../lib/controllers/podunavailablebudget/podPub.js';
import { podsForPub, type TargetReads } from '../../../../lib/controllers/podunavailablebudget/targets.js';
import { UnservedKindError } from '../../../../lib/kube/scaleFinder.js';
import { RESOURCES } from '../../../../lib/kube/resources.js';
import type { ApiResource, Scale } from '../../../../lib/kube/types.js';
import { PUB_RESOURCE } from '../../../../lib/controllers/podunavailablebudget/api/resource.js';
import { RecordingKube } from '../cloneset/reconcile/support/recordingKube.js';

const NS = 'test';
const ROLLOUT = { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'web' };
const DISCOVERY: Record<string, ApiResource[]> = {
  'argoproj.io/v1alpha1': [
    { name: 'rollouts', namespaced: true, kind: 'Rollout' },
    { name: 'rollouts/scale', namespaced: true, kind: 'Scale' },
  ],
  'apps/v1': [
    { name: 'daemonsets', namespaced: true, kind: 'DaemonSet' },
    { name: 'deployments', namespaced: true, kind: 'Deployment' },
    { name: 'deployments/scale', namespaced: true, kind: 'Scale' },
  ],
};

function pod(
  name: string,
  owner?: { kind: string; apiVersion: string; name: string; uid: string },
  labels = { app: 'web' },
): Pod {
  return {
    metadata: {
      name,
      namespace: NS,
      uid: `uid-${name}`,
      labels,
      ...(owner ? { ownerReferences: [{ ...owner, controller: true }] } : {}),
    },
    spec: { containers: [{ name: 'main', image: 'nginx' }] },
    status: { phase: 'Running' },
  };
}

/** The recording client's pods, the given scales by name, and the calls beyond pods. */
function cluster(
  pods: Pod[],
  scales: Partial<Record<string, Scale>>,
): { reads: TargetReads; calls: string[]; kube: RecordingKube } {
  const kube = new RecordingKube([], () => new Date(0));
  for (const p of pods) kube.objects(RESOURCES.pods).set(p.metadata.name ?? '', p);
  const calls: string[] = [];
  const reads: TargetReads = {
    get: (r, ref) => kube.get(r, ref),
    list: (r, o) => {
      calls.push(`list ${r.plural}${o?.labelSelector !== undefined ? ` ${o.labelSelector}` : ''}`);
      return kube.list(r, o);
    },
    serverResources: async (gv) => DISCOVERY[gv],
    getScale: async (r, ref) => {
      calls.push(`get ${r.plural}/scale ${ref.name}`);
      return scales[ref.name];
    },
  };
  return { reads, calls, kube };
}

const scale = (uid: string, replicas: number, selector: string, deleting = false): Scale => ({
  metadata: {
    name: 'web',
    namespace: NS,
    uid,
    ...(deleting ? { deletionTimestamp: '2026-12-06T00:00:00Z' } : {}),
  },
  spec: { replicas },
  status: { selector },
});

const pub = (spec: PodUnavailableBudget['spec']): PodUnavailableBudget => ({
  apiVersion: 'policy.kruise.io/v1beta1',
  kind: 'PodUnavailableBudget',
  metadata: { name: 'budget', namespace: NS, uid: 'uid-budget' },
  spec,
});

const owner = { ...ROLLOUT, uid: 'uid-rollout' };
const names = (pods: readonly Pod[]) => pods.map((p) => p.metadata.name).sort();

describe('podsForPub with a targetRef to a kind read through its scale subresource', () => {
  it('covers the pods the workload owns, and expects its scale’s replicas', async () => {
    const c = cluster(
      [pod('a', owner), pod('b', owner), pod('stranger'), pod('done', owner)].map((p) =>
        p.metadata.name === 'done' ? { ...p, status: { phase: 'Succeeded' } } : p,
      ),
      { web: scale('uid-rollout', 5, 'app=web') },
    );
    const found = await podsForPub(c.reads, pub({ targetRef: ROLLOUT, maxUnavailable: 1 }));
    expect(names(found.pods)).toEqual(['a', 'b']);
    expect(found.expectedCount).toBe(5);
    expect(c.calls).toEqual(['get rollouts/scale web', 'list pods']);
  });

  it('when it owns none (its pods belong to an object between, as a Deployment’s), the pods its selector matches', async () => {
    const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'uid-rs' };
    const c = cluster([pod('a', rs), pod('b', rs), pod('other', rs, { app: 'db' })], {
      web: scale('uid-rollout', 3, 'app=web'),
    });
    const found = await podsForPub(c.reads, pub({ targetRef: ROLLOUT, maxUnavailable: 1 }));
    expect(names(found.pods)).toEqual(['a', 'b']);
    expect(found.expectedCount).toBe(3);
    expect(c.calls).toEqual(['get rollouts/scale web', 'list pods', 'list pods app=web']);
  });

  it('covers nothing at 0 replicas, while it is deleted, or when it does not exist; protectTotalReplicas still counts', async () => {
    const pods = [pod('a', owner)];
    for (const scales of [
      { web: scale('uid-rollout', 0, 'app=web') },
      { web: scale('uid-rollout', 2, 'app=web', true) },
      {},
    ]) {
      const c = cluster(pods, scales);
      expect(await podsForPub(c.reads, pub({ targetRef: ROLLOUT, maxUnavailable: 1 }))).toEqual({
        pods: [],
        expectedCount: 0,
      });
    }
    const c = cluster(pods, { web: scale('uid-rollout', 2, 'app=web') });
    const found = await podsForPub(
      c.reads,
      pub({ targetRef: ROLLOUT, maxUnavailable: 1, protectTotalReplicas: 7 }),
    );
    expect([names(found.pods), found.expectedCount]).toEqual([['a'], 7]);
  });

  it('fails the pass for a kind the API server does not serve, as upstream’s RESTMapper error', async () => {
    const c = cluster([pod('a', owner)], {});
    await expect(
      podsForPub(c.reads, pub({ targetRef: { ...ROLLOUT, kind: 'Rolout' }, maxUnavailable: 1 })),
    ).rejects.toThrow(UnservedKindError);
  });

  it('with a client that has no discovery, covers nothing (as before)', async () => {
    const c = cluster([pod('a', owner)], { web: scale('uid-rollout', 5, 'app=web') });
    const { get, list } = c.reads;
    expect(await podsForPub({ get, list }, pub({ targetRef: ROLLOUT, maxUnavailable: 1 }))).toEqual({
      pods: [],
      expectedCount: 0,
    });
  });
});

describe('podsForPub with a selector: the controllers’ replicas, a scaled kind counting its scale', () => {
  it('sums the Rollout’s scale and -1 for a DaemonSet (no scale subresource, upstream’s ReplicasUnknown)', async () => {
    const ds = { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'uid-ds' };
    const c = cluster([pod('a', owner), pod('b', owner), pod('d', ds)], {
      web: scale('uid-rollout', 4, 'app=web'),
    });
    const found = await podsForPub(
      c.reads,
      pub({ selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 }),
    );
    expect(names(found.pods)).toEqual(['a', 'b', 'd']);
    expect(found.expectedCount).toBe(3);
    // one scale read for the two pods of the Rollout; none for the DaemonSet, discovery says it has no scale
    expect(c.calls).toEqual(['list pods app=web', 'get rollouts/scale web']);
  });

  it('counts nothing for a scaled controller that is gone or being deleted', async () => {
    for (const scales of [{}, { web: scale('uid-rollout', 4, 'app=web', true) }]) {
      const c = cluster([pod('a', owner)], scales);
      expect(
        (await podsForPub(c.reads, pub({ selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 })))
          .expectedCount,
      ).toBe(0);
    }
  });
});

describe('the budget of a new pod of a scaled kind (upstream GetPubForPod)', () => {
  it('is the budget whose targetRef names the pod’s controller, any version of its group', async () => {
    const c = cluster([], { web: scale('uid-rollout', 2, 'app=web') });
    c.kube.objects(PUB_RESOURCE).set('other', {
      ...pub({ selector: { matchLabels: { app: 'db' } } }),
      metadata: { name: 'other', namespace: NS },
    });
    c.kube
      .objects(PUB_RESOURCE)
      .set('budget', pub({ targetRef: { ...ROLLOUT, apiVersion: 'argoproj.io/v1' }, maxUnavailable: 1 }));
    const found = await pubOfNewPod(kubePubMutationReads(c.reads), pod('new', owner), NS);
    expect(found?.metadata.name).toBe('budget');
  });
});
