import type { Pod } from '../../../../../lib/api/types.js';
import { mutateSidecarSet } from '../../../../../lib/controllers/sidecarset/api/mutation.js';
import type { SidecarSet, SidecarSetSpec } from '../../../../../lib/controllers/sidecarset/api/types.js';
import { SidecarInjectionError } from '../../../../../lib/controllers/sidecarset/plan/errors.js';
import { injectSidecars } from '../../../../../lib/controllers/sidecarset/plan/inject.js';

const NOW = new Date('2026-12-02T10:20:30.456Z');
const TS = '2026-12-02T10:20:30Z';
const NS_LABELS = { 'kubernetes.io/metadata.name': 'ns1', env: 'prod' };

/** A SidecarSet as stored: through the SidecarSet webhook (defaults and hash annotations). */
function sidecarSet(name: string, spec: SidecarSetSpec): SidecarSet {
  return mutateSidecarSet({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name },
    spec,
  });
}

function pod(extra: Partial<Pod['spec']> = {}, labels: Record<string, string> = { app: 'web' }): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns1', labels },
    spec: { containers: [{ name: 'main', image: 'nginx:1.25' }], ...extra },
  };
}

const inject = (p: Pod, sets: SidecarSet[], nsLabels: Record<string, string> | null = NS_LABELS) =>
  injectSidecars({ pod: p, namespaceLabels: nsLabels ?? undefined, sidecarSets: sets, now: NOW });

const hashOf = (s: SidecarSet) => s.metadata.annotations!['kruise.io/sidecarset-hash'];
const hashWithoutImageOf = (s: SidecarSet) =>
  s.metadata.annotations!['kruise.io/sidecarset-hash-without-image'];

/** The injected container as the pod gets it from a defaulted SidecarSet container. */
const sidecar = (name: string, image: string, extra: Record<string, unknown> = {}) => ({
  name,
  image,
  resources: {},
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
  imagePullPolicy: 'IfNotPresent',
  ...extra,
  env: [...((extra.env as unknown[]) ?? []), { name: 'IS_INJECTED', value: 'true' }],
});

describe('SidecarSet injection at pod creation (OpenKruise sidecarsetMutatingPod, CREATE)', () => {
  it('injects a sidecar before the app container, with its volume and the three annotations', () => {
    const s = sidecarSet('log', {
      selector: { matchLabels: { app: 'web' } },
      containers: [
        { name: 'logger', image: 'fluentd:1', volumeMounts: [{ name: 'logs', mountPath: '/logs' }] },
      ],
      volumes: [
        { name: 'logs', emptyDir: {} },
        { name: 'unused', emptyDir: {} },
      ],
    });
    const { pod: out, changed, sidecarSets } = inject(pod(), [s]);
    expect(changed).toBe(true);
    expect(sidecarSets).toEqual(['log']);
    expect(out).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'p',
        namespace: 'ns1',
        labels: { app: 'web' },
        annotations: {
          'kruise.io/sidecarset-hash': `{"log":{"updateTimestamp":"${TS}","hash":"${hashOf(s)}","sidecarSetName":"log","sidecarList":["logger"]}}`,
          'kruise.io/sidecarset-hash-without-image': `{"log":{"updateTimestamp":"${TS}","hash":"${hashWithoutImageOf(s)}","sidecarSetName":"log","sidecarList":["logger"]}}`,
          'kruise.io/sidecarset-injected-list': 'log',
        },
      },
      spec: {
        containers: [
          sidecar('logger', 'fluentd:1', { volumeMounts: [{ name: 'logs', mountPath: '/logs' }] }),
          { name: 'main', image: 'nginx:1.25' },
        ],
        volumes: [{ name: 'logs', emptyDir: {} }],
      },
    });
  });

  it('leaves a pod no SidecarSet selects untouched (other labels, empty selector, paused, other namespace)', () => {
    const sets = [
      sidecarSet('other-labels', {
        selector: { matchLabels: { app: 'db' } },
        containers: [{ name: 'a', image: 'a:1' }],
      }),
      sidecarSet('empty-selector', { selector: {}, containers: [{ name: 'b', image: 'b:1' }] }),
      sidecarSet('paused', {
        selector: { matchLabels: { app: 'web' } },
        injectionStrategy: { paused: true },
        containers: [{ name: 'c', image: 'c:1' }],
      }),
      sidecarSet('other-ns', {
        selector: { matchLabels: { app: 'web' } },
        namespace: 'ns2',
        containers: [{ name: 'd', image: 'd:1' }],
      }),
      sidecarSet('ns-selector', {
        selector: { matchLabels: { app: 'web' } },
        namespaceSelector: { matchLabels: { env: 'dev' } },
        containers: [{ name: 'e', image: 'e:1' }],
      }),
    ];
    const p = pod();
    const result = inject(p, sets);
    expect(result).toEqual({ pod: p, changed: false, sidecarSets: [] });
    expect(result.pod).toBe(p);
  });

  it('a namespace selector needs the namespace: one that cannot be read matches no selector', () => {
    const s = sidecarSet('sel', {
      selector: { matchLabels: { app: 'web' } },
      namespaceSelector: { matchLabels: { env: 'prod' } },
      containers: [{ name: 'e', image: 'e:1' }],
    });
    expect(inject(pod(), [s]).sidecarSets).toEqual(['sel']);
    expect(inject(pod(), [s], null).changed).toBe(false);
  });

  it('orders namespace-scoped SidecarSets before cluster-wide ones, Before/AfterAppContainer around the app', () => {
    const sets = [
      sidecarSet('a-cluster', {
        selector: { matchLabels: { app: 'web' } },
        containers: [
          { name: 'c1', image: 'c:1' },
          { name: 'c2', image: 'c:2', podInjectPolicy: 'AfterAppContainer' },
        ],
      }),
      sidecarSet('z-ns', {
        selector: { matchLabels: { app: 'web' } },
        namespace: 'ns1',
        containers: [
          { name: 'n1', image: 'n:1' },
          { name: 'n2', image: 'n:2', podInjectPolicy: 'AfterAppContainer' },
        ],
      }),
    ];
    const out = inject(pod(), sets);
    expect(out.sidecarSets).toEqual(['z-ns', 'a-cluster']);
    expect(out.pod.spec.containers.map((c) => c.name)).toEqual(['n1', 'c1', 'main', 'n2', 'c2']);
    expect(out.pod.metadata.annotations!['kruise.io/sidecarset-injected-list']).toBe('a-cluster,z-ns');
  });

  it('gate EnableSortSidecarContainerByName: the containers are placed in name order, stably (upstream sort.SliceStable)', () => {
    const sets = [
      sidecarSet('a-cluster', {
        selector: { matchLabels: { app: 'web' } },
        containers: [
          { name: 'c2', image: 'c:2' },
          { name: 'c1', image: 'c:1', podInjectPolicy: 'AfterAppContainer' },
        ],
      }),
      sidecarSet('z-ns', {
        selector: { matchLabels: { app: 'web' } },
        namespace: 'ns1',
        containers: [
          { name: 'n2', image: 'n:2', podInjectPolicy: 'AfterAppContainer' },
          { name: 'b1', image: 'b:1' },
        ],
      }),
    ];
    const names = (sortContainersByName: boolean) =>
      injectSidecars({
        pod: pod(),
        namespaceLabels: NS_LABELS,
        sidecarSets: sets,
        now: NOW,
        sortContainersByName,
      }).pod.spec.containers.map((c) => c.name);
    expect(names(false)).toEqual(['b1', 'c2', 'main', 'n2', 'c1']);
    expect(names(true)).toEqual(['b1', 'c2', 'main', 'c1', 'n2']);
  });

  it('a sidecar named like a pod container replaces it in place', () => {
    const s = sidecarSet('s', {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'main', image: 'proxy:2' }],
    });
    const out = inject(
      pod({
        containers: [
          { name: 'first', image: 'x' },
          { name: 'main', image: 'nginx' },
        ],
      }),
      [s],
    );
    expect(out.pod.spec.containers).toEqual([{ name: 'first', image: 'x' }, sidecar('main', 'proxy:2')]);
  });

  it('init containers go after the pod own, sorted by name across SidecarSets; native sidecars join sidecarList', () => {
    const sets = [
      sidecarSet('i1', {
        selector: { matchLabels: { app: 'web' } },
        initContainers: [
          { name: 'init-c', image: 'i:1' },
          { name: 'native-a', image: 'envoy:1', restartPolicy: 'Always' },
        ],
      }),
      sidecarSet('i2', {
        selector: { matchLabels: { app: 'web' } },
        initContainers: [{ name: 'init-b', image: 'i:2' }],
      }),
    ];
    const out = inject(pod({ initContainers: [{ name: 'own', image: 'o' }] }), sets);
    expect(out.pod.spec.initContainers).toEqual([
      { name: 'own', image: 'o' },
      sidecar('init-b', 'i:2'),
      sidecar('init-c', 'i:1'),
      sidecar('native-a', 'envoy:1', { restartPolicy: 'Always' }),
    ]);
    expect(out.pod.spec.containers).toEqual([{ name: 'main', image: 'nginx:1.25' }]);
    expect(JSON.parse(out.pod.metadata.annotations!['kruise.io/sidecarset-hash'])).toEqual({
      i1: { updateTimestamp: TS, hash: hashOf(sets[0]), sidecarSetName: 'i1', sidecarList: ['native-a'] },
      i2: { updateTimestamp: TS, hash: hashOf(sets[1]), sidecarSetName: 'i2', sidecarList: [] },
    });
  });

  it('shareVolumePolicy enabled: the app containers mounts follow the sidecar own, with subPathExpr env', () => {
    const s = sidecarSet('share', {
      selector: { matchLabels: { app: 'web' } },
      containers: [
        {
          name: 'agent',
          image: 'agent:1',
          volumeMounts: [{ name: 'own', mountPath: '/own' }],
          shareVolumePolicy: { type: 'enabled' },
        },
      ],
      volumes: [{ name: 'own', emptyDir: {} }],
    });
    const app = {
      name: 'main',
      image: 'nginx',
      env: [
        { name: 'POD_NAME', value: 'bar' },
        { name: 'OTHER', value: 'x' },
      ],
      volumeMounts: [
        { name: 'data', mountPath: '/data' },
        { name: 'own-too', mountPath: '/own' },
        { name: 'exp', mountPath: '/exp', subPathExpr: 'foo/$(POD_NAME)/$(MISSING)' },
      ],
    };
    const out = inject(pod({ containers: [app], volumes: [{ name: 'data', emptyDir: {} }] }), [s]);
    expect(out.pod.spec.containers[0]).toEqual({
      ...sidecar('agent', 'agent:1'),
      volumeMounts: [
        { name: 'own', mountPath: '/own' },
        { name: 'data', mountPath: '/data' },
        { name: 'exp', mountPath: '/exp', subPathExpr: 'foo/$(POD_NAME)/$(MISSING)' },
      ],
      env: [
        { name: 'IS_INJECTED', value: 'true' },
        { name: 'POD_NAME', value: 'bar' },
      ],
    });
    expect(out.pod.spec.volumes).toEqual([
      { name: 'data', emptyDir: {} },
      { name: 'own', emptyDir: {} },
    ]);
  });

  it('transferEnv copies named env from the source container, by name or by a pod label, after IS_INJECTED', () => {
    const s = sidecarSet('t', {
      selector: { matchLabels: { app: 'web' } },
      containers: [
        {
          name: 'mesh',
          image: 'mesh:1',
          env: [
            { name: 'OWN', value: '1' },
            { name: 'B', value: 'mine' },
          ],
          transferEnv: [
            { sourceContainerName: 'main', envName: 'A' },
            {
              sourceContainerNameFrom: { fieldRef: { fieldPath: "metadata.labels['source']" } },
              envNames: ['C', 'B', 'NONE'],
            },
          ],
        },
      ],
    });
    const p = pod(
      {
        containers: [
          { name: 'main', image: 'nginx', env: [{ name: 'A', value: 'a' }] },
          {
            name: 'other',
            image: 'x',
            env: [
              { name: 'C', value: 'c' },
              { name: 'B', value: 'b' },
            ],
          },
        ],
      },
      { app: 'web', source: 'other' },
    );
    expect(inject(p, [s]).pod.spec.containers[0].env).toEqual([
      { name: 'OWN', value: '1' },
      { name: 'B', value: 'mine' },
      { name: 'IS_INJECTED', value: 'true' },
      { name: 'A', value: 'a' },
      { name: 'C', value: 'c' },
    ]);
  });

  it('imagePullSecrets merge by name, the pod own first', () => {
    const s = sidecarSet('sec', {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'x', image: 'x:1' }],
      imagePullSecrets: [{ name: 'b' }, { name: 'a' }, { name: 'c' }],
    });
    const out = inject(pod({ imagePullSecrets: [{ name: 'a' }, { name: 'a' }] }), [s]);
    expect(out.pod.spec.imagePullSecrets).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
  });

  it('patchPodMetadata: Retain keeps, Overwrite replaces, MergePatchJson merges the JSON value', () => {
    const s = sidecarSet('meta', {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'x', image: 'x:1' }],
      patchPodMetadata: [
        { annotations: { keep: 'new', added: 'yes' } },
        { annotations: { over: 'new' }, patchPolicy: 'Overwrite' },
        { annotations: { json: '{"b":2,"a":null}', fresh: '{"z":1}' }, patchPolicy: 'MergePatchJson' },
      ],
    });
    const p = pod();
    p.metadata.annotations = { keep: 'old', over: 'old', json: '{"a":1,"c":{"d":1}}' };
    const a = inject(p, [s]).pod.metadata.annotations!;
    expect([a.keep, a.added, a.over, a.json, a.fresh]).toEqual([
      'old',
      'yes',
      'new',
      '{"b":2,"c":{"d":1}}',
      '{"z":1}',
    ]);
  });

  it('a SidecarSet with only metadata patches changes the annotations and nothing else', () => {
    const s = sidecarSet('only-meta', {
      selector: { matchLabels: { app: 'web' } },
      patchPodMetadata: [{ annotations: { k: 'v' } }],
    });
    const out = inject(pod(), [s]);
    expect(out.changed).toBe(true);
    expect(out.pod.metadata.annotations).toEqual({ k: 'v' });
    expect(out.pod.spec).toEqual(pod().spec);
  });

  it('HotUpgrade injects the working -1 and the empty -2 container with the version annotations', () => {
    const s = sidecarSet('hot', {
      selector: { matchLabels: { app: 'web' } },
      containers: [
        {
          name: 'envoy',
          image: 'envoy:2',
          upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' },
        },
      ],
    });
    const out = inject(pod(), [s]).pod;
    const versionEnv = (c: string) => [
      { name: 'IS_INJECTED', value: 'true' },
      {
        name: 'SIDECARSET_VERSION',
        valueFrom: { fieldRef: { fieldPath: `metadata.annotations['version.sidecarset.kruise.io/${c}']` } },
      },
      {
        name: 'SIDECARSET_VERSION_ALT',
        valueFrom: {
          fieldRef: { fieldPath: `metadata.annotations['versionalt.sidecarset.kruise.io/${c}']` },
        },
      },
    ];
    expect(out.spec.containers).toEqual([
      { ...sidecar('envoy-1', 'envoy:2'), env: versionEnv('envoy-1') },
      { ...sidecar('envoy-2', 'empty:1'), env: versionEnv('envoy-2') },
      { name: 'main', image: 'nginx:1.25' },
    ]);
    expect(out.metadata.annotations).toMatchObject({
      'version.sidecarset.kruise.io/envoy-1': '1',
      'versionalt.sidecarset.kruise.io/envoy-1': '0',
      'version.sidecarset.kruise.io/envoy-2': '0',
      'versionalt.sidecarset.kruise.io/envoy-2': '1',
      'kruise.io/sidecarset-working-hotupgrade-container': '{"envoy":"envoy-1"}',
    });
  });

  it('keeps entries of an older hash annotation (the name → hash form) and rewrites them in the current form', () => {
    const s = sidecarSet('new', {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'x', image: 'x:1' }],
    });
    const p = pod();
    p.metadata.annotations = {
      'kruise.io/sidecarset-hash': '{"old":"abc"}',
      'kruise.io/sidecarset-injected-list': 'old',
    };
    const a = inject(p, [s]).pod.metadata.annotations!;
    expect(a['kruise.io/sidecarset-hash']).toBe(
      `{"new":{"updateTimestamp":"${TS}","hash":"${hashOf(s)}","sidecarSetName":"new","sidecarList":["x"]},` +
        `"old":{"updateTimestamp":null,"hash":"abc","sidecarSetName":"old","sidecarList":null}}`,
    );
    expect(a['kruise.io/sidecarset-injected-list']).toBe('new,old');
  });

  it('writes the SidecarSet status.latestRevision as controllerRevision into the hash annotation only', () => {
    const s = {
      ...sidecarSet('r', {
        selector: { matchLabels: { app: 'web' } },
        containers: [{ name: 'x', image: 'x:1' }],
      }),
      status: { latestRevision: 'r-abc' },
    };
    const a = inject(pod(), [s]).pod.metadata.annotations!;
    const entry = (k: string) => (JSON.parse(a[k]) as Record<string, { controllerRevision?: string }>).r;
    expect(entry('kruise.io/sidecarset-hash').controllerRevision).toBe('r-abc');
    expect(entry('kruise.io/sidecarset-hash-without-image').controllerRevision).toBeUndefined();
  });

  it('refuses what OpenKruise refuses: an invalid selector, an unreadable hash annotation', () => {
    const bad = sidecarSet('bad', {
      selector: { matchExpressions: [{ key: 'app', operator: 'Bogus', values: ['web'] }] },
      containers: [{ name: 'x', image: 'x:1' }],
    });
    expect(() => inject(pod(), [bad])).toThrow(SidecarInjectionError);
    const ok = sidecarSet('ok', {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'x', image: 'x:1' }],
    });
    const p = pod();
    p.metadata.annotations = { 'kruise.io/sidecarset-hash': 'not json' };
    expect(() => inject(p, [ok])).toThrow(/kruise.io\/sidecarset-hash is not JSON/);
  });

  it('does not inject into a pod that is already finished', () => {
    const s = sidecarSet('x', {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'x', image: 'x:1' }],
    });
    const p = { ...pod(), status: { phase: 'Succeeded' } };
    expect(inject(p, [s]).changed).toBe(false);
  });
});
