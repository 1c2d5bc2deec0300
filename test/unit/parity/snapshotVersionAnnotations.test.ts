/**
 * The parity snapshot's resourceVersion-valued pod annotations (test/parity/snapshot.ts `rankVersionAnnotations`,
 * the kind's `resourceVersionAnnotations`): SidecarSet's hot upgrade writes the SidecarSet's resourceVersion into
 * `version.sidecarset.kruise.io/<container>` and `versionalt.…`, random per cluster; each pod's values are compared
 * by rank, the injection's `0` and `1` as they are.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterState } from '../../parity/cluster.js';
import { sidecarSet } from '../../parity/kinds/sidecarset/index.js';
import { takeSnapshot } from '../../parity/snapshot.js';

const pod = (annotations: Record<string, string>): V1Pod => ({
  metadata: { name: 'web-0', uid: 'web-0', annotations },
  spec: { containers: [{ name: 'main', image: 'nginx' }] },
});

const annotationsOf = (p: V1Pod) => {
  const state: ClusterState = {
    object: { metadata: { name: 'log', generation: 1 }, spec: {}, status: {} },
    pods: [p],
    pvcs: [],
    revisions: [],
    imagePullJobs: [],
    events: [],
  };
  return takeSnapshot(sidecarSet, state, new Set(), { maxPods: 0, minReady: 0 }, true).pods[0].annotations;
};

test('resourceVersions become their rank in the pod (as numbers); 0 and 1 and other annotations stay', () => {
  expect(
    annotationsOf(
      pod({
        'version.sidecarset.kruise.io/proxy-1': '9987',
        'versionalt.sidecarset.kruise.io/proxy-1': '10012',
        'version.sidecarset.kruise.io/proxy-2': '10012',
        'versionalt.sidecarset.kruise.io/proxy-2': '0',
        'kruise.io/other': '10012',
      }),
    ),
  ).toEqual({
    'version.sidecarset.kruise.io/proxy-1': '<rv1>',
    'versionalt.sidecarset.kruise.io/proxy-1': '<rv2>',
    'version.sidecarset.kruise.io/proxy-2': '<rv2>',
    'versionalt.sidecarset.kruise.io/proxy-2': '0',
    'kruise.io/other': '10012',
  });
  const injected = {
    'version.sidecarset.kruise.io/proxy-1': '1',
    'versionalt.sidecarset.kruise.io/proxy-1': '0',
  };
  expect(annotationsOf(pod(injected))).toEqual(injected);
});
