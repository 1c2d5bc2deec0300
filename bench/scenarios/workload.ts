/**
 * The workloads the bench creates: a CloneSet (in place, maxUnavailable 20 %) or a Deployment (RollingUpdate,
 * maxUnavailable 20 %, maxSurge 0: the same disruption budget; a Deployment recreates its pods), one container on
 * a fake image, and the path and patch of an image change.
 */

/** Who reconciles the workload. */
export type ControllerName = 'deployment' | 'openkruise' | 'kruiseless';

/** Images before and after the rollout. */
export const IMAGE_V1 = 'bench:v1';
export const IMAGE_V2 = 'bench:v2';

const template = (app: string, image: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'main', image }] },
});

/** The collection path and body that create `name` with `replicas` pods of {@link IMAGE_V1}. */
export function workload(
  controller: ControllerName,
  namespace: string,
  name: string,
  replicas: number,
): { path: string; body: unknown } {
  if (controller === 'deployment')
    return {
      path: `/apis/apps/v1/namespaces/${namespace}/deployments`,
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name },
        spec: {
          replicas,
          selector: { matchLabels: { app: name } },
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '20%', maxSurge: 0 } },
          template: template(name, IMAGE_V1),
        },
      },
    };
  return {
    path: `/apis/apps.kruise.io/v1alpha1/namespaces/${namespace}/clonesets`,
    body: {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name },
      spec: {
        replicas,
        selector: { matchLabels: { app: name } },
        updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '20%' },
        template: template(name, IMAGE_V1),
      },
    },
  };
}

/** The object path of `name` (for patches). */
export function objectPath(controller: ControllerName, namespace: string, name: string): string {
  return `${workload(controller, namespace, name, 0).path}/${name}`;
}

/** A JSON merge patch changing the image (the whole one-container list, as merge patches replace lists). */
export function imagePatch(image: string): unknown {
  return { spec: { template: { spec: { containers: [{ name: 'main', image }] } } } };
}

/** A JSON merge patch of `spec.replicas`. */
export function replicasPatch(replicas: number): unknown {
  return { spec: { replicas } };
}

/** Content type of a JSON merge patch. */
export const MERGE_PATCH = 'application/merge-patch+json';
