/**
 * The bench's reading of kube-apiserver's audit log (bench/support/audit.ts): clients from user agents as the local
 * control plane's components send them (copied from an audit log of a bench run), the request metric's keys, and
 * a phase's window between the bench's scrapes.
 */
import {
  attributePhase,
  attributionTable,
  benchNamespaces,
  clientOf,
  keyOfEvent,
  parseAuditLog,
  type AuditEvent,
} from '../../../bench/support/audit.js';
import { USER_AGENT } from '../../../lib/kube/request.js';
import { BENCH_USER_AGENT } from '../../../bench/support/kube.js';

const NS = 'bench-kruiseless-2-1-abc';
/** An event received at second `t` of the minute and finished 1 ms later. */
function ev(
  t: number,
  userAgent: string,
  verb: string,
  ref?: AuditEvent['objectRef'],
  uri = '/api',
): AuditEvent {
  const at = (s: number): string => `2026-12-06T15:41:${s.toFixed(3).padStart(6, '0')}Z`;
  return {
    stage: 'ResponseComplete',
    verb,
    requestURI: uri,
    ...(userAgent ? { userAgent } : {}),
    ...(ref ? { objectRef: ref } : {}),
    responseStatus: { code: 200 },
    requestReceivedTimestamp: at(t),
    stageTimestamp: at(t + 0.001),
  };
}
const bench = (t: number, verb: string, ref?: AuditEvent['objectRef'], uri = '/api'): AuditEvent =>
  ev(t, BENCH_USER_AGENT, verb, ref, uri);
const scrape = (t: number): AuditEvent => bench(t, 'get', undefined, '/metrics');
const pod = (name: string, subresource?: string): AuditEvent['objectRef'] => ({
  resource: 'pods',
  namespace: NS,
  name,
  ...(subresource ? { subresource } : {}),
});
const KWOK = 'kwok/v0.7.0 (linux/amd64)';

const log: AuditEvent[] = [
  bench(1, 'create', { resource: 'namespaces', name: NS }),
  scrape(2),
  bench(3, 'create', { resource: 'clonesets', namespace: NS }),
  ev(4, '', 'create', { resource: 'pods', namespace: NS }),
  ev(4.5, '', 'create', { resource: 'pods', namespace: NS }),
  scrape(5),
  scrape(6),
  bench(7, 'patch', { resource: 'clonesets', namespace: NS, name: 'bench' }),
  ev(8, '', 'patch', pod('a', 'status')),
  ev(8.1, '', 'patch', pod('a')),
  ev(8.2, KWOK, 'patch', pod('a', 'status')),
  ev(8.3, KWOK, 'patch', pod('a', 'status')),
  ev(8.4, KWOK, 'create', { resource: 'events', namespace: NS }),
  ev(8.5, '', 'list', { resource: 'pods', namespace: NS }),
  ev(8.6, '', 'watch', { resource: 'pods', namespace: NS }),
  ev(8.7, KWOK, 'list', { resource: 'pods' }),
  ev(8.8, 'kube-apiserver/v1.34.4 (linux/amd64) kubernetes/$Format', 'update', {
    resource: 'leases',
    namespace: 'kube-system',
    name: 'apiserver-x',
  }),
  scrape(9),
  scrape(10),
  ev(10.5, KWOK, 'patch', pod('a', 'status')),
  bench(11, 'delete', { resource: 'namespaces', name: NS }),
];

describe('clientOf', () => {
  test.each([
    [BENCH_USER_AGENT, 'bench'],
    [KWOK, 'kwok'],
    ['kube-scheduler/v1.34.4 (linux/amd64) kubernetes/$Format/scheduler', 'kube-scheduler'],
    [
      'kube-controller-manager/v1.34.4 (linux/amd64) kubernetes/$Format/replicaset-controller',
      'kube-controller-manager/replicaset-controller',
    ],
    ['manager/v0.0.0 (linux/amd64) kubernetes/$Format', 'kruise-manager'],
    ['', 'no User-Agent'],
    [USER_AGENT, 'Kruiseless'],
  ])('%s → %s', (userAgent, client) => expect(clientOf({ userAgent })).toBe(client));
});

describe('keyOfEvent', () => {
  test('counts as the request metric does: no WATCH, no cluster scope, audit verbs in HTTP spelling', () => {
    expect(keyOfEvent(ev(0, '', 'patch', pod('a', 'status')))).toBe('PATCH pods/status');
    expect(keyOfEvent(ev(0, '', 'update', pod('a')))).toBe('PUT pods');
    expect(keyOfEvent(ev(0, '', 'create', { resource: 'pods', namespace: NS }))).toBe('POST pods');
    expect(keyOfEvent(ev(0, '', 'watch', { resource: 'pods', namespace: NS }))).toBeUndefined();
    expect(keyOfEvent(ev(0, '', 'list', { resource: 'pods' }))).toBeUndefined();
    expect(keyOfEvent(ev(0, '', 'get', undefined, '/metrics'))).toBeUndefined();
    expect(keyOfEvent(ev(0, '', 'delete', { resource: 'namespaces', name: NS }))).toBe('DELETE namespaces');
  });
});

describe('attributePhase', () => {
  test('the rollout: between the last scrapes before the image patch and before the namespace delete', () => {
    const a = attributePhase(log, NS, 'rollout');
    expect(a.from).toBe(log[6].requestReceivedTimestamp);
    expect(a.to).toBe(log[18].requestReceivedTimestamp);
    expect(a.byClient).toEqual({
      bench: { 'PATCH clonesets': 1 },
      'no User-Agent': { 'PATCH pods/status': 1, 'PATCH pods': 1, 'LIST pods': 1 },
      kwok: { 'PATCH pods/status': 2, 'POST events': 1 },
      'kube-apiserver': { 'PUT leases': 1 },
    });
    expect(a.total).toBe(8);
  });

  test('the scale-up: from the last scrape before the workload is created to the last before the image patch', () => {
    const a = attributePhase(log, NS, 'scale-up');
    expect(a.byClient).toEqual({ bench: { 'POST clonesets': 1 }, 'no User-Agent': { 'POST pods': 2 } });
  });

  test('a log without the phase says so', () => {
    expect(() => attributePhase(log.slice(0, 6), NS, 'rollout')).toThrow(/no rollout/);
    expect(() => attributePhase(log.slice(0, 19), NS, 'rollout')).toThrow(/not bounded/);
  });
});

test('benchNamespaces, parseAuditLog and the table', () => {
  const text = [
    ...log.map((e) => JSON.stringify(e)),
    JSON.stringify({ ...log[0], stage: 'RequestReceived' }),
    '{"cut',
  ].join('\n');
  const events = parseAuditLog(text);
  expect(events).toHaveLength(log.length);
  expect(benchNamespaces(events)).toEqual([NS]);
  const table = attributionTable(attributePhase(events, NS, 'rollout'), 2).split('\n');
  expect(table.slice(2, 6)).toEqual([
    '| kwok | PATCH pods/status | 2 | 1.00 |',
    '| kwok | POST events | 1 | 0.50 |',
    '| **kwok** | all | **3** | **1.50** |',
    '| no User-Agent | LIST pods | 1 | 0.50 |',
  ]);
  expect(table[table.length - 1]).toBe('| **all** | | **8** | **4.00** |');
});
