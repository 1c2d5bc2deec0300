/**
 * The WorkloadSpread validating webhook's rules against OpenKruise v1.9.0's
 * pkg/webhook/workloadspread/validating/workloadspread_validation_test.go tables (`TestValidateWorkloadSpreadCreate`,
 * `TestValidateWorkloadSpreadTargetRefUpdate`, `TestValidateWorkloadSpreadConflict`): each bad case refused at the
 * same field, the good ones allowed; and the messages of the cases a user meets, word for word.
 */
import { aggregateMessage } from '../../../../../lib/api/admission/validation.js';
import type { JsonObject } from '../../../../../lib/api/types.js';
import type { WorkloadSpread } from '../../../../../lib/controllers/workloadspread/api/types.js';
import { validateWorkloadSpread } from '../../../../../lib/controllers/workloadspread/api/validation.js';

const zone = (v: string) => ({
  matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [v] }],
});

function demo(): WorkloadSpread {
  return {
    metadata: { name: 'test-ws', namespace: 'default' },
    spec: {
      targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'test' },
      subsets: [
        { name: 'subset-a', maxReplicas: 50, requiredNodeSelector: zone('zone-a') },
        { name: 'subset-b', maxReplicas: 50, requiredNodeSelector: zone('zone-b') },
        { name: 'subset-c' },
      ],
    },
  };
}

const fields = (ws: WorkloadSpread, options = {}) => validateWorkloadSpread(ws, options).map((e) => e.path);

describe('validateWorkloadSpread', () => {
  it('allows the demo, a StatefulSet with int maxReplicas, and percentages summing to 100%', () => {
    const sts = demo();
    sts.spec.targetRef = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'demo' };
    const pct = demo();
    pct.spec.subsets = [
      { name: 'a', maxReplicas: '50%' },
      { name: 'b', maxReplicas: '50%' },
    ];
    const adaptive = demo();
    adaptive.spec.scheduleStrategy = { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 30 } };
    expect([demo(), sts, pct, adaptive].map((w) => fields(w))).toEqual([[], [], [], []]);
  });

  const cases: [string, (w: WorkloadSpread) => void, string][] = [
    ['targetRef is nil', (w) => delete w.spec.targetRef, 'spec.targetRef'],
    ['targetRef apiVersion empty', (w) => void (w.spec.targetRef!.apiVersion = ''), 'spec.targetRef'],
    ['targetRef kind empty', (w) => void (w.spec.targetRef!.kind = ''), 'spec.targetRef'],
    ['targetRef name empty', (w) => void (w.spec.targetRef!.name = ''), 'spec.targetRef'],
    ['subsets empty', (w) => void (w.spec.subsets = []), 'spec.subsets'],
    [
      'statefulset group error',
      (w) =>
        void (w.spec.targetRef = { apiVersion: 'rollouts.kruise.io/v2', kind: 'StatefulSet', name: 'demo' }),
      'spec.targetRef',
    ],
    [
      'statefulset subset is percentage',
      (w) => {
        w.spec.targetRef = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'demo' };
        w.spec.subsets[0].maxReplicas = '50%';
        w.spec.subsets[1].maxReplicas = '50%';
      },
      'spec.subsets[0].maxReplicas',
    ],
    ['subset[0] name empty', (w) => void (w.spec.subsets[0].name = ''), 'spec.subsets[0].name'],
    ['subset[1] name empty', (w) => void (w.spec.subsets[1].name = ''), 'spec.subsets[1].name'],
    ['subset[1] name duplicated', (w) => void (w.spec.subsets[1].name = 'subset-a'), 'spec.subsets[1].name'],
    [
      'required term not valid',
      (w) =>
        void (w.spec.subsets[0].requiredNodeSelector = {
          matchExpressions: [{ key: 'key', operator: 'Exists', values: ['unexpected'] }],
        }),
      'spec.subsets[0].requiredNodeSelector.matchExpressions[0].values',
    ],
    [
      'preferred weight not valid',
      (w) =>
        void (w.spec.subsets[0].preferredNodeSelector = [
          { weight: 101, preference: { matchExpressions: [{ key: 'key', operator: 'Exists' }] } },
        ]),
      'spec.subsets[0].preferredNodeSelector[0].weight',
    ],
    [
      'preferred term not valid',
      (w) =>
        void (w.spec.subsets[0].preferredNodeSelector = [
          {
            weight: 50,
            preference: { matchExpressions: [{ key: 'key', operator: 'Exists', values: ['unexpected'] }] },
          },
        ]),
      'spec.subsets[0].preferredNodeSelector[0].preference.matchExpressions[0].values',
    ],
    [
      'toleration not valid (Kubernetes ValidateTolerations, lib/api/tolerationValidation.ts)',
      (w) => void (w.spec.subsets[1].tolerations = [{ key: 'foo', operator: 'Exists', value: 'bar' }]),
      'spec.subsets[1].tolerations[0].operator',
    ],
    ['maxReplicas < 0', (w) => void (w.spec.subsets[0].maxReplicas = -100), 'spec.subsets[0].maxReplicas'],
    ['maxReplicas 0.2%', (w) => void (w.spec.subsets[0].maxReplicas = '0.2%'), 'spec.subsets[0].maxReplicas'],
    [
      'maxReplicas 50.2%',
      (w) => void (w.spec.subsets[0].maxReplicas = '50.2%'),
      'spec.subsets[0].maxReplicas',
    ],
    [
      'maxReplicas 101%',
      (w) => {
        w.spec.subsets[0].maxReplicas = '101%';
        delete w.spec.subsets[1].maxReplicas;
      },
      'spec.subsets[0].maxReplicas',
    ],
    [
      '40% and 70%',
      (w) => {
        w.spec.subsets[0].maxReplicas = '40%';
        w.spec.subsets[1].maxReplicas = '70%';
      },
      'spec.subsets[1].maxReplicas',
    ],
    [
      '40%, 20%, 20%',
      (w) => {
        w.spec.subsets[0].maxReplicas = '40%';
        w.spec.subsets[1].maxReplicas = '20%';
        w.spec.subsets[2].maxReplicas = '20%';
      },
      'spec.subsets[0].maxReplicas',
    ],
    ['maxReplicas -1%', (w) => void (w.spec.subsets[0].maxReplicas = '-1%'), 'spec.subsets[0].maxReplicas'],
    [
      'strategy type not valid',
      (w) => void (w.spec.scheduleStrategy = { type: 'random' }),
      'spec.scheduleStrategy.type',
    ],
    [
      'rescheduleCriticalSeconds -1',
      (w) =>
        void (w.spec.scheduleStrategy = { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: -1 } }),
      'spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds',
    ],
    [
      'strategy type not matched',
      (w) => void (w.spec.scheduleStrategy = { type: 'Fixed', adaptive: { rescheduleCriticalSeconds: 20 } }),
      'spec.scheduleStrategy.type',
    ],
    [
      'last subset maxReplicas under adaptive',
      (w) => {
        w.spec.scheduleStrategy = { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 20 } };
        w.spec.subsets[2].maxReplicas = 50;
      },
      'spec.scheduleStrategy.adaptive',
    ],
    [
      'targetFilter In without values',
      (w) =>
        void (w.spec.targetFilter = {
          selector: { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] },
        }),
      'spec.targetFilter',
    ],
    ['a Kind no whitelist names', (w) => void (w.spec.targetRef!.kind = 'GameServerSet'), 'spec.targetRef'],
  ];

  it.each(cases)('%s: refused at its field', (_name, mutate, field) => {
    const ws = demo();
    mutate(ws);
    expect(fields(ws)).toContain(field);
  });

  it('a changed target (group, Kind or name) is refused on update; the same target through another version is not', () => {
    const old = demo();
    const moved = (ref: { apiVersion: string; kind: string; name: string }) => {
      const ws = demo();
      ws.spec.targetRef = ref;
      return fields(ws, { old });
    };
    expect(moved({ apiVersion: 'apps/v1', kind: 'CloneSet', name: 'test' })).toContain('spec.targetRef');
    expect(moved({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'Deployment', name: 'test' })).toContain(
      'spec.targetRef',
    );
    expect(moved({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'other' })).toEqual([
      'spec.targetRef',
    ]);
    expect(moved({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', name: 'test' })).toEqual([]);
  });

  it('another WorkloadSpread of the namespace on the same target conflicts; a different group, Kind or name does not', () => {
    const other = (ref: { apiVersion: string; kind: string; name: string }) => {
      const o = demo();
      o.metadata.name = 'ws-2';
      o.spec.targetRef = ref;
      return o;
    };
    expect(
      fields(demo(), {
        others: [other({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', name: 'test' })],
      }),
    ).toEqual(['spec.targetRef']);
    expect(
      fields(demo(), {
        others: [
          other({ apiVersion: 'apps/v1', kind: 'CloneSet', name: 'test' }),
          other({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'Deployment', name: 'test' }),
          other({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'x' }),
          demo(),
        ],
      }),
    ).toEqual([]);
  });

  it('messages as OpenKruise answers them', () => {
    const ws = demo();
    ws.spec.targetRef = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'web' };
    ws.spec.subsets[0].maxReplicas = '50%';
    expect(aggregateMessage(validateWorkloadSpread(ws))).toBe(
      'spec.subsets[0].maxReplicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"50%"}: the maxReplicas type must be Int for StatefulSet',
    );
    const old = demo();
    const moved = demo();
    moved.spec.targetRef = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'test' };
    expect(aggregateMessage(validateWorkloadSpread(moved, { old }))).toBe(
      'spec.targetRef: Invalid value: v1beta1.TargetReference{APIVersion:"apps.kruise.io/v1beta1", Kind:"StatefulSet", Name:"test"}: change TargetReference is not permitted for WorkloadSpread',
    );
    const empty = demo();
    empty.spec.subsets = [];
    delete empty.spec.targetRef;
    expect(aggregateMessage(validateWorkloadSpread(empty))).toBe(
      '[spec.targetRef: Required value: no targetRef defined in WorkloadSpread, spec.subsets: Required value: subsets number must >= 1 in WorkloadSpread]',
    );
  });
});

describe('a subset patch merged into the target pod template (upstream Test_validateWorkloadSpreadSubsets)', () => {
  /** The template upstream's test gives its CloneSet and StatefulSet: `main` mounts the claim template `vol-1--0`. */
  const target = (claim = 'vol-1--0') => ({
    template: {
      metadata: { labels: { app: 'nginx' } },
      spec: {
        containers: [
          {
            name: 'main',
            image: 'img:latest',
            volumeMounts: [{ name: 'vol-1--0', mountPath: '/logs', subPath: 'logs' }],
          },
        ],
      },
    },
    volumeClaimTemplates: [{ metadata: { name: claim } }],
  });
  const withPatch = (patch: JsonObject) => {
    const ws = demo();
    ws.spec.subsets = [{ name: 'test', patch }];
    return ws;
  };
  const annotation = { metadata: { annotations: { 'some-key': 'some-value' } } };

  it('a template whose claim the container mounts passes; one whose claim is renamed has one error', () => {
    expect(validateWorkloadSpread(withPatch(annotation), { target: target() })).toEqual([]);
    expect(validateWorkloadSpread(withPatch(annotation), { target: target('bad-boy') })).toEqual([
      { path: 'spec.subsets[0].patch.containers[0].volumeMounts[0].name', message: 'Not found: "vol-1--0"' },
    ]);
  });

  it('a container the patch adds is defaulted as OpenKruise does, then validated: no image is refused', () => {
    const added: JsonObject = {
      spec: { containers: [{ name: 'sidecar', image: 'busybox' }, { name: 'bare' }] },
    };
    // the patch's containers come first in the merged list (strategic merge), `main` after them
    expect(aggregateMessage(validateWorkloadSpread(withPatch(added), { target: target() }))).toBe(
      'spec.subsets[0].patch.containers[1].image: Required value',
    );
    // only a read target is checked: without it (not found, or not read) the patch passes, as upstream skips it
    expect(validateWorkloadSpread(withPatch(added))).toEqual([]);
  });

  it('a patch that makes the containers something else than a list: the unmarshal error upstream reports', () => {
    expect(validateWorkloadSpread(withPatch({ spec: { containers: 'x' } }), { target: target() })).toEqual([
      {
        path: 'spec.subsets[0].patch',
        message:
          'Invalid value: "{\\"spec\\":{\\"containers\\":\\"x\\"}}": failed to unmarshal: json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container',
      },
    ]);
  });
});
