/**
 * Advanced DaemonSets in integration tests: the resource's address for the custom-objects client, two kwok nodes of
 * a test file's own (labelled and tainted with its namespace, so no other file's pods land there), the `agent`
 * DaemonSet that selects exactly those nodes, and a read of the set. Test-only.
 */
import type { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import type { DaemonSet } from '../../../lib/controllers/daemonset/api/types.js';

/** `apps.kruise.io/v1beta1` daemonsets, as the custom-objects client addresses them. */
export const DS_API = { group: 'apps.kruise.io', version: 'v1beta1', plural: 'daemonsets' } as const;

/**
 * Creates the fake kwok nodes `<prefix>-<namespace>-a` and `-b`, labelled `<label>=<namespace>` (with `type: kwok`
 * and their hostname) and tainted `<label>=<namespace>:NoSchedule`.
 * @returns the node names, in order (for {@link deleteNodes})
 * @throws ApiException of a failed create
 */
export async function createFileNodes(
  core: CoreV1Api,
  prefix: string,
  label: string,
  namespace: string,
): Promise<string[]> {
  const nodes = ['a', 'b'].map((s) => `${prefix}-${namespace}-${s}`);
  for (const name of nodes)
    await core.createNode({
      body: {
        metadata: {
          name,
          labels: { type: 'kwok', 'kubernetes.io/hostname': name, [label]: namespace },
          annotations: { 'kwok.x-k8s.io/node': 'fake' },
        },
        spec: { taints: [{ key: label, value: namespace, effect: 'NoSchedule' }] },
      },
    });
  return nodes;
}

/** Deletes the nodes `names`; one that fails to go is ignored (a test's cleanup). */
export async function deleteNodes(core: CoreV1Api, names: readonly string[]): Promise<void> {
  for (const name of names) await core.deleteNode({ name }).catch(() => undefined);
}

/**
 * The DaemonSet `agent` of `namespace`: `nginx:1.25` selected by `app=agent`, on the nodes labelled
 * `<label>=<namespace>` and tolerating their taint (the nodes of {@link createFileNodes}).
 */
export function agentDaemonSet(namespace: string, label: string): DaemonSet {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: {
          nodeSelector: { [label]: namespace },
          tolerations: [{ key: label, operator: 'Exists' }],
          containers: [{ name: 'agent', image: 'nginx:1.25' }],
        },
      },
    },
  };
}

/** GET the DaemonSet `name` of `namespace`. @throws ApiException (404 when it does not exist) */
export async function getDaemonSet(
  custom: CustomObjectsApi,
  namespace: string,
  name = 'agent',
): Promise<DaemonSet> {
  return (await custom.getNamespacedCustomObject({ ...DS_API, namespace, name })) as DaemonSet;
}
