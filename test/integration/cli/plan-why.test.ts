/**
 * `kruiseless plan` and `kruiseless why` against the real local control plane and a real dynalite state table.
 * No pipeline runs here: the test runs each reconcile pass itself (runPass, the reconciler's own pass) with a
 * KubeClient that records every write, so it can check that the writes `plan` printed just before are exactly
 * the writes the pass then made, in order.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { Pod } from '../../../lib/api/types.js';
import { runCli } from '../../../lib/cli/program.js';
import { createKubeClient, kubeConfigFromFile } from '../../../lib/kube/index.js';
import { runPass, type PassDeps } from '../../../lib/controllers/cloneset/pass.js';
import { createStateStores, ensureTable, type StateStores } from '../../../lib/state/index.js';
import { useTestNamespace } from '../support/cluster.js';
import { uniqueTableName, useDynalite } from '../support/dynamo.js';
import { SEED_NAME, activePods, applySeed, patchCloneSet, testKubeconfig } from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';
import { printedWrites, recordingKube } from '../support/recordedWrites.js';

const ctx = useTestNamespace('cli-plan');
const dynamo = useDynalite();
const table = uniqueTableName('cli');
const CLUSTER = 'cli';
let stores: StateStores;
const writes = { list: [] as string[] };

const key = () => ({
  cluster: CLUSTER,
  kind: 'apps.kruise.io/CloneSet',
  namespace: ctx.namespace,
  name: SEED_NAME,
});
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
    {
      KUBECONFIG: testKubeconfig(),
      HOME: '/nonexistent',
    },
  );

/** One reconcile pass under a fresh lease, the writes it made recorded in `writes`. */
async function pass(): Promise<string[]> {
  writes.list = [];
  const acquired = await stores.leases.acquire(key(), `test-${Date.now()}`, 60_000, Date.now());
  if (!acquired.acquired) throw new Error('lease held');
  const deps: PassDeps = {
    kube: recordingKube(createKubeClient(kubeConfigFromFile(testKubeconfig())), writes),
    expectations: stores.expectations,
    ledger: stores.ledger,
    log: new Logger({ serviceName: 'cli-test', logLevel: 'SILENT' }),
    clock: Date.now,
  };
  await runPass(deps, key(), acquired.lease, new Set());
  await stores.leases.release(acquired.lease);
  return writes.list;
}

/** `writes` with the random instance ids of created pods replaced by plan's placeholders, in order. */
function placeholders(done: string[]): string[] {
  let n = 0;
  const ids = new Map<string, string>();
  for (const w of done) {
    const m = /^create pod (.*)-([a-z0-9]{5})$/.exec(w);
    if (m?.[2]) ids.set(m[2], `<new-${++n}>`);
  }
  return done.map((w) =>
    w.replace(/-([a-z0-9]{5})$/, (s, id: string) => (ids.has(id) ? `-${ids.get(id) ?? ''}` : s)),
  );
}

/** Runs passes (the readiness gate InPlaceUpdateReady is set by one) until `n` CloneSet pods are active and Ready. */
const readyPods = async (n: number): Promise<Pod[]> =>
  waitFor(`${n} Ready pods`, 60_000, async () => {
    await pass();
    const pods = (await activePods(ctx.core, ctx.namespace)).filter((p) =>
      p.metadata.name?.startsWith(`${SEED_NAME}-`),
    );
    const ready = pods.filter((p) =>
      (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
    );
    return ready.length === n && pods.length === n ? pods : undefined;
  });

beforeAll(async () => {
  await ensureTable(dynamo.client(), table);
  stores = createStateStores({ client: dynamo.client(), tableName: table });
  await applySeed(ctx.custom, ctx.namespace);
});

describe('kruiseless plan', () => {
  it('prints the writes the next pass makes, in the same order: creation, then scale-down', async () => {
    const first = await cli('plan', SEED_NAME);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    const planned = printedWrites(first.stdout);
    expect(planned.map((w) => w.replace(/^(create controllerrevision .*)-[a-z0-9]+$/, '$1-<hash>'))).toEqual([
      `create controllerrevision ${SEED_NAME}-<hash>`,
      `create pod ${SEED_NAME}-<new-1>`,
      `create pod ${SEED_NAME}-<new-2>`,
      `update cloneset/status ${SEED_NAME}`,
    ]);
    expect(first.stdout).toContain(
      `  state:            expectations and scale-down ledger from table ${table} (cluster ${CLUSTER})\n`,
    );
    expect(first.stdout).toContain('  phase:            scale\n');
    expect(first.stdout).toContain(
      `  2. create pod ${SEED_NAME}-<new-1>: scale up: fewer pods than replicas (scaleUpNum 2)`,
    );
    expect(placeholders(await pass())).toEqual(planned);

    // settle: pods Ready, the status written by a pass that changes nothing else
    await readyPods(2);
    await pass();

    await patchCloneSet(ctx.custom, ctx.namespace, [{ op: 'replace', path: '/spec/replicas', value: 1 }]);
    const down = await cli('plan', SEED_NAME);
    const plannedDown = printedWrites(down.stdout);
    expect(plannedDown).toHaveLength(2);
    expect(plannedDown[0]).toMatch(new RegExp(`^delete pod ${SEED_NAME}-[a-z0-9]{5}$`));
    expect(plannedDown[1]).toBe(`update cloneset/status ${SEED_NAME}`);
    expect(down.stdout).toContain(`1. ${plannedDown[0] ?? ''}: scale down: more pods than replicas\n`);
    expect(await pass()).toEqual(plannedDown);
  }, 150_000);

  it('shows a recorded scale-down instead of a new plan', async () => {
    const [pod] = await readyPods(1);
    const name = pod?.metadata.name ?? '';
    const lease = await stores.leases.acquire(key(), 'test-ledger', 60_000, Date.now());
    if (!lease.acquired) throw new Error('lease held');
    await stores.ledger.record(lease.lease, {
      intentId: 'intent-1',
      createdAt: Date.parse('2026-01-02T03:04:05Z'),
      pods: [{ name, uid: pod?.metadata.uid ?? '', reason: 'ScaleDown' }],
    });
    const report = await cli('plan', SEED_NAME);
    expect(report.stdout).toContain(
      '  scale-down:       recorded intent-1: the next pass finishes it and plans nothing else\n',
    );
    expect(printedWrites(report.stdout)).toEqual([`delete pod ${name}`]);
    expect(report.stdout).toContain(`  1. delete pod ${name}: recorded scale-down intent-1: ScaleDown\n`);

    const why = await cli('why', name);
    expect(why.code).toBe(0);
    expect(why.stdout).toContain(
      `  scale-down:       chosen for deletion by scale-down intent-1 at 2026-01-02T03:04:05.000Z: ScaleDown\n`,
    );
    await stores.ledger.clear(lease.lease, 'intent-1');
    await stores.leases.release(lease.lease);
  });
});

describe('kruiseless why', () => {
  it('tells a created pod and a deleted pod apart from the Events', async () => {
    const [pod] = await readyPods(1);
    const name = pod?.metadata.name ?? '';
    const kept = await cli('why', name);
    expect(kept.code).toBe(0);
    expect(kept.stderr).toBe('');
    const lines = kept.stdout.split('\n');
    expect(lines[0]).toBe(`Pod ${ctx.namespace}/${name}`);
    expect(lines[1]).toBe(`  CloneSet:         ${SEED_NAME}`);
    expect(lines).toContain(`  lifecycle state:  Normal`);
    expect(lines).toContain(`  in-place update:  none recorded`);
    expect(lines.find((l) => l.startsWith('  revision:'))).toMatch(
      /^ {2}revision: +cs-no-pvc-sample-[a-z0-9]+ \(the update revision\)$/,
    );
    expect(lines).toContain(`  specified-delete: no`);
    expect(lines).toContain(`  scale-down:       not chosen by a recorded scale-down`);
    expect(lines).toContain(`  expectations:     nothing pending for this pod`);
    expect(lines.filter((l) => l.includes(' on CloneSet/'))).toEqual([
      expect.stringMatching(
        new RegExp(
          `Normal SuccessfulCreate on CloneSet/${SEED_NAME}: succeed to create pod ${name} → created by the CloneSet$`,
        ),
      ),
    ]);

    const events = (await ctx.core.listNamespacedEvent({ namespace: ctx.namespace })).items;
    const deleted = events
      .map((e) => /^succeed to delete pod (.*)$/.exec(e.message ?? '')?.[1])
      .find((n): n is string => !!n);
    expect(deleted).toBeDefined();
    await waitFor(
      'the deleted pod gone',
      60_000,
      async () => !(await activePods(ctx.core, ctx.namespace)).some((p) => p.metadata.name === deleted),
    );
    const gone = await cli('why', deleted ?? '');
    expect(gone.code).toBe(0);
    expect(
      gone.stdout
        .split('\n')
        .filter((l) => l.includes(' on CloneSet/'))
        .map((l) => l.replace(/^ {2}\S+ {2}/, '')),
    ).toEqual([
      `Normal SuccessfulCreate on CloneSet/${SEED_NAME}: succeed to create pod ${deleted ?? ''} → created by the CloneSet`,
      `Normal SuccessfulDelete on CloneSet/${SEED_NAME}: succeed to delete pod ${deleted ?? ''} → deleted by the CloneSet`,
    ]);
  });

  it('errors: a pod that never existed, a pod without a CloneSet', async () => {
    expect(await cli('why', 'nope-zzzzz')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error from server (NotFound): pods "nope-zzzzz" not found\n',
    });
    await ctx.core.createNamespacedPod({
      namespace: ctx.namespace,
      body: { metadata: { name: 'bare' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    });
    expect(await cli('why', 'bare')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: pod "bare" is not controlled by a CloneSet, an Advanced StatefulSet or an Advanced DaemonSet\n',
    });
    expect(await cli('why', 'deployment/web')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: "deployment" is not a pod: why takes a pod name\n',
    });
    expect(await cli('plan', 'nope')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error from server (NotFound): clonesets.apps.kruise.io "nope" not found\n',
    });
  });
});

describe('kruiseless plan and why across an in-place update', () => {
  it('prints the pod patches the pass then makes, and why reports the update', async () => {
    const [pod] = await readyPods(1);
    const name = pod?.metadata.name ?? '';
    await patchCloneSet(ctx.custom, ctx.namespace, [
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.19-alpine' },
    ]);
    const report = await cli('plan', SEED_NAME);
    const planned = printedWrites(report.stdout);
    expect(planned.map((w) => w.replace(/^(create controllerrevision .*)-[a-z0-9]+$/, '$1-<hash>'))).toEqual([
      `create controllerrevision ${SEED_NAME}-<hash>`,
      `patch pod/status ${name}`,
      `patch pod ${name}`,
      `update cloneset/status ${SEED_NAME}`,
    ]);
    expect(report.stdout).toContain('  phase:            update\n');
    expect(report.stdout).toContain(`  3. patch pod ${name}: in-place update to the update revision\n`);
    expect(await pass()).toEqual(planned);

    await readyPods(1);
    const why = await cli('why', name);
    expect(why.stdout).toMatch(
      /\n {2}in-place update: {2}to revision cs-no-pvc-sample-[a-z0-9]+ at \S+ \(containers nginx\)\n/,
    );
    expect(why.stdout).toMatch(
      new RegExp(
        `Normal SuccessfulUpdatePodInPlace on CloneSet/${SEED_NAME}: successfully update pod ${name} in-place\\(revision ${SEED_NAME}-[a-z0-9]+\\) → updated in place\\n`,
      ),
    );
  });
});
