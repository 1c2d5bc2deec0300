/**
 * The client's discovery and scale reads on a real API server, and a PodUnavailableBudget over a custom resource
 * with a scale subresource read through them (lib/kube/scaleFinder.ts, as OpenKruise's `getScaleController`): a CRD
 * `widgets.scale.kruiseless.io` (scale at `.spec.replicas`, selector at `.status.selector`) is installed once, a
 * widget and its pods made in the test's namespace.
 */
import type { Pod } from '../../../lib/api/types.js';
import type { PodUnavailableBudget } from '../../../lib/controllers/podunavailablebudget/api/types.js';
import { podsForPub } from '../../../lib/controllers/podunavailablebudget/targets.js';
import { createKubeClient } from '../../../lib/kube/client.js';
import { isAlreadyExists } from '../../../lib/kube/errors.js';
import type { KubeObject, Resource } from '../../../lib/kube/resource.js';
import { CRD_RESOURCE, RESOURCES } from '../../../lib/kube/resources.js';
import { findScaledWorkload, UnservedKindError } from '../../../lib/kube/scaleFinder.js';
import type { KubeClient } from '../../../lib/kube/types.js';
import { useTestNamespace } from '../support/cluster.js';
import { waitFor } from '../support/wait.js';

const t = useTestNamespace('kube-scale');
let kube: KubeClient;

const GROUP = 'scale.kruiseless.io';
const WIDGETS: Resource = {
  group: GROUP,
  version: 'v1',
  plural: 'widgets',
  namespaced: true,
  kind: 'Widget',
};

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        subresources: {
          status: {},
          scale: {
            specReplicasPath: '.spec.replicas',
            statusReplicasPath: '.status.replicas',
            labelSelectorPath: '.status.selector',
          },
        },
      },
    ],
  },
};

beforeAll(async () => {
  kube = createKubeClient(t.kc, { retry: { retries: 1, minTimeoutMs: 50 } });
  try {
    await kube.create(CRD_RESOURCE, CRD);
  } catch (e) {
    if (!isAlreadyExists(e)) throw e;
  }
  // served once discovery lists it (the CRD Established)
  await waitFor('widgets served', 30_000, async () => {
    const fresh = createKubeClient(t.kc, { retry: { retries: 0, minTimeoutMs: 1 } });
    return (await fresh.serverResources?.(`${GROUP}/v1`))?.some((r) => r.name === 'widgets/scale');
  });
}, 60_000);

const pod = (name: string, labels: Record<string, string>, owner?: { name: string; uid: string }): Pod => ({
  metadata: {
    name,
    namespace: t.namespace,
    labels,
    ...(owner
      ? {
          ownerReferences: [
            { apiVersion: `${GROUP}/v1`, kind: 'Widget', name: owner.name, uid: owner.uid, controller: true },
          ],
        }
      : {}),
  },
  spec: { containers: [{ name: 'main', image: 'nginx' }] },
});

const budget = (name: string): PodUnavailableBudget => ({
  apiVersion: 'policy.kruise.io/v1beta1',
  kind: 'PodUnavailableBudget',
  metadata: { name: 'budget', namespace: t.namespace },
  spec: { targetRef: { apiVersion: `${GROUP}/v1`, kind: 'Widget', name }, maxUnavailable: 1 },
});

describe('discovery and the scale subresource on a real API server', () => {
  test('discovery lists the CRD’s resource and its scale; the core group too; an unknown group version is undefined', async () => {
    expect(await kube.serverResources?.(`${GROUP}/v1`)).toEqual(
      expect.arrayContaining([
        { name: 'widgets', namespaced: true, kind: 'Widget' },
        { name: 'widgets/scale', namespaced: true, kind: 'Scale' },
        { name: 'widgets/status', namespaced: true, kind: 'Widget' },
      ]),
    );
    expect(await kube.serverResources?.('v1')).toContainEqual({
      name: 'pods',
      namespaced: true,
      kind: 'Pod',
    });
    expect(await kube.serverResources?.(`nothing.${GROUP}/v1`)).toBeUndefined();
  });

  test('a widget’s scale: replicas from the spec, selector from the status; a PUB targeting it covers its pods', async () => {
    const widget = await kube.create(WIDGETS, {
      metadata: { name: 'w1', namespace: t.namespace },
      spec: { replicas: 3 },
    } as KubeObject);
    await kube.replace(WIDGETS, { ...widget, status: { replicas: 2, selector: 'app=w1' } } as KubeObject, {
      subresource: 'status',
    });
    const uid = widget.metadata.uid ?? '';
    expect(
      await findScaledWorkload(kube, t.namespace, { apiVersion: `${GROUP}/v1`, kind: 'Widget', name: 'w1' }),
    ).toEqual({
      ref: { apiVersion: `${GROUP}/v1`, kind: 'Widget', name: 'w1', uid },
      replicas: 3,
      selector: 'app=w1',
      deleting: false,
    });

    // its pods by owner reference; a pod of the same labels it does not own is left out
    await kube.create(RESOURCES.pods, pod('owned-a', { app: 'w1' }, { name: 'w1', uid }));
    await kube.create(RESOURCES.pods, pod('owned-b', { app: 'w1' }, { name: 'w1', uid }));
    await kube.create(RESOURCES.pods, pod('stray', { app: 'w1' }));
    const byOwner = await podsForPub(kube, budget('w1'));
    expect(byOwner.pods.map((p) => p.metadata.name).sort()).toEqual(['owned-a', 'owned-b']);
    expect(byOwner.expectedCount).toBe(3);
  });

  test('a widget that owns none of its pods covers those of its scale’s selector', async () => {
    const widget = await kube.create(WIDGETS, {
      metadata: { name: 'w2', namespace: t.namespace },
      spec: { replicas: 2 },
    } as KubeObject);
    await kube.replace(WIDGETS, { ...widget, status: { selector: 'app=w2' } } as KubeObject, {
      subresource: 'status',
    });
    await kube.create(RESOURCES.pods, pod('w2-a', { app: 'w2' }));
    await kube.create(RESOURCES.pods, pod('w2-other', { app: 'else' }));
    const found = await podsForPub(kube, budget('w2'));
    expect(found.pods.map((p) => p.metadata.name)).toEqual(['w2-a']);
    expect(found.expectedCount).toBe(2);
  });

  test('a widget that does not exist covers nothing; a kind that is not served fails', async () => {
    expect(await podsForPub(kube, budget('none'))).toEqual({ pods: [], expectedCount: 0 });
    await expect(
      podsForPub(kube, {
        ...budget('w1'),
        spec: { targetRef: { apiVersion: `${GROUP}/v1`, kind: 'Gadget', name: 'w1' } },
      }),
    ).rejects.toThrow(new UnservedKindError(`${GROUP}/v1`, 'Gadget'));
  });
});
