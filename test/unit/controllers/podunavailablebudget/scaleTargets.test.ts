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
import { KubeApiError } from '../../../../lib/kube/errors.js';
import type { Resource } from '../../../../lib/kube/resource.js';
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

/**
 * The recording client's pods, the given scales by name, and the calls beyond pods (GETs of resources other than
 * PUBs and pods too); a GET of a resource named in `forbidden` answers 403.
 */
function cluster(
  pods: Pod[],
  scales: Partial<Record<string, Scale>>,
  forbidden: readonly string[] = [],
): { reads: TargetReads; calls: string[]; kube: RecordingKube } {
  const kube = new RecordingKube([], () => new Date(0));
  for (const p of pods) kube.objects(RESOURCES.pods).set(p.metadata.name ?? '', p);
  const calls: string[] = [];
  const reads: TargetReads = {
    get: async (r, ref) => {
      if (r.plural !== 'pods' && r.plural !== PUB_RESOURCE.plural) calls.push(`get ${r.plural} ${ref.name}`);
      if (forbidden.includes(r.plural))
        throw new KubeApiError(`get ${r.plural}`, 403, 'Forbidden', `${r.plural} is forbidden`);
      return kube.get(r, ref);
    },
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
const DAEMONSETS: Resource = {
  group: 'apps',
  version: 'v1',
  plural: 'daemonsets',
  namespaced: true,
  kind: 'DaemonSet',
};
const DS = { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent' };
const dsOwner = { ...DS, uid: 'uid-ds' };

/** The DaemonSet `agent` stored in `c`'s cluster (a terminating one with `deleting`). */
function addDaemonSet(c: { kube: RecordingKube }, deleting = false): void {
  c.kube.objects(DAEMONSETS).set('agent', {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: 'agent',
      namespace: NS,
      uid: 'uid-ds',
      ...(deleting ? { deletionTimestamp: '2026-12-06T00:00:00Z' } : {}),
    },
  });
}
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

describe('podsForPub with a targetRef to a kind without a scale subresource (upstream’s getRefUID)', () => {
  it('covers the pods the DaemonSet owns, and expects -1 replicas (ReplicasUnknown)', async () => {
    const c = cluster([pod('d1', dsOwner), pod('d2', dsOwner), pod('a', owner)], {});
    addDaemonSet(c);
    const found = await podsForPub(c.reads, pub({ targetRef: DS, maxUnavailable: 1 }));
    expect(names(found.pods)).toEqual(['d1', 'd2']);
    expect(found.expectedCount).toBe(-1);
    expect(c.calls).toEqual(['get daemonsets agent', 'list pods']);
  });

  it('covers nothing when it is gone, or when its read is not granted (logged)', async () => {
    const gone = cluster([pod('d1', dsOwner)], {});
    expect(await podsForPub(gone.reads, pub({ targetRef: DS, maxUnavailable: 1 }))).toEqual({
      pods: [],
      expectedCount: 0,
    });
    const warned: string[] = [];
    const denied = cluster([pod('d1', dsOwner)], {}, ['daemonsets']);
    addDaemonSet(denied);
    const log = { warn: (m: string) => void warned.push(m) };
    for (let pass = 0; pass < 2; pass++)
      expect(await podsForPub(denied.reads, pub({ targetRef: DS, maxUnavailable: 1 }), log)).toEqual({
        pods: [],
        expectedCount: 0,
      });
    // one line per logger (an invocation's) and workload, not one per pass
    expect(warned).toHaveLength(1);
  });
});

describe('podsForPub with a selector: the controllers’ replicas, a scaled kind counting its scale', () => {
  it('sums the Rollout’s scale and -1 for a DaemonSet (no scale subresource, upstream’s ReplicasUnknown)', async () => {
    const c = cluster([pod('a', owner), pod('b', owner), pod('d', dsOwner)], {
      web: scale('uid-rollout', 4, 'app=web'),
    });
    addDaemonSet(c);
    const found = await podsForPub(
      c.reads,
      pub({ selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 }),
    );
    expect(names(found.pods)).toEqual(['a', 'b', 'd']);
    expect(found.expectedCount).toBe(3);
    // one scale read for the two pods of the Rollout; the DaemonSet read as itself, discovery says it has no scale
    expect(c.calls).toEqual(['list pods app=web', 'get rollouts/scale web', 'get daemonsets agent']);
  });

  it('counts a DaemonSet that is gone as nothing, a terminating one still as -1 (upstream’s getRefUID keeps no deletion time), one not granted as -1', async () => {
    const select = pub({ selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 });
    const gone = cluster([pod('d', dsOwner)], {});
    expect((await podsForPub(gone.reads, select)).expectedCount).toBe(0);
    const terminating = cluster([pod('d', dsOwner)], {});
    addDaemonSet(terminating, true);
    expect((await podsForPub(terminating.reads, select)).expectedCount).toBe(-1);
    const warned: string[] = [];
    const denied = cluster([pod('d', dsOwner)], {}, ['daemonsets']);
    expect(
      (
        await podsForPub(denied.reads, select, {
          warn: (m, d) => void warned.push(`${m} ${String(d.kind)}/${String(d.name)}`),
        })
      ).expectedCount,
    ).toBe(-1);
    expect(warned).toEqual([
      'PodUnavailableBudget: reading the workload is not granted; counted as unknown DaemonSet/agent',
    ]);
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

  it('a new pod of a DaemonSet is the budget’s whose targetRef names the DaemonSet (read as itself)', async () => {
    const c = cluster([], {});
    addDaemonSet(c);
    c.kube.objects(PUB_RESOURCE).set('budget', pub({ targetRef: DS, maxUnavailable: 1 }));
    const found = await pubOfNewPod(kubePubMutationReads(c.reads), pod('new', dsOwner), NS);
    expect(found?.metadata.name).toBe('budget');
    expect(c.calls).toContain('get daemonsets agent');
  });
});
