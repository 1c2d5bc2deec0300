/**
 * A workload of a kind with no finder of its own, through discovery and its scale subresource
 * (lib/kube/scaleFinder.ts, OpenKruise's `getScaleController`): the resource discovery names, the scale's replicas,
 * selector, UID and deletion, and what resolves to nothing or fails.
 */
import { describe, expect, it } from '@jest/globals';
import {
  findScaledWorkload,
  InvalidApiVersionError,
  SCALED_NOT_FOUND,
  UnservedKindError,
  type ScaleReads,
} from '../../../lib/kube/scaleFinder.js';
import type { ApiResource, Scale } from '../../../lib/kube/types.js';
import { scaleReadsStandIn } from './support/scaleReads.js';

const ROLLOUTS: ApiResource[] = [
  { name: 'rollouts', namespaced: true, kind: 'Rollout' },
  { name: 'rollouts/scale', namespaced: true, kind: 'Scale' },
  { name: 'rollouts/status', namespaced: true, kind: 'Rollout' },
  { name: 'analysisruns', namespaced: true, kind: 'AnalysisRun' },
];

const scale = (uid: string, replicas?: number, selector?: string, deleting = false): Scale => ({
  apiVersion: 'autoscaling/v1',
  kind: 'Scale',
  metadata: {
    name: 'web',
    namespace: 'ns',
    uid,
    ...(deleting ? { deletionTimestamp: '2026-12-06T00:00:00Z' } : {}),
  },
  ...(replicas !== undefined ? { spec: { replicas } } : {}),
  ...(selector !== undefined ? { status: { replicas: 0, selector } } : {}),
});

const ROLLOUT_REF = { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'web' };

describe('findScaledWorkload', () => {
  it('resolves the kind by discovery and reads its scale: replicas, selector text, UID', async () => {
    const r = scaleReadsStandIn(
      { 'argoproj.io/v1alpha1': ROLLOUTS },
      { 'rollouts/ns/web': scale('u-1', 5, 'app=web,tier in (a,b)') },
    );
    expect(await findScaledWorkload(r, 'ns', ROLLOUT_REF)).toEqual({
      ref: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'web', uid: 'u-1' },
      replicas: 5,
      selector: 'app=web,tier in (a,b)',
      deleting: false,
    });
    expect(r.calls).toEqual([
      'discover argoproj.io/v1alpha1',
      'get argoproj.io/v1alpha1 rollouts/scale ns/web namespaced=true',
    ]);
  });

  it('gives 0 replicas and an empty selector for a scale without them, and says when it is being deleted', async () => {
    const r = scaleReadsStandIn(
      { 'argoproj.io/v1alpha1': ROLLOUTS },
      { 'rollouts/ns/web': scale('u-1', undefined, undefined, true) },
    );
    expect(await findScaledWorkload(r, 'ns', ROLLOUT_REF)).toMatchObject({
      replicas: 0,
      selector: '',
      deleting: true,
    });
  });

  it('is undefined for a kind without a scale subresource, with no scale read', async () => {
    const r = scaleReadsStandIn({ 'argoproj.io/v1alpha1': ROLLOUTS }, {});
    expect(await findScaledWorkload(r, 'ns', { ...ROLLOUT_REF, kind: 'AnalysisRun' })).toBeUndefined();
    expect(r.calls).toEqual(['discover argoproj.io/v1alpha1']);
  });

  it('says the object is gone when its kind has a scale and the scale is not found; undefined for another UID', async () => {
    const r = scaleReadsStandIn(
      { 'argoproj.io/v1alpha1': ROLLOUTS },
      { 'rollouts/ns/web': scale('u-2', 3, 'app=web') },
    );
    expect(await findScaledWorkload(r, 'ns', { ...ROLLOUT_REF, name: 'gone' })).toBe(SCALED_NOT_FOUND);
    expect(await findScaledWorkload(r, 'ns', { ...ROLLOUT_REF, uid: 'u-1' })).toBeUndefined();
    expect(await findScaledWorkload(r, 'ns', { ...ROLLOUT_REF, uid: 'u-2' })).toMatchObject({ replicas: 3 });
  });

  it('reads the core group for an apiVersion without a group, or none', async () => {
    const core = [
      { name: 'widgets', namespaced: true, kind: 'Widget' },
      { name: 'widgets/scale', namespaced: true, kind: 'Scale' },
    ];
    const r = scaleReadsStandIn({ v1: core }, { 'widgets/ns/w': scale('u-w', 2, '') });
    expect(await findScaledWorkload(r, 'ns', { apiVersion: 'v1', kind: 'Widget', name: 'w' })).toMatchObject({
      ref: { apiVersion: 'v1' },
      replicas: 2,
    });
    expect(await findScaledWorkload(r, 'ns', { kind: 'Widget', name: 'w' })).toMatchObject({
      ref: { apiVersion: '' },
      replicas: 2,
    });
    expect(r.calls.filter((c) => c.startsWith('get'))).toEqual([
      'get /v1 widgets/scale ns/w namespaced=true',
      'get /v1 widgets/scale ns/w namespaced=true',
    ]);
  });

  it('throws for a kind or a group version the API server does not serve, and for a malformed apiVersion', async () => {
    const r = scaleReadsStandIn({ 'argoproj.io/v1alpha1': ROLLOUTS }, {});
    await expect(findScaledWorkload(r, 'ns', { ...ROLLOUT_REF, kind: 'Rolout' })).rejects.toThrow(
      new UnservedKindError('argoproj.io/v1alpha1', 'Rolout'),
    );
    await expect(
      findScaledWorkload(r, 'ns', { ...ROLLOUT_REF, apiVersion: 'argoproj.io/v1' }),
    ).rejects.toThrow('no resource of kind Rollout is served in argoproj.io/v1');
    await expect(findScaledWorkload(r, 'ns', { ...ROLLOUT_REF, apiVersion: 'a/b/c' })).rejects.toThrow(
      new InvalidApiVersionError('a/b/c'),
    );
    await expect(findScaledWorkload(r, 'ns', { ...ROLLOUT_REF, apiVersion: 'argoproj.io/' })).rejects.toThrow(
      UnservedKindError,
    );
  });

  it('asks discovery once more, fresh, when a kept answer lacks the kind (its CRD may be newer than the answer)', async () => {
    let answers = 0;
    const r = scaleReadsStandIn({}, { 'widgets/ns/w': scale('u-w', 2, 'app=w') });
    const widgets = [
      { name: 'widgets', namespaced: true, kind: 'Widget' },
      { name: 'widgets/scale', namespaced: true, kind: 'Scale' },
    ];
    const kinds: string[] = [];
    const kube: ScaleReads = {
      serverResources: async (gv, options) => {
        kinds.push(`${gv}${options?.fresh ? ' fresh' : ''}`);
        return answers++ === 0 ? [] : widgets;
      },
      getScale: r.getScale,
    };
    expect(
      await findScaledWorkload(kube, 'ns', { apiVersion: 'example.io/v1', kind: 'Widget', name: 'w' }),
    ).toMatchObject({
      replicas: 2,
    });
    expect(kinds).toEqual(['example.io/v1', 'example.io/v1 fresh']);
    // still missing after the fresh answer: unserved
    await expect(
      findScaledWorkload(kube, 'ns', { apiVersion: 'example.io/v1', kind: 'Gadget', name: 'g' }),
    ).rejects.toThrow(UnservedKindError);
    expect(kinds).toEqual(['example.io/v1', 'example.io/v1 fresh', 'example.io/v1', 'example.io/v1 fresh']);
  });

  it('is undefined, reading nothing, for a client without discovery or scale reads, or a reference without a name', async () => {
    const r = scaleReadsStandIn(
      { 'argoproj.io/v1alpha1': ROLLOUTS },
      { 'rollouts/ns/web': scale('u-1', 5, 'app=web') },
    );
    expect(
      await findScaledWorkload({ serverResources: r.serverResources }, 'ns', ROLLOUT_REF),
    ).toBeUndefined();
    expect(await findScaledWorkload({ getScale: r.getScale }, 'ns', ROLLOUT_REF)).toBeUndefined();
    expect(await findScaledWorkload(r, 'ns', { ...ROLLOUT_REF, name: '' })).toBeUndefined();
    expect(r.calls).toEqual([]);
  });
});
