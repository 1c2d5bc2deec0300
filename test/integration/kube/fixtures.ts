/** Shared objects and assertions of the lib/kube integration tests. */
import type { CloneSet, Pod } from '../../../lib/api/types.js';
import { KubeApiError } from '../../../lib/kube/errors.js';

/** The seed's CloneSet (examples/cs-no-pvc-sample.yaml), as a fresh object in `namespace`. */
export function seedCloneSet(namespace: string, name = 'cs-no-pvc-sample'): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { labels: { app: 'cs-no-pvc-cs-no-pvc-sample' }, name, namespace },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'cs-no-pvc-sample' } },
      template: {
        metadata: { labels: { app: 'cs-no-pvc-sample' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.18-alpine' }] },
      },
      updateStrategy: { type: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 5 } },
    },
  };
}

/** A two-container pod with labels, as a CloneSet would create it. */
export function samplePod(namespace: string, name: string, labels: Record<string, string> = {}): Pod {
  return {
    metadata: { name, namespace, labels: { app: 'cs-no-pvc-sample', ...labels } },
    spec: {
      containers: [
        { name: 'nginx', image: 'nginx:1.18-alpine' },
        { name: 'sidecar', image: 'busybox:1.36' },
      ],
    },
  };
}

/** Awaits `p`, expecting it to reject with a KubeApiError; returns that error. */
export async function kubeError(p: Promise<unknown>): Promise<KubeApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof KubeApiError) return e;
    throw e;
  }
  throw new Error('expected a KubeApiError');
}
