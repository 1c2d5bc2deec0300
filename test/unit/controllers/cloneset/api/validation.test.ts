import { applyDefaults } from '../../../../../lib/controllers/cloneset/api/defaults.js';
import {
  describeFieldErrors,
  FieldErrorsError,
  InvalidCloneSetError,
} from '../../../../../lib/api/errors.js';
import type { CloneSet } from '../../../../../lib/api/types.js';
import {
  labelValueErrors,
  qualifiedNameErrors,
  validateCloneSet,
} from '../../../../../lib/controllers/cloneset/api/validation.js';

function valid(): CloneSet {
  return applyDefaults({
    metadata: { name: 'demo', namespace: 'ns', uid: 'u1' },
    spec: {
      replicas: 5,
      selector: { matchLabels: { app: 'demo' } },
      template: {
        metadata: { labels: { app: 'demo' } },
        spec: {
          containers: [
            { name: 'nginx', image: 'nginx:1.25', volumeMounts: [{ name: 'data', mountPath: '/d' }] },
          ],
        },
      },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
    },
  });
}

function edit(f: (cs: CloneSet) => void): CloneSet {
  const cs = valid();
  f(cs);
  return cs;
}

describe('validateCloneSet — accepted (scenario 60)', () => {
  test.each<[string, CloneSet]>([
    ['the defaulted CloneSet', valid()],
    [
      'partition 2 with replicas 1',
      edit((cs) => ((cs.spec.replicas = 1), (cs.spec.updateStrategy!.partition = 2))),
    ],
    [
      'maxUnavailable 0 with maxSurge 1',
      edit((cs) => Object.assign(cs.spec.updateStrategy!, { maxUnavailable: 0, maxSurge: 1 })),
    ],
    ['maxUnavailable "120%"', edit((cs) => (cs.spec.updateStrategy!.maxUnavailable = '120%'))],
    ['fractional percent partition "10.5%"', edit((cs) => (cs.spec.updateStrategy!.partition = '10.5%'))],
    [
      'weight priority',
      edit(
        (cs) =>
          (cs.spec.updateStrategy!.priorityStrategy = {
            weightPriority: [{ weight: 50, matchSelector: { matchLabels: { k: 'v' } } }],
          }),
      ),
    ],
    [
      'order priority',
      edit((cs) => (cs.spec.updateStrategy!.priorityStrategy = { orderPriority: [{ orderedKey: 'k' }] })),
    ],
    [
      'scatter strategy',
      edit(
        (cs) =>
          (cs.spec.updateStrategy!.scatterStrategy = [
            { key: 'a', value: '1' },
            { key: 'a', value: '2' },
          ]),
      ),
    ],
    [
      'progressDeadlineSeconds and minReadySeconds both MaxInt32',
      edit((cs) => ((cs.spec.progressDeadlineSeconds = 2147483647), (cs.spec.minReadySeconds = 2147483647))),
    ],
    [
      'replicas 0 with maxUnavailable 0',
      edit((cs) => ((cs.spec.replicas = 0), (cs.spec.updateStrategy!.maxUnavailable = 0))),
    ],
    ['restartPolicy Always', edit((cs) => (cs.spec.template.spec.restartPolicy = 'Always'))],
    ['InPlaceOnly with maxSurge 0', edit((cs) => (cs.spec.updateStrategy!.type = 'InPlaceOnly'))],
  ])('%s', (_n, cs) => {
    expect(validateCloneSet(cs)).toEqual([]);
  });

  test('an update changing replicas, template, revisionHistoryLimit, podsToDelete, VCT size and type ReCreate→InPlaceOnly at once', () => {
    const old = valid();
    const cs = edit((c) => {
      c.spec.replicas = 10;
      c.spec.template.spec.containers[0].image = 'nginx:1.26';
      c.spec.revisionHistoryLimit = 5;
      c.spec.scaleStrategy = { podsToDelete: ['p1'] };
      c.spec.volumeClaimTemplates![0].spec = { resources: { requests: { storage: '2Gi' } } };
      c.spec.updateStrategy!.type = 'InPlaceOnly';
    });
    expect(validateCloneSet(cs, old)).toEqual([]);
  });
});

describe('validateCloneSet — rejected (scenario 60 and docs/behaviour/cloneset.md#api-fields)', () => {
  test.each<[string, CloneSet, { path: string; message: string }[]]>([
    [
      'replicas −1',
      edit((cs) => ((cs.spec.replicas = -1), (cs.spec.updateStrategy!.maxUnavailable = 1))),
      [{ path: 'spec.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' }],
    ],
    [
      'empty update type',
      edit((cs) => (cs.spec.updateStrategy!.type = '' as 'ReCreate')),
      [
        {
          path: 'spec.updateStrategy.type',
          message: `Invalid value: "": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'`,
        },
      ],
    ],
    [
      'OnDelete in v1alpha1',
      edit((cs) => (cs.spec.updateStrategy!.type = 'OnDelete')),
      [
        {
          path: 'spec.updateStrategy.type',
          message: `Invalid value: "OnDelete": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'`,
        },
      ],
    ],
    [
      'partition −1',
      edit((cs) => (cs.spec.updateStrategy!.partition = -1)),
      [
        {
          path: 'spec.updateStrategy.partition',
          message: 'Invalid value: -1: must be greater than or equal to 0',
        },
      ],
    ],
    [
      'maxUnavailable 0 with maxSurge 0',
      edit((cs) => (cs.spec.updateStrategy!.maxUnavailable = 0)),
      [
        {
          path: 'spec.updateStrategy.maxUnavailable',
          message:
            'Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: maxUnavailable and maxSurge should not both be less than 1',
        },
      ],
    ],
    [
      'maxSurge "5" (no %)',
      edit((cs) => (cs.spec.updateStrategy!.maxSurge = '5')),
      [
        {
          path: 'spec.updateStrategy.maxSurge',
          message:
            'Invalid value: "5": failed GetScaledValueFromIntOrPercent for maxSurge: invalid type: string is not a percentage',
        },
      ],
    ],
    [
      'maxUnavailable "5" (no %)',
      edit((cs) => (cs.spec.updateStrategy!.maxUnavailable = '5')),
      [
        {
          path: 'spec.updateStrategy.maxUnavailable',
          message:
            'Invalid value: "5": failed GetScaledValueFromIntOrPercent for maxUnavailable: invalid type: string is not a percentage',
        },
        {
          path: 'spec.updateStrategy.maxUnavailable',
          message:
            'Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"5"}: maxUnavailable and maxSurge should not both be less than 1',
        },
      ],
    ],
    [
      'partition "5" (no %)',
      edit((cs) => (cs.spec.updateStrategy!.partition = '5')),
      [
        {
          path: 'spec.updateStrategy.partition',
          message:
            'Invalid value: "5": failed GetScaledValueFromIntOrPercent for partition: invalid type: string is not a percentage',
        },
      ],
    ],
    [
      'maxSurge with InPlaceOnly',
      edit((cs) => Object.assign(cs.spec.updateStrategy!, { type: 'InPlaceOnly', maxSurge: '20%' })),
      [
        {
          path: 'spec.updateStrategy.maxSurge',
          message: 'Invalid value: "20%": can not use maxSurge with strategy type InPlaceOnly',
        },
      ],
    ],
    [
      'duplicate podsToDelete',
      edit((cs) => (cs.spec.scaleStrategy = { podsToDelete: ['a', 'b', 'a'] })),
      [
        {
          path: 'spec.scaleStrategy.podsToDelete',
          message: 'Invalid value: ["a","b","a"]: duplicated items [a]',
        },
      ],
    ],
    [
      'progressDeadlineSeconds −1',
      edit((cs) => (cs.spec.progressDeadlineSeconds = -1)),
      [
        {
          path: 'spec.progressDeadlineSeconds',
          message: 'Invalid value: -1: must be greater than or equal to 0',
        },
        {
          path: 'spec.progressDeadlineSeconds',
          message: 'Invalid value: -1: must be greater than minReadySeconds',
        },
      ],
    ],
    [
      'progressDeadlineSeconds equal to minReadySeconds',
      edit((cs) => ((cs.spec.progressDeadlineSeconds = 10), (cs.spec.minReadySeconds = 10))),
      [
        {
          path: 'spec.progressDeadlineSeconds',
          message: 'Invalid value: 10: must be greater than minReadySeconds',
        },
      ],
    ],
    [
      'progressDeadlineSeconds below minReadySeconds',
      edit((cs) => ((cs.spec.progressDeadlineSeconds = 5), (cs.spec.minReadySeconds = 10))),
      [
        {
          path: 'spec.progressDeadlineSeconds',
          message: 'Invalid value: 5: must be greater than minReadySeconds',
        },
      ],
    ],
    [
      'selector not matching template labels',
      edit((cs) => (cs.spec.selector = { matchLabels: { app: 'other' } })),
      [
        {
          path: 'spec.template.metadata.labels',
          message:
            'Invalid value: map[string]string{"app":"demo"}: `selector` does not match template `labels`',
        },
      ],
    ],
    [
      'empty selector',
      edit((cs) => (cs.spec.selector = {})),
      [
        {
          path: 'spec.selector',
          message:
            'Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for cloneset',
        },
      ],
    ],
    [
      'missing selector',
      edit((cs) => delete (cs.spec as Partial<CloneSet['spec']>).selector),
      [{ path: 'spec.selector', message: 'Required value' }],
    ],
    [
      'selector with a bad operator',
      edit((cs) => (cs.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Near' }] })),
      [
        {
          path: 'spec.selector.matchExpressions[0].operator',
          message: 'Invalid value: "Near": not a valid selector operator',
        },
        {
          path: 'spec.selector',
          message:
            'Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"Near", Values:[]string(nil)}}}: ',
        },
      ],
    ],
    [
      'restartPolicy Never',
      edit((cs) => (cs.spec.template.spec.restartPolicy = 'Never')),
      [
        {
          path: 'spec.template.spec.restartPolicy',
          message: 'Unsupported value: "Never": supported values: "Always"',
        },
      ],
    ],
    [
      'activeDeadlineSeconds set',
      edit((cs) => (cs.spec.template.spec.activeDeadlineSeconds = 5)),
      [
        {
          path: 'spec.template.spec.activeDeadlineSeconds',
          message: 'Forbidden: activeDeadlineSeconds in cloneset is not Supported',
        },
      ],
    ],
    [
      'no containers',
      edit((cs) => (cs.spec.template.spec.containers = [])),
      [{ path: 'spec.template.spec.containers', message: 'Required value' }],
    ],
    [
      'container without name, duplicate and invalid names, unknown volume mount',
      edit((cs) => {
        cs.spec.template.spec.containers = [
          { name: '' },
          { name: 'Bad_Name' },
          { name: 'a' },
          { name: 'a', volumeMounts: [{ name: 'nope' }] },
        ];
      }),
      [
        { path: 'spec.template.spec.containers[0].name', message: 'Required value' },
        {
          path: 'spec.template.spec.containers[1].name',
          message: `Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
        },
        { path: 'spec.template.spec.containers[3].name', message: 'Duplicate value: "a"' },
        { path: 'spec.template.spec.containers[3].volumeMounts[0].name', message: 'Not found: "nope"' },
      ],
    ],
    [
      'weight out of range',
      edit(
        (cs) =>
          (cs.spec.updateStrategy!.priorityStrategy = {
            weightPriority: [{ weight: 101, matchSelector: { matchLabels: { a: 'b' } } }],
          }),
      ),
      [
        {
          path: 'spec.updateStrategy.priorityStrategy',
          message: 'Required value: weight must be valid number in the range 1-100',
        },
      ],
    ],
    [
      'weight with empty selector',
      edit(
        (cs) =>
          (cs.spec.updateStrategy!.priorityStrategy = { weightPriority: [{ weight: 1, matchSelector: {} }] }),
      ),
      [
        {
          path: 'spec.updateStrategy.priorityStrategy',
          message: 'Required value: selector can not be empty',
        },
      ],
    ],
    [
      'weight with invalid selector',
      edit(
        (cs) =>
          (cs.spec.updateStrategy!.priorityStrategy = {
            weightPriority: [
              { weight: 1, matchSelector: { matchExpressions: [{ key: 'k', operator: 'In' }] } },
            ],
          }),
      ),
      [
        {
          path: 'spec.updateStrategy.priorityStrategy',
          message:
            "Required value: invalid selector values: Required value: for 'in', 'notin' operators, values set can't be empty",
        },
      ],
    ],
    [
      'both weight and order priority',
      edit(
        (cs) =>
          (cs.spec.updateStrategy!.priorityStrategy = {
            weightPriority: [{ weight: 1, matchSelector: { matchLabels: { a: 'b' } } }],
            orderPriority: [{ orderedKey: 'k' }],
          }),
      ),
      [
        {
          path: 'spec.updateStrategy.priorityStrategy',
          message: 'Required value: only one of weightPriority and orderPriority can be used',
        },
      ],
    ],
    [
      'empty orderedKey',
      edit((cs) => (cs.spec.updateStrategy!.priorityStrategy = { orderPriority: [{ orderedKey: '' }] })),
      [
        {
          path: 'spec.updateStrategy.priorityStrategy',
          message: 'Required value: order key can not be empty',
        },
      ],
    ],
    [
      'scatter key empty',
      edit((cs) => (cs.spec.updateStrategy!.scatterStrategy = [{ key: '', value: 'x' }])),
      [{ path: 'spec.updateStrategy.scatterStrategy', message: 'Required value: key should not be empty' }],
    ],
    [
      'scatter duplicate key:value',
      edit(
        (cs) =>
          (cs.spec.updateStrategy!.scatterStrategy = [
            { key: 'a', value: '1' },
            { key: 'a', value: '1' },
          ]),
      ),
      [{ path: 'spec.updateStrategy.scatterStrategy', message: 'Required value: duplicated key=a value=1' }],
    ],
    [
      'invalid object name',
      edit((cs) => (cs.metadata.name = 'Demo')),
      [
        {
          path: 'metadata.name',
          message: `Invalid value: "Demo": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        },
      ],
    ],
  ])('%s', (_n, cs, errors) => {
    expect(validateCloneSet(cs)).toEqual(errors);
  });

  test('a template label with an invalid key is rejected (and so is the mismatching selector)', () => {
    const cs = edit((c) => (c.spec.template.metadata!.labels = { app: 'demo', 'bad key!': 'v' }));
    expect(validateCloneSet(cs).map((e) => e.path)).toEqual(['spec.template.metadata.labels']);
    expect(validateCloneSet(cs)[0].message).toContain('Invalid value: "bad key!": name part must consist of');
  });

  test('all errors are returned together', () => {
    const cs = edit((c) => {
      c.spec.replicas = -1;
      c.spec.updateStrategy!.partition = '5';
      c.spec.template.spec.restartPolicy = 'OnFailure';
    });
    expect(validateCloneSet(cs).map((e) => e.path)).toEqual([
      'spec.replicas',
      'spec.template.spec.restartPolicy',
      'spec.updateStrategy.partition',
    ]);
  });
});

describe('validateCloneSet — updates', () => {
  test('changing the selector is forbidden', () => {
    const old = valid();
    const cs = edit((c) => {
      c.spec.selector = { matchLabels: { app: 'demo', tier: 'web' } };
      c.spec.template.metadata!.labels = { app: 'demo', tier: 'web' };
    });
    expect(validateCloneSet(cs, old)).toEqual([
      {
        path: 'spec',
        message:
          "Forbidden: updates to cloneset spec for fields other than 'replicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', 'progressDeadlineSeconds', 'volumeClaimTemplates' and 'revisionHistoryLimit' are forbidden",
      },
    ]);
  });

  test.each<[string, (c: CloneSet) => void, string | undefined]>([
    ['an image change is allowed', (c) => (c.spec.template.spec.containers[0].image = 'nginx:2'), undefined],
    [
      'an imagePullPolicy change is rejected',
      (c) => (c.spec.template.spec.containers[0].imagePullPolicy = 'IfNotPresent'),
      'replace /containers/0/imagePullPolicy',
    ],
    [
      'an env addition is rejected',
      (c) => (c.spec.template.spec.containers[0].env = [{ name: 'A', value: '1' }]),
      'add /containers/0/env',
    ],
    [
      'a template metadata change is not checked',
      (c) => (c.spec.template.metadata!.annotations = { a: 'b' }),
      undefined,
    ],
  ])('InPlaceOnly: %s', (_n, change, found) => {
    const old = edit((c) => (c.spec.updateStrategy!.type = 'InPlaceOnly'));
    const cs = structuredClone(old);
    change(cs);
    const want = found
      ? [
          {
            path: 'spec',
            message: `Forbidden: only allowed to update images in spec for InPlaceOnly, but found ${found}`,
          },
        ]
      : [];
    expect(validateCloneSet(cs, old)).toEqual(want);
  });
});

describe('Kubernetes name rules', () => {
  test.each<[string, string[]]>([
    ['app', []],
    ['example.com/app', []],
    ['a'.repeat(63), []],
    ['a'.repeat(64), ['name part must be no more than 63 characters']],
    ['/app', ['prefix part must be non-empty']],
    ['a/b/c', [expect.stringContaining('a qualified name must consist of')]],
    ['Bad.Prefix/app', [expect.stringContaining('prefix part a lowercase RFC 1123 subdomain')]],
    ['example.com/', ['name part must be non-empty']],
    ['-app', [expect.stringContaining('name part must consist of')]],
  ])('qualified name %p', (key, errs) => {
    expect(qualifiedNameErrors(key)).toEqual(errs);
  });

  test.each<[string, number]>([
    ['', 0],
    ['v1.2_3-x', 0],
    ['-x', 1],
    ['a'.repeat(64), 1],
  ])('label value %p has %p errors', (v, n) => {
    expect(labelValueErrors(v)).toHaveLength(n);
  });

  test('InvalidCloneSetError carries the field errors', () => {
    const errors = validateCloneSet(edit((c) => (c.spec.replicas = -1)));
    const e = new InvalidCloneSetError(errors);
    expect(e.errors).toBe(errors);
    expect(e.name).toBe('InvalidCloneSetError');
    expect(e.message).toContain('spec.replicas: Invalid value: -1');
    expect(new InvalidCloneSetError([]).message).toBe('CloneSet is invalid: unknown validation error');
    expect(e).toBeInstanceOf(FieldErrorsError);
  });

  test('describeFieldErrors joins `path: message` items; an empty path shows the message alone', () => {
    expect(
      describeFieldErrors([
        { path: 'spec.replicas', message: 'must be ≥ 0' },
        { path: '', message: 'body is not an object' },
      ]),
    ).toBe('spec.replicas: must be ≥ 0; body is not an object');
    expect(new FieldErrorsError('thing is invalid', []).message).toBe('thing is invalid: unknown error');
  });
});
