/**
 * Preconditions of a PATCH (lib/kube/client.ts withPreconditions): a merge or strategic-merge patch carries them
 * in `metadata` (the API server compares the resourceVersion, and a different uid is an immutable-field error); a
 * JSON patch gets leading `test` operations. Without preconditions the patch is sent as given.
 */
import { describe, expect, test } from '@jest/globals';
import { withPreconditions } from '../../../lib/kube/client.js';
import type { Patch } from '../../../lib/kube/types.js';

describe('withPreconditions', () => {
  test('no preconditions: the patch itself', () => {
    const patch: Patch = { type: 'merge', body: { spec: { replicas: 2 } } };
    expect(withPreconditions(patch)).toBe(patch);
    expect(withPreconditions(patch, {})).toBe(patch);
  });

  test('a strategic-merge patch gets the resourceVersion beside its own metadata', () => {
    const patch: Patch = { type: 'strategic-merge', body: { metadata: { labels: { a: 'b' } } } };
    expect(withPreconditions(patch, { resourceVersion: '7' })).toEqual({
      type: 'strategic-merge',
      body: { metadata: { labels: { a: 'b' }, resourceVersion: '7' } },
    });
    expect(patch.body).toEqual({ metadata: { labels: { a: 'b' } } });
  });

  test('a merge patch gets the uid (the owner-reference patch of a PVC)', () => {
    const patch: Patch = { type: 'merge', body: { metadata: { ownerReferences: [] } } };
    expect(withPreconditions(patch, { uid: 'u-1' })).toEqual({
      type: 'merge',
      body: { metadata: { ownerReferences: [], uid: 'u-1' } },
    });
  });

  test('a JSON patch gets test operations first, uid before resourceVersion', () => {
    const patch: Patch = { type: 'json', body: [{ op: 'replace', path: '/spec/replicas', value: 3 }] };
    expect(withPreconditions(patch, { uid: 'u-1', resourceVersion: '9' })).toEqual({
      type: 'json',
      body: [
        { op: 'test', path: '/metadata/uid', value: 'u-1' },
        { op: 'test', path: '/metadata/resourceVersion', value: '9' },
        { op: 'replace', path: '/spec/replicas', value: 3 },
      ],
    });
  });
});
