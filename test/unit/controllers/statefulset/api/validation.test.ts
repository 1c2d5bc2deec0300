import { applyDefaults } from '../../../../../lib/controllers/statefulset/api/defaults.js';
import { checkStatefulSet } from '../../../../../lib/controllers/statefulset/api/check.js';
import type { StatefulSet } from '../../../../../lib/controllers/statefulset/api/types.js';
import {
  validateReserveOrdinals,
  validateStatefulSet,
} from '../../../../../lib/controllers/statefulset/api/validation.js';

/** The upstream test's valid object (statefulset_validation_test.go `successCases[0]`), defaulted. */
function raw(): StatefulSet {
  return {
    metadata: { name: 'abc', namespace: 'default' },
    spec: {
      selector: { matchLabels: { a: 'b' } },
      template: {
        metadata: { labels: { a: 'b' } },
        spec: { containers: [{ name: 'abc', image: 'image', imagePullPolicy: 'IfNotPresent' }] },
      },
    },
  };
}

function edit(f: (s: StatefulSet) => void, defaulted = true): StatefulSet {
  const s = defaulted ? applyDefaults(raw()) : raw();
  f(s);
  return s;
}

const ru = (s: StatefulSet) => s.spec.updateStrategy!.rollingUpdate!;

describe('validateStatefulSet: accepted (upstream successCases)', () => {
  test.each<[string, StatefulSet]>([
    ['OrderedReady, RollingUpdate defaults', edit(() => {})],
    ['a name with digits and dashes', edit((s) => (s.metadata.name = 'abc-123'))],
    ['Parallel', edit((s) => (s.spec.podManagementPolicy = 'Parallel'))],
    ['OnDelete without rollingUpdate', edit((s) => (s.spec.updateStrategy = { type: 'OnDelete' }))],
    [
      'partition 2 of 3, minReadySeconds 10',
      edit((s) => {
        s.spec.replicas = 3;
        Object.assign(ru(s), { partition: 2, minReadySeconds: 10 });
      }),
    ],
    [
      'InPlaceIfPossible with the InPlaceUpdateReady gate',
      edit((s) => {
        ru(s).podUpdatePolicy = 'InPlaceIfPossible';
        s.spec.template.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
      }),
    ],
    [
      'Parallel with maxUnavailable 50% and scaleStrategy.maxUnavailable 2',
      edit((s) => {
        s.spec.podManagementPolicy = 'Parallel';
        ru(s).maxUnavailable = '50%';
        s.spec.scaleStrategy = { maxUnavailable: 2 };
      }),
    ],
    ['reserveOrdinals 1 and 3-5', edit((s) => (s.spec.reserveOrdinals = [1, '3-5']))],
  ])('%s', (_name, sts) => {
    expect(validateStatefulSet(sts)).toEqual([]);
  });
});

describe('validateStatefulSet: rejected, with upstream messages', () => {
  test.each<[string, StatefulSet, { path: string; message: string }[]]>([
    [
      'empty name',
      edit((s) => (s.metadata.name = '')),
      [
        {
          path: 'metadata.name',
          message:
            "Invalid value: \"\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        },
      ],
    ],
    [
      'no selector: required and matching nothing',
      edit((s) => delete s.spec.selector),
      [
        { path: 'spec.selector', message: 'Required value' },
        {
          path: 'spec.template.metadata.labels',
          message: 'Invalid value: map[string]string{"a":"b"}: `selector` does not match template `labels`',
        },
      ],
    ],
    [
      'empty selector',
      edit((s) => (s.spec.selector = {})),
      [
        {
          path: 'spec.selector',
          message:
            'Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset',
        },
      ],
    ],
    [
      'selector does not match the template',
      edit((s) => (s.spec.selector = { matchLabels: { foo: 'bar' } })),
      [
        {
          path: 'spec.template.metadata.labels',
          message: 'Invalid value: map[string]string{"a":"b"}: `selector` does not match template `labels`',
        },
      ],
    ],
    [
      'negative replicas',
      edit((s) => (s.spec.replicas = -1)),
      [{ path: 'spec.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' }],
    ],
    [
      'restartPolicy OnFailure',
      edit((s) => (s.spec.template.spec.restartPolicy = 'OnFailure')),
      [
        {
          path: 'spec.template.spec.restartPolicy',
          message: 'Unsupported value: "OnFailure": supported values: "Always"',
        },
      ],
    ],
    [
      'activeDeadlineSeconds',
      edit((s) => (s.spec.template.spec.activeDeadlineSeconds = 60)),
      [
        {
          path: 'spec.template.spec.activeDeadlineSeconds',
          message: 'Forbidden: activeDeadlineSeconds in StatefulSet is not Supported',
        },
      ],
    ],
    [
      'unknown update strategy type',
      edit((s) => (s.spec.updateStrategy = { type: 'foo' })),
      [
        {
          path: 'spec.updateStrategy',
          message: 'Invalid value: {"type":"foo"}: must be \'RollingUpdate\' or \'OnDelete\'',
        },
      ],
    ],
    [
      'empty update strategy type (not defaulted)',
      edit((s) => {
        s.spec.podManagementPolicy = 'OrderedReady';
        s.spec.updateStrategy = { type: '' };
      }, false),
      [{ path: 'spec.updateStrategy', message: 'Required value' }],
    ],
    [
      'OnDelete with a rollingUpdate',
      edit((s) => (s.spec.updateStrategy = { type: 'OnDelete', rollingUpdate: { partition: 1 } })),
      [
        {
          path: 'spec.updateStrategy.rollingUpdate',
          message: 'Invalid value: {"partition":1}: only allowed for updateStrategy \'RollingUpdate\'',
        },
      ],
    ],
    [
      'negative partition and minReadySeconds',
      edit((s) => Object.assign(ru(s), { partition: -1, minReadySeconds: -1 })),
      [
        {
          path: 'spec.updateStrategy.rollingUpdate.partition',
          message: 'Invalid value: -1: must be greater than or equal to 0',
        },
        {
          path: 'spec.updateStrategy.rollingUpdate.minReadySeconds',
          message: 'Invalid value: -1: must be greater than or equal to 0',
        },
      ],
    ],
    [
      'minReadySeconds over 300',
      edit((s) => (ru(s).minReadySeconds = 301)),
      [
        {
          path: 'spec.updateStrategy.rollingUpdate.minReadySeconds',
          message: 'Invalid value: 301: must be no more than 300 seconds',
        },
      ],
    ],
    [
      'maxUnavailable 2 with OrderedReady',
      edit((s) => (ru(s).maxUnavailable = 2)),
      [
        {
          path: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
          message:
            'Invalid value: intstr.IntOrString{Type:0, IntVal:2, StrVal:""}: can only work with Parallel PodManagementPolicyType',
        },
      ],
    ],
    [
      'maxUnavailable 0 and "5" with Parallel',
      edit((s) => {
        s.spec.podManagementPolicy = 'Parallel';
        ru(s).maxUnavailable = 0;
        s.spec.scaleStrategy = { maxUnavailable: '5' };
      }),
      [
        {
          path: 'spec.scaleStrategy.maxUnavailable',
          message:
            "Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"5\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        },
        {
          path: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
          message: 'Invalid value: 0: should not be less than 1',
        },
      ],
    ],
    [
      'maxUnavailable "abc%" with Parallel',
      edit((s) => {
        s.spec.podManagementPolicy = 'Parallel';
        ru(s).maxUnavailable = 'abc%';
      }),
      [
        {
          path: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
          message:
            "Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"abc%\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        },
        {
          path: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
          message:
            'Invalid value: 0: getValueFromIntOrPercent error: invalid value for IntOrString: invalid value "abc%": strconv.Atoi: parsing "abc": invalid syntax',
        },
      ],
    ],
    [
      'unknown podUpdatePolicy',
      edit((s) => (ru(s).podUpdatePolicy = 'Unknown')),
      [
        {
          path: 'spec.updateStrategy.rollingUpdate.podUpdatePolicy',
          message: "Invalid value: \"Unknown\": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'",
        },
      ],
    ],
    [
      'InPlaceOnly without the readiness gate',
      edit((s) => (ru(s).podUpdatePolicy = 'InPlaceOnly')),
      [
        {
          path: 'spec.template.spec.readinessGates',
          message:
            'Invalid value: []v1.PodReadinessGate(nil): must contains InPlaceUpdateReady when podUpdatePolicy is InPlaceOnly',
        },
      ],
    ],
    [
      'unorderedUpdate with OrderedReady and two priority kinds',
      edit(
        (s) =>
          (ru(s).unorderedUpdate = {
            priorityStrategy: {
              weightPriority: [{ weight: 50, matchSelector: { matchLabels: { k: 'v' } } }],
              orderPriority: [{ orderedKey: 'k' }],
            },
          }),
      ),
      [
        {
          path: 'spec.updateStrategy.rollingUpdate.unorderedUpdate',
          message: 'Required value: unorderedUpdate can only work with Parallel PodManagementPolicyType',
        },
        {
          path: 'spec.updateStrategy.rollingUpdate.unorderedUpdate.priorityStrategy',
          message: 'Required value: only one of weightPriority and orderPriority can be used',
        },
      ],
    ],
    [
      'unknown retention policy',
      edit(
        (s) => (s.spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Delete', whenScaled: 'Keep' }),
      ),
      [
        {
          path: 'spec.persistentVolumeClaimRetentionPolicy.whenScaled',
          message: 'Unsupported value: "Keep": supported values: "Retain", "Delete"',
        },
      ],
    ],
    [
      'unknown pod management policy (not defaulted)',
      edit((s) => {
        s.spec.podManagementPolicy = 'foo';
        s.spec.updateStrategy = { type: 'RollingUpdate' };
      }, false),
      [
        {
          path: 'spec.podManagementPolicy',
          message: "Invalid value: \"foo\": must be 'OrderedReady' or 'Parallel'",
        },
      ],
    ],
  ])('%s', (_name, sts, errors) => {
    expect(validateStatefulSet(sts)).toEqual(errors);
  });
});

describe('validateReserveOrdinals (upstream TestValidateReserveOrdinals)', () => {
  const printed = (items: string) => `Invalid value: []intstr.IntOrString{${items}}`;
  test.each<[string, (number | string)[], string[]]>([
    ['empty', [], []],
    ['a valid range', ['1-2'], []],
    ['a number', [1], []],
    [
      'a string that is no range',
      ['12'],
      [
        `${printed('intstr.IntOrString{Type:1, IntVal:0, StrVal:"12"}')}: 0 th reserve ordinal is not a valid range: 12`,
        `${printed('intstr.IntOrString{Type:1, IntVal:0, StrVal:"12"}')}: 0 th reserve ordinal is invalid: 12, err = invalid range 12`,
      ],
    ],
    [
      'a reversed range',
      [0, '5-3'],
      [
        `${printed('intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, intstr.IntOrString{Type:1, IntVal:0, StrVal:"5-3"}')}: 1 th reserve ordinal is invalid: 5-3, err = invalid range 5-3`,
      ],
    ],
    [
      'a negative number',
      [-1],
      [
        `${printed('intstr.IntOrString{Type:0, IntVal:-1, StrVal:""}')}: 0 th reserve ordinal is negative: -1`,
      ],
    ],
    [
      'letters',
      ['a-1'],
      [
        `${printed('intstr.IntOrString{Type:1, IntVal:0, StrVal:"a-1"}')}: 0 th reserve ordinal is not a valid range: a-1`,
        `${printed('intstr.IntOrString{Type:1, IntVal:0, StrVal:"a-1"}')}: 0 th reserve ordinal is invalid: a-1, err = strconv.Atoi: parsing "a": invalid syntax`,
      ],
    ],
  ])('%s', (_name, reserveOrdinals, messages) => {
    const errs = validateReserveOrdinals({ ...raw().spec, reserveOrdinals });
    expect(errs.map((e) => e.path)).toEqual(messages.map(() => 'spec'));
    expect(errs.map((e) => e.message)).toEqual(messages);
  });
});

describe('validateStatefulSet on update (upstream ValidateStatefulSetUpdate)', () => {
  test('selector, serviceName and podManagementPolicy are fixed; the rest may change', () => {
    const old = applyDefaults(raw());
    const next = edit((s) => {
      s.spec.replicas = 5;
      s.spec.reserveOrdinals = [1];
      s.spec.ordinals = { start: 2 };
      s.spec.template.spec.containers[0].image = 'image:2';
    });
    expect(validateStatefulSet(next, old)).toEqual([]);
    const moved = edit((s) => (s.spec.serviceName = 'svc'));
    expect(validateStatefulSet(moved, old)).toEqual([
      {
        path: 'spec',
        message:
          "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'reserveOrdinals', 'lifecycle', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', `volumeClaimTemplates`, `VolumeClaimUpdateStrategy` and 'updateStrategy' are forbidden",
      },
    ]);
  });

  test('negative replicas on update are reported twice, as upstream', () => {
    const old = applyDefaults(raw());
    const next = edit((s) => (s.spec.replicas = -1));
    expect(validateStatefulSet(next, old).map((e) => e.path)).toEqual(['spec.replicas', 'spec.replicas']);
  });

  test('InPlaceOnly allows only image replacements in the template spec', () => {
    const inPlaceOnly = (s: StatefulSet) => {
      ru(s).podUpdatePolicy = 'InPlaceOnly';
      s.spec.template.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
    };
    const old = edit(inPlaceOnly);
    const image = edit((s) => {
      inPlaceOnly(s);
      s.spec.template.spec.containers[0].image = 'image:2';
    });
    expect(validateStatefulSet(image, old)).toEqual([]);
    const env = edit((s) => {
      inPlaceOnly(s);
      s.spec.template.spec.containers[0].env = [{ name: 'A', value: '1' }];
    });
    expect(validateStatefulSet(env, old)).toEqual([
      {
        path: 'spec.template',
        message:
          'invalid template modified with InPlaceOnly strategy: add /containers/0/env, currently only image update is allowed for InPlaceOnly',
      },
    ]);
  });
});

describe('checkStatefulSet', () => {
  test('defaults, then validates: a bare object is valid and gets the webhook defaults', () => {
    const { statefulSet, errors } = checkStatefulSet(raw());
    expect(errors).toEqual([]);
    expect(statefulSet.spec.podManagementPolicy).toBe('OrderedReady');
    expect(statefulSet.spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 },
    });
  });
});
