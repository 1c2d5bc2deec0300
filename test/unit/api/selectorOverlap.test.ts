/**
 * lib/api/selectorOverlap.ts: OpenKruise's `IsSelectorOverlapping`, the table of upstream's `TestSelectorConflict`
 * (pkg/webhook/sidecarset/validating/sidecarset_validating_test.go).
 */
import { describe, expect, it } from '@jest/globals';
import { isSelectorOverlapping } from '../../../lib/api/selectorOverlap.js';
import type { LabelSelector } from '../../../lib/api/types.js';

const cases: [string, LabelSelector, LabelSelector, boolean][] = [
  ['the same label', { matchLabels: { a: 'h' } }, { matchLabels: { a: 'h' } }, true],
  ['one key, two values', { matchLabels: { a: 'h' } }, { matchLabels: { a: 'i' } }, false],
  ['different keys', { matchLabels: { a: 'h' } }, { matchLabels: { b: 'i' } }, true],
  [
    'one of three labels differs',
    { matchLabels: { a: 'h', b: 'i', c: 'j' } },
    { matchLabels: { a: 'h', b: 'x', c: 'j' } },
    false,
  ],
  [
    'In holding the value',
    { matchLabels: { a: 'h' } },
    { matchExpressions: [{ key: 'a', operator: 'In', values: ['h', 'i', 'j'] }] },
    true,
  ],
  [
    'In without the value',
    { matchLabels: { a: 'h' } },
    { matchExpressions: [{ key: 'a', operator: 'In', values: ['i', 'j'] }] },
    false,
  ],
  [
    'NotIn covering the value',
    { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['h', 'i'] }] },
    { matchLabels: { a: 'h' } },
    false,
  ],
  [
    'Exists on the key',
    { matchLabels: { a: 'h' } },
    { matchExpressions: [{ key: 'a', operator: 'Exists' }] },
    true,
  ],
  [
    'DoesNotExist on the key',
    { matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] },
    { matchLabels: { a: 'h' } },
    false,
  ],
];

describe('isSelectorOverlapping', () => {
  it.each(cases)('%s', (_name, a, b, want) => {
    expect(isSelectorOverlapping(a, b)).toBe(want);
    expect(isSelectorOverlapping(b, a)).toBe(want);
  });

  it('reads an absent selector as empty: it overlaps everything', () => {
    expect(isSelectorOverlapping(undefined, { matchLabels: { a: 'h' } })).toBe(true);
  });
});
