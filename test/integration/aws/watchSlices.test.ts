/**
 * Watch slices on emulated AWS (lib/source/watchSlices.ts, docs/architecture.md#watch-slices): the packaged watch
 * zip, given a connection budget of one cluster a run, splits a fleet of two registrations (`slices-a`, `slices-b`, the
 * same API server) into two slices; the scheduled run watches `slices-a` and puts a `Watch Slice Requested` event on
 * moto's bus, whose rule (the template's) starts a second run that watches `slices-b`. The reconcile rule is narrowed
 * to `slices-b`'s watch events in this file's namespace (no resync: its requests would reconcile without any watch),
 * so the seed CloneSet becomes Ready only if the slice's own run watched its cluster and its events reached the
 * reconciler. Skipped, with the reason printed, only when moto cannot be installed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureArtifacts } from '../../../lib/emulator/aws/artifacts.js';
import { startEmulatedAws, type EmulatedAws } from '../../../lib/emulator/aws/emulatedAws.js';
import { CONTROLLER_KINDS } from '../../../lib/controllers/kinds.js';
import { RECONCILE_REASONS } from '../../../lib/requests/schema.js';
import { connectionsPerCluster } from '../../../lib/runtime/handlers/watch.js';
import { watchStreams } from '../../../lib/source/watchSpec.js';
import { stateDir } from '../../../infra/local/versions.js';
import { useTestNamespace } from '../support/cluster.js';
import { motoSuite } from '../support/moto.js';
import { applySeed, getCloneSet, testKubeconfig } from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ctx = useTestNamespace('e2e-slices');
let aws: EmulatedAws;
let workDir: string;

/** The watch function's JSON log lines with `message`. */
function watchLog(message: string): Record<string, unknown>[] {
  const file = path.join(workDir, 'logs', `${aws.functions.get('WatchLambdaFunction')?.spec.name}.log`);
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        const parsed = JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>;
        return parsed.message === message ? [parsed] : [];
      } catch {
        return [];
      }
    });
}

const describeIfMoto = motoSuite('test/integration/aws/watchSlices.test.ts');

describeIfMoto('a fleet split into watch slices on moto', () => {
  beforeAll(async () => {
    const artifactDir = await ensureArtifacts(ROOT, (l) => process.stderr.write(`[watchSlices.test] ${l}\n`));
    workDir = path.join(stateDir(), `aws-emulator-${ctx.namespace}`);
    aws = await startEmulatedAws({
      artifactDir,
      kubeconfig: testKubeconfig(),
      clusterName: 'slices-a',
      moreClusterNames: ['slices-b'],
      workDir,
      // the watch every 10 s
      intervalScale: 1 / 6,
      // one cluster a run: two registrations are two slices (the emulated EKS endpoint takes HTTP/2, as EKS's does)
      functionEnv: {
        WatchLambdaFunction: {
          KRUISELESS_WATCH_CONNECTION_BUDGET: String(
            connectionsPerCluster(watchStreams(CONTROLLER_KINDS).length, true),
          ),
        },
      },
      narrowPatterns: {
        detail: {
          namespace: [ctx.namespace],
          cluster: ['slices-b'],
          reason: RECONCILE_REASONS.filter((r) => r !== 'Resync'),
        },
      },
    });
  }, 300_000);

  afterAll(async () => {
    await aws?.stop();
  });

  test('the slice’s own run watches slices-b, and its events bring the CloneSet up', async () => {
    await applySeed(ctx.custom, ctx.namespace);
    const up = await waitFor('DESIRED 2 / READY 2 (reconciled from slices-b’s watch)', 150_000, async () => {
      const s = (await getCloneSet(ctx.custom, ctx.namespace)).status;
      return s?.replicas === 2 && s.readyReplicas === 2 ? s : undefined;
    });
    expect(up.updatedReplicas).toBe(2);

    const split = watchLog('watch fleet split into slices');
    expect(split[0]).toMatchObject({ slices: 2, sent: 1, clustersPerSlice: 1 });
    const scheduled = watchLog('watch run started').filter((l) => l.trigger === 'scheduled');
    const sliced = watchLog('watch run started').filter((l) => l.trigger === 'slice');
    expect(scheduled[0]).toMatchObject({ clusters: ['slices-a'] });
    expect(sliced[0]).toMatchObject({ clusters: ['slices-b'] });
    // the slice's run names the scheduled run that sent it
    const senders = new Set(scheduled.map((l) => l.function_request_id));
    expect(sliced.every((l) => senders.has(l.sentBy))).toBe(true);
    expect(watchLog('watch slice event refused: nothing watched')).toEqual([]);
    expect(watchLog('watch slice not sent: its clusters wait for the next run')).toEqual([]);
    expect(await aws.deadLetters()).toBe(0);
    expect(aws.proxy.refused()).toBe(0);
  }, 240_000);
});
