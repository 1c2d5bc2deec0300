/**
 * Kubernetes' `ValidateTolerations` (v1.32, the version OpenKruise v1.9.0 builds with): lib/api/tolerationValidation.ts,
 * exact paths and words, from upstream's own cases (pkg/apis/core/validation/validation_test.go `TestValidatePod`'s
 * toleration entries) and one of each remaining rule.
 */
import { describe, expect, test } from '@jest/globals';
import { tolerationErrors } from '../../../lib/api/tolerationValidation.js';

const P = 'spec.tolerations';

describe('tolerationErrors', () => {
  test('valid tolerations: none', () => {
    expect(
      tolerationErrors(
        [
          { operator: 'Exists' },
          { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' },
          { key: 'foo', value: 'bar' },
          {
            key: 'node.kubernetes.io/not-ready',
            operator: 'Exists',
            effect: 'NoExecute',
            tolerationSeconds: 20,
          },
          { key: 'k', operator: 'Exists', effect: 'PreferNoSchedule' },
        ],
        P,
      ),
    ).toEqual([]);
  });

  test.each([
    [
      'invalid toleration key',
      { key: 'nospecialchars^=@', operator: 'Equal', value: 'bar', effect: 'NoSchedule' },
      [
        {
          path: `${P}[0].key`,
          message:
            "Invalid value: \"nospecialchars^=@\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        },
      ],
    ],
    [
      'invalid toleration operator',
      { key: 'foo', operator: 'In', value: 'bar', effect: 'NoSchedule' },
      [{ path: `${P}[0].operator`, message: 'Unsupported value: "In": supported values: "Equal", "Exists"' }],
    ],
    [
      "value must be empty when `operator` is 'Exists'",
      { key: 'foo', operator: 'Exists', value: 'bar', effect: 'NoSchedule' },
      [
        {
          path: `${P}[0].operator`,
          message: 'Invalid value: "bar": value must be empty when `operator` is \'Exists\'',
        },
      ],
    ],
    [
      "operator must be 'Exists' when `key` is empty",
      { operator: 'Equal', value: 'bar', effect: 'NoSchedule' },
      [
        {
          path: `${P}[0].operator`,
          message:
            'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
        },
      ],
    ],
    [
      "effect must be 'NoExecute' when `TolerationSeconds` is set",
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoSchedule',
        tolerationSeconds: 20,
      },
      [
        {
          path: `${P}[0].effect`,
          message:
            'Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
        },
      ],
    ],
    [
      'an absent operator is Equal: with an empty key it is refused as ""',
      {},
      [
        {
          path: `${P}[0].operator`,
          message:
            'Invalid value: "": operator must be Exists when `key` is empty, which means "match all values and all keys"',
        },
      ],
    ],
    [
      'an unknown effect',
      { key: 'foo', operator: 'Exists', effect: 'NoRun' },
      [
        {
          path: `${P}[0].effect`,
          message:
            'Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
        },
      ],
    ],
    [
      'a value that is no label value',
      { key: 'foo', value: '-bad-' },
      [
        {
          path: `${P}[0].operator`,
          message:
            "Invalid value: \"-bad-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        },
      ],
    ],
  ] as const)('%s', (_name, toleration, expected) => {
    expect(tolerationErrors([toleration], P)).toEqual(expected);
  });

  test('several errors of one toleration come in Kubernetes order: key, empty key, seconds, value, effect', () => {
    expect(
      tolerationErrors([{ operator: 'Foo', effect: 'Bad', tolerationSeconds: 1 }], P).map((e) => e.path),
    ).toEqual([`${P}[0].operator`, `${P}[0].effect`, `${P}[0].operator`, `${P}[0].effect`]);
  });
});
