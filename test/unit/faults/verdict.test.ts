import type { ScenarioRun } from '../../parity/run.js';
import type { Snapshot } from '../../parity/snapshot.js';
import { judge, type RunRecord } from '../../faults/verdict.js';

function snapshot(over: Partial<Snapshot> = {}): Snapshot {
  return {
    settled: true,
    object: { spec: { replicas: 2 }, status: { replicas: 2 } },
    revisions: ['cs-7fb7468d98 #1'],
    imagePullJobs: [],
    pods: [],
    pvcs: [],
    events: { 'Normal SuccessfulCreate: succeed to create pod cs-<id>': 2 },
    timeline: { maxPods: 2, minReady: 0 },
    ...over,
  };
}

function record(
  cp: Partial<Snapshot> = {},
  extra: Partial<RunRecord> = {},
  run: Partial<ScenarioRun> = {},
): RunRecord {
  return {
    run: { checkpoints: { created: snapshot(cp) }, ...run },
    observed: { podsCreated: 2, maxLive: 2 },
    leasesHeld: [],
    ...extra,
  };
}

describe('judge', () => {
  it('a run like the baseline converged with no violation', () => {
    expect(judge(record(), record())).toEqual({ violations: [], converged: true, differences: [] });
  });

  it('lower timeline peaks are no difference: they are invariants, not end state', () => {
    expect(judge(record(), record({ timeline: { maxPods: 1, minReady: 0 } })).converged).toBe(true);
  });

  it('more live pods at once than the baseline is an extra pod, whole run and per checkpoint', () => {
    const v = judge(
      record(),
      record({ timeline: { maxPods: 3, minReady: 0 } }, { observed: { podsCreated: 2, maxLive: 3 } }),
    );
    expect(v.violations).toEqual([
      { invariant: 'extra pod', detail: '3 live pods at once, the fault-free run 2' },
      {
        invariant: 'extra pod',
        detail: 'before checkpoint created: 3 live pods at once, the fault-free run 2',
      },
    ]);
  });

  it('more pods created than the baseline is a wrongly deleted pod (or an extra one deleted again)', () => {
    const v = judge(record(), record({}, { observed: { podsCreated: 3, maxLive: 2 } }));
    expect(v.violations).toEqual([
      { invariant: 'wrongly deleted pod', detail: '3 pods created, the fault-free run 2' },
    ]);
  });

  it('an unsettled checkpoint, a failed step and a held lease are violations', () => {
    const v = judge(
      record(),
      record({ settled: false }, { leasesHeld: ['obj#faults#x holder h'] }, { error: 'no pod matches' }),
    );
    expect(v.violations.map((x) => x.invariant)).toEqual(['stuck object', 'failed step', 'lease held']);
  });

  it('a different end state is not converged, with the differing paths', () => {
    const v = judge(
      record(),
      record({ events: { 'Normal SuccessfulCreate: succeed to create pod cs-<id>': 3 } }),
    );
    expect(v.violations).toEqual([]);
    expect(v.converged).toBe(false);
    expect(v.differences).toEqual([
      {
        path: 'created.events.Normal SuccessfulCreate: succeed to create pod cs-<id>',
        reference: 2,
        kruiseless: 3,
      },
    ]);
  });
});
