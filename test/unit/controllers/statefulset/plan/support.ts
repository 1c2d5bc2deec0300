import type { ControllerRevision, Pod } from '../../../../../lib/api/types.js';
import { applyDefaults } from '../../../../../lib/controllers/statefulset/api/defaults.js';
import type { StatefulSet } from '../../../../../lib/controllers/statefulset/api/types.js';
import { newRevision } from '../../../../../lib/controllers/statefulset/plan/revision.js';
import {
  planStatefulSet as planOnce,
  type StatefulSetPlan,
  type StatefulSetPlanInput,
} from '../../../../../lib/controllers/statefulset/plan/index.js';
import { deepFreeze } from '../../../../../lib/core/deepFreeze.js';

export const NOW = new Date('2026-01-01T00:10:00Z');
export const EARLIER = '2026-01-01T00:00:00Z';

/** A StatefulSet `web` in `ns` with `replicas` pods of image `image`. */
export function statefulSet(
  replicas: number,
  image = 'nginx:1',
  edit: (s: StatefulSet) => void = () => {},
): StatefulSet {
  const s: StatefulSet = {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'ns', uid: 'sts-uid', generation: 1 },
    spec: {
      replicas,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } },
    },
  };
  edit(s);
  return s;
}

/** The revision the planner makes for `s` (defaulted as the planner does), at `number`. */
export function revisionOf(s: StatefulSet, number = 1): ControllerRevision {
  return newRevision(applyDefaults(s), number, 0);
}

/** A created pod of `web` at `ordinal` and `revision`, Running and Ready since EARLIER unless told otherwise. */
export function pod(
  ordinal: number,
  revision: string,
  opts: {
    phase?: string;
    ready?: boolean;
    labels?: Record<string, string>;
    deleting?: boolean;
    image?: string;
  } = {},
): Pod {
  const name = `web-${ordinal}`;
  return {
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${ordinal}`,
      resourceVersion: '1',
      labels: {
        app: 'web',
        'statefulset.kubernetes.io/pod-name': name,
        'apps.kubernetes.io/pod-index': String(ordinal),
        'controller-revision-hash': revision,
        'lifecycle.apps.kruise.io/state': 'Normal',
        ...(opts.labels ?? {}),
      },
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'StatefulSet',
          name: 'web',
          uid: 'sts-uid',
          controller: true,
        },
      ],
      ...(opts.deleting ? { deletionTimestamp: EARLIER } : {}),
    },
    spec: { containers: [{ name: 'c', image: opts.image ?? 'nginx:1' }] },
    status: {
      phase: opts.phase ?? 'Running',
      conditions: [
        { type: 'Ready', status: opts.ready === false ? 'False' : 'True', lastTransitionTime: EARLIER },
      ],
    },
  };
}

/**
 * The planner over a deep-frozen copy of its input, as a reconcile pass gives it shared, frozen objects
 * (docs/architecture.md#frozen-lists): a planner that writes into what it was given throws here instead of
 * corrupting the invocation's view.
 */
export function planStatefulSet(input: StatefulSetPlanInput): StatefulSetPlan {
  const { now, ...rest } = input;
  return planOnce({ ...deepFreeze(structuredClone(rest)), now });
}
