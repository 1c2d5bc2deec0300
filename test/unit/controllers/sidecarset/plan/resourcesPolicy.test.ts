/**
 * The sidecar's resources from its `resourcesPolicy` (lib/controllers/sidecarset/plan/resourcesPolicy.ts), with
 * OpenKruise v1.9.0's `pkg/webhook/pod/mutating/sidecarset_resources_test.go` as data: `TestApplyResourcesPolicy`
 * (8 cases), `TestAggregateResourcesBySum`/`ByMax` (3 + 3), `TestGetTargetContainers` and
 * `TestEvaluateResourceExpression` (15), with the exact quantities and, where upstream only asks for an error, the
 * exact message its code answers.
 */
import type { Container, Pod } from '../../../../../lib/api/types.js';
import { parseQuantityValue, quantityString } from '../../../../../lib/api/quantityValue.js';
import type { ResourcesPolicy } from '../../../../../lib/controllers/sidecarset/api/types.js';
import {
  aggregateResources,
  evaluateResourceExpression,
  kruiseSidecarNames,
  resourcesFromPolicy,
  targetContainers,
} from '../../../../../lib/controllers/sidecarset/plan/resourcesPolicy.js';

type R = Record<string, string>;
/** A container `name` with limits `l` and requests `q` (`undefined` leaves the list out). */
const c = (name: string, l?: R, q?: R, restartPolicy?: string): Container => ({
  name,
  image: 'nginx:1.14.2',
  resources: { ...(l ? { limits: l } : {}), ...(q ? { requests: q } : {}) },
  ...(restartPolicy ? { restartPolicy } : {}),
});
const pod = (containers: Container[], initContainers?: Container[]): Pod => ({
  metadata: { name: 'p' },
  spec: { containers, ...(initContainers ? { initContainers } : {}) },
});
const policy = (
  mode: string,
  regex: string,
  limits?: { cpu?: string; memory?: string },
  requests?: { cpu?: string; memory?: string },
): ResourcesPolicy => ({
  targetContainersMode: mode,
  targetContainersNameRegex: regex,
  resourcesExpr: { ...(limits ? { limits } : {}), ...(requests ? { requests } : {}) },
});
const NONE = new Set<string>();

const app1 = c('app1', { cpu: '200m', memory: '200Mi' }, { cpu: '50m', memory: '100Mi' });
const app2 = c('app2', { cpu: '400m', memory: '400Mi' }, { cpu: '100m', memory: '200Mi' });

describe('applyResourcesPolicy (TestApplyResourcesPolicy)', () => {
  const cases: { name: string; pod: Pod; policy: ResourcesPolicy; want: object | string }[] = [
    {
      name: 'sum mode with percentage - basic',
      pod: pod([app1, app2]),
      policy: policy('sum', '.*', { cpu: 'cpu*50%', memory: '200Mi' }, { cpu: 'cpu*50%', memory: '100Mi' }),
      want: { limits: { cpu: '300m', memory: '200Mi' }, requests: { cpu: '75m', memory: '100Mi' } },
    },
    {
      name: 'max mode with expression',
      pod: pod([
        { ...app1, name: 'large.engine.v4' },
        { ...app2, name: 'large.engine.v8' },
      ]),
      policy: policy(
        'max',
        '^large.engine.v.*$',
        { cpu: 'max(cpu*50%, 50m)', memory: '200Mi' },
        { cpu: 'max(cpu*50%, 50m)', memory: '100Mi' },
      ),
      want: { limits: { cpu: '200m', memory: '200Mi' }, requests: { cpu: '50m', memory: '100Mi' } },
    },
    {
      name: 'regex filter - specific container',
      pod: pod([
        { ...app1, name: 'large.engine.v4' },
        { ...app2, name: 'large.engine.v8' },
      ]),
      policy: policy(
        'sum',
        '^large.engine.v4$',
        { cpu: 'max(cpu*50%, 50m)', memory: '200Mi' },
        { cpu: 'max(cpu*50%, 50m)', memory: '100Mi' },
      ),
      want: { limits: { cpu: '100m', memory: '200Mi' }, requests: { cpu: '50m', memory: '100Mi' } },
    },
    {
      name: 'no matching containers - should error',
      pod: pod([c('app1', { cpu: '200m' })]),
      policy: policy('sum', '^nonexistent$', { cpu: 'cpu*50%' }),
      want: 'no containers match the regex pattern "^nonexistent$"',
    },
    {
      name: 'sum mode - one container without CPU limit (unlimited)',
      pod: pod([
        c('app1', { cpu: '200m', memory: '200Mi' }, { cpu: '100m', memory: '100Mi' }),
        c('app2', { memory: '400Mi' }, { cpu: '50m', memory: '200Mi' }),
      ]),
      policy: policy(
        'sum',
        '.*',
        { cpu: 'cpu*50%', memory: 'memory*30%' },
        { cpu: 'cpu*30%', memory: 'memory*20%' },
      ),
      want: { limits: { memory: '180Mi' }, requests: { cpu: '45m', memory: '60Mi' } },
    },
    {
      name: 'max mode - one container without Memory limit (unlimited)',
      pod: pod([
        c('app1', { cpu: '200m', memory: '200Mi' }, { cpu: '100m', memory: '100Mi' }),
        c('app2', { cpu: '400m' }, { cpu: '200m' }),
      ]),
      policy: policy(
        'max',
        '.*',
        { cpu: 'cpu*40%', memory: 'memory*30%' },
        { cpu: 'cpu*25%', memory: 'memory*20%' },
      ),
      want: { limits: { cpu: '160m' }, requests: { cpu: '50m', memory: '20Mi' } },
    },
    {
      name: 'sum mode - container without requests (treated as 0)',
      pod: pod([
        c('app1', { cpu: '200m', memory: '200Mi' }, { cpu: '100m', memory: '100Mi' }),
        c('app2', { cpu: '400m', memory: '400Mi' }),
      ]),
      policy: policy(
        'sum',
        '.*',
        { cpu: 'cpu*50%', memory: 'memory*30%' },
        { cpu: 'cpu*30%', memory: 'memory*20%' },
      ),
      want: { limits: { cpu: '300m', memory: '180Mi' }, requests: { cpu: '30m', memory: '20Mi' } },
    },
    {
      name: 'init-container with resource policy (native sidecar)',
      pod: pod(
        [c('app2', { cpu: '600m', memory: '1200Mi' }, { cpu: '300m', memory: '600Mi' })],
        [
          c('app1', { cpu: '400m', memory: '800Mi' }, { cpu: '200m', memory: '400Mi' }, 'Always'),
          c('app2', { cpu: '400m', memory: '800Mi' }, { cpu: '200m', memory: '400Mi' }),
        ],
      ),
      policy: policy(
        'sum',
        '^app.*$',
        { cpu: 'max(cpu*30%, 50m)', memory: 'max(memory*25%, 100Mi)' },
        { cpu: 'cpu*20%', memory: 'memory*15%' },
      ),
      want: { limits: { cpu: '300m', memory: '500Mi' }, requests: { cpu: '100m', memory: '150Mi' } },
    },
  ];
  it.each(cases)('$name', ({ pod: p, policy: pol, want }) => {
    if (typeof want === 'string') expect(() => resourcesFromPolicy(p, pol, NONE)).toThrow(want);
    else expect(resourcesFromPolicy(p, pol, NONE)).toEqual(want);
  });

  it('an expression that fails names the resource and the expression', () => {
    const p = pod([app1]);
    expect(() => resourcesFromPolicy(p, policy('sum', '.*', { cpu: 'cpu * invalid' }), NONE)).toThrow(
      'failed to evaluate CPU limits expression: failed to parse expression "cpu * invalid": undefined variable: invalid',
    );
    expect(() =>
      resourcesFromPolicy(p, policy('sum', '.*', undefined, { memory: 'memory*memory' }), NONE),
    ).toThrow(
      'failed to evaluate memory requests expression: failed to parse expression "memory*memory": multiplication of two quantities',
    );
  });

  it('limits and requests without any expression leave the sidecar without resources', () => {
    expect(resourcesFromPolicy(pod([c('app1')]), policy('sum', '.*', { cpu: 'cpu' }, {}), NONE)).toEqual({});
  });
});

const str = (m: Map<string, ReturnType<typeof parseQuantityValue>>): R =>
  Object.fromEntries([...m].map(([k, v]) => [k, quantityString(v)]));

describe('aggregateResourcesBySum / ByMax', () => {
  const noCpuLimit = c('app2', { memory: '400Mi' }, { cpu: '100m', memory: '200Mi' });
  const noRequests = c('app2', { cpu: '400m', memory: '400Mi' });
  it.each([
    [
      'sum',
      'all containers have limits',
      [app1, app2],
      { cpu: '600m', memory: '600Mi' },
      { cpu: '150m', memory: '300Mi' },
    ],
    [
      'sum',
      'one container without CPU limit',
      [app1, noCpuLimit],
      { memory: '600Mi' },
      { cpu: '150m', memory: '300Mi' },
    ],
    [
      'sum',
      'container without requests',
      [app1, noRequests],
      { cpu: '600m', memory: '600Mi' },
      { cpu: '50m', memory: '100Mi' },
    ],
    [
      'max',
      'all containers have limits',
      [app1, app2],
      { cpu: '400m', memory: '400Mi' },
      { cpu: '100m', memory: '200Mi' },
    ],
    [
      'max',
      'one container without Memory limit',
      [app1, c('app2', { cpu: '400m' }, { cpu: '100m' })],
      { cpu: '400m' },
      { cpu: '100m', memory: '100Mi' },
    ],
    [
      'max',
      'one container without Cpu limit',
      [app1, c('app2', { memory: '400Mi' }, { memory: '200Mi' })],
      { memory: '400Mi' },
      { cpu: '50m', memory: '200Mi' },
    ],
    [
      'max',
      'container without requests',
      [app1, c('app2', { cpu: '100m', memory: '150Mi' })],
      { cpu: '200m', memory: '200Mi' },
      { cpu: '50m', memory: '100Mi' },
    ],
  ] as const)('%s: %s', (mode, _name, containers, limits, requests) => {
    const a = aggregateResources(containers, mode);
    expect(str(a.limits)).toEqual(limits);
    expect(str(a.requests)).toEqual(requests);
  });

  it('sum keeps the format of the first addend and leaves a zero request unset', () => {
    const a = aggregateResources(
      [c('a', { memory: '1Gi', cpu: '1' }, { cpu: '0' }), c('b', { memory: '1000M', cpu: '500m' })],
      'sum',
    );
    expect(str(a.limits)).toEqual({ cpu: '1500m', memory: '2073741824' });
    expect(str(a.requests)).toEqual({});
  });
});

describe('getTargetContainers (TestGetTargetContainers)', () => {
  it('reads the regex as Go does: a leading (?i) is a flag', () => {
    expect(targetContainers(pod([c('App-Web'), c('db')]), '(?i)^app-', NONE).map((x) => x.name)).toEqual([
      'App-Web',
    ]);
  });

  it('native sidecars and containers, without Kruise sidecars and plain init containers', () => {
    const names = kruiseSidecarNames([
      { spec: { initContainers: [{ name: 'init-sidecar1' }], containers: [{ name: 'sidecar1' }] } },
    ]);
    const p = pod(
      [c('app1'), c('app2'), c('sidecar1')],
      [c('init-sidecar1'), c('plain-init-container'), c('sidecar-container', undefined, undefined, 'Always')],
    );
    expect(targetContainers(p, '^.*$', names).map((x) => x.name)).toEqual([
      'sidecar-container',
      'app1',
      'app2',
    ]);
  });
});

describe('evaluateResourceExpression (TestEvaluateResourceExpression)', () => {
  it.each([
    ['empty expression with isLimit=true should return nil (unlimited)', '', '100m', true, undefined],
    ['empty expression with isLimit=false should return 0', '', '100m', false, '0'],
    ['percentage expression - cpu*50%', 'cpu*50%', '200m', true, '100m'],
    ['percentage expression - memory*30%', 'memory*30%', '600Mi', true, '180Mi'],
    ['max expression - max(cpu*50%, 100m)', 'max(cpu*50%, 100m)', '150m', true, '100m'],
    ['max expression with higher percentage', 'max(cpu*50%, 100m)', '400m', true, '200m'],
    ['addition expression - cpu + 50m', 'cpu + 50m', '100m', true, '150m'],
    ['complex expression', 'max(memory*20% + 100Mi, 200Mi)', '800Mi', true, '260Mi'],
    ['number result - constant value 500m', '500m', '100m', true, '500m'],
    ['memory constant - 1Gi', '1Gi', '500Mi', true, '1Gi'],
    ['zero aggregated value with isLimit=false (request)', 'cpu*50%', '0', false, '0'],
    ['percentage of memory request', 'memory*25%', '400Mi', false, '100Mi'],
    ['number cpu', '1', '2', false, '1'],
    ['number memory', '1', '2Mi', false, '1'],
    ['a number for cpu is milli-cores', '0.0015', '2', false, '1m'],
  ] as const)('%s', (_name, expr, aggregated, isLimit, want) => {
    const q = evaluateResourceExpression(expr, parseQuantityValue(aggregated), isLimit);
    expect(q === undefined ? undefined : quantityString(q)).toBe(want);
  });

  it('invalid expression should return error', () => {
    expect(() => evaluateResourceExpression('cpu * invalid', parseQuantityValue('100m'), true)).toThrow(
      'failed to parse expression "cpu * invalid": undefined variable: invalid',
    );
  });
});
