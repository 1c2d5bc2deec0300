/**
 * What the CloneSet planner gives the pod-set toolkit's in-place rules (lib/controllers/cloneset/plan/inPlaceOptions.ts): its three
 * gates and CloneSet's revision labels (docs/behaviour/cloneset.md#new-pods), which an in-place update writes too.
 */
import { startInPlaceUpdate } from '../../../../../lib/podset/inplace/update.js';
import {
  cloneSetRevisionLabels,
  inPlaceUpdateGates,
  inPlaceUpdateOptions,
} from '../../../../../lib/controllers/cloneset/plan/inPlaceOptions.js';
import { DEFAULT_PLANNER_OPTIONS } from '../../../../../lib/controllers/cloneset/plan/types.js';
import { NOW } from '../../../support/fixtures.js';
import { ipPod } from '../../../support/inPlacePods.js';

describe('CloneSet in-place options', () => {
  it('revision labels: the full name and its suffix; with CloneSetShortHash the suffix twice', () => {
    expect(cloneSetRevisionLabels('foo-abc', false)).toEqual({
      'controller-revision-hash': 'foo-abc',
      'pod-template-hash': 'abc',
    });
    expect(cloneSetRevisionLabels('foo-abc', true)).toEqual({
      'controller-revision-hash': 'abc',
      'pod-template-hash': 'abc',
    });
  });

  it('carries exactly the three in-place gates of the planner options', () => {
    const options = { ...DEFAULT_PLANNER_OPTIONS, inPlaceWorkloadVerticalScaling: true };
    expect(inPlaceUpdateGates(options)).toEqual({
      inPlaceUpdateEnvFromMetadata: true,
      inPlaceWorkloadVerticalScaling: true,
      recreatePodWhenChangeVCTInCloneSet: false,
    });
  });

  it('an in-place update with the short-hash gate writes the suffix into controller-revision-hash', () => {
    const pod = ipPod('p0', 'old_rev');
    const spec = {
      revision: 'foo-abc',
      containerImages: { c1: 'foo2' },
      containerRefMetadata: {},
      containerResources: {},
      updateEnvFromMetadata: false,
      graceSeconds: 0,
    };
    const options = inPlaceUpdateOptions({ ...DEFAULT_PLANNER_OPTIONS, cloneSetShortHash: true });
    const patch = startInPlaceUpdate(pod, spec, NOW, options).find((a) => a.type === 'PatchPod');
    expect(patch?.type === 'PatchPod' && patch.patch.metadata).toMatchObject({
      labels: { 'controller-revision-hash': 'abc', 'pod-template-hash': 'abc' },
    });
  });
});
