/** Correlation ids on reconcile requests: set once by a source, parsed, merged by coalescing, kept by requeues. */
import { KNOWN_KINDS } from '../../../lib/controllers/index.js';
import { describe, expect, it } from '@jest/globals';
import {
  DETAIL_TYPE,
  MAX_CORRELATION_IDS,
  SOURCE,
  coalesce,
  correlationIdsOf,
  parseReconcileEvent,
  requeueDetail,
  toPutEventsEntry,
  withCorrelationIds,
  type ReconcileRequest,
} from '../../../lib/requests/index.js';

const base: ReconcileRequest = {
  version: 2,
  cluster: 'c',
  kind: 'apps.kruise.io/CloneSet',
  namespace: 'ns',
  name: 'web',
  reason: 'OwnedObjectChanged',
};
const withIds = (...correlationIds: string[]): ReconcileRequest => ({ ...base, correlationIds });

function event(detail: unknown): Record<string, unknown> {
  return { id: 'evt-1', source: SOURCE, 'detail-type': DETAIL_TYPE, detail };
}

describe('correlation ids', () => {
  it('a source gives each request without one a fresh id, and leaves the others alone', () => {
    let n = 0;
    const out = withCorrelationIds([base, withIds('kept'), base], () => `id-${++n}`);
    expect(out).toEqual([withIds('id-1'), withIds('kept'), withIds('id-2')]);
    expect(base.correlationIds).toBeUndefined();
  });

  it('go into the event detail after resourceVersion and come back out of it', () => {
    const request = { ...withIds('a', 'b'), resourceVersion: '7' };
    const entry = toPutEventsEntry(request, 'bus');
    expect(entry.Detail).toBe(
      '{"version":2,"cluster":"c","kind":"apps.kruise.io/CloneSet","namespace":"ns","name":"web","reason":"OwnedObjectChanged","resourceVersion":"7","correlationIds":["a","b"]}',
    );
    expect(parseReconcileEvent(event(JSON.parse(entry.Detail ?? '')), KNOWN_KINDS)).toEqual(request);
  });

  it.each<[unknown, string]>([
    [[], 'detail.correlationIds: must not be empty'],
    [[''], 'detail.correlationIds[0]: must not be empty'],
    ['x', 'detail.correlationIds: must be an array of strings'],
    [['x'.repeat(65)], 'detail.correlationIds[0]: must be at most 64 characters'],
    [Array.from({ length: 11 }, (_, i) => `id${i}`), 'detail.correlationIds: must have at most 10 entries'],
  ])('rejects correlationIds %j', (correlationIds, message) => {
    expect(() => parseReconcileEvent(event({ ...base, correlationIds }), KNOWN_KINDS)).toThrow(message);
  });

  it('coalescing keeps every id once, in arrival order, the first ten', () => {
    const many = Array.from({ length: 12 }, (_, i) => withIds(`id${i}`));
    expect(coalesce([withIds('a'), base, withIds('b', 'a'), { ...base, name: 'other' }])).toEqual([
      withIds('a', 'b'),
      { ...base, name: 'other' },
    ]);
    expect(coalesce(many)[0]?.correlationIds).toEqual(
      many.slice(0, MAX_CORRELATION_IDS).map((r) => r.correlationIds?.[0]),
    );
    expect(coalesce([base, base])).toEqual([base]);
  });

  it('a requeue carries the ids of its cause', () => {
    expect(requeueDetail(withIds('a'))).toEqual({ ...withIds('a'), reason: 'Requeue' });
  });

  it('a received request without ids is correlated by its event id', () => {
    expect(correlationIdsOf(withIds('a', 'b'), 'evt')).toEqual(['a', 'b']);
    expect(correlationIdsOf(base, 'evt')).toEqual(['evt']);
    expect(correlationIdsOf(base)).toEqual([]);
  });
});
