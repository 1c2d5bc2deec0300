/**
 * Waiting for kube-controller-manager's garbage collector to resolve owner references of one kind.
 *
 * Right after a CRD is installed the collector cannot map its kind yet: a dependent created then (a pod whose owner
 * is the new kind) fails its owner check and stays in the collector's retry queue, re-checked with a growing
 * backoff. Any later retry that meets a stale mapping of a version the CRD has stopped serving gets a 404 for the
 * owner and deletes the dependent as orphaned. A cluster whose CRDs were installed a while before is past that
 * window; {@link waitOwnerKindResolved} brings a fresh test cluster there.
 */
import { randomUUID } from 'node:crypto';
import type { CoreV1Api } from '@kubernetes/client-node';
import { waitFor } from './wait.js';

/**
 * Creates a ConfigMap in `namespace` owned by an `apiVersion`/`kind` object that does not exist and waits until
 * the garbage collector deletes it: from then on the collector maps that kind and resolves its owners, so objects
 * created afterwards never enter its retry queue.
 * @param timeoutMs how long to wait for the deletion, in ms (the collector re-reads discovery every 30 s)
 * @throws Error from waitFor when the ConfigMap is still there after `timeoutMs`
 */
export async function waitOwnerKindResolved(
  core: CoreV1Api,
  namespace: string,
  apiVersion: string,
  kind: string,
  timeoutMs: number,
): Promise<void> {
  const name = `gc-probe-${randomUUID().slice(0, 8)}`;
  await core.createNamespacedConfigMap({
    namespace,
    body: {
      metadata: {
        name,
        ownerReferences: [{ apiVersion, kind, name: 'absent-owner', uid: randomUUID() }],
      },
    },
  });
  await waitFor(
    `the garbage collector to delete ${namespace}/${name} (owner ${kind} ${apiVersion})`,
    timeoutMs,
    () =>
      core.readNamespacedConfigMap({ name, namespace }).then(
        () => false,
        (e: { code?: number }) => e.code === 404,
      ),
  );
}
