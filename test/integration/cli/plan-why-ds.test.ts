/**
 * `kruiseless why <pod>` on an Advanced DaemonSet's pods against the real local control plane, with the embedded
 * pipeline reconciling it on two kwok nodes of this file's own (labelled and tainted with its namespace, as
 * test/integration/cli/rolloutDaemonSet.test.ts does): a pod at the update revision on a node that should run it; an
 * image change held back by `partition` (the pod kept at its old revision) and then by `paused`; a node tainted
 * NoSchedule (no new pod, the pod there may stay); a node labelled out of the nodeSelector (its pod deleted, and
 * `why` on it once gone: the DaemonSet's Events).
 */
import type { Embedded } from '../../../lib/local/embedded.js';
import type { Pod } from '../../../lib/api/types.js';
import type { DaemonSet } from '../../../lib/controllers/daemonset/api/types.js';
import { runCli } from '../../../lib/cli/program.js';
import { useTestNamespace } from '../support/cluster.js';
import { startPipeline, testKubeconfig } from '../support/pipeline.js';
import { agentDaemonSet, createFileNodes, deleteNodes, DS_API, getDaemonSet } from '../support/daemonset.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('cli-why-ds');
const LABEL = 'kruiseless.io/ds-why-test';
let embedded: Embedded;
let nodes: string[] = [];
const env = (): Record<string, string> => ({ KUBECONFIG: testKubeconfig(), HOME: '/nonexistent' });
const cli = (...argv: string[]) => runCli([...argv, '-n', ctx.namespace], env());

const getSet = (): Promise<DaemonSet> => getDaemonSet(ctx.custom, ctx.namespace);

/** The live pods, by node name. */
async function livePods(): Promise<Pod[]> {
  const pods = (await ctx.core.listNamespacedPod({ namespace: ctx.namespace })).items as unknown as Pod[];
  return pods
    .filter((p) => !p.metadata.deletionTimestamp)
    .sort((a, b) => (a.spec.nodeName ?? '').localeCompare(b.spec.nodeName ?? ''));
}

/** Waits until the spec is observed with `updated` pods updated out of `desired`, all available. */
async function observed(desired: number, updated: number): Promise<DaemonSet> {
  return waitFor(`the DaemonSet observed, ${updated}/${desired} updated`, 90_000, async () => {
    const ds = await getSet();
    const s = ds.status;
    return s !== undefined &&
      s.observedGeneration === ds.metadata.generation &&
      s.desiredNumberScheduled === desired &&
      s.updatedNumberScheduled === updated &&
      s.numberAvailable === desired &&
      (await livePods()).length === desired
      ? ds
      : undefined;
  });
}

async function patchSet(body: object[]): Promise<void> {
  await ctx.custom.patchNamespacedCustomObject({ ...DS_API, namespace: ctx.namespace, name: 'agent', body });
}

/** The report's lines from `revision:` to `next pass:`, and its DaemonSet Event lines without their times. */
async function why(pod: string): Promise<{ lines: string[]; events: string[] }> {
  const out = await cli('why', pod);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  const lines = out.stdout.split('\n');
  return {
    lines,
    events: lines.filter((l) => l.includes(' on DaemonSet/')).map((l) => l.replace(/^ {2}\S+ {2}/, '')),
  };
}

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace);
  nodes = await createFileNodes(ctx.core, 'kwok-why-ds', LABEL, ctx.namespace);
  const ds = agentDaemonSet(ctx.namespace, LABEL);
  await ctx.custom.createNamespacedCustomObject({ ...DS_API, namespace: ctx.namespace, body: ds });
  await observed(2, 2);
}, 150_000);

afterAll(async () => {
  await embedded?.stop();
  await deleteNodes(ctx.core, nodes);
});

describe('kruiseless why on an Advanced DaemonSet pod', () => {
  it('node, should-run, revision, partition and paused, taints, a pod gone with its node left out', async () => {
    const first = (await getSet()).status?.updateRevision ?? '';
    const [podA, podB] = (await livePods()).map((p) => p.metadata.name ?? '');
    const a = await why(podA);
    expect(a.lines.slice(0, 4)).toEqual([
      `Pod ${ctx.namespace}/${podA}`,
      '  DaemonSet:        agent (apps.kruise.io)',
      `  node:             ${nodes[0]}`,
      '  should run:       yes',
    ]);
    expect(a.lines.slice(5, 12)).toEqual([
      `  revision:         ${first} (the update revision, agent-${first})`,
      '  update:           at the update revision: nothing to update',
      '  lifecycle state:  (none: Normal)',
      '  in-place update:  none recorded',
      '  state:            not read (no --table): expectations unknown',
      '  expectations:     not read',
      '  next pass:        nothing for this pod',
    ]);
    expect(a.events).toEqual([
      `Normal SuccessfulCreate on DaemonSet/agent: Created pod: ${podA} → created by the DaemonSet`,
    ]);

    // an image change held back by partition 2 of 2, then by paused
    await patchSet([
      { op: 'add', path: '/spec/updateStrategy', value: { rollingUpdate: { partition: 2 } } },
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.26' },
    ]);
    const held = await observed(2, 0);
    const second = held.status?.updateRevision ?? '';
    expect(second).not.toBe(first);
    const partitioned = await why(podA);
    expect(partitioned.lines.slice(5, 7)).toEqual([
      `  revision:         ${first} (an old revision; the update revision is ${second})`,
      '  update:           kept at its revision by partition 2 (0 nodes may update)',
    ]);
    await patchSet([
      { op: 'replace', path: '/spec/updateStrategy/rollingUpdate', value: { partition: 0, paused: true } },
    ]);
    await observed(2, 0);
    expect((await why(podA)).lines[6]).toBe(
      '  update:           rollingUpdate.paused: the rolling update waits',
    );

    // node b tainted NoSchedule, not tolerated: no new pod there, the one there may stay
    await ctx.core.patchNode({
      name: nodes[1],
      body: [
        {
          op: 'add',
          path: '/spec/taints/-',
          value: { key: 'kruiseless.io/why', value: 'x', effect: 'NoSchedule' },
        },
      ],
    });
    const tainted = await waitFor('node b judged tainted', 30_000, async () => {
      const b = await why(podB);
      return b.lines[3]?.includes('no:') ? b : undefined;
    });
    expect(tainted.lines[3]).toBe(
      '  should run:       no: taint kruiseless.io/why=x:NoSchedule not tolerated; a pod already there may stay',
    );

    // node a labelled out of the nodeSelector: its pod deleted; why on it once gone
    await ctx.core.patchNode({
      name: nodes[0],
      body: [{ op: 'remove', path: `/metadata/labels/${LABEL.replace('/', '~1')}` }],
    });
    await waitFor(`${podA} deleted`, 90_000, async () => {
      const all = await ctx.core.listNamespacedPod({ namespace: ctx.namespace });
      return !all.items.some((p) => p.metadata?.name === podA);
    });
    const gone = await why(podA);
    expect(gone.lines.slice(1, 3)).toEqual([
      '  DaemonSet:        agent (apps.kruise.io)',
      '  pod:              gone: what is left is the state and the Events',
    ]);
    expect(gone.events).toEqual([
      `Normal SuccessfulCreate on DaemonSet/agent: Created pod: ${podA} → created by the DaemonSet`,
      `Normal SuccessfulDelete on DaemonSet/agent: Deleted pod: ${podA} → deleted by the DaemonSet`,
    ]);
  }, 300_000);
});
