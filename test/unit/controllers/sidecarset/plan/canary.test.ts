/**
 * lib/controllers/sidecarset/plan/match.ts with canary SidecarSets (OpenKruise v1.9.0 `sidecarsetMutatingPod`: a
 * matching canary — annotations `apps.kruise.io/sidecarset-canary: "true"` and `apps.kruise.io/sidecarset-base` —
 * takes its base's place), as OpenKruise's e2e spec `inject pod sidecar with canary sidecarSet` expects.
 */
import { describe, expect, it } from '@jest/globals';
import type { Pod } from '../../../../../lib/api/types.js';
import { mutateSidecarSet } from '../../../../../lib/controllers/sidecarset/api/mutation.js';
import type { SidecarSet } from '../../../../../lib/controllers/sidecarset/api/types.js';
import { injectSidecars } from '../../../../../lib/controllers/sidecarset/plan/inject.js';

const NOW = new Date('2026-12-04T17:00:00Z');

function sidecarSet(
  name: string,
  image: string,
  annotations?: Record<string, string>,
  app = 'web',
): SidecarSet {
  return mutateSidecarSet({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: {
      selector: { matchLabels: { app } },
      containers: [{ name: 'nginx-sidecar', image }],
      updateStrategy: { type: 'NotUpdate' },
    },
  });
}

const pod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns1', labels: { app: 'web' } },
  spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
};

const canaryOf = (base: string) => ({
  'apps.kruise.io/sidecarset-canary': 'true',
  'apps.kruise.io/sidecarset-base': base,
});

const inject = (sets: SidecarSet[]) =>
  injectSidecars({
    pod,
    namespaceLabels: { 'kubernetes.io/metadata.name': 'ns1' },
    sidecarSets: sets,
    now: NOW,
  });

describe('canary SidecarSets at injection', () => {
  it('a matching canary is injected instead of its base', () => {
    const out = inject([
      sidecarSet('base', 'nginx:1.20.1'),
      sidecarSet('canary', 'nginx:1.21.1', canaryOf('base')),
    ]);
    expect(out.sidecarSets).toEqual(['canary']);
    expect(out.pod.spec.containers.map((c) => `${c.name}=${c.image}`)).toEqual([
      'nginx-sidecar=nginx:1.21.1',
      'main=nginx:1.25',
    ]);
    expect(out.pod.metadata.annotations!['kruise.io/sidecarset-injected-list']).toBe('canary');
  });

  it('the base is injected when its canary does not match the pod, or is not a canary (the annotation not "true")', () => {
    const miss = inject([
      sidecarSet('base', 'nginx:1.20.1'),
      sidecarSet('canary', 'nginx:1.21.1', canaryOf('base'), 'other'),
    ]);
    expect(miss.sidecarSets).toEqual(['base']);
    const notCanary = inject([
      sidecarSet('base', 'nginx:1.20.1'),
      sidecarSet('other', 'nginx:1.21.1', {
        ...canaryOf('base'),
        'apps.kruise.io/sidecarset-canary': 'false',
      }),
    ]);
    expect(notCanary.sidecarSets).toEqual(['base', 'other']);
  });
});
