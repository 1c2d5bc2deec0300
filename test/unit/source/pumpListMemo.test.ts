/**
 * The pump's mapped watches share LIST answers within a run (lib/source/listMemo.ts, wired in lib/source/pump.ts):
 * the PodUnavailableBudget controller's pod watch lists the namespace's budgets for each new pod, and a burst of new
 * pods made one LIST each (issue 17's bench: 1,001 LISTs for 1,000 pods). Driven through `pumpCluster` with the PUB
 * kind's real streams and a scripted `watchOnce`: each stream's watch delivers the events the test lists, in order,
 * then ends with the run. The recorded LISTs show which reached the cluster, and that a budget's change, seen between
 * two pods, makes the next pod's mapping read again.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { Logger } from '@aws-lambda-powertools/logger';
import type { JsonObject } from '../../../lib/api/types.js';
import type { KubeObject, Resource } from '../../../lib/kube/resource.js';
import type { Listed, ListOptions } from '../../../lib/kube/types.js';
import { podUnavailableBudgetKind } from '../../../lib/controllers/podunavailablebudget/kind.js';
import { watchStreams } from '../../../lib/source/watchSpec.js';
import { MemoryCheckpoints } from './support/checkpoints.js';
import { scriptedWatch } from './support/scriptedWatch.js';

const watch = scriptedWatch();
jest.unstable_mockModule('../../../lib/kube/watch.js', () => watch.module);
const { pumpCluster } = await import('../../../lib/source/pump.js');

const STREAMS = watchStreams([podUnavailableBudgetKind]);
const PODS_PATH = STREAMS.find((s) => s.resource === 'pods')?.path ?? '';
const PUBS_PATH = STREAMS.find((s) => s.resource === 'podunavailablebudgets')?.path ?? '';

const pod = (name: string): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns', resourceVersion: '2', labels: { app: 'web' } },
  spec: { containers: [{ name: 'main', image: 'nginx' }] },
});
const pub: JsonObject = {
  apiVersion: 'policy.kruise.io/v1beta1',
  kind: 'PodUnavailableBudget',
  metadata: { name: 'budget', namespace: 'ns', resourceVersion: '3' },
  spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 },
};

/** Runs the PUB kind's streams for `ms` of fake time; returns the LISTs that reached the cluster, in order. */
async function run(ms: number): Promise<string[]> {
  const lists: string[] = [];
  const kube = {
    get: () => Promise.resolve(undefined),
    list: <T extends KubeObject>(r: Resource<T>, o: ListOptions = {}): Promise<Listed<T>> => {
      lists.push(`${r.plural} ${o.namespace ?? '*'}`);
      return Promise.resolve({ items: [], resourceVersion: '1' });
    },
  };
  const checkpoints = new MemoryCheckpoints(() => Date.now());
  for (const s of STREAMS) checkpoints.seed('c1', s.resource, '1');
  const done = pumpCluster(
    {
      cluster: 'c1',
      kc: new KubeConfig(),
      kube,
      watches: checkpoints,
      publisher: { publish: (r) => Promise.resolve({ published: r.length, calls: 1, retried: 0 }) },
      holder: 'run-1',
      clock: () => Date.now(),
      deadlineMs: Date.now() + ms,
      leaseDurationMs: 70_000,
      watchTimeoutSeconds: 60,
      flushIntervalMs: 50,
      checkpointIntervalMs: 10_000,
      log: new Logger({ logLevel: 'SILENT' }),
    },
    STREAMS,
  );
  await jest.advanceTimersByTimeAsync(ms + 1_000);
  await done;
  return lists;
}

describe('the pump shares LIST answers between mapped changes', () => {
  it('three new pods: one LIST of the namespace budgets; a budget change between them: read again', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      expect(PODS_PATH).toBe('/api/v1/pods');
      watch.script = [
        { path: PODS_PATH, afterMs: 100, type: 'ADDED', obj: pod('a') },
        { path: PODS_PATH, afterMs: 200, type: 'ADDED', obj: pod('b') },
        { path: PODS_PATH, afterMs: 300, type: 'ADDED', obj: pod('c') },
      ];
      expect(await run(2_000)).toEqual(['podunavailablebudgets ns']);

      watch.script = [
        { path: PODS_PATH, afterMs: 100, type: 'ADDED', obj: pod('a') },
        { path: PUBS_PATH, afterMs: 200, type: 'ADDED', obj: pub },
        { path: PODS_PATH, afterMs: 300, type: 'ADDED', obj: pod('b') },
        { path: PODS_PATH, afterMs: 400, type: 'ADDED', obj: pod('c') },
      ];
      expect(await run(2_000)).toEqual(['podunavailablebudgets ns', 'podunavailablebudgets ns']);
    } finally {
      jest.useRealTimers();
    }
  });
});
