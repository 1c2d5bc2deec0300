/**
 * The workloads the bench creates, one container on a fake image, and the path and patch of an image change:
 * - the CloneSet part: a CloneSet (in place, maxUnavailable 20 %) or a Deployment (RollingUpdate, maxUnavailable
 *   20 %, maxSurge 0: the same disruption budget; a Deployment recreates its pods);
 * - the Advanced StatefulSet part (`asts`): an Advanced StatefulSet (`apps.kruise.io/v1beta1`, InPlaceIfPossible
 *   with the `InPlaceUpdateReady` readiness gate OpenKruise's validation asks for; maxUnavailable 20 % with
 *   Parallel, 1 with OrderedReady, the only value OpenKruise allows there) or an apps/v1 StatefulSet (RollingUpdate:
 *   kube-controller-manager v1.34 recreates one pod at a time, its `maxUnavailable` being alpha and off), both with
 *   the pod management policy of the run;
 * - the Advanced DaemonSet part (`ads`): an Advanced DaemonSet (`apps.kruise.io/v1beta1`, rolling update type
 *   Standard — recreate, as the DaemonSet controller — or InPlaceIfPossible) or an apps/v1 DaemonSet (RollingUpdate),
 *   maxUnavailable 10 % and maxSurge 0 on every side, its pods on the N kwok nodes labelled for N
 *   ({@link daemonNodeLabel}, bench/support/kube.ts `ensureDaemonNodes`).
 */

/**
 * Who reconciles the workload: kube-controller-manager's Deployment, StatefulSet or DaemonSet controller, or a kruise
 * one.
 */
export type ControllerName = 'deployment' | 'statefulset' | 'daemonset' | 'openkruise' | 'kruiseless';

/** A StatefulSet's `podManagementPolicy`. */
export type PodManagementPolicy = 'OrderedReady' | 'Parallel';

/**
 * An Advanced DaemonSet's `spec.updateStrategy.rollingUpdate.rollingUpdateType` (OpenKruise's `RollingUpdateType`):
 * Standard recreates pods as the DaemonSet controller does, InPlaceIfPossible changes an image in place.
 */
export type RollingUpdateType = 'Standard' | 'InPlaceIfPossible';

/**
 * What kind of workload a run creates: the CloneSet part's (a CloneSet, or a Deployment for kube-controller-manager)
 * or the Advanced StatefulSet part's (an Advanced StatefulSet, or an apps/v1 StatefulSet) with its policy.
 */
export type WorkloadShape =
  | { kind: 'cloneset' }
  | { kind: 'asts'; podManagementPolicy: PodManagementPolicy }
  | { kind: 'ads'; rollingUpdateType: RollingUpdateType };

/**
 * The label of the kwok nodes a DaemonSet of `n` pods runs on (its `nodeSelector`, value `"true"`): the first `n`
 * of the bench's DaemonSet nodes carry it (bench/support/kube.ts `ensureDaemonNodes`), so every side gets exactly
 * `n` eligible nodes whatever other nodes the control plane has.
 */
export function daemonNodeLabel(n: number): string {
  return `bench.kruiseless.io/ds-${n}`;
}

/** maxUnavailable of the Advanced DaemonSet part's rolling updates, on every side. */
export const DAEMONSET_MAX_UNAVAILABLE = '10%';

/**
 * {@link DAEMONSET_MAX_UNAVAILABLE} as pods of a DaemonSet on `n` nodes: the percentage rounded up, as the DaemonSet
 * controllers scale it (`intstr.GetScaledValueFromIntOrPercent` with roundUp), at least 1.
 */
export function daemonSetMaxUnavailablePods(n: number): number {
  return Math.max(1, Math.ceil((n * Number.parseInt(DAEMONSET_MAX_UNAVAILABLE, 10)) / 100));
}

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
 * The Advanced DaemonSet part's workload: an apps/v1 DaemonSet for kube-controller-manager, an Advanced DaemonSet
 * (v1beta1) for the kruise controllers, on the `n` nodes labelled {@link daemonNodeLabel}(n), maxUnavailable
 * {@link DAEMONSET_MAX_UNAVAILABLE} and maxSurge 0 (OpenKruise's validation wants exactly one of them non-zero).
 */
function daemonSet(
  controller: ControllerName,
  namespace: string,
  name: string,
  n: number,
  rollingUpdateType: RollingUpdateType,
): { path: string; body: unknown } {
  const pod = template(name, IMAGE_V1);
  const spec = {
    selector: { matchLabels: { app: name } },
    template: { ...pod, spec: { ...pod.spec, nodeSelector: { [daemonNodeLabel(n)]: 'true' } } },
  };
  const rollingUpdate = { maxUnavailable: DAEMONSET_MAX_UNAVAILABLE, maxSurge: 0 };
  if (controller === 'daemonset')
    return {
      path: `/apis/apps/v1/namespaces/${namespace}/daemonsets`,
      body: {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name },
        spec: { ...spec, updateStrategy: { type: 'RollingUpdate', rollingUpdate } },
      },
    };
  return {
    path: `/apis/apps.kruise.io/v1beta1/namespaces/${namespace}/daemonsets`,
    body: {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'DaemonSet',
      metadata: { name },
      spec: {
        ...spec,
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType, ...rollingUpdate } },
      },
    },
  };
}

/**
 * The collection path and body that create `name` with `replicas` pods of {@link IMAGE_V1} (a DaemonSet: on the
 * `replicas` nodes labelled for it).
 * @throws Error for a controller that does not run the shape (the Deployment controller and an Advanced
 *   StatefulSet, the StatefulSet controller and a CloneSet, the DaemonSet controller and anything but a Standard
 *   Advanced DaemonSet's shape)
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
  if (controller === 'daemonset' && (shape.kind !== 'ads' || shape.rollingUpdateType !== 'Standard'))
    throw new Error(
      `bench: the DaemonSet controller runs no ${shape.kind === 'ads' ? `${shape.rollingUpdateType} ` : ''}${shape.kind} workload`,
    );
  const selector = { matchLabels: { app: name } };
  if (shape.kind === 'ads') return daemonSet(controller, namespace, name, replicas, shape.rollingUpdateType);
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
