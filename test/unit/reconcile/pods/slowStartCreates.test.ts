/**
 * lib/reconcile/pods/slowStartCreates.ts: batches in order, each batch's expectations stored before its creates,
 * one Event per create, a failed batch's names taken back and no next batch; a name held by the workload's own pod
 * counts as created but is no write.
 */
import { describe, expect, it } from '@jest/globals';
import type { Pod } from '../../../../lib/api/types.js';
import { KubeApiError } from '../../../../lib/kube/errors.js';
import type { KubeEvent } from '../../../../lib/kube/types.js';
import type { Expectations } from '../../../../lib/state/index.js';
import { createInSlowStartBatches } from '../../../../lib/reconcile/pods/slowStartCreates.js';

const OWNER = 'uid-1';
const pod = (name: string, batch: number) => ({
  batch,
  pod: {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ns' },
    spec: { containers: [] },
  } as Pod,
});

function run(refuse: Set<string>, taken: Set<string> = new Set()) {
  const log: string[] = [];
  const events: KubeEvent[] = [];
  const failures: unknown[] = [];
  const expected: Expectations = { creates: [], deletes: [] } as unknown as Expectations;
  const kube = {
    create: (_r: unknown, o: Pod) => {
      const name = o.metadata.name ?? '';
      log.push(`create ${name}`);
      if (refuse.has(name))
        return Promise.reject(new KubeApiError(`create pod ${name}`, 403, 'Forbidden', 'quota'));
      if (taken.has(name))
        return Promise.reject(new KubeApiError(`create pod ${name}`, 409, 'AlreadyExists', 'exists'));
      return Promise.resolve(o);
    },
    get: (_r: unknown, k: { name: string }) =>
      Promise.resolve({
        metadata: {
          name: k.name,
          ownerReferences: [{ uid: OWNER, controller: true, kind: 'X', name: 'x', apiVersion: 'v1' }],
        },
      } as Pod),
  };
  let t = 1000;
  const result = createInSlowStartBatches(
    {
      kube: kube as never,
      ownerUid: OWNER,
      expected,
      storeExpectations: (e) => {
        log.push(`expect ${e.creates.map((c) => c.name).join(',')}`);
        return Promise.resolve();
      },
      clock: () => t++,
      limit: 2,
      reasons: { created: 'SuccessfulCreate', failed: 'FailedCreate' },
      record: (ev) => {
        events.push(...ev);
        return Promise.resolve();
      },
      fail: (e) => failures.push(e),
    },
    [pod('a', 0), pod('b', 1), pod('c', 1), pod('d', 2), pod('e', 2), pod('f', 2), pod('g', 2)],
  );
  return { result, log, events, failures, expected };
}

describe('createInSlowStartBatches', () => {
  it('sends the batches in order, each after its expectations are stored', async () => {
    const r = run(new Set(), new Set(['c']));
    // c was found held by the workload's own pod: not made by this pass
    expect(await r.result).toEqual({ writes: 6, attempted: 7, created: ['a', 'b', 'd', 'e', 'f', 'g'] });
    expect(r.log).toEqual([
      'expect a',
      'create a',
      'expect a,b,c',
      'create b',
      'create c',
      'expect a,b,c,d,e,f,g',
      'create d',
      'create e',
      'create f',
      'create g',
    ]);
    expect(r.events.map((e) => `${e.reason} ${e.message}`)).toEqual(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n) => `SuccessfulCreate Created pod: ${n}`),
    );
  });

  it('stops after a batch with a failure and takes its failed names back', async () => {
    const r = run(new Set(['c']));
    expect(await r.result).toEqual({ writes: 2, attempted: 3, created: ['a', 'b'] });
    expect(r.log).toEqual(['expect a', 'create a', 'expect a,b,c', 'create b', 'create c', 'expect a,b']);
    expect(r.events.map((e) => `${e.type} ${e.reason} ${e.message}`)).toEqual([
      'Normal SuccessfulCreate Created pod: a',
      'Normal SuccessfulCreate Created pod: b',
      'Warning FailedCreate Error creating: quota',
    ]);
    expect(r.failures).toHaveLength(1);
    expect(r.expected.creates.map((c) => c.name)).toEqual(['a', 'b']);
  });
});
