/**
 * Custom workloads as OpenKruise v1.9.0 follows them through the `WorkloadSpread_Watch_Custom_Workload_WhiteList`
 * entry of `kruise-system/kruise-configuration`: the document decoded as Go's `encoding/json` decodes it, the
 * validating webhook's targetRef rule, the pod webhook's owner match and percent replicas (`matchReference`,
 * `isReferenceEqual`, `GetReplicasFromCustomWorkload`), and the controller's target (`GetPodsForRef`' default
 * branch and `filterWorkload` with the whitelisted path). The whitelist is upstream's own e2e configuration
 * (test/kruise-e2e-config.yaml): a TFJob with a replicas path and an Advanced DaemonSet without one.
 */
import type { Pod } from '../../../../lib/api/types.js';
import {
  CustomWorkloadWhitelistError,
  isWhitelistedOwner,
  parseCustomWorkloadWhitelist,
  whitelistedReplicasPath,
} from '../../../../lib/controllers/workloadspread/api/customWorkloads.js';
import {
  kubeWorkloadSpreadValidationReads,
  workloadSpreadValidator,
} from '../../../../lib/controllers/workloadspread/api/validating.js';
import type {
  WorkloadSpread,
  WorkloadSpreadStatus,
} from '../../../../lib/controllers/workloadspread/api/types.js';
import {
  kubeWorkloadSpreadWebhookDeps,
  workloadSpreadPodStep,
} from '../../../../lib/controllers/workloadspread/podWebhook.js';
import { readTargets } from '../../../../lib/controllers/workloadspread/targets.js';
import { KubeApiError } from '../../../../lib/kube/errors.js';
import type { Resource } from '../../../../lib/kube/resource.js';
import type { KubeClient } from '../../../../lib/kube/types.js';
import { pod, workloadSpread } from './fixtures.js';

/** Upstream's test/kruise-e2e-config.yaml entry, as its CI applies it. */
const E2E_WHITELIST = `{
  "workloads": [
    {"Group": "kubeflow.org", "Version": "v1", "Kind": "TFJob", "ReplicasPath": "spec.tfReplicaSpecs.MASTER.replicas"},
    {"Group": "apps.kruise.io", "Version": "v1alpha1", "Kind": "DaemonSet"}
  ]
}`;

const CONFIG_KEY = 'WorkloadSpread_Watch_Custom_Workload_WhiteList';

const tfJob = (name: string, master: number, worker: number) => ({
  apiVersion: 'kubeflow.org/v1',
  kind: 'TFJob',
  metadata: { name, namespace: 'ns', uid: `${name}-uid` },
  spec: {
    tfReplicaSpecs: { PS: { replicas: 1 }, MASTER: { replicas: master }, Worker: { replicas: worker } },
  },
});

/** A pod of TFJob `job` (controller reference) with `role`, placed in `subset` when given. */
const tfPod = (name: string, job: string, role: string, subset?: string): Pod =>
  pod(name, subset, {
    labels: { role },
    ownerReferences: [
      { apiVersion: 'kubeflow.org/v1', kind: 'TFJob', name: job, uid: `${job}-uid`, controller: true },
    ],
  });

const spreadOver = (apiVersion: string, kind: string, name: string, a: number | string, b: number | string) =>
  workloadSpread({
    spec: {
      targetRef: { apiVersion, kind, name },
      subsets: [
        { name: 'subset-a', maxReplicas: a },
        { name: 'subset-b', maxReplicas: b },
      ],
    },
  });

interface FakeCluster {
  /** objects by `group/plural/name` */
  objects: Record<string, unknown>;
  pods: Pod[];
  /** the ConfigMap's entry; undefined: no ConfigMap; an Error: its read fails so */
  whitelist?: string | Error;
  /** `group/version` → served resources (default: TFJobs without scale, Advanced DaemonSets, a scaled kind) */
  served?: Record<string, { name: string; namespaced: boolean; kind: string }[]>;
  scales?: Record<
    string,
    { metadata: { uid: string }; spec: { replicas: number }; status: { selector: string } }
  >;
  calls: string[];
}

const SERVED = {
  'kubeflow.org/v1': [{ name: 'tfjobs', namespaced: true, kind: 'TFJob' }],
  'apps.kruise.io/v1alpha1': [{ name: 'daemonsets', namespaced: true, kind: 'DaemonSet' }],
  'example.io/v1': [
    { name: 'games', namespaced: true, kind: 'Game' },
    { name: 'games/scale', namespaced: true, kind: 'Scale' },
  ],
};

function fakeKube(c: FakeCluster): KubeClient {
  return {
    get: (r: Resource, ref: { name: string; namespace?: string }) => {
      c.calls.push(`get ${r.group}/${r.plural}/${ref.name}`);
      if (r.plural === 'configmaps') {
        if (c.whitelist instanceof Error) return Promise.reject(c.whitelist);
        return Promise.resolve(
          c.whitelist === undefined
            ? undefined
            : { metadata: { name: 'kruise-configuration' }, data: { [CONFIG_KEY]: c.whitelist } },
        );
      }
      return Promise.resolve(c.objects[`${r.group}/${r.plural}/${ref.name}`]);
    },
    list: (r: Resource, opts: { labelSelector?: string }) => {
      c.calls.push(`list ${r.plural} ${opts.labelSelector ?? ''}`.trimEnd());
      return Promise.resolve({ items: r.plural === 'pods' ? c.pods : [], resourceVersion: '1' });
    },
    serverResources: (gv: string) => Promise.resolve((c.served ?? SERVED)[gv as keyof typeof SERVED]),
    getScale: (r: Resource, ref: { name: string }) => {
      c.calls.push(`get ${r.plural}/${ref.name}/scale`);
      return Promise.resolve(c.scales?.[ref.name]);
    },
  } as unknown as KubeClient;
}

describe('the whitelist as Go decodes it', () => {
  it('reads upstream’s e2e configuration; no ConfigMap or null is no whitelist', () => {
    expect(parseCustomWorkloadWhitelist(E2E_WHITELIST)).toEqual([
      {
        group: 'kubeflow.org',
        version: 'v1',
        kind: 'TFJob',
        subResources: [],
        replicasPath: 'spec.tfReplicaSpecs.MASTER.replicas',
      },
      { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'DaemonSet', subResources: [], replicasPath: '' },
    ]);
    expect(parseCustomWorkloadWhitelist(undefined)).toEqual([]);
    expect(parseCustomWorkloadWhitelist('null')).toEqual([]);
    expect(parseCustomWorkloadWhitelist('{}')).toEqual([]);
  });

  it('matches keys without regard to case, the last spelling winning, and ignores unknown keys', () => {
    expect(
      parseCustomWorkloadWhitelist(
        '{"Workloads":[{"group":"g.io","KIND":"A","kind":"B","version":"v2","replicaspath":"spec.n",' +
          '"subresources":[{"Group":"g.io","Kind":"Sub"}],"extra":1}]}',
      ),
    ).toEqual([
      {
        group: 'g.io',
        version: 'v2',
        kind: 'B',
        subResources: [{ group: 'g.io', version: '', kind: 'Sub' }],
        replicasPath: 'spec.n',
      },
    ]);
  });

  it('refuses text that is not JSON or fields of the wrong type, naming the key', () => {
    expect(() => parseCustomWorkloadWhitelist('{"workloads": [')).toThrow(CustomWorkloadWhitelistError);
    expect(() => parseCustomWorkloadWhitelist('{"workloads":[{"Kind":5}]}')).toThrow(
      'WorkloadSpread_Watch_Custom_Workload_WhiteList: workloads[0].Kind is not a string',
    );
    expect(() => parseCustomWorkloadWhitelist('{"workloads":{}}')).toThrow(
      'workloads.workloads is not a list',
    );
    expect(() => parseCustomWorkloadWhitelist('[]')).toThrow('is not a JSON object');
  });

  it('owners: a workload’s or a sub-resource’s group and Kind; replicas path: group, version and Kind', () => {
    const list = parseCustomWorkloadWhitelist(
      '{"workloads":[{"Group":"g.io","Version":"v1","Kind":"Top","ReplicasPath":"spec.n",' +
        '"SubResources":[{"Group":"g.io","Version":"v1","Kind":"Mid"}]}]}',
    );
    expect(isWhitelistedOwner(list, { apiVersion: 'g.io/v9', kind: 'Top' })).toBe(true);
    expect(isWhitelistedOwner(list, { apiVersion: 'g.io/v1', kind: 'Mid' })).toBe(true);
    expect(isWhitelistedOwner(list, { apiVersion: 'h.io/v1', kind: 'Top' })).toBe(false);
    expect(whitelistedReplicasPath(list, { apiVersion: 'g.io/v1', kind: 'Top' })).toBe('spec.n');
    expect(whitelistedReplicasPath(list, { apiVersion: 'g.io/v2', kind: 'Top' })).toBeUndefined();
  });
});

describe('the validating webhook for a custom target', () => {
  const validate = (ws: WorkloadSpread, whitelist: FakeCluster['whitelist'], calls: string[] = []) =>
    workloadSpreadValidator({
      reads: kubeWorkloadSpreadValidationReads(fakeKube({ objects: {}, pods: [], whitelist, calls })),
    }).validate({
      operation: 'CREATE',
      object: JSON.parse(JSON.stringify(ws)) as never,
      requestVersion: 'v1beta1',
    });

  it('allows a whitelisted group and Kind, refuses any other as upstream words it', async () => {
    const tf = spreadOver('kubeflow.org/v1', 'TFJob', 'train', '20%', '80%');
    const calls: string[] = [];
    await expect(validate(tf, E2E_WHITELIST, calls)).resolves.toEqual({ allowed: true });
    expect(calls).toContain('get /configmaps/kruise-configuration');
    await expect(validate(tf, undefined)).resolves.toEqual({
      allowed: false,
      code: 400,
      message:
        'spec.targetRef: Invalid value: v1beta1.TargetReference{APIVersion:"kubeflow.org/v1", Kind:"TFJob", ' +
        'Name:"train"}: TargetReference\'s GroupKind is not permitted.',
    });
    // a sub-resource is not a target
    const sub = spreadOver('g.io/v1', 'Mid', 'm', 1, 1);
    const withSub =
      '{"workloads":[{"Group":"g.io","Kind":"Top","SubResources":[{"Group":"g.io","Kind":"Mid"}]}]}';
    await expect(validate(sub, withSub)).resolves.toMatchObject({ allowed: false, code: 400 });
  });

  it('a built-in Kind reads no whitelist; one that cannot be read refuses with an internal error', async () => {
    const calls: string[] = [];
    await expect(validate(workloadSpread(), E2E_WHITELIST, calls)).resolves.toEqual({ allowed: true });
    expect(calls.filter((c) => c.includes('configmaps'))).toEqual([]);
    const forbidden = new KubeApiError(
      'get configmaps',
      403,
      'Forbidden',
      'configmaps "kruise-configuration" is forbidden',
    );
    await expect(validate(spreadOver('kubeflow.org/v1', 'TFJob', 't', 1, 1), forbidden)).resolves.toEqual({
      allowed: false,
      code: 400,
      message: 'spec.targetRef: Internal error: configmaps "kruise-configuration" is forbidden',
    });
  });
});

describe('the pod webhook for a custom owner', () => {
  const context = { namespace: 'ns', requestNamespace: 'ns', dryRun: false };

  function stepOver(ws: WorkloadSpread, cluster: FakeCluster, writes: WorkloadSpreadStatus[]) {
    return workloadSpreadPodStep({
      ...kubeWorkloadSpreadWebhookDeps(fakeKube(cluster)),
      listWorkloadSpreads: () => Promise.resolve([ws]),
      updateStatus: (_w: unknown, status: WorkloadSpreadStatus) => {
        writes.push(status);
        ws.status = status;
        return Promise.resolve({ ...ws, status });
      },
      now: () => new Date('2026-12-07T08:00:00Z'),
    });
  }

  it('places a whitelisted TFJob’s pods by its MASTER replicas (20 % / 80 % of 5: 1 and 4)', async () => {
    const ws = spreadOver('kubeflow.org/v1', 'TFJob', 'train', '20%', '80%');
    const cluster: FakeCluster = {
      objects: { 'kubeflow.org/tfjobs/train': tfJob('train', 5, 0) },
      pods: [],
      whitelist: E2E_WHITELIST,
      calls: [],
    };
    const writes: WorkloadSpreadStatus[] = [];
    const step = stepOver(ws, cluster, writes);
    const subsets: string[] = [];
    for (const name of ['ps-0', 'master-0', 'master-1', 'master-2']) {
      const out = await step(tfPod(name, 'train', name.split('-')[0]), context);
      const note =
        'pod' in out ? out.pod.metadata.annotations?.['apps.kruise.io/matched-workloadspread'] : '';
      subsets.push((JSON.parse(note ?? '{}') as { subset?: string }).subset ?? '');
    }
    expect(subsets).toEqual(['subset-a', 'subset-b', 'subset-b', 'subset-b']);
    expect(
      ws.status?.versionedSubsetStatuses?.versionIgnored?.map((s) => [s.name, s.missingReplicas]),
    ).toEqual([
      ['subset-a', 0],
      ['subset-b', 1],
    ]);
    // the whitelist is read once in the period, the TFJob for the replicas once (the ledger keeps them after)
    expect(cluster.calls.filter((c) => c.includes('configmaps'))).toHaveLength(1);
  });

  it('hands on the pod of a Kind not whitelisted, and of an unreadable whitelist, untouched', async () => {
    const ws = spreadOver('kubeflow.org/v1', 'TFJob', 'train', 1, 1);
    for (const whitelist of [undefined, '{"workloads": [', new Error('boom')]) {
      const cluster: FakeCluster = { objects: {}, pods: [], whitelist, calls: [] };
      const writes: WorkloadSpreadStatus[] = [];
      const p = tfPod('ps-0', 'train', 'ps');
      await expect(stepOver(ws, cluster, writes)(p, context)).resolves.toEqual({ pod: p });
      expect(writes).toEqual([]);
    }
  });

  it('follows a whitelisted sub-resource up to the target; a missing one refuses the pod with 500', async () => {
    const whitelist =
      '{"workloads":[{"Group":"example.io","Version":"v1","Kind":"Game",' +
      '"SubResources":[{"Group":"kubeflow.org","Version":"v1","Kind":"TFJob"}]}]}';
    const ws = spreadOver('example.io/v1', 'Game', 'g', 1, 1);
    const owned = {
      ...tfJob('train', 1, 0),
      metadata: {
        name: 'train',
        namespace: 'ns',
        uid: 'train-uid',
        ownerReferences: [
          { apiVersion: 'example.io/v1', kind: 'Game', name: 'g', uid: 'g-uid', controller: true },
        ],
      },
    };
    const cluster: FakeCluster = {
      objects: { 'kubeflow.org/tfjobs/train': owned },
      pods: [],
      whitelist,
      calls: [],
    };
    const writes: WorkloadSpreadStatus[] = [];
    const out = await stepOver(ws, cluster, writes)(tfPod('ps-0', 'train', 'ps'), context);
    expect('pod' in out && out.pod.metadata.annotations?.['apps.kruise.io/matched-workloadspread']).toBe(
      '{"name":"ws-a","subset":"subset-a"}',
    );
    expect(cluster.calls).toContain('get kubeflow.org/tfjobs/train');
    const gone: FakeCluster = { objects: {}, pods: [], whitelist, calls: [] };
    await expect(stepOver(ws, gone, [])(tfPod('ps-1', 'train', 'ps'), context)).resolves.toEqual({
      refuse: { code: 500, message: 'TFJob "train" not found' },
    });
  });
});

describe('readTargets for a custom target', () => {
  it('a TFJob without a scale: its owned pods, the replicas at the whitelisted path', async () => {
    const pods = [
      tfPod('ps-0', 'train', 'ps', 'subset-a'),
      tfPod('m-0', 'train', 'master'),
      tfPod('x', 'other', 'ps'),
    ];
    const calls: string[] = [];
    const read = await readTargets(
      fakeKube({
        objects: { 'kubeflow.org/tfjobs/train': tfJob('train', 5, 0) },
        pods,
        whitelist: E2E_WHITELIST,
        calls,
      }),
      spreadOver('kubeflow.org/v1', 'TFJob', 'train', '20%', '80%'),
    );
    expect(read).toEqual({
      pods: [pods[0], pods[1]],
      replicas: 5,
      latestVersion: 'versionIgnored',
      nodes: new Map(),
    });
    expect(calls).toEqual([
      'get kubeflow.org/tfjobs/train',
      'list pods',
      'get /configmaps/kruise-configuration',
      'get kubeflow.org/tfjobs/train',
      'get /nodes/node-1',
    ]);
  });

  it('targetFilter’s paths and selector win over the whitelist; an entry without a path counts 0', async () => {
    const pods = [tfPod('w-0', 'f', 'worker'), tfPod('m-0', 'f', 'master')];
    const ws = spreadOver('kubeflow.org/v1', 'TFJob', 'f', '25%', '75%');
    ws.spec.targetFilter = {
      selector: { matchLabels: { role: 'worker' } },
      replicasPathList: ['spec.tfReplicaSpecs.Worker.replicas'],
    };
    const cluster = (objects: Record<string, unknown>): FakeCluster => ({
      objects,
      pods,
      whitelist: E2E_WHITELIST,
      calls: [],
    });
    const filtered = await readTargets(fakeKube(cluster({ 'kubeflow.org/tfjobs/f': tfJob('f', 1, 4) })), ws);
    expect([filtered.pods.map((p) => p.metadata.name), filtered.replicas]).toEqual([['w-0'], 4]);
    // with targetFilter's paths the whitelist is not read: one that is not JSON fails nothing
    const calls: string[] = [];
    const broken = { ...cluster({ 'kubeflow.org/tfjobs/f': tfJob('f', 1, 4) }), whitelist: '{', calls };
    await expect(readTargets(fakeKube(broken), ws)).resolves.toMatchObject({ replicas: 4 });
    expect(calls.filter((c) => c.includes('configmaps'))).toEqual([]);
    const ds = {
      metadata: { name: 'f', namespace: 'ns', uid: 'f-uid' },
      spec: { selector: { matchLabels: { app: 'f' } } },
    };
    const daemon = await readTargets(
      fakeKube(cluster({ 'apps.kruise.io/daemonsets/f': ds })),
      spreadOver('apps.kruise.io/v1alpha1', 'DaemonSet', 'f', 2, 5),
    );
    expect([daemon.pods.length, daemon.replicas]).toEqual([2, 0]);
  });

  it('a scaled kind: the scale’s replicas, its selector when no pod is owned; gone or at 0: no pods', async () => {
    const pods = [pod('p-0', undefined, { labels: { game: 'g' }, ownerReferences: [] })];
    const scale = { metadata: { uid: 'g-uid' }, spec: { replicas: 3 }, status: { selector: 'game=g' } };
    const calls: string[] = [];
    const ws = spreadOver('example.io/v1', 'Game', 'g', 1, 1);
    const read = await readTargets(fakeKube({ objects: {}, pods, scales: { g: scale }, calls }), ws);
    expect([read.pods.length, read.replicas]).toEqual([1, 3]);
    expect(calls).toEqual([
      'get games/g/scale',
      'list pods',
      'list pods game=g',
      'get /configmaps/kruise-configuration',
      'get /nodes/node-1',
    ]);
    const zero = { ...scale, spec: { replicas: 0 } };
    const none = await readTargets(fakeKube({ objects: {}, pods, scales: { g: zero }, calls: [] }), ws);
    expect([none.pods.length, none.replicas]).toEqual([0, 0]);
    const gone = await readTargets(fakeKube({ objects: {}, pods, calls: [] }), ws);
    expect([gone.pods.length, gone.replicas]).toEqual([0, 0]);
  });

  it('a whitelist that is not JSON or a kind not served fails the pass', async () => {
    const ws = spreadOver('kubeflow.org/v1', 'TFJob', 'train', 1, 1);
    await expect(
      readTargets(fakeKube({ objects: {}, pods: [], whitelist: '{', calls: [] }), ws),
    ).rejects.toThrow(CustomWorkloadWhitelistError);
    await expect(
      readTargets(fakeKube({ objects: {}, pods: [], whitelist: E2E_WHITELIST, served: {}, calls: [] }), ws),
    ).rejects.toThrow('no resource of kind TFJob is served in kubeflow.org/v1');
  });
});

describe('readTargets for a built-in target the whitelist also lists (upstream’s getReplicasPathList)', () => {
  const LISTED = (entry: string) => `{"workloads": [${entry}]}`;
  const CLONESET_READY = LISTED(
    '{"Group": "apps.kruise.io", "Version": "v1alpha1", "Kind": "CloneSet", "ReplicasPath": "status.readyReplicas"}',
  );
  const cloneSet = (deleting = false) => ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: {
      name: 'web',
      namespace: 'ns',
      uid: 'web-uid',
      ...(deleting ? { deletionTimestamp: '2026-12-07T00:00:00Z' } : {}),
    },
    spec: { replicas: 5, selector: { matchLabels: { app: 'web' } } },
    status: { readyReplicas: 3 },
  });
  const webPod = (name: string) =>
    pod(name, undefined, {
      labels: { app: 'web' },
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          name: 'web',
          uid: 'web-uid',
          controller: true,
        },
      ],
    });
  const read = (whitelist: string | undefined, ws: WorkloadSpread, deleting = false, calls: string[] = []) =>
    readTargets(
      fakeKube({
        objects: { 'apps.kruise.io/clonesets/web': cloneSet(deleting) },
        pods: [webPod('web-0'), webPod('web-1')],
        whitelist,
        calls,
      }),
      ws,
    );

  it('counts at the listed path when group, version and Kind match; else the Kind’s own replicas', async () => {
    const calls: string[] = [];
    const listed = await read(
      CLONESET_READY,
      spreadOver('apps.kruise.io/v1alpha1', 'CloneSet', 'web', 1, 1),
      false,
      calls,
    );
    expect([listed.replicas, listed.pods.length, listed.kind]).toEqual([3, 2, 'CloneSet']);
    expect(calls).toEqual([
      'get apps.kruise.io/clonesets/web',
      'get /configmaps/kruise-configuration',
      'list pods app=web',
      'get /nodes/node-1',
    ]);
    // the entry is for v1alpha1: a target named through v1beta1 is counted by spec.replicas, as upstream
    const otherVersion = await read(
      CLONESET_READY,
      spreadOver('apps.kruise.io/v1beta1', 'CloneSet', 'web', 1, 1),
    );
    expect(otherVersion.replicas).toBe(5);
    // no ConfigMap, or no entry for the Kind
    expect(
      (await read(undefined, spreadOver('apps.kruise.io/v1alpha1', 'CloneSet', 'web', 1, 1))).replicas,
    ).toBe(5);
    expect(
      (await read(E2E_WHITELIST, spreadOver('apps.kruise.io/v1alpha1', 'CloneSet', 'web', 1, 1))).replicas,
    ).toBe(5);
  });

  it('an entry without a path counts 0; targetFilter’s paths win; a target being deleted is counted at the path', async () => {
    const ws = spreadOver('apps.kruise.io/v1alpha1', 'CloneSet', 'web', 1, 1);
    const pathless = LISTED('{"Group": "apps.kruise.io", "Version": "v1alpha1", "Kind": "CloneSet"}');
    expect((await read(pathless, ws)).replicas).toBe(0);
    const deleting = await read(CLONESET_READY, ws, true);
    expect([deleting.replicas, deleting.pods.length]).toEqual([3, 0]);
    const filtered = spreadOver('apps.kruise.io/v1alpha1', 'CloneSet', 'web', 1, 1);
    filtered.spec.targetFilter = { replicasPathList: ['spec.replicas'] };
    const calls: string[] = [];
    expect((await read('{', filtered, false, calls)).replicas).toBe(5);
    expect(calls.filter((c) => c.includes('configmaps'))).toEqual([]);
  });

  it('a whitelist that is not JSON, or a path that cannot be read, fails the built-in target’s pass too', async () => {
    const ws = spreadOver('apps.kruise.io/v1alpha1', 'CloneSet', 'web', 1, 1);
    await expect(read('{', ws)).rejects.toThrow(CustomWorkloadWhitelistError);
    const missing = LISTED(
      '{"Group": "apps.kruise.io", "Version": "v1alpha1", "Kind": "CloneSet", "ReplicasPath": "status.nothing"}',
    );
    expect(await read(missing, ws)).toEqual({
      pods: [],
      replicas: 0,
      latestVersion: 'versionIgnored',
      kind: 'CloneSet',
      replicasPathError: 'path "nothing" not exists',
    });
  });

  it('a target that does not exist: no pods, 0 replicas, but the whitelist is read and a bad one fails the pass', async () => {
    const ws = spreadOver('apps.kruise.io/v1alpha1', 'CloneSet', 'gone', 1, 1);
    const calls: string[] = [];
    expect(await read(CLONESET_READY, ws, false, calls)).toEqual({
      pods: [],
      replicas: 0,
      latestVersion: 'versionIgnored',
    });
    expect(calls).toEqual(['get apps.kruise.io/clonesets/gone', 'get /configmaps/kruise-configuration']);
    await expect(read('{', ws)).rejects.toThrow(CustomWorkloadWhitelistError);
    // targetFilter's paths: the ConfigMap is not read
    ws.spec.targetFilter = { replicasPathList: ['spec.replicas'] };
    const filteredCalls: string[] = [];
    expect((await read('{', ws, false, filteredCalls)).replicas).toBe(0);
    expect(filteredCalls).toEqual(['get apps.kruise.io/clonesets/gone']);
  });
});
