/** Shared builders of the WorkloadSpread tests: a two-subset WorkloadSpread over a CloneSet, and its pods. */
import type { Pod } from '../../../../lib/api/types.js';
import type { WorkloadSpread } from '../../../../lib/controllers/workloadspread/api/types.js';

/** `ws-a` in `ns` over CloneSet `web`: subset `zone-a` (max 2, node label zone=a), `zone-b` (no max, zone=b). */
export function workloadSpread(overrides: Partial<WorkloadSpread> = {}): WorkloadSpread {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'WorkloadSpread',
    metadata: { name: 'ws-a', namespace: 'ns', generation: 1, resourceVersion: '10' },
    spec: {
      targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' },
      subsets: [
        {
          name: 'zone-a',
          requiredNodeSelector: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
          maxReplicas: 2,
        },
        {
          name: 'zone-b',
          requiredNodeSelector: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] },
        },
      ],
    },
    ...overrides,
  };
}

/** A running, ready pod `name` of CloneSet `web`, placed in `subset` by `ws-a` (none: no annotation). */
export function pod(name: string, subset?: string, extra: Partial<Pod['metadata']> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      creationTimestamp: '2026-12-04T07:00:00Z',
      labels: { app: 'web' },
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          name: 'web',
          uid: 'cs-uid',
          controller: true,
        },
      ],
      ...(subset
        ? {
            annotations: {
              'apps.kruise.io/matched-workloadspread': JSON.stringify({ name: 'ws-a', subset }),
            },
          }
        : {}),
      ...extra,
    },
    spec: { containers: [{ name: 'main', image: 'nginx' }], nodeName: 'node-1' },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-12-04T07:00:10Z' }],
    },
  };
}
