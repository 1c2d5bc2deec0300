/**
 * One reconcile pass against a recording client, in OpenKruise v1.9.0's `syncWorkloadSpread` order: the pods created
 * before the WorkloadSpread are read with their node, patched into their subset first, then the deletion costs, then
 * the status through the status subresource; under the Adaptive strategy the unschedulable pods deleted after the
 * status (`cleanupUnscheduledPods`), a failed delete answered by a `DeletePodFailed` Warning.
 */
import type { Pod } from '../../../../lib/api/types.js';
import { silentLogger } from '../../../../lib/core/logger.js';
import { runPass } from '../../../../lib/controllers/workloadspread/pass.js';
import { KubeApiError } from '../../../../lib/kube/errors.js';
import type { Resource } from '../../../../lib/kube/resource.js';
import type { KubeClient } from '../../../../lib/kube/types.js';
import type { Lease } from '../../../../lib/state/index.js';
import { pod, workloadSpread } from './fixtures.js';

describe('runPass', () => {
  it('patches the subset of a pod created before the WorkloadSpread, then its deletion cost, then writes the status', async () => {
    const calls: string[] = [];
    const ws = workloadSpread();
    const cloneSet = {
      metadata: { name: 'web', namespace: 'ns', uid: 'cs-uid' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } } },
    };
    const pods: Pod[] = [pod('p1', 'zone-a'), pod('p2')];
    const objects: Record<string, unknown> = {
      'apps.kruise.io/workloadspreads/ws-a': ws,
      'apps.kruise.io/clonesets/web': cloneSet,
      '/nodes/node-1': { metadata: { name: 'node-1', labels: { zone: 'a' } } },
    };
    const kube = {
      get: (r: Resource, ref: { name: string }) => {
        calls.push(`get ${r.plural}/${ref.name}`);
        return Promise.resolve(objects[`${r.group}/${r.plural}/${ref.name}`]);
      },
      list: (r: Resource) => {
        calls.push(`list ${r.plural}`);
        return Promise.resolve({ items: pods, resourceVersion: '1' });
      },
      patch: (r: Resource, ref: { name: string }, p: { body: unknown }) => {
        calls.push(`patch ${r.plural}/${ref.name} ${JSON.stringify(p.body)}`);
        return Promise.resolve({});
      },
      replace: (r: Resource, o: { status: unknown }) => {
        calls.push(`replace ${r.plural} ${JSON.stringify(o.status)}`);
        return Promise.resolve(o);
      },
    } as unknown as KubeClient;
    const result = await runPass(
      { kube, log: silentLogger, clock: () => Date.parse('2026-12-04T07:30:00Z') },
      { cluster: 'c', kind: 'apps.kruise.io/WorkloadSpread', namespace: 'ns', name: 'ws-a' },
      {} as Lease,
      new Set(),
    );
    expect(result.writes).toBe(4);
    const annotation = JSON.stringify({ name: 'ws-a', subset: 'zone-a' });
    const statuses = [
      { name: 'zone-a', replicas: 2, missingReplicas: 0 },
      { name: 'zone-b', replicas: 0, missingReplicas: -1 },
    ];
    expect(calls).toEqual([
      'get workloadspreads/ws-a',
      'get clonesets/web',
      'get configmaps/kruise-configuration',
      'list pods',
      'get nodes/node-1',
      `patch pods/p2 ${JSON.stringify({ metadata: { annotations: { 'apps.kruise.io/matched-workloadspread': annotation } } })}`,
      'patch pods/p1 {"metadata":{"annotations":{"controller.kubernetes.io/pod-deletion-cost":"200"}}}',
      'patch pods/p2 {"metadata":{"annotations":{"controller.kubernetes.io/pod-deletion-cost":"200"}}}',
      `replace workloadspreads ${JSON.stringify({ observedGeneration: 1, subsetStatuses: statuses, versionedSubsetStatuses: { versionIgnored: statuses } })}`,
    ]);
  });

  describe('targetFilter.replicasPathList (upstream filterWorkload)', () => {
    /** A pass over CloneSet `web` (2 replicas, revisionHistoryLimit 10) with subset zone-a at 50 %, both pods in it. */
    async function passWith(paths: string[]) {
      const calls: string[] = [];
      const ws = workloadSpread();
      ws.spec.subsets[0].maxReplicas = '50%';
      ws.spec.targetFilter = { replicasPathList: paths };
      const objects: Record<string, unknown> = {
        'apps.kruise.io/workloadspreads/ws-a': ws,
        'apps.kruise.io/clonesets/web': {
          metadata: { name: 'web', namespace: 'ns', uid: 'cs-uid' },
          spec: { replicas: 2, revisionHistoryLimit: 10, selector: { matchLabels: { app: 'web' } } },
        },
      };
      const write = (what: string) => (r: Resource, o: unknown) => {
        calls.push(`${what} ${r.plural} ${JSON.stringify((o as { status?: unknown }).status ?? null)}`);
        return Promise.resolve(o);
      };
      const kube = {
        get: (r: Resource, ref: { name: string }) =>
          Promise.resolve(objects[`${r.group}/${r.plural}/${ref.name}`]),
        list: () =>
          Promise.resolve({ items: [pod('p1', 'zone-a'), pod('p2', 'zone-a')], resourceVersion: '1' }),
        patch: write('patch'),
        replace: write('replace'),
      } as unknown as KubeClient;
      const result = await runPass(
        { kube, log: silentLogger, clock: () => Date.parse('2026-12-04T07:30:00Z') },
        { cluster: 'c', kind: 'apps.kruise.io/WorkloadSpread', namespace: 'ns', name: 'ws-a' },
        {} as Lease,
        new Set(),
      );
      return { result, calls };
    }

    it('the percentages count the replicas at the paths, not spec.replicas', async () => {
      const { result, calls } = await passWith(['spec.revisionHistoryLimit']);
      expect(result.error).toBeUndefined();
      // 50 % of 10 is 5, 2 of them there (before: 50 % of spec.replicas 2 is 1, already exceeded: 0 missing)
      const statuses = [
        { name: 'zone-a', replicas: 2, missingReplicas: 3 },
        { name: 'zone-b', replicas: 0, missingReplicas: -1 },
      ];
      expect(calls.filter((c) => c.startsWith('replace'))).toEqual([
        `replace workloadspreads ${JSON.stringify({ observedGeneration: 1, subsetStatuses: statuses, versionedSubsetStatuses: { versionIgnored: statuses } })}`,
      ]);
    });

    it('a path the target does not have: no write, the pass fails in upstream’s words (backoff)', async () => {
      const { result, calls } = await passWith(['spec.replicas', 'spec.template.spec.replicas']);
      expect(calls).toEqual([]);
      expect(result).toEqual({
        gone: false,
        writes: 0,
        acted: false,
        error:
          'targetFilter.replicasPathList of c/apps.kruise.io/WorkloadSpread/ns/ws-a: path "template" not exists',
      });
    });
  });

  describe('the Adaptive strategy', () => {
    const NOW = Date.parse('2026-12-04T07:30:00Z');
    const pending = (name: string, createdAt: string): Pod => {
      const p = pod(name, 'zone-a', { creationTimestamp: createdAt });
      return {
        ...p,
        spec: { containers: p.spec.containers },
        status: {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
        },
      };
    };
    const setup = (failDelete?: string) => {
      const calls: string[] = [];
      const ws = workloadSpread();
      ws.spec.scheduleStrategy = { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 10 } };
      const objects: Record<string, unknown> = {
        'apps.kruise.io/workloadspreads/ws-a': ws,
        'apps.kruise.io/clonesets/web': {
          metadata: { name: 'web', namespace: 'ns', uid: 'cs-uid' },
          spec: { replicas: 3, selector: { matchLabels: { app: 'web' } } },
        },
      };
      const pods = [
        pending('p1', '2026-12-04T07:29:00Z'),
        pending('p2', '2026-12-04T07:29:40Z'),
        pending('p3', '2026-12-04T07:29:55Z'),
      ];
      const kube = {
        get: (r: Resource, ref: { name: string }) =>
          Promise.resolve(objects[`${r.group}/${r.plural}/${ref.name}`]),
        list: () => Promise.resolve({ items: pods, resourceVersion: '1' }),
        patch: (r: Resource, ref: { name: string }) => {
          calls.push(`patch ${r.plural}/${ref.name}`);
          return Promise.resolve({});
        },
        replace: (r: Resource, o: { status: { subsetStatuses: { conditions?: unknown[] }[] } }) => {
          calls.push(
            `replace ${r.plural} ${JSON.stringify(o.status.subsetStatuses.map((x) => x.conditions))}`,
          );
          return Promise.resolve(o);
        },
        delete: (r: Resource, ref: { name: string }, pre?: { uid: string }) => {
          calls.push(`delete ${r.plural}/${ref.name} ${pre?.uid ?? ''}`);
          if (ref.name === failDelete)
            return Promise.reject(new KubeApiError('delete pod', 500, 'InternalError', 'boom'));
          return Promise.resolve();
        },
        recordEvent: (_r: Resource, _o: unknown, e: { type: string; reason: string; message: string }) => {
          calls.push(`event ${e.type} ${e.reason} ${e.message}`);
          return Promise.resolve();
        },
      } as unknown as KubeClient;
      return { calls, kube };
    };
    const run = (kube: KubeClient) =>
      runPass(
        { kube, log: silentLogger, clock: () => NOW },
        { cluster: 'c', kind: 'apps.kruise.io/WorkloadSpread', namespace: 'ns', name: 'ws-a' },
        {} as Lease,
        new Set(),
      );
    const conditions = JSON.stringify([
      [
        {
          type: 'Schedulable',
          status: 'False',
          reason: 'PodUnschedulable',
          message: '',
          lastTransitionTime: '2026-12-04T07:30:00Z',
        },
      ],
      [
        {
          type: 'Schedulable',
          status: 'True',
          reason: 'Sufficient',
          message: '',
          lastTransitionTime: '2026-12-04T07:30:00Z',
        },
      ],
    ]);

    it('marks zone-a unschedulable, then deletes its pods pending for over 10 s, and looks again when the third times out', async () => {
      const { calls, kube } = setup();
      const result = await run(kube);
      expect(calls).toEqual([
        // the deletion costs, in plan/deletionCost.ts's order
        'patch pods/p2',
        'patch pods/p1',
        'patch pods/p3',
        `replace workloadspreads ${conditions}`,
        'delete pods/p1 uid-p1',
        'delete pods/p2 uid-p2',
      ]);
      expect(result.writes).toBe(6);
      expect(result.error).toBeUndefined();
      // p3 was created 5 s ago: 5 s to its 10 s, plus upstream's strict "before" (1 ms)
      expect(result.requeueAfterSeconds).toBe(5.001);
    });

    it("a failed delete stops the pass with upstream's DeletePodFailed Warning", async () => {
      const { calls, kube } = setup('p1');
      const result = await run(kube);
      expect(calls.slice(3)).toEqual([
        `replace workloadspreads ${conditions}`,
        'delete pods/p1 uid-p1',
        'event Warning DeletePodFailed Failed to delete unschedulabe Pod ns/p1 in Subset zone-a of WorkloadSpread ns/ws-a',
      ]);
      expect(result.error).toBe('delete pod: 500 InternalError: boom');
    });

    it('zone-a marked 10 minutes ago turns schedulable: one RecoverSchedulable for the overall status and one for the version, both recorded', async () => {
      const calls: string[] = [];
      const ws = workloadSpread();
      ws.spec.scheduleStrategy = { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 10 } };
      const marked = [
        {
          name: 'zone-a',
          replicas: 0,
          missingReplicas: 2,
          conditions: [
            {
              type: 'Schedulable',
              status: 'False' as const,
              reason: 'PodUnschedulable',
              message: '',
              lastTransitionTime: '2026-12-04T07:20:00Z',
            },
          ],
        },
        { name: 'zone-b', replicas: 0, missingReplicas: -1 },
      ];
      ws.status = { subsetStatuses: marked, versionedSubsetStatuses: { versionIgnored: marked } };
      const objects: Record<string, unknown> = {
        'apps.kruise.io/workloadspreads/ws-a': ws,
        'apps.kruise.io/clonesets/web': {
          metadata: { name: 'web', namespace: 'ns', uid: 'cs-uid' },
          spec: { replicas: 0, selector: { matchLabels: { app: 'web' } } },
        },
      };
      const kube = {
        get: (r: Resource, ref: { name: string }) =>
          Promise.resolve(objects[`${r.group}/${r.plural}/${ref.name}`]),
        list: () => Promise.resolve({ items: [], resourceVersion: '1' }),
        replace: (
          r: Resource,
          o: { status: { subsetStatuses: { conditions?: { status: string }[] }[] } },
        ) => {
          calls.push(
            `replace ${r.plural} ${o.status.subsetStatuses.map((x) => x.conditions?.[0]?.status).join(',')}`,
          );
          return Promise.resolve(o);
        },
        recordEvent: (_r: Resource, _o: unknown, e: { type: string; reason: string; message: string }) => {
          calls.push(`event ${e.type} ${e.reason} ${e.message}`);
          return Promise.resolve();
        },
      } as unknown as KubeClient;
      const result = await run(kube);
      const recovered =
        'event Normal RecoverSchedulable Subset zone-a of WorkloadSpread ns/ws-a is recovered from unschedulable to schedulable';
      expect(calls).toEqual(['replace workloadspreads True,True', recovered, recovered]);
      expect(result.requeueAfterSeconds).toBeUndefined();
    });
  });
});
