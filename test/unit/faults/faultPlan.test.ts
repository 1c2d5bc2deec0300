import { FaultPlanner, NO_FAULTS, isWatch, isWrite, type Fault } from '../../faults/faultPlan.js';
import { seededRandom } from '../../faults/rng.js';

const POD_LIST = { method: 'GET', url: '/api/v1/namespaces/a/pods?limit=500' };
const POD_CREATE = { method: 'POST', url: '/api/v1/namespaces/a/pods?fieldManager=kruiseless' };
const POD_WATCH = { method: 'GET', url: '/api/v1/pods?watch=true&resourceVersion=5' };

function draws(seed: number, rates: ConstructorParameters<typeof FaultPlanner>[1], n: number): Fault[] {
  const p = new FaultPlanner(seededRandom(seed), rates);
  return Array.from({ length: n }, (_, i) =>
    p.next(i % 3 === 0 ? POD_WATCH : i % 3 === 1 ? POD_CREATE : POD_LIST),
  );
}

describe('FaultPlanner', () => {
  it('never faults with NO_FAULTS', () => {
    expect(draws(7, NO_FAULTS, 300).every((f) => f.kind === 'none')).toBe(true);
  });

  it('replays the same faults for the same seed and requests', () => {
    const rates = { request: 0.5, watch: 0.5, killAfterWrite: 4 };
    expect(draws(42, rates, 200)).toEqual(draws(42, rates, 200));
    expect(draws(42, rates, 200)).not.toEqual(draws(43, rates, 200));
  });

  it('kills once, at the killAfterWrite-th write, even with no other fault', () => {
    const p = new FaultPlanner(seededRandom(1), { request: 0, watch: 0, killAfterWrite: 3 });
    const got = [POD_CREATE, POD_LIST, POD_CREATE, POD_WATCH, POD_CREATE, POD_CREATE].map(
      (r) => p.next(r).kind,
    );
    expect(got).toEqual(['none', 'none', 'none', 'none', 'kill', 'none']);
  });

  it('gives dropped answers to writes only and cuts to watches only', () => {
    const rates = { request: 1, watch: 1 };
    const p = new FaultPlanner(seededRandom(9), rates);
    const kinds = (r: typeof POD_LIST): Set<string> =>
      new Set(Array.from({ length: 400 }, () => p.next(r).kind));
    expect([...kinds(POD_LIST)].sort()).toEqual(['latency', 'reset', 'status']);
    expect([...kinds(POD_CREATE)].sort()).toEqual(['dropAnswer', 'latency', 'reset', 'status']);
    expect([...kinds(POD_WATCH)].sort()).toEqual(['latency', 'reset', 'status', 'watchCut']);
  });

  it('sends Retry-After with every 429 and none with 500/503', () => {
    const p = new FaultPlanner(seededRandom(3), { request: 1, watch: 0 });
    const statuses = Array.from({ length: 300 }, () => p.next(POD_LIST)).filter((f) => f.kind === 'status');
    expect(statuses.length).toBeGreaterThan(0);
    for (const s of statuses)
      expect(s.code === 429 ? s.retryAfterSeconds !== undefined : s.retryAfterSeconds === undefined).toBe(
        true,
      );
  });
});

describe('request shapes', () => {
  it.each([
    ['/api/v1/pods?watch=true', true],
    ['/api/v1/pods?limit=5&watch=1', true],
    ['/api/v1/pods?watch=false', false],
    ['/api/v1/namespaces/watch/pods', false],
  ])('isWatch(%s) is %s', (url, want) => expect(isWatch(url)).toBe(want));

  it('counts POST, PUT, PATCH and DELETE as writes', () => {
    expect(['GET', 'POST', 'put', 'PATCH', 'DELETE'].map(isWrite)).toEqual([false, true, true, true, true]);
  });
});
