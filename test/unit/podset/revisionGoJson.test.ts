import {
  compareGoKeys,
  fnv1_32,
  fnv1a_32,
  goJson,
  goJsonNumber,
  goJsonString,
  goSpewBytes,
  GoJsonError,
  goTypedPvcListJson,
  safeEncodeString,
  utf8,
} from '../../../lib/podset/revision/goJson.js';
import type { JsonValue } from '../../../lib/api/types.js';

describe('goJson: Go encoding/json output for revision data', () => {
  test.each<[string, JsonValue, string]>([
    [
      'keys sorted at every level, no whitespace',
      { b: 1, a: { d: [1, 2], c: null } },
      '{"a":{"c":null,"d":[1,2]},"b":1}',
    ],
    ['HTML characters escaped', { s: '<a&b>' }, '{"s":"\\u003ca\\u0026b\\u003e"}'],
    ['U+2028 and U+2029 escaped', '\u2028\u2029', '"\\u2028\\u2029"'],
    ['short escapes', '"\\\n\r\t\b\f', '"\\"\\\\\\n\\r\\t\\b\\f"'],
    ['other control characters as \\u00XX', '\u0001\u001f', '"\\u0001\\u001f"'],
    ['DEL and non-ASCII kept literally', '\u007fé😀', '"\u007fé😀"'],
    ['lone surrogates become \\ufffd', '\ud800x\udc00', '"\\ufffdx\\ufffd"'],
    ['booleans', [true, false], '[true,false]'],
    ['empty containers', { a: {}, b: [] }, '{"a":{},"b":[]}'],
  ])('%s', (_n, value, want) => {
    expect(goJson(value)).toBe(want);
  });

  test('undefined members are skipped and undefined is null', () => {
    expect(goJson({ a: undefined, b: 1 } as unknown as JsonValue)).toBe('{"b":1}');
    expect(goJson(undefined)).toBe('null');
  });

  test('keys sort by code point like Go (astral after U+FFFF-range BMP)', () => {
    expect(goJson({ '😀': 1, '\uff01': 2, a: 3 })).toBe('{"a":3,"\uff01":2,"😀":1}');
    expect(compareGoKeys('ab', 'a')).toBe(1);
    expect(compareGoKeys('a', 'ab')).toBe(-1);
    expect(compareGoKeys('a', 'a')).toBe(0);
  });

  test.each<[number, string]>([
    [0, '0'],
    [-0, '-0'],
    [42, '42'],
    [-7, '-7'],
    [1.5, '1.5'],
    [0.000001, '0.000001'],
    [1e-7, '1e-7'],
    [1.5e-7, '1.5e-7'],
    [1e-10, '1e-10'],
    [1e20, '100000000000000000000'],
    [1e21, '1e+21'],
    [1.2345e25, '1.2345e+25'],
    [-2.5e-8, '-2.5e-8'],
    [2 ** 53 + 2, '9007199254740994'],
  ])('number %p prints as %p', (n, want) => {
    expect(goJsonNumber(n)).toBe(want);
  });

  test('non-finite numbers and non-JSON values are errors', () => {
    expect(() => goJson(NaN)).toThrow(GoJsonError);
    expect(() => goJson(Infinity)).toThrow('unsupported value');
    expect(() => goJson((() => 1) as unknown as JsonValue)).toThrow('unsupported type');
  });

  test('goJsonString of a plain string', () => {
    expect(goJsonString('nginx:1.25')).toBe('"nginx:1.25"');
  });
});

describe('hash helpers', () => {
  test('FNV-1 32 of "a" is 0x050c5d7e; FNV-1a 32 of "a" is 0xe40c292c', () => {
    expect(fnv1_32(utf8('a'))).toBe(0x050c5d7e);
    expect(fnv1a_32(utf8('a'))).toBe(0xe40c292c);
    expect(fnv1_32(new Uint8Array())).toBe(0x811c9dc5);
  });

  test('FNV-1 can continue from a previous sum', () => {
    expect(fnv1_32(utf8('0'), fnv1_32(utf8('abc')))).toBe(fnv1_32(utf8('abc0')));
  });

  test('safeEncodeString maps digits 0-9 to 4 5 6 7 8 9 b c d f', () => {
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
    expect(safeEncodeString('3883809254')).toBe('7dd7d4f698');
  });

  test('goSpewBytes renders a Go []byte dump', () => {
    expect(goSpewBytes('null')).toBe('([]uint8)[110 117 108 108]');
  });

  test('typed PVC list JSON: Go struct order, omitempty, empty list is null', () => {
    expect(goTypedPvcListJson([])).toBe('null');
    expect(
      goTypedPvcListJson([
        {
          name: '',
          spec: {
            resources: { requests: { storage: '1Gi' } },
            selector: {},
            dataSource: { kind: 'K', name: 'n' },
          },
        },
      ]),
    ).toBe(
      '[{"metadata":{"creationTimestamp":null},"spec":{"selector":{},"resources":{"requests":{"storage":"1Gi"}},"dataSource":{"apiGroup":null,"kind":"K","name":"n"}},"status":{}}]',
    );
    expect(goTypedPvcListJson([{ name: 'x', spec: undefined }])).toBe(
      '[{"metadata":{"name":"x","creationTimestamp":null},"spec":{"resources":{}},"status":{}}]',
    );
  });
});
