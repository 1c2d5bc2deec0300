/**
 * `resourcesPolicy` at injection (lib/controllers/sidecarset/plan/inject.ts with ./resourcesPolicy.ts): the injected
 * container's `resources` are computed from the pod's own containers, never from the sidecars of the SidecarSets
 * matched with it (OpenKruise v1.9.0's e2e "Filtering Kruise sidecar containers and init-containers"), for
 * native-sidecar init containers too, and both containers of a HotUpgrade pair; a policy that fails refuses the pod.
 */
import type { Container, Pod } from '../../../../../lib/api/types.js';
import { mutateSidecarSet } from '../../../../../lib/controllers/sidecarset/api/mutation.js';
import type {
  ResourcesPolicy,
  SidecarSet,
  SidecarSetSpec,
} from '../../../../../lib/controllers/sidecarset/api/types.js';
import { injectSidecars } from '../../../../../lib/controllers/sidecarset/plan/inject.js';
import { ResourcesPolicyError } from '../../../../../lib/controllers/sidecarset/plan/resourcesPolicy.js';

const NOW = new Date('2026-12-04T10:20:30Z');
const sidecarSet = (name: string, spec: Omit<SidecarSetSpec, 'selector'>): SidecarSet =>
  mutateSidecarSet({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'SidecarSet',
    metadata: { name },
    spec: { selector: { matchLabels: { app: 'filter-kruise' } }, ...spec },
  });
const app = (name: string, limits: Record<string, string>, requests: Record<string, string>): Container => ({
  name,
  image: 'nginx:1.14.2',
  resources: { limits, requests },
});
const pod = (containers: Container[], initContainers?: Container[]): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns1', labels: { app: 'filter-kruise' } },
  spec: { containers, ...(initContainers ? { initContainers } : {}) },
});
const inject = (p: Pod, sets: SidecarSet[]) =>
  injectSidecars({ pod: p, namespaceLabels: {}, sidecarSets: sets, now: NOW }).pod;
const resourcesOf = (p: Pod, name: string) =>
  [...(p.spec.initContainers ?? []), ...p.spec.containers].find((c) => c.name === name)?.resources;

const policy: ResourcesPolicy = {
  targetContainersMode: 'sum',
  targetContainersNameRegex: '.*',
  resourcesExpr: {
    limits: { cpu: 'cpu*50%', memory: 'memory*50%' },
    requests: { cpu: 'cpu*40%', memory: 'memory*40%' },
  },
};
const sized = { limits: { cpu: '300m', memory: '300Mi' }, requests: { cpu: '150m', memory: '150Mi' } };

describe('resourcesPolicy at injection', () => {
  it('counts only the pod’s own containers, not the sidecars of another matched SidecarSet', () => {
    const first = sidecarSet('filter-1', {
      initContainers: [
        { name: 'kruise-init-sidecar', image: 'busybox', restartPolicy: 'Always', resources: sized },
      ],
      containers: [{ name: 'kruise-sidecar', image: 'busybox', resources: sized }],
    });
    const second = sidecarSet('filter-2', {
      containers: [{ name: 'policy-sidecar', image: 'busybox', resourcesPolicy: policy }],
    });
    const out = inject(
      pod([app('app1', { cpu: '200m', memory: '200Mi' }, { cpu: '100m', memory: '100Mi' })]),
      [first, second],
    );
    expect(resourcesOf(out, 'policy-sidecar')).toEqual({
      limits: { cpu: '100m', memory: '100Mi' },
      requests: { cpu: '40m', memory: '40Mi' },
    });
    expect(resourcesOf(out, 'kruise-sidecar')).toEqual(sized);
    expect(out.spec.containers.find((c) => c.name === 'policy-sidecar')).not.toHaveProperty(
      'resourcesPolicy',
    );
  });

  it('a native-sidecar init container gets its resources from the containers and other native sidecars', () => {
    const s = sidecarSet('native', {
      initContainers: [
        { name: 'init-sidecar', image: 'busybox', restartPolicy: 'Always', resourcesPolicy: policy },
      ],
    });
    const out = inject(
      pod(
        [app('main', { cpu: '600m', memory: '1200Mi' }, { cpu: '300m', memory: '600Mi' })],
        [
          {
            ...app('native-app', { cpu: '400m', memory: '800Mi' }, { cpu: '200m', memory: '400Mi' }),
            restartPolicy: 'Always',
          },
          app('plain-init', { cpu: '4', memory: '4Gi' }, { cpu: '4', memory: '4Gi' }),
        ],
      ),
      [s],
    );
    expect(resourcesOf(out, 'init-sidecar')).toEqual({
      limits: { cpu: '500m', memory: '1000Mi' },
      requests: { cpu: '200m', memory: '400Mi' },
    });
  });

  // 40% of 512Mi is 214748364.8 bytes: a fraction of a byte, so Go writes milli-bytes
  it('both containers of a HotUpgrade pair get the computed resources', () => {
    const s = sidecarSet('hot', {
      containers: [
        {
          name: 'proxy',
          image: 'envoy:1',
          upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' },
          resourcesPolicy: { ...policy, targetContainersMode: 'max' },
        },
      ],
    });
    const out = inject(
      pod([
        app('a', { cpu: '1', memory: '1Gi' }, { cpu: '500m', memory: '512Mi' }),
        app('b', { cpu: '2', memory: '512Mi' }, { cpu: '1', memory: '256Mi' }),
      ]),
      [s],
    );
    const want = {
      limits: { cpu: '1', memory: '512Mi' },
      requests: { cpu: '400m', memory: '214748364800m' },
    };
    expect([resourcesOf(out, 'proxy-1'), resourcesOf(out, 'proxy-2')]).toEqual([want, want]);
  });

  it('a policy matching none of the pod’s containers refuses the pod with OpenKruise’s message', () => {
    const s = sidecarSet('none', {
      containers: [
        {
          name: 'proxy',
          image: 'envoy:1',
          resourcesPolicy: { ...policy, targetContainersNameRegex: '^kruise-sidecar$' },
        },
      ],
    });
    const first = sidecarSet('filter-1', { containers: [{ name: 'kruise-sidecar', image: 'busybox' }] });
    const p = pod([app('app1', { cpu: '1' }, {})]);
    expect(() => inject(p, [first, s])).toThrow(ResourcesPolicyError);
    expect(() => inject(p, [first, s])).toThrow('no containers match the regex pattern "^kruise-sidecar$"');
  });
});
