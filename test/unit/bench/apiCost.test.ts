/**
 * The bench's reading of the API server's counters, on two real scrapes of the local control plane's `/metrics`
 * (fixtures/metrics-*.txt: the `apiserver_request_total` and `apiserver_response_sizes_sum` lines of pods,
 * CloneSets and ControllerRevisions, taken about a minute apart while the bench ran a rollout, a reaction series
 * and the no-op CloneSets). The expected differences were computed from the same files by a separate script.
 */
import { readFileSync } from 'node:fs';
import { apiCounters, diffCounters, readsOf, summarizeCost } from '../../../bench/support/apiCost.js';
import { samples } from '../../../bench/support/promText.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const before = apiCounters(fixture('metrics-before.txt'));
const after = apiCounters(fixture('metrics-after.txt'));

describe('apiCounters', () => {
  test('sums every response code of a verb and resource, skipping WATCH and cluster scope', () => {
    // 200 × 91 + 404 × 59 DELETEs of single pods, plus 2 DELETE collection at namespace scope
    expect(before.requests['DELETE pods']).toBe(152);
    expect(before.requests['POST pods']).toBe(91); // 201 × 90 and one 403
    expect(before.requests['LIST pods']).toBe(32); // the cluster-scope LIST (7) is an informer's
    expect(Object.keys(before.requests).some((k) => k.startsWith('WATCH'))).toBe(false);
  });

  test('reads response sizes by the same keys', () => {
    expect(Object.keys(before.bytes).sort()).toEqual([
      'GET clonesets',
      'LIST clonesets',
      'LIST controllerrevisions',
      'LIST pods',
    ]);
  });
});

describe('diffCounters and summarizeCost', () => {
  test('the difference of two scrapes, by key, zeros dropped', () => {
    expect(diffCounters(before.requests, after.requests)).toEqual({
      'DELETE clonesets': 2,
      'DELETE controllerrevisions': 2,
      'DELETE pods': 96,
      'GET clonesets': 260,
      'LIST clonesets': 2,
      'LIST controllerrevisions': 258,
      'LIST pods': 264,
      'PATCH clonesets': 4,
      'PATCH pods': 194,
      'PATCH pods/status': 776,
      'POST clonesets': 24,
      'POST controllerrevisions': 26,
      'POST pods': 302,
      'POST pods/binding': 194,
      'PUT clonesets/status': 201,
    });
    expect(diffCounters(before.bytes, after.bytes)).toEqual({
      'GET clonesets': 475526,
      'LIST clonesets': 134,
      'LIST controllerrevisions': 425358,
      'LIST pods': 54318547,
    });
  });

  test('reads, writes and requests per pod', () => {
    const d = diffCounters(before.requests, after.requests);
    expect(readsOf(d)).toBe(784);
    const s = summarizeCost(d, 194);
    expect(s).toMatchObject({ requests: 2605, reads: 784, writes: 1821, perPod: 13.43 });
    expect(summarizeCost(d, 0).perPod).toBe(0);
  });
});

describe('samples', () => {
  test('labels and value of each line of one metric; other metrics and prefixes are skipped', () => {
    const text = [
      'apiserver_request_total{code="200",resource="pods",verb="GET"} 3',
      'apiserver_request_total_other{code="200"} 9',
      '# HELP apiserver_request_total x',
      'apiserver_request_total{code="201",resource="pods",verb="POST"} 4.5',
    ].join('\n');
    expect(samples(text, 'apiserver_request_total')).toEqual([
      { labels: { code: '200', resource: 'pods', verb: 'GET' }, value: 3 },
      { labels: { code: '201', resource: 'pods', verb: 'POST' }, value: 4.5 },
    ]);
  });
});
