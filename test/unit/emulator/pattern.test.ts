/**
 * Event-pattern matching, table-driven. Expected results are written from the documented semantics of
 * https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-event-patterns-content-based-filtering.html
 * (operators) and https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-event-patterns.html (AND across
 * fields, OR within a leaf array, array event values match when any element matches, exact case-sensitive
 * matching, "exists" only on leaves).
 */
import { describe, expect, it } from '@jest/globals';
import {
  InvalidPatternError,
  compilePattern,
  matchesPattern,
  type EventPattern,
} from '../../../lib/emulator/index.js';

type Row = [description: string, pattern: EventPattern, event: Record<string, unknown>, expected: boolean];

const rows: Row[] = [
  // Exact values; arrays are OR, fields are AND.
  ['exact string', { source: ['kruiseless'] }, { source: 'kruiseless' }, true],
  ['exact is case-sensitive', { source: ['kruiseless'] }, { source: 'Kruiseless' }, false],
  ['any value of the leaf array', { state: ['pending', 'running'] }, { state: 'running' }, true],
  ['every field must match', { a: ['x'], b: ['y'] }, { a: 'x', b: 'z' }, false],
  ['fields not in the pattern are ignored', { a: ['x'] }, { a: 'x', other: 1 }, true],
  ['a missing field does not match', { a: ['x'] }, { b: 'x' }, false],
  ['numbers match numbers', { n: [5] }, { n: 5 }, true],
  ['a string does not match a number', { n: ['5'] }, { n: 5 }, false],
  ['null matches null', { n: [null] }, { n: null }, true],
  ['empty string matches empty string', { LastName: [''] }, { LastName: '' }, true],
  ['booleans match', { ok: [true] }, { ok: true }, true],
  ['event arrays match when any element does', { tags: ['b'] }, { tags: ['a', 'b'] }, true],
  ['event arrays with no matching element', { tags: ['c'] }, { tags: ['a', 'b'] }, false],
  // Nested objects.
  ['nested field', { detail: { reason: ['Requeue'] } }, { detail: { reason: 'Requeue' } }, true],
  ['nested field mismatch', { detail: { reason: ['Requeue'] } }, { detail: { reason: 'Resync' } }, false],
  ['nested pattern on a scalar', { detail: { reason: ['Requeue'] } }, { detail: 'Requeue' }, false],
  [
    'array of objects: one element must match the whole sub-pattern',
    { d: { items: { a: [1], b: [4] } } },
    {
      d: {
        items: [
          { a: 1, b: 2 },
          { a: 3, b: 4 },
        ],
      },
    },
    false,
  ],
  [
    'array of objects: a matching element',
    { d: { items: { a: [3], b: [4] } } },
    { d: { items: [{ a: 1 }, { a: 3, b: 4 }] } },
    true,
  ],
  // prefix / suffix (+ equals-ignore-case).
  ['prefix', { time: [{ prefix: '2017-10-02' }] }, { time: '2017-10-02T18:43:48Z' }, true],
  ['prefix mismatch', { time: [{ prefix: '2017-10-02' }] }, { time: '2017-10-03T18:43:48Z' }, false],
  [
    'prefix ignoring case',
    { service: [{ prefix: { 'equals-ignore-case': 'EventB' } }] },
    { service: 'eventbridge' },
    true,
  ],
  ['prefix never matches a number', { n: [{ prefix: '1' }] }, { n: 12 }, false],
  ['suffix', { FileName: [{ suffix: '.png' }] }, { FileName: 'image.png' }, true],
  ['suffix is case-sensitive', { FileName: [{ suffix: '.png' }] }, { FileName: 'image.PNG' }, false],
  [
    'suffix ignoring case',
    { FileName: [{ suffix: { 'equals-ignore-case': '.png' } }] },
    { FileName: 'image.PNG' },
    true,
  ],
  // anything-but.
  ['anything-but a string', { state: [{ 'anything-but': 'initializing' }] }, { state: 'running' }, true],
  [
    'anything-but the excluded string',
    { state: [{ 'anything-but': 'initializing' }] },
    { state: 'initializing' },
    false,
  ],
  ['anything-but a number', { 'x-limit': [{ 'anything-but': 123 }] }, { 'x-limit': 456 }, true],
  ['anything-but a number, excluded', { 'x-limit': [{ 'anything-but': 123 }] }, { 'x-limit': 123 }, false],
  [
    'anything-but a list',
    { state: [{ 'anything-but': ['stopped', 'overloaded'] }] },
    { state: 'stopped' },
    false,
  ],
  [
    'anything-but a list, other value',
    { state: [{ 'anything-but': ['stopped', 'overloaded'] }] },
    { state: 'ok' },
    true,
  ],
  ['anything-but a numeric list', { x: [{ 'anything-but': [100, 200, 300] }] }, { x: 200 }, false],
  ['anything-but prefix', { Region: [{ 'anything-but': { prefix: 'us-' } }] }, { Region: 'eu-west-1' }, true],
  [
    'anything-but prefix, excluded',
    { Region: [{ 'anything-but': { prefix: 'us-' } }] },
    { Region: 'us-east-1' },
    false,
  ],
  [
    'anything-but suffix',
    { FileName: [{ 'anything-but': { suffix: '.png' } }] },
    { FileName: 'a.png' },
    false,
  ],
  [
    'anything-but ignoring case',
    { state: [{ 'anything-but': { 'equals-ignore-case': 'initializing' } }] },
    { state: 'INITIALIZING' },
    false,
  ],
  [
    'anything-but ignoring case, list',
    { s: [{ 'anything-but': { 'equals-ignore-case': ['a', 'b'] } }] },
    { s: 'C' },
    true,
  ],
  [
    'anything-but wildcard',
    { FilePath: [{ 'anything-but': { wildcard: '*/lib/*' } }] },
    { FilePath: '/usr/lib/x' },
    false,
  ],
  [
    'anything-but wildcard, other path',
    { FilePath: [{ 'anything-but': { wildcard: '*/lib/*' } }] },
    { FilePath: '/usr/bin/x' },
    true,
  ],
  ['anything-but needs the field', { state: [{ 'anything-but': 'initializing' }] }, {}, false],
  // numeric.
  ['numeric range inside', { c: [{ numeric: ['>', 0, '<=', 5] }] }, { c: 5 }, true],
  ['numeric range lower bound is exclusive', { c: [{ numeric: ['>', 0, '<=', 5] }] }, { c: 0 }, false],
  ['numeric upper bound', { d: [{ numeric: ['<', 10] }] }, { d: 10 }, false],
  ['numeric equals', { x: [{ numeric: ['=', 301.8] }] }, { x: 301.8 }, true],
  ['numeric >=', { x: [{ numeric: ['>=', 3] }] }, { x: 3 }, true],
  ['numeric never matches a numeric string', { x: [{ numeric: ['>', 0] }] }, { x: '5' }, false],
  // exists.
  ['exists true on a present field', { d: { state: [{ exists: true }] } }, { d: { state: 'x' } }, true],
  ['exists true on a missing field', { d: { state: [{ exists: true }] } }, { d: {} }, false],
  ['exists false on a missing field', { d: { state: [{ exists: false }] } }, { d: {} }, true],
  ['exists false on a present field', { d: { state: [{ exists: false }] } }, { d: { state: 'x' } }, false],
  ['exists false when the parent is missing', { d: { state: [{ exists: false }] } }, {}, true],
  [
    'exists only looks at leaves: an object is not a leaf',
    { d: [{ exists: true }] },
    { d: { state: 'x' } },
    false,
  ],
  ['exists false on an empty array', { tags: [{ exists: false }] }, { tags: [] }, true],
  // equals-ignore-case.
  ['equals-ignore-case', { name: [{ 'equals-ignore-case': 'alice' }] }, { name: 'ALICE' }, true],
  [
    'equals-ignore-case is still equality',
    { name: [{ 'equals-ignore-case': 'alice' }] },
    { name: 'alicia' },
    false,
  ],
  // wildcard.
  [
    'wildcard',
    { EventBusArn: [{ wildcard: 'arn:aws:events:us-east-1:*:event-bus/*' }] },
    { EventBusArn: 'arn:aws:events:us-east-1:123:event-bus/b' },
    true,
  ],
  ['wildcard anchors both ends', { f: [{ wildcard: 'dir/*.png' }] }, { f: 'dir/a.png.bak' }, false],
  ['wildcard star matches nothing too', { f: [{ wildcard: 'dir/*.png' }] }, { f: 'dir/.png' }, true],
  ['wildcard escaped star is literal', { f: [{ wildcard: 'a\\*b' }] }, { f: 'a*b' }, true],
  ['wildcard escaped star does not glob', { f: [{ wildcard: 'a\\*b' }] }, { f: 'axb' }, false],
  ['wildcard dot is literal', { f: [{ wildcard: 'a.b' }] }, { f: 'axb' }, false],
  // $or.
  [
    '$or first alternative',
    { source: ['k'], $or: [{ a: ['1'] }, { b: ['2'] }] },
    { source: 'k', a: '1' },
    true,
  ],
  [
    '$or second alternative',
    { source: ['k'], $or: [{ a: ['1'] }, { b: ['2'] }] },
    { source: 'k', b: '2' },
    true,
  ],
  [
    '$or still ANDs with siblings',
    { source: ['k'], $or: [{ a: ['1'] }, { b: ['2'] }] },
    { source: 'x', b: '2' },
    false,
  ],
  ['$or no alternative', { $or: [{ a: ['1'] }, { b: ['2'] }] }, { a: '2', b: '1' }, false],
  [
    '$or nested in detail',
    { detail: { $or: [{ c: [{ numeric: ['>', 5] }] }, { d: [{ prefix: 'x' }] }] } },
    { detail: { d: 'xy' } },
    true,
  ],
  // mixing operators in one leaf (OR).
  ['a leaf may mix values and operators', { s: ['a', { prefix: 'b' }, { exists: false }] }, {}, true],
  // the rule Kruiseless deploys.
  [
    'the reconcile rule matches a reconcile event',
    { source: ['kruiseless'], 'detail-type': ['Reconcile Requested'] },
    { source: 'kruiseless', 'detail-type': 'Reconcile Requested', detail: { version: 1 } },
    true,
  ],
];

describe('matchesPattern', () => {
  it.each(rows)('%s', (_description, pattern, event, expected) => {
    expect(matchesPattern(pattern, event)).toBe(expected);
  });

  it('does not match a non-object event', () => {
    expect(matchesPattern({ a: ['x'] }, 'x')).toBe(false);
    expect(matchesPattern({ a: [{ exists: false }] }, null)).toBe(true);
  });
});

describe('compilePattern rejects what PutRule rejects', () => {
  it.each<[EventPattern, string]>([
    [
      { source: 'kruiseless' },
      'invalid event pattern at source: a pattern value must be an array or an object',
    ],
    [{ source: [] }, 'invalid event pattern at source: a leaf array must not be empty'],
    [{ a: [{ contains: 'x' }] }, 'invalid event pattern at a[0]: unsupported operator "contains"'],
    [{ a: [{ cidr: '10.0.0.0/24' }] }, 'invalid event pattern at a[0]: unsupported operator "cidr"'],
    [
      { a: [{ prefix: 'x', suffix: 'y' }] },
      'invalid event pattern at a[0]: an operator object has exactly one key, got ["prefix","suffix"]',
    ],
    [
      { a: [{ numeric: ['>', 'x'] }] },
      'invalid event pattern at a[0]: numeric operator ">" is not =, <, <=, > or >=',
    ],
    [
      { a: [{ numeric: ['!=', 1] }] },
      'invalid event pattern at a[0]: numeric operator "!=" is not =, <, <=, > or >=',
    ],
    [{ a: [{ exists: 'yes' }] }, 'invalid event pattern at a[0]: exists takes true or false'],
    [
      { a: [{ wildcard: 'a**b' }] },
      'invalid event pattern at a[0]: wildcard may not contain consecutive * characters',
    ],
    [
      { a: [{ 'anything-but': ['x', 1] }] },
      'invalid event pattern at a[0]: anything-but list must hold only strings or only numbers',
    ],
    [{ $or: [{ a: ['x'] }] }, 'invalid event pattern at $or: $or takes a list of ≥ 2 patterns'],
    [{ d: {} }, 'invalid event pattern at d: a pattern object must not be empty'],
    [{ a: [['x']] }, 'invalid event pattern at a[0]: nested arrays are not allowed in a pattern'],
  ])('%j', (pattern, message) => {
    expect(() => compilePattern(pattern)).toThrow(InvalidPatternError);
    expect(() => compilePattern(pattern)).toThrow(message);
  });
});
