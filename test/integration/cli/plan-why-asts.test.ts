/**
 * `kruiseless plan asts/<name>` and `kruiseless why <pod>` on an Advanced StatefulSet, against the real local
 * control plane (kwok makes pods Running and Ready) and a real dynalite state table. No pipeline runs: the test runs
 * each pass itself (the Advanced StatefulSet's own runPass) with a KubeClient that records every write, and checks
 * that the writes `plan` printed just before are exactly the writes the pass then made, in order.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { Pod } from '../../../lib/api/types.js';
import { runCli } from '../../../lib/cli/program.js';
import { STATEFULSET_KIND } from '../../../lib/controllers/statefulset/api/resource.js';
import { runPass } from '../../../lib/controllers/statefulset/pass.js';
import { createKubeClient, kubeConfigFromFile } from '../../../lib/kube/index.js';
import { createStateStores, ensureTable, type StateStores } from '../../../lib/state/index.js';
import { useTestNamespace } from '../support/cluster.js';
import { uniqueTableName, useDynalite } from '../support/dynamo.js';
import { testKubeconfig } from '../support/pipeline.js';
import { printedWrites, recordingKube } from '../support/recordedWrites.js';
import { ASTS_API, activeSetPods, webStatefulSet } from '../support/statefulset.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('cli-plan-asts');
const dynamo = useDynalite();
const table = uniqueTableName('cliasts');
const CLUSTER = 'cli';
let stores: StateStores;
const writes = { list: [] as string[] };

const key = () => ({ cluster: CLUSTER, kind: STATEFULSET_KIND, namespace: ctx.namespace, name: 'web' });
const cli = (...argv: string[]) =>
  runCli(
    [
      ...argv,
      '-n',
      ctx.namespace,
      '--table',
      table,
      '--dynamodb-endpoint',
      dynamo.endpoint,
      '--cluster-name',
      CLUSTER,
    ],
    { KUBECONFIG: testKubeconfig(), HOME: '/nonexistent' },
  );

/** One pass of the Advanced StatefulSet under a fresh lease; the writes it made, in order. */
async function pass(): Promise<string[]> {
  writes.list = [];
  const acquired = await stores.leases.acquire(key(), `test-${Date.now()}`, 60_000, Date.now());
  if (!acquired.acquired) throw new Error('lease held');
  await runPass(
    {
      kube: recordingKube(createKubeClient(kubeConfigFromFile(testKubeconfig())), writes),
      expectations: stores.expectations,
      log: new Logger({ serviceName: 'cli-asts-test', logLevel: 'SILENT' }),
      clock: Date.now,
    },
    key(),
    acquired.lease,
    new Set(),
  );
  await stores.leases.release(acquired.lease);
  return writes.list;
}

/** Runs passes until the set's pods are exactly `names`, all Ready, and a pass writes nothing more. */
const settled = async (names: string[]): Promise<Pod[]> =>
  waitFor(`pods ${names.join(', ')} Ready and settled`, 90_000, async () => {
    const done = await pass();
    const pods = await activeSetPods(ctx.core, ctx.namespace);
    const ready = pods.filter((p) =>
      (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
    );
    const same = JSON.stringify(pods.map((p) => p.metadata.name)) === JSON.stringify(names);
    return same && ready.length === names.length && done.length === 0 ? pods : undefined;
  });

beforeAll(async () => {
  await ensureTable(dynamo.client(), table);
  stores = createStateStores({ client: dynamo.client(), tableName: table });
  const body = webStatefulSet((s) => {
    s.spec.volumeClaimTemplates = [
      {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ];
  });
  await ctx.custom.createNamespacedCustomObject({ ...ASTS_API, namespace: ctx.namespace, body });
});

describe('kruiseless plan asts/<name> and why on its pods', () => {
  it('plan prints the writes each pass then makes; why explains a kept pod and a deleted one', async () => {
    const first = await cli('plan', 'asts/web');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const planned = printedWrites(first.stdout);
    expect(planned.map((w) => w.replace(/^(create controllerrevision web)-[a-z0-9]+$/, '$1-<hash>'))).toEqual(
      [
        'create controllerrevision web-<hash>',
        'create pvc data-web-0',
        'create pod web-0',
        // its KruisePodReady condition in the same pass (issue 17)
        'patch pod/status web-0',
        'update statefulset/status web',
      ],
    );
    const lines = first.stdout.split('\n');
    expect(lines[0]).toBe(`StatefulSet ${ctx.namespace}/web`);
    expect(lines).toContain(`  state:            expectations from table ${table} (cluster ${CLUSTER})`);
    expect(lines).toContain('  stops:            pod web-0 created: OrderedReady creates one at a time');
    expect(lines).toContain('  2. create pvc data-web-0: volume claim of pod web-0, created before it');
    expect(await pass()).toEqual(planned);

    // OrderedReady: web-1 after web-0 is Ready (kwok), each pass as the reconciler would run it
    await settled(['web-0', 'web-1']);

    // the same set by its long name; a scale-down deletes the highest ordinal
    await ctx.custom.patchNamespacedCustomObject({
      ...ASTS_API,
      namespace: ctx.namespace,
      name: 'web',
      body: [{ op: 'replace', path: '/spec/replicas', value: 1 }],
    });
    const down = await cli('plan', 'statefulset.apps.kruise.io/web');
    expect(down.code).toBe(0);
    const plannedDown = printedWrites(down.stdout);
    expect(plannedDown[0]).toBe('delete pod web-1');
    expect(down.stdout).toContain(
      '  1. delete pod web-1: condemned: its ordinal is outside the range the replicas keep (scale down, highest ordinal first)\n',
    );
    expect(await pass()).toEqual(plannedDown);

    const kept = await cli('why', 'web-0');
    expect(kept.stderr).toBe('');
    const keptLines = kept.stdout.split('\n');
    expect(keptLines.slice(0, 3)).toEqual([
      `Pod ${ctx.namespace}/web-0`,
      '  StatefulSet:      web (apps.kruise.io)',
      '  ordinal:          0 (kept by the 1 replicas)',
    ]);
    expect(keptLines.find((l) => l.startsWith('  revision:'))).toMatch(
      /^ {2}revision: {9}web-[a-z0-9]+ \(the update revision\)$/,
    );
    expect(keptLines).toContain(
      '  partition:        ordinal 0 ≥ partition 0: in the update partition, updated to the update revision',
    );
    expect(keptLines).toContain(`  state:            expectations from table ${table} (cluster ${CLUSTER})`);
    expect(
      keptLines.filter((l) => l.includes(' on StatefulSet/')).map((l) => l.replace(/^ {2}\S+ {2}/, '')),
    ).toEqual([
      'Normal SuccessfulCreate on StatefulSet/web: create Claim data-web-0 Pod web-0 in StatefulSet web success → its volume claim created',
      'Normal SuccessfulCreate on StatefulSet/web: create Pod web-0 in StatefulSet web successful → created by the StatefulSet',
    ]);

    await waitFor(
      'web-1 gone',
      60_000,
      async () => !(await activeSetPods(ctx.core, ctx.namespace)).some((p) => p.metadata.name === 'web-1'),
    );
    await waitFor('web-1 deleted from the API server', 60_000, async () => {
      const all = await ctx.core.listNamespacedPod({ namespace: ctx.namespace });
      return !all.items.some((p) => p.metadata?.name === 'web-1');
    });
    const gone = await cli('why', 'web-1');
    expect(gone.stderr).toBe('');
    const goneLines = gone.stdout.split('\n');
    expect(goneLines.slice(1, 4)).toEqual([
      '  StatefulSet:      web (apps.kruise.io)',
      '  ordinal:          1 (outside the range of 1 replicas: condemned, deleted by scale-down)',
      '  pod:              gone: what is left is the state and the Events',
    ]);
    expect(
      goneLines.filter((l) => l.includes(' on StatefulSet/')).map((l) => l.replace(/^ {2}\S+ {2}/, '')),
    ).toEqual([
      'Normal SuccessfulCreate on StatefulSet/web: create Claim data-web-1 Pod web-1 in StatefulSet web success → its volume claim created',
      'Normal SuccessfulCreate on StatefulSet/web: create Pod web-1 in StatefulSet web successful → created by the StatefulSet',
      'Normal SuccessfulDelete on StatefulSet/web: delete Pod web-1 in StatefulSet web successful → deleted by the StatefulSet',
    ]);
  }, 200_000);

  it('errors: a set that does not exist, a CloneSet-only flag', async () => {
    expect(await cli('plan', 'asts/nope')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error from server (NotFound): statefulsets.apps.kruise.io "nope" not found\n',
    });
    expect(await cli('plan', 'web', '--feature-gates', 'PodIndexLabel=false')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: --feature-gates concerns an Advanced StatefulSet or DaemonSet only: a CloneSet plans with its flags\n',
    });
  });
});
