/**
 * lib/reconcile/pods/deletePodsRecorded.ts: the delete expectations stored before the first delete, every pod's
 * delete issued at once (up to the limit) with its UID precondition and answered by the kind's Event as it succeeds,
 * NotFound counted as deleted; a failed delete does not stop the others (as upstream's goroutine per pod), its
 * expectation is taken back after the last answer, and it is returned with the count of pods deleted.
 */
import { describe, expect, it } from '@jest/globals';
import { KubeApiError } from '../../../../lib/kube/errors.js';
import type { KubeEvent } from '../../../../lib/kube/types.js';
import type { Expectations, ExpectationStore, Lease } from '../../../../lib/state/index.js';
import { deletePodsRecorded } from '../../../../lib/reconcile/pods/deletePodsRecorded.js';

const PODS = ['a', 'b', 'c'].map((name) => ({ name, uid: `uid-${name}` }));

function run(answers: Record<string, 'ok' | 'gone' | 'refused'>, limit?: number) {
  const log: string[] = [];
  const events: KubeEvent[] = [];
  const kube = {
    delete: (_r: unknown, ref: { name: string }, pre: { uid: string }) => {
      log.push(`delete ${ref.name} uid=${pre.uid}`);
      const answer = answers[ref.name] ?? 'ok';
      if (answer === 'gone') return Promise.reject(new KubeApiError('delete', 404, 'NotFound', 'gone'));
      if (answer === 'refused') return Promise.reject(new KubeApiError('delete', 403, 'Forbidden', 'no'));
      return Promise.resolve();
    },
  };
  const expectations = {
    put: (_l: Lease, e: Expectations) => {
      log.push(`expect ${e.deletes.map((d) => d.name).join(',')}`);
      return Promise.resolve();
    },
  } as unknown as ExpectationStore;
  const expected = { creates: [], deletes: [] } as unknown as Expectations;
  const result = deletePodsRecorded(
    {
      kube: kube as never,
      expectations,
      lease: {} as Lease,
      namespace: 'ns',
      record: (ev) => {
        events.push(...ev);
        log.push(`event ${ev.map((e) => e.message).join(',')}`);
        return Promise.resolve();
      },
      reason: 'SuccessfulDelete',
      message: (name) => `Deleted pod: ${name}`,
      ...(limit !== undefined ? { limit } : {}),
    },
    expected,
    PODS,
    5000,
  );
  return { result, log, events, expected };
}

describe('deletePodsRecorded', () => {
  it('stores every expectation first, then issues every delete with its UID before the first answer, and records each Event as its delete answers', async () => {
    const { result, log, events, expected } = run({ b: 'gone' });
    expect(await result).toEqual({ writes: 3, deleted: 3 });
    expect(log).toEqual([
      'expect a,b,c',
      'delete a uid=uid-a',
      'delete b uid=uid-b',
      'delete c uid=uid-c',
      'event Deleted pod: a',
      'event Deleted pod: b',
      'event Deleted pod: c',
    ]);
    expect(events.every((e) => e.type === 'Normal' && e.reason === 'SuccessfulDelete')).toBe(true);
    expect(expected.deletes).toEqual(PODS.map((p) => ({ ...p, at: 5000 })));
  });

  it('a refused delete does not stop the others; its expectation is taken back after the last answer and its error returned', async () => {
    const { result, log, events, expected } = run({ b: 'refused' });
    const r = await result;
    expect(r.deleted).toBe(2);
    expect(r.writes).toBe(2);
    expect(r.error).toBeInstanceOf(KubeApiError);
    expect((r.error as KubeApiError).statusCode).toBe(403);
    expect(log).toEqual([
      'expect a,b,c',
      'delete a uid=uid-a',
      'delete b uid=uid-b',
      'delete c uid=uid-c',
      'event Deleted pod: a',
      'event Deleted pod: c',
      'expect a,c',
    ]);
    expect(events.map((e) => e.message)).toEqual(['Deleted pod: a', 'Deleted pod: c']);
    expect(expected.deletes.map((d) => d.name)).toEqual(['a', 'c']);
  });

  it('limit 1: one delete in flight at a time, each answered before the next', async () => {
    const { result, log } = run({}, 1);
    expect(await result).toEqual({ writes: 3, deleted: 3 });
    expect(log).toEqual([
      'expect a,b,c',
      'delete a uid=uid-a',
      'event Deleted pod: a',
      'delete b uid=uid-b',
      'event Deleted pod: b',
      'delete c uid=uid-c',
      'event Deleted pod: c',
    ]);
  });

  it('nothing to delete: no write at all', async () => {
    const empty = await deletePodsRecorded(
      {
        kube: {} as never,
        expectations: {} as ExpectationStore,
        lease: {} as Lease,
        namespace: 'ns',
        record: () => Promise.resolve(),
        reason: 'SuccessfulDelete',
        message: (n) => n,
      },
      { creates: [], deletes: [] } as unknown as Expectations,
      [],
      0,
    );
    expect(empty).toEqual({ writes: 0, deleted: 0 });
  });
});
