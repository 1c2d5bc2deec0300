/**
 * The SidecarSet's own watch (lib/controllers/sidecarset/kind.ts): as OpenKruise's `add`, an update asks for a pass
 * only when the spec changed (lib/source/generationChanged.ts), so the pass's own status write wakes no second pass;
 * a created, deleted or relisted SidecarSet always does.
 */
import { CONTROLLERS } from '../../../../lib/controllers/index.js';
import { generationNotObserved } from '../../../../lib/source/generationChanged.js';
import {
  requestsForChange,
  watchStreams,
  type ChangeType,
  type MapReads,
} from '../../../../lib/source/watchSpec.js';
import type { JsonObject } from '../../../../lib/api/types.js';
import type { Logger } from '../../../../lib/core/logger.js';

const stream = watchStreams(CONTROLLERS).find((s) => s.watched.plural === 'sidecarsets')!;
const reads: MapReads = {
  cluster: 'c1',
  kube: {
    get: () => Promise.reject(new Error('no read expected')),
    list: () => Promise.reject(new Error('no read expected')),
    serverResources: () => Promise.reject(new Error('no read expected')),
    getScale: () => Promise.reject(new Error('no read expected')),
  },
};

function sidecarSet(generation: number | undefined, observedGeneration?: number): JsonObject {
  return {
    metadata: { name: 'log', resourceVersion: '9', ...(generation === undefined ? {} : { generation }) },
    ...(observedGeneration === undefined ? {} : { status: { observedGeneration, matchedPods: 2 } }),
  };
}

async function names(obj: JsonObject, change: ChangeType): Promise<string[]> {
  return (await requestsForChange(stream, obj, reads, {} as Logger, change)).map(
    (r) => `${r.kind} ${r.name} ${r.reason}`,
  );
}

describe('SidecarSet For watch (GenerationChangedPredicate)', () => {
  it('is its own stream, read by the SidecarSet controller alone', () => {
    expect(stream.consumers.map((c) => c.controller.kind)).toEqual(['apps.kruise.io/SidecarSet']);
  });

  it('skips an update whose generation its status has observed: the status write, a label or annotation edit', async () => {
    expect(await names(sidecarSet(3, 3), 'MODIFIED')).toEqual([]);
  });

  it('passes an update of a spec not yet observed, or of an object without the two numbers', async () => {
    const one = ['apps.kruise.io/SidecarSet log ObjectChanged'];
    expect(await names(sidecarSet(4, 3), 'MODIFIED')).toEqual(one);
    expect(await names(sidecarSet(1), 'MODIFIED')).toEqual(one);
    expect(await names(sidecarSet(undefined, 2), 'MODIFIED')).toEqual(one);
  });

  it('passes a created, deleted or relisted SidecarSet whatever its status', async () => {
    for (const change of ['ADDED', 'DELETED', 'LISTED'] as const)
      expect(await names(sidecarSet(3, 3), change)).toEqual(['apps.kruise.io/SidecarSet log ObjectChanged']);
  });

  it('reads the two numbers only: a string generation is not a number', () => {
    expect(generationNotObserved({ metadata: { generation: '3' }, status: { observedGeneration: 3 } })).toBe(
      true,
    );
    expect(generationNotObserved({ metadata: { generation: 3 }, status: { observedGeneration: 3 } })).toBe(
      false,
    );
  });
});
