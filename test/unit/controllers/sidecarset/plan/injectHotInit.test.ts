/**
 * OpenKruise's `TestInjectInitContainer` (`pkg/webhook/pod/mutating/sidecarset_test.go`) as data: two SidecarSets
 * with a native-sidecar init container each, one of them HotUpgrade; the pod's annotations after injection, exactly,
 * and its init containers (lib/controllers/sidecarset/plan/inject.ts).
 */
import type { Pod } from '../../../../../lib/api/types.js';
import type { SidecarSet } from '../../../../../lib/controllers/sidecarset/api/types.js';
import { injectSidecars } from '../../../../../lib/controllers/sidecarset/plan/inject.js';

const NOW = new Date('2026-12-02T10:20:30Z');
const TS = '2026-12-02T10:20:30Z';

function withInit(name: string, init: string, hot: boolean): SidecarSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: {
      name,
      annotations: {
        'kruise.io/sidecarset-hash': `${name}-hash`,
        'kruise.io/sidecarset-hash-without-image': `${name}-without-image-hash`,
      },
    },
    spec: {
      selector: { matchLabels: { app: 'suxing-test' } },
      initContainers: [
        {
          name: init,
          image: 'dns-e-image:1.0',
          restartPolicy: 'Always',
          volumeMounts: [{ name: 'volume-1', mountPath: '/v' }],
          transferEnv: [{ sourceContainerName: 'nginx', envName: 'hello2' }],
          ...(hot
            ? { upgradeStrategy: { upgradeType: 'HotUpgrade' as const, hotUpgradeEmptyImage: 'empty:v1' } }
            : {}),
        },
      ],
      volumes: [{ name: 'volume-1' }],
    },
  };
}

const pod1: Pod = {
  metadata: { name: 'test-pod', namespace: 'default', labels: { app: 'suxing-test' } },
  spec: {
    initContainers: [{ name: 'init-0', image: 'busybox:1.0.0' }],
    containers: [
      {
        name: 'nginx',
        image: 'nginx:1.15.1',
        env: [
          { name: 'hello1', value: 'world1' },
          { name: 'hello2', value: 'world2' },
        ],
      },
    ],
  },
};

const spec = (set: string, hash: string, init: string) =>
  `"${set}":{"updateTimestamp":"${TS}","hash":"${hash}","sidecarSetName":"${set}","sidecarList":["${init}"]}`;

describe('TestInjectInitContainer: a HotUpgrade native-sidecar init container', () => {
  const out = injectSidecars({
    pod: pod1,
    namespaceLabels: {},
    sidecarSets: [withInit('sidecarset-1', 'init-1', false), withInit('sidecarset-2', 'hot-init', true)],
    now: NOW,
  }).pod;

  it('annotations: both hash entries, the list, the working container hot-init-1 and its version annotations', () => {
    expect(out.metadata.annotations).toEqual({
      'kruise.io/sidecarset-hash': `{${spec('sidecarset-1', 'sidecarset-1-hash', 'init-1')},${spec('sidecarset-2', 'sidecarset-2-hash', 'hot-init')}}`,
      'kruise.io/sidecarset-hash-without-image': `{${spec('sidecarset-1', 'sidecarset-1-without-image-hash', 'init-1')},${spec('sidecarset-2', 'sidecarset-2-without-image-hash', 'hot-init')}}`,
      'kruise.io/sidecarset-injected-list': 'sidecarset-1,sidecarset-2',
      'kruise.io/sidecarset-working-hotupgrade-container': '{"hot-init":"hot-init-1"}',
      'version.sidecarset.kruise.io/hot-init-1': '1',
      'versionalt.sidecarset.kruise.io/hot-init-1': '0',
      'version.sidecarset.kruise.io/hot-init-2': '0',
      'versionalt.sidecarset.kruise.io/hot-init-2': '1',
    });
  });

  it('four init containers: the pod own first, then the injected ones sorted by name, -2 on the empty image', () => {
    expect((out.spec.initContainers ?? []).map((c) => `${c.name}=${c.image}`)).toEqual([
      'init-0=busybox:1.0.0',
      'hot-init-1=dns-e-image:1.0',
      'hot-init-2=empty:v1',
      'init-1=dns-e-image:1.0',
    ]);
  });
});
