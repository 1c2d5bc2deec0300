/**
 * The Advanced StatefulSet executor's steps (lib/controllers/statefulset/execute.ts `executionSteps`): the pass
 * limit and the readiness patches of the pods a pass creates (plan/pass.ts `refreshCreated`).
 */
import { executionSteps } from '../../../../../lib/controllers/statefulset/execute.js';
import { MAX_PENDING_PER_PASS } from '../../../../../lib/reconcile/pods/passLimit.js';
import type { Action } from '../../../../../lib/podset/actions.js';

const create = (name: string, batch: number): Action => ({
  type: 'CreatePod',
  pod: { metadata: { name }, spec: { containers: [] } },
  pvcs: [],
  revision: 'web-1',
  batch,
});
const ready = (name: string): Action => ({
  type: 'PatchPodStatus',
  pod: { name, uid: '' },
  reason: 'InitKruisePodReady',
  patch: { status: { conditions: [{ type: 'KruisePodReady', status: 'True' }] } },
});

describe('executionSteps', () => {
  test('one run of creates, then one run of the new pods’ condition patches', () => {
    const steps = executionSteps([create('web-0', 0), create('web-1', 1), ready('web-0'), ready('web-1')]);
    expect(steps.map((s) => s.map((a) => a.type))).toEqual([
      ['CreatePod', 'CreatePod'],
      ['PatchPodStatus', 'PatchPodStatus'],
    ]);
  });

  test('a create the pass limit leaves for the next pass takes its pod’s condition patch with it', () => {
    const names = Array.from({ length: MAX_PENDING_PER_PASS + 1 }, (_, i) => `web-${i}`);
    // the patches highest ordinal first, so that the cap of patched pods alone would keep the left-out pod's
    const steps = executionSteps([...names.map((n, i) => create(n, i)), ...[...names].reverse().map(ready)]);
    expect(steps.map((s) => s.length)).toEqual([MAX_PENDING_PER_PASS, MAX_PENDING_PER_PASS - 1]);
    const patched = steps[1].map((a) => (a.type === 'PatchPodStatus' ? a.pod.name : ''));
    expect(patched).not.toContain(`web-${MAX_PENDING_PER_PASS}`);
  });
});
