import type { Pod } from '../../../../lib/api/types.js';
import {
  isSatisfied,
  noExpectations,
  observeExpectations,
} from '../../../../lib/reconcile/pods/observeExpectations.js';

const T0 = 1_700_000_000_000;
const TIMEOUT = 300_000;

function pod(name: string, uid: string, rv: string, terminating = false): Pod {
  return {
    metadata: {
      name,
      uid,
      resourceVersion: rv,
      ...(terminating ? { deletionTimestamp: '2024-05-01T08:00:00Z' } : {}),
    },
    spec: { containers: [{ name: 'c' }] },
  };
}

describe('observeExpectations', () => {
  test('a create is observed once a pod of that name is listed', () => {
    const stored = {
      creates: [
        { name: 'a', at: T0 },
        { name: 'b', at: T0 },
      ],
      deletes: [],
      updates: [],
    };
    const r = observeExpectations(stored, [pod('a', 'u1', '10')], [], T0 + 1000, TIMEOUT);
    expect(r.pending.creates.map((c) => c.name)).toEqual(['b']);
    expect(r.changed).toBe(true);
    expect(r.msUntilTimeout).toBe(TIMEOUT - 1000);
  });

  test('a delete is observed when the pod is gone or terminating, not when a same-named successor exists', () => {
    const stored = {
      creates: [],
      deletes: [
        { name: 'gone', uid: 'u1', at: T0 },
        { name: 'terminating', uid: 'u2', at: T0 },
        { name: 'still', uid: 'u3', at: T0 },
        { name: 'successor', uid: 'u4', at: T0 },
      ],
      updates: [],
    };
    const listed = [
      pod('terminating', 'u2', '5', true),
      pod('still', 'u3', '5'),
      pod('successor', 'u9', '5'),
    ];
    const r = observeExpectations(stored, listed, [], T0, TIMEOUT);
    expect(r.pending.deletes.map((d) => d.name)).toEqual(['still']);
  });

  test('an update is observed when the listed resourceVersion reached the written one', () => {
    const stored = {
      creates: [],
      deletes: [],
      updates: [
        { name: 'old', uid: 'u1', resourceVersion: '20', at: T0 },
        { name: 'new', uid: 'u2', resourceVersion: '20', at: T0 },
      ],
    };
    const r = observeExpectations(stored, [pod('old', 'u1', '19'), pod('new', 'u2', '21')], [], T0, TIMEOUT);
    expect(r.pending.updates.map((u) => u.name)).toEqual(['old']);
  });

  test('entries older than the timeout are dropped as expired', () => {
    const stored = { creates: [{ name: 'lost', at: T0 }], deletes: [], updates: [] };
    const r = observeExpectations(stored, [], [], T0 + TIMEOUT + 1, TIMEOUT);
    expect(r.expired.map((e) => e.name)).toEqual(['lost']);
    expect(isSatisfied(r.pending)).toBe(true);
    expect(r.msUntilTimeout).toBeUndefined();
  });

  test('nothing stored means satisfied and unchanged', () => {
    const r = observeExpectations(noExpectations(), [pod('a', 'u', '1')], [], T0, TIMEOUT);
    expect(r).toEqual({ pending: noExpectations(), expired: [], changed: false });
  });
});
