/**
 * The pod webhook's ledger against OpenKruise v1.9.0's `updateSubsetForPod` / `getSuitableSubset`
 * (pkg/util/workloadspread/workloadspread.go): the first subset that misses pods takes the pod and records it under
 * the pod's version; a subset without a maximum records nothing; deletions record in deletingPods.
 */
import { decideLedger, type LedgerInput } from '../../../../../lib/controllers/workloadspread/plan/index.js';
import { workloadSpread } from '../fixtures.js';

const NOW = new Date('2026-12-04T07:30:00.600Z');

const input = (overrides: Partial<LedgerInput>): LedgerInput => ({
  ws: workloadSpread(),
  operation: 'Create',
  podName: 'web-abcde',
  version: 'versionIgnored',
  replicas: 4,
  now: NOW,
  newUid: 'generated-uid',
  ...overrides,
});

describe('decideLedger', () => {
  it('places the first pod in zone-a and records it, initialising the version from the spec', () => {
    expect(decideLedger(input({}))).toEqual({
      subset: 'zone-a',
      uid: '',
      status: {
        versionedSubsetStatuses: {
          versionIgnored: [
            {
              name: 'zone-a',
              replicas: 0,
              missingReplicas: 1,
              creatingPods: { 'web-abcde': '2026-12-04T07:30:00Z' },
            },
            { name: 'zone-b', replicas: 0, missingReplicas: -1 },
          ],
        },
      },
    });
  });

  it('a full zone-a sends the pod to zone-b, which has no maximum: nothing is recorded', () => {
    const ws = workloadSpread({
      status: {
        versionedSubsetStatuses: {
          versionIgnored: [
            { name: 'zone-a', replicas: 2, missingReplicas: 0 },
            { name: 'zone-b', replicas: 0, missingReplicas: -1 },
          ],
        },
      },
    });
    expect(decideLedger(input({ ws }))).toEqual({ subset: 'zone-b', uid: '' });
  });

  it('zone-a marked Schedulable=False by the Adaptive strategy is skipped though it misses pods: zone-b takes the pod', () => {
    const ws = workloadSpread({
      status: {
        versionedSubsetStatuses: {
          versionIgnored: [
            {
              name: 'zone-a',
              replicas: 0,
              missingReplicas: 2,
              conditions: [
                {
                  type: 'Schedulable',
                  status: 'False',
                  reason: 'PodUnschedulable',
                  message: '',
                  lastTransitionTime: '2026-12-04T07:29:00Z',
                },
              ],
            },
            { name: 'zone-b', replicas: 0, missingReplicas: -1 },
          ],
        },
      },
    });
    expect(decideLedger(input({ ws }))).toEqual({ subset: 'zone-b', uid: '' });
  });

  it('a pod created by generateName is recorded under the generated uid', () => {
    const decision = decideLedger(input({ podName: '', version: '5d9f7c' }));
    expect(decision.uid).toBe('generated-uid');
    expect(decision.status?.versionedSubsetStatuses?.['5d9f7c']?.[0]?.creatingPods).toEqual({
      'generated-uid': '2026-12-04T07:30:00Z',
    });
  });

  it('a percentage is of the replicas, rounded up', () => {
    const ws = workloadSpread();
    ws.spec.subsets[0] = { ...ws.spec.subsets[0], maxReplicas: '30%' };
    expect(
      decideLedger(input({ ws, replicas: 5 })).status?.versionedSubsetStatuses?.versionIgnored?.[0],
    ).toEqual({
      name: 'zone-a',
      replicas: 0,
      missingReplicas: 1,
      creatingPods: { 'web-abcde': '2026-12-04T07:30:00Z' },
    });
  });

  it('an already recorded pod changes nothing and keeps its subset', () => {
    const ws = workloadSpread({
      status: {
        versionedSubsetStatuses: {
          versionIgnored: [
            {
              name: 'zone-a',
              replicas: 0,
              missingReplicas: 1,
              creatingPods: { 'web-abcde': '2026-12-04T07:29:00Z' },
            },
            { name: 'zone-b', replicas: 0, missingReplicas: -1 },
          ],
        },
      },
    });
    expect(decideLedger(input({ ws }))).toEqual({ subset: 'zone-a', uid: '' });
  });

  it('a deletion records the pod in its subset and gives the subset one more missing replica', () => {
    const ws = workloadSpread({
      status: {
        versionedSubsetStatuses: {
          versionIgnored: [
            { name: 'zone-a', replicas: 2, missingReplicas: 0 },
            { name: 'zone-b', replicas: 1, missingReplicas: -1 },
          ],
        },
      },
    });
    expect(decideLedger(input({ ws, operation: 'Delete', podSubset: 'zone-a' }))).toEqual({
      subset: 'zone-a',
      uid: '',
      status: {
        versionedSubsetStatuses: {
          versionIgnored: [
            {
              name: 'zone-a',
              replicas: 2,
              missingReplicas: 1,
              deletingPods: { 'web-abcde': '2026-12-04T07:30:00Z' },
            },
            { name: 'zone-b', replicas: 1, missingReplicas: -1 },
          ],
        },
      },
    });
  });

  it('one subset without a maximum takes every pod with no record', () => {
    const ws = workloadSpread();
    ws.spec.subsets = [{ name: 'only' }];
    expect(decideLedger(input({ ws }))).toEqual({ subset: 'only', uid: '' });
  });
});
