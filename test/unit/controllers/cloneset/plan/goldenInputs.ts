/**
 * Inputs of the golden whole-Plan tests (golden.test.ts): one small CloneSet `default/web` (UID `uid-web`,
 * selector `app=web`, one container `app`), its revisions as the executor stores them, and pods as the
 * executor and the kubelet leave them. Pod-template defaults are off (`templateNoDefaults`) so the plans stay
 * readable; lib/api/podTemplateDefaults.ts has its own tests.
 */
import type {
  CloneSet,
  CloneSetSpec,
  CloneSetStatus,
  ControllerRevision,
  Pod,
  PodTemplateSpec,
} from '../../../../../lib/api/types.js';
import { newRevision, type PlanInput } from '../../../../../lib/controllers/cloneset/plan/index.js';

/** The planner's clock in every golden case. */
export const NOW = new Date('2024-05-01T08:00:00Z');
/** When the listed pods became Ready (an hour before {@link NOW}). */
export const READY_SINCE = '2024-05-01T07:00:00Z';

/** The template of image `app:<version>`. */
export function webTemplate(version: string): PodTemplateSpec {
  return {
    metadata: { labels: { app: 'web' } },
    spec: { containers: [{ name: 'app', image: `app:${version}` }] },
  };
}

/** CloneSet `default/web` at template `version`, 2 replicas unless `spec` says otherwise. */
export function web(version: string, spec: Partial<CloneSetSpec> = {}, status?: CloneSetStatus): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'web', namespace: 'default', uid: 'uid-web', generation: 1 },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: webTemplate(version),
      ...spec,
    },
    ...(status ? { status } : {}),
  };
}

/** The ControllerRevision of template `version`, as the executor created it (revision number `n`). */
export function webRevision(version: string, n: number): ControllerRevision {
  return newRevision(web(version), n, 0);
}

/** Name of the revision of template `version`. */
export function revName(version: string): string {
  return webRevision(version, 1).metadata.name ?? '';
}

/**
 * Pod `web-<id>` at template `version`, Running and Ready since {@link READY_SINCE}, lifecycle `Normal`,
 * `InPlaceUpdateReady=True`, controlled by the CloneSet.
 */
export function webPod(
  id: string,
  version: string,
  extra: { labels?: Record<string, string>; finalizers?: string[] } = {},
): Pod {
  const rev = revName(version);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `web-${id}`,
      namespace: 'default',
      uid: `uid-web-${id}`,
      resourceVersion: '100',
      creationTimestamp: '2024-05-01T06:00:00Z',
      labels: {
        app: 'web',
        'controller-revision-hash': rev,
        'pod-template-hash': rev.slice('web-'.length),
        'apps.kruise.io/cloneset-instance-id': id,
        'lifecycle.apps.kruise.io/state': 'Normal',
        ...(extra.labels ?? {}),
      },
      ...(extra.finalizers ? { finalizers: extra.finalizers } : {}),
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          name: 'web',
          uid: 'uid-web',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      containers: [{ name: 'app', image: `app:${version}` }],
      readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
      nodeName: 'node-1',
    },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: READY_SINCE },
        { type: 'Ready', status: 'True', lastTransitionTime: READY_SINCE },
      ],
      containerStatuses: [
        {
          name: 'app',
          image: `app:${version}`,
          imageID: `docker.io/library/app@sha256:${version}`,
          ready: true,
          restartCount: 0,
        },
      ],
    },
  };
}

/** A PlanInput at {@link NOW} with template defaults off and ids `new1`, `new2`, … */
export function input(cloneSet: CloneSet, pods: Pod[], revisions: ControllerRevision[]): PlanInput {
  let next = 0;
  return {
    cloneSet,
    pods,
    pvcs: [],
    revisions,
    now: NOW,
    newInstanceId: () => `new${++next}`,
    options: { templateNoDefaults: true },
  };
}
