/**
 * Advanced StatefulSets in integration tests: the resource's address for the custom-objects client, the `web` set
 * the tests start from, and reads of the set and of its active pods. Test-only.
 */
import type { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import type { Pod } from '../../../lib/api/types.js';
import type { StatefulSet } from '../../../lib/controllers/statefulset/api/types.js';

/** `apps.kruise.io/v1beta1` statefulsets, as the custom-objects client addresses them. */
export const ASTS_API = { group: 'apps.kruise.io', version: 'v1beta1', plural: 'statefulsets' } as const;

/**
 * The set `web`: 2 replicas of `nginx:1.24-alpine` selected by `app=web`, service `web`, with `change` applied
 * (a test sets what it is about: policy, update strategy, readiness gates, claims).
 */
export function webStatefulSet(change: (s: StatefulSet) => void = () => undefined): StatefulSet {
  const sts: StatefulSet = {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: 'web' },
    spec: {
      replicas: 2,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.24-alpine' }] },
      },
    },
  };
  change(sts);
  return sts;
}

/** `web` updated in place: InPlaceIfPossible with the `InPlaceUpdateReady` gate OpenKruise's validation asks for. */
export function inPlace(s: StatefulSet): void {
  s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } };
  s.spec.template.spec = {
    ...s.spec.template.spec,
    readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
  };
}

/** GET the set `name` of `namespace`. @throws ApiException (404 when it does not exist) */
export async function getStatefulSet(
  custom: CustomObjectsApi,
  namespace: string,
  name = 'web',
): Promise<StatefulSet> {
  return (await custom.getNamespacedCustomObject({ ...ASTS_API, namespace, name })) as StatefulSet;
}

/** The pods of `namespace` labelled `app=<app>` and not terminating, by name. */
export async function activeSetPods(core: CoreV1Api, namespace: string, app = 'web'): Promise<Pod[]> {
  const list = await core.listNamespacedPod({ namespace, labelSelector: `app=${app}` });
  return (list.items as unknown as Pod[])
    .filter((p) => !p.metadata.deletionTimestamp)
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
}
