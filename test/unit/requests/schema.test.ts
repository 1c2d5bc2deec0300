import { describe, expect, it } from '@jest/globals';
import { CLONESET_KIND } from '../../../lib/controllers/cloneset/api/kinds.js';
import { KNOWN_KINDS } from '../../../lib/controllers/index.js';
import { kindLookup } from '../../../lib/core/objectKey.js';
import {
  DETAIL_TYPE,
  EVENT_VERSION,
  InvalidEventError,
  SOURCE,
  parseReconcileEvent,
  type ReconcileRequest,
} from '../../../lib/requests/index.js';

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

const detail = {
  version: 2,
  cluster: 'prod-eu',
  kind: 'apps.kruise.io/CloneSet',
  namespace: 'default',
  name: 'web',
  reason: 'OwnedObjectChanged',
};

/** CloneSet (namespaced) and a cluster-scoped kind, as a registry with ResourceDistribution would give them. */
const KINDS = kindLookup({
  'apps.kruise.io/CloneSet': { namespaced: true },
  'apps.kruise.io/ResourceDistribution': { namespaced: false },
});
const parse = (input: unknown) => parseReconcileEvent(input, KINDS);

function messageOf(input: unknown): string {
  try {
    parse(input);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidEventError);
    return (error as Error).message;
  }
  throw new Error('expected parseReconcileEvent to throw');
}

describe('parseReconcileEvent', () => {
  it('exports the reconcile-request constants', () => {
    expect([SOURCE, DETAIL_TYPE, EVENT_VERSION]).toEqual(['kruiseless', 'Reconcile Requested', 2]);
  });

  it('returns the detail of a well-formed event, ignoring envelope fields', () => {
    const expected: ReconcileRequest = { ...detail, reason: 'OwnedObjectChanged', version: 2 };
    expect(parse(envelope(detail))).toEqual(expected);
    expect(Object.keys(parse(envelope(detail)))).toEqual([
      'version',
      'cluster',
      'kind',
      'namespace',
      'name',
      'reason',
    ]);
  });

  it('knows CloneSet, namespaced, from the one kinds table (lib/controllers/cloneset/api/kinds.ts)', () => {
    expect(CLONESET_KIND).toBe('apps.kruise.io/CloneSet');
    expect(KNOWN_KINDS(CLONESET_KIND)).toEqual({ namespaced: true });
    expect(KNOWN_KINDS('apps.kruise.io/ResourceDistribution')).toBeUndefined();
    expect(parseReconcileEvent(envelope(detail), KNOWN_KINDS)).toEqual(parse(envelope(detail)));
  });

  it('returns a cluster-scoped request without a namespace', () => {
    const { namespace: _, ...rest } = detail;
    const clusterScoped = { ...rest, kind: 'apps.kruise.io/ResourceDistribution', name: 'shared-secrets' };
    expect(parse(envelope(clusterScoped))).toEqual(clusterScoped);
    expect(Object.keys(parse(envelope(clusterScoped)))).not.toContain('namespace');
  });

  it('rejects a kind the deployment does not reconcile, naming detail.kind', () => {
    expect(messageOf(envelope({ ...detail, kind: 'apps/Deployment' }))).toBe(
      'invalid reconcile event: detail.kind: is not a kind this deployment reconciles',
    );
    expect(() =>
      parseReconcileEvent(envelope({ ...detail, kind: 'apps.kruise.io/ResourceDistribution' }), KNOWN_KINDS),
    ).toThrow('invalid reconcile event: detail.kind: is not a kind this deployment reconciles');
  });

  it('rejects a kind that is not <group>/<Kind>, and a missing one', () => {
    for (const kind of [
      'CloneSet',
      'apps.kruise.io/',
      '/CloneSet',
      'apps.kruise.io/cloneset',
      'Apps/CloneSet',
    ])
      expect(messageOf(envelope({ ...detail, kind }))).toBe(
        'invalid reconcile event: detail.kind: must be <group>/<Kind>',
      );
    const { kind: _, ...noKind } = detail;
    expect(messageOf(envelope(noKind))).toBe('invalid reconcile event: detail.kind: is required');
    expect(messageOf(envelope({ ...detail, kind: 'apps.kruise.io#x/CloneSet' }))).toBe(
      "invalid reconcile event: detail.kind: must not contain '#'",
    );
  });

  it('requires a namespace for a namespaced kind', () => {
    const { namespace: _, ...noNamespace } = detail;
    expect(messageOf(envelope(noNamespace))).toBe(
      'invalid reconcile event: detail.namespace: is required (apps.kruise.io/CloneSet is namespaced)',
    );
  });

  it('rejects a namespace on a cluster-scoped kind', () => {
    expect(messageOf(envelope({ ...detail, kind: 'apps.kruise.io/ResourceDistribution' }))).toBe(
      'invalid reconcile event: detail.namespace: must be absent (apps.kruise.io/ResourceDistribution is cluster-scoped)',
    );
  });

  it('puts the kind and namespace clauses in schema order among the others', () => {
    const { namespace: _, ...noNamespace } = detail;
    expect(messageOf(envelope({ ...noNamespace, version: 1, reason: 'PodChanged', extra: 1 }))).toBe(
      'invalid reconcile event: ' +
        [
          'detail.version: must be 2',
          'detail.namespace: is required (apps.kruise.io/CloneSet is namespaced)',
          'detail.reason: must be one of ObjectChanged|OwnedObjectChanged|MappedObjectChanged|Resync|Requeue',
          'detail: unknown field(s) extra',
        ].join('; '),
    );
    expect(messageOf(envelope({ ...detail, cluster: '', kind: 'x/Y', name: 'A' }))).toBe(
      'invalid reconcile event: ' +
        [
          'detail.cluster: must not be empty',
          'detail.kind: is not a kind this deployment reconciles',
          'detail.name: must be a DNS-1123 subdomain (lower-case alphanumerics, - and .)',
        ].join('; '),
    );
  });

  it('keeps resourceVersion when present and omits the key when absent', () => {
    expect(parse(envelope({ ...detail, resourceVersion: '4711' }))).toEqual({
      ...detail,
      resourceVersion: '4711',
    });
    expect(Object.keys(parse(envelope(detail)))).not.toContain('resourceVersion');
  });

  it.each(['ObjectChanged', 'OwnedObjectChanged', 'MappedObjectChanged', 'Resync', 'Requeue'])(
    'accepts reason %s',
    (reason) => {
      expect(parse(envelope({ ...detail, reason })).reason).toBe(reason);
    },
  );

  it.each(['CloneSetChanged', 'PodChanged', 'PVCChanged'])('rejects the version-1 reason %s', (reason) => {
    expect(messageOf(envelope({ ...detail, reason }))).toBe(
      'invalid reconcile event: detail.reason: must be one of ObjectChanged|OwnedObjectChanged|MappedObjectChanged|Resync|Requeue',
    );
  });

  it('accepts a dotted 253-character CloneSet name and a 63-character namespace', () => {
    const name = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    const namespace = 'n'.repeat(63);
    expect(name).toHaveLength(253);
    expect(parse(envelope({ ...detail, name, namespace }))).toMatchObject({ name, namespace });
  });

  it('rejects a non-object with one clear line', () => {
    expect(messageOf('hello')).toBe('invalid reconcile event: must be an EventBridge event object');
    expect(messageOf(null)).toBe('invalid reconcile event: must be an EventBridge event object');
  });

  it('rejects another source or detail-type, naming both fields', () => {
    expect(
      messageOf(envelope(detail, { source: 'aws.ec2', 'detail-type': 'EC2 Instance State-change' })),
    ).toBe(
      'invalid reconcile event: source: must be "kruiseless"; detail-type: must be "Reconcile Requested"',
    );
  });

  it('rejects a missing detail', () => {
    expect(messageOf(envelope(undefined))).toBe('invalid reconcile event: detail: is required');
  });

  it('names every offending detail field in one line', () => {
    const bad = {
      version: 1,
      cluster: 'a#b',
      kind: 'apps.kruise.io/CloneSet',
      namespace: 'Kube_System',
      name: '',
      reason: 'Deleted',
      extra: true,
    };
    const message = messageOf(envelope(bad));
    expect(message).toBe(
      'invalid reconcile event: ' +
        [
          'detail.version: must be 2',
          "detail.cluster: must not contain '#'",
          'detail.namespace: must be a DNS-1123 label (lower-case alphanumerics and -)',
          'detail.name: must not be empty',
          'detail.reason: must be one of ObjectChanged|OwnedObjectChanged|MappedObjectChanged|Resync|Requeue',
          'detail: unknown field(s) extra',
        ].join('; '),
    );
    expect(message).not.toContain('\n');
  });

  it('reports missing and mistyped fields distinctly', () => {
    expect(messageOf(envelope({ version: 2, cluster: 7, kind: 7, name: 'web', reason: 'Resync' }))).toBe(
      'invalid reconcile event: detail.cluster: must be a string; detail.kind: must be a string',
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
      parse(envelope({ ...detail, version: '2' }));
      throw new Error('expected a throw');
    } catch (error) {
      expect((error as InvalidEventError).errors).toEqual([{ path: 'detail.version', message: 'must be 2' }]);
    }
  });
});
