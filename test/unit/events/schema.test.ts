import { describe, expect, it } from '@jest/globals';
import {
  DETAIL_TYPE,
  EVENT_VERSION,
  InvalidEventError,
  SOURCE,
  parseReconcileEvent,
  type ReconcileRequest,
} from '../../../lib/events/index.js';

/** An event as EventBridge hands it to the reconcile Lambda. */
function envelope(detail: unknown, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: '0',
    id: '6a7e8feb-b491-4cf7-a9f1-bf3703467718',
    'detail-type': DETAIL_TYPE,
    source: SOURCE,
    account: '111122223333',
    time: '2026-11-30T12:00:00Z',
    region: 'eu-west-1',
    resources: [],
    detail,
    ...overrides,
  };
}

const detail = { version: 1, cluster: 'prod-eu', namespace: 'default', name: 'web', reason: 'PodChanged' };

function messageOf(input: unknown): string {
  try {
    parseReconcileEvent(input);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidEventError);
    return (error as Error).message;
  }
  throw new Error('expected parseReconcileEvent to throw');
}

describe('parseReconcileEvent', () => {
  it('exports the reconcile-request constants', () => {
    expect([SOURCE, DETAIL_TYPE, EVENT_VERSION]).toEqual(['kruiseless', 'CloneSet Reconcile Requested', 1]);
  });

  it('returns the detail of a well-formed event, ignoring envelope fields', () => {
    const expected: ReconcileRequest = { ...detail, reason: 'PodChanged', version: 1 };
    expect(parseReconcileEvent(envelope(detail))).toEqual(expected);
  });

  it('keeps resourceVersion when present and omits the key when absent', () => {
    expect(parseReconcileEvent(envelope({ ...detail, resourceVersion: '4711' }))).toEqual({
      ...detail,
      resourceVersion: '4711',
    });
    expect(Object.keys(parseReconcileEvent(envelope(detail)))).not.toContain('resourceVersion');
  });

  it.each(['CloneSetChanged', 'PodChanged', 'PVCChanged', 'Resync', 'Requeue'])(
    'accepts reason %s',
    (reason) => {
      expect(parseReconcileEvent(envelope({ ...detail, reason })).reason).toBe(reason);
    },
  );

  it('accepts a dotted 253-character CloneSet name and a 63-character namespace', () => {
    const name = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    const namespace = 'n'.repeat(63);
    expect(name).toHaveLength(253);
    expect(parseReconcileEvent(envelope({ ...detail, name, namespace }))).toMatchObject({ name, namespace });
  });

  it('rejects a non-object with one clear line', () => {
    expect(messageOf('hello')).toBe('invalid reconcile event: must be an EventBridge event object');
    expect(messageOf(null)).toBe('invalid reconcile event: must be an EventBridge event object');
  });

  it('rejects another source or detail-type, naming both fields', () => {
    expect(
      messageOf(envelope(detail, { source: 'aws.ec2', 'detail-type': 'EC2 Instance State-change' })),
    ).toBe(
      'invalid reconcile event: source: must be "kruiseless"; detail-type: must be "CloneSet Reconcile Requested"',
    );
  });

  it('rejects a missing detail', () => {
    expect(messageOf(envelope(undefined))).toBe('invalid reconcile event: detail: is required');
  });

  it('names every offending detail field in one line', () => {
    const bad = {
      version: 2,
      cluster: 'a#b',
      namespace: 'Kube_System',
      name: '',
      reason: 'Deleted',
      extra: true,
    };
    const message = messageOf(envelope(bad));
    expect(message).toBe(
      'invalid reconcile event: ' +
        [
          'detail.version: must be 1',
          "detail.cluster: must not contain '#'",
          'detail.namespace: must be a DNS-1123 label (lower-case alphanumerics and -)',
          'detail.name: must not be empty',
          'detail.reason: must be one of CloneSetChanged|PodChanged|PVCChanged|Resync|Requeue',
          'detail: unknown field(s) extra',
        ].join('; '),
    );
    expect(message).not.toContain('\n');
  });

  it('reports missing and mistyped fields distinctly', () => {
    expect(messageOf(envelope({ version: 1, cluster: 7, name: 'web', reason: 'Resync' }))).toBe(
      'invalid reconcile event: detail.cluster: must be a string; detail.namespace: is required',
    );
  });

  it('rejects over-long keys, an upper-case name and an empty resourceVersion', () => {
    const message = messageOf(
      envelope({
        ...detail,
        cluster: 'c'.repeat(254),
        name: 'Web',
        namespace: 'n'.repeat(64),
        resourceVersion: '',
      }),
    );
    expect(message).toBe(
      'invalid reconcile event: ' +
        [
          'detail.cluster: must be at most 253 characters',
          'detail.namespace: must be at most 63 characters',
          'detail.name: must be a DNS-1123 subdomain (lower-case alphanumerics, - and .)',
          'detail.resourceVersion: must not be empty',
        ].join('; '),
    );
  });

  it('carries the field errors on the error for callers that branch on them', () => {
    try {
      parseReconcileEvent(envelope({ ...detail, version: '1' }));
      throw new Error('expected a throw');
    } catch (error) {
      expect((error as InvalidEventError).errors).toEqual([{ path: 'detail.version', message: 'must be 1' }]);
    }
  });
});
