/**
 * The workloads the bench creates, one container on a fake image, and the path and patch of an image change:
 * - the CloneSet part: a CloneSet (in place, maxUnavailable 20 %) or a Deployment (RollingUpdate, maxUnavailable
 *   20 %, maxSurge 0: the same disruption budget; a Deployment recreates its pods);
 * - the Advanced StatefulSet part (`asts`): an Advanced StatefulSet (`apps.kruise.io/v1beta1`, InPlaceIfPossible
 *   with the `InPlaceUpdateReady` readiness gate OpenKruise's validation asks for; maxUnavailable 20 % with
 *   Parallel, 1 with OrderedReady, the only value OpenKruise allows there) or an apps/v1 StatefulSet (RollingUpdate:
 *   kube-controller-manager v1.34 recreates one pod at a time, its `maxUnavailable` being alpha and off), both with
 *   the pod management policy of the run.
 */

/** Who reconciles the workload: kube-controller-manager's Deployment or StatefulSet controller, or a kruise one. */
export type ControllerName = 'deployment' | 'statefulset' | 'openkruise' | 'kruiseless';

/** A StatefulSet's `podManagementPolicy`. */
export type PodManagementPolicy = 'OrderedReady' | 'Parallel';

/**
 * What kind of workload a run creates: the CloneSet part's (a CloneSet, or a Deployment for kube-controller-manager)
 * or the Advanced StatefulSet part's (an Advanced StatefulSet, or an apps/v1 StatefulSet) with its policy.
 */
export type WorkloadShape = { kind: 'cloneset' } | { kind: 'asts'; podManagementPolicy: PodManagementPolicy };

/** The CloneSet part's shape (the default of every function here). */
export const CLONESET_SHAPE: WorkloadShape = { kind: 'cloneset' };

/** Images before and after the rollout. */
export const IMAGE_V1 = 'bench:v1';
export const IMAGE_V2 = 'bench:v2';

const template = (app: string, image: string, readinessGates?: readonly string[]) => ({
  metadata: { labels: { app } },
  spec: {
    ...(readinessGates ? { readinessGates: readinessGates.map((conditionType) => ({ conditionType })) } : {}),
    containers: [{ name: 'main', image }],
  },
});

/**
 * The collection path and body that create `name` with `replicas` pods of {@link IMAGE_V1}.
 * @throws Error for a controller that does not run the shape (the Deployment controller and an Advanced
 *   StatefulSet, the StatefulSet controller and a CloneSet)
 */
export function workload(
  controller: ControllerName,
  namespace: string,
  name: string,
  replicas: number,
  shape: WorkloadShape = CLONESET_SHAPE,
): { path: string; body: unknown } {
  if (controller === 'deployment' && shape.kind !== 'cloneset')
    throw new Error(`bench: the Deployment controller runs no ${shape.kind} workload`);
  if (controller === 'statefulset' && shape.kind !== 'asts')
    throw new Error(`bench: the StatefulSet controller runs no ${shape.kind} workload`);
  const selector = { matchLabels: { app: name } };
  if (controller === 'deployment')
    return {
      path: `/apis/apps/v1/namespaces/${namespace}/deployments`,
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name },
        spec: {
          replicas,
          selector,
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '20%', maxSurge: 0 } },
          template: template(name, IMAGE_V1),
        },
      },
    };
  if (shape.kind === 'asts') {
    const policy = shape.podManagementPolicy;
    if (controller === 'statefulset')
      return {
        path: `/apis/apps/v1/namespaces/${namespace}/statefulsets`,
        body: {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: { name },
          spec: {
            replicas,
            serviceName: name,
            podManagementPolicy: policy,
            selector,
            updateStrategy: { type: 'RollingUpdate' },
            template: template(name, IMAGE_V1),
          },
        },
      };
    return {
      path: `/apis/apps.kruise.io/v1beta1/namespaces/${namespace}/statefulsets`,
      body: {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'StatefulSet',
        metadata: { name },
        spec: {
          replicas,
          serviceName: name,
          podManagementPolicy: policy,
          selector,
          updateStrategy: {
            type: 'RollingUpdate',
            rollingUpdate: {
              podUpdatePolicy: 'InPlaceIfPossible',
              maxUnavailable: policy === 'Parallel' ? '20%' : 1,
            },
          },
          template: template(name, IMAGE_V1, ['InPlaceUpdateReady']),
        },
      },
    };
  }
  return {
    path: `/apis/apps.kruise.io/v1alpha1/namespaces/${namespace}/clonesets`,
    body: {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name },
      spec: {
        replicas,
        selector,
        updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '20%' },
        template: template(name, IMAGE_V1),
      },
    },
  };
}

/** The object path of `name` (for patches). */
export function objectPath(
  controller: ControllerName,
  namespace: string,
  name: string,
  shape: WorkloadShape = CLONESET_SHAPE,
): string {
  return `${workload(controller, namespace, name, 0, shape).path}/${name}`;
}

/**
 * Whether a phase of a run goes one pod at a time: an OrderedReady scale-up (each pod waits for the one before it
 * to be Ready) and the StatefulSet controller's image change (one pod recreated at a time). Such a phase takes
 * about N × (one pod's create-to-Ready), so it gets a longer timeout and estimate.
 */
export function oneAtATime(
  controller: ControllerName,
  shape: WorkloadShape,
  phase: 'scaleUp' | 'rollout',
): boolean {
  if (shape.kind !== 'asts') return false;
  return phase === 'scaleUp' ? shape.podManagementPolicy === 'OrderedReady' : controller === 'statefulset';
}

/**
 * How long a phase of `n` pods may take before the run fails: 120 s + 0.6 s a pod, 120 s + 2 s a pod when it goes
 * one pod at a time ({@link oneAtATime}).
 */
export function phaseTimeoutMs(
  controller: ControllerName,
  shape: WorkloadShape,
  phase: 'scaleUp' | 'rollout',
  n: number,
): number {
  return 120_000 + n * (oneAtATime(controller, shape, phase) ? 2000 : 600);
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
