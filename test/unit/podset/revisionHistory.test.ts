/**
 * The ControllerRevision history rules (lib/podset/revision/history.ts, docs/behaviour/cloneset.md#revisions,
 * docs/behaviour/cloneset.md#controller-revisions; Kubernetes' pkg/controller/history): the hash and its Go
 * vectors, the name, the history order and equality.
 */
import { LABEL_REVISION_HASH } from '../../../lib/api/keys.js';
import type { ControllerRevision } from '../../../lib/api/types.js';
import {
  hashRevision,
  revisionName,
  revisionsEqual,
  sortRevisions,
} from '../../../lib/podset/revision/history.js';

/** CloneSet revision data of an `nginx:1.25` template (lib/controllers/cloneset/plan/revision/revision.ts `revisionData`). */
const SPEC_VECTOR =
  '{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"image":"nginx:1.25","name":"nginx","resources":{}}]}}}}';
/** The same with characters Go's encoder HTML-escapes. */
const ECOSYSTEM_VECTOR =
  '{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.25\\u003c\\u0026\\u003e","name":"main","resources":{}}]}}}}';

describe('revision hash and name (docs/behaviour/cloneset.md#revisions)', () => {
  test.each([
    ['spec vector, collisionCount 0', SPEC_VECTOR, 0, '7dd7d4f698'],
    ['spec vector, collisionCount 1', SPEC_VECTOR, 1, '7dd7d4f699'],
    ['ecosystem vector, no probe', ECOSYSTEM_VECTOR, undefined, '645df5f447'],
    ['ecosystem vector, collisionCount 0', ECOSYSTEM_VECTOR, 0, '78466b9fbf'],
    ['ecosystem vector, collisionCount 1', ECOSYSTEM_VECTOR, 1, '78466b9fbd'],
  ])('%s hashes to the Go value', (_name, raw, probe, hash) => {
    expect(hashRevision(raw, probe)).toBe(hash);
  });

  test('revision name truncates the owner name to 223 characters', () => {
    expect(revisionName('foo', '7dd7d4f698')).toBe('foo-7dd7d4f698');
    const long = 'a'.repeat(300);
    expect(revisionName(long, 'h')).toBe(`${'a'.repeat(223)}-h`);
  });
});

describe('sorting revisions (docs/behaviour/cloneset.md#reconcile-order)', () => {
  const r = (name: string, revision: number, ts?: string): ControllerRevision => ({
    metadata: { name, creationTimestamp: ts, labels: { app: 'demo' } },
    revision,
  });
  test('sorts by revision, then creationTimestamp, then name', () => {
    const list = [
      r('c', 2, '2024-01-01T00:00:02Z'),
      r('b', 2, '2024-01-01T00:00:01Z'),
      r('a', 2, '2024-01-01T00:00:01Z'),
      r('z', 1),
    ];
    expect(sortRevisions(list).map((x) => x.metadata.name)).toEqual(['z', 'a', 'b', 'c']);
  });
});

describe('revision equality (docs/behaviour/cloneset.md#revisions)', () => {
  /** A revision of the `nginx:1.25` template, hash label as the CloneSet controller writes it. */
  const listed = (name: string, revision: number): ControllerRevision => ({
    metadata: { name, labels: { app: 'demo', [LABEL_REVISION_HASH]: '7dd7d4f698' } },
    data: JSON.parse(SPEC_VECTOR) as ControllerRevision['data'],
    revision,
  });
  test('equal data is unequal only when both hash labels parse as int32 and differ', () => {
    const a = listed('a', 1);
    const b = listed('b', 2);
    expect(revisionsEqual(a, b)).toBe(true);
    a.metadata.labels = { ...a.metadata.labels, [LABEL_REVISION_HASH]: '12345' };
    expect(revisionsEqual(a, b)).toBe(true);
    b.metadata.labels = { ...b.metadata.labels, [LABEL_REVISION_HASH]: '54321' };
    expect(revisionsEqual(a, b)).toBe(false);
    b.metadata.labels = { ...b.metadata.labels, [LABEL_REVISION_HASH]: '12345' };
    expect(revisionsEqual(a, b)).toBe(true);
  });
});
