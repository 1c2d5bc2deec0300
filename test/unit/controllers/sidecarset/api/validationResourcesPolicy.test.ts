/**
 * `resourcesPolicy` in the SidecarSet validation (lib/controllers/sidecarset/api/validation.ts), with OpenKruise
 * v1.9.0's `pkg/webhook/sidecarset/validating/sidecarset_resources_policy_test.go` as data: `TestValidateResourcesPolicy`
 * (18 cases: the error count and, beyond upstream's substring, the exact path and message) and
 * `TestValidateResourceExpression` (10). The expression messages are the Go calculator's (calculator-golden).
 */
import { describe, expect, it } from '@jest/globals';
import type {
  ResourcesPolicy,
  SidecarContainer,
} from '../../../../../lib/controllers/sidecarset/api/types.js';
import { validateSidecarSetSpec } from '../../../../../lib/controllers/sidecarset/api/validation.js';
import { resourceExpressionProblem } from '../../../../../lib/controllers/sidecarset/plan/resourceExpression.js';

const container = (
  resourcesPolicy: ResourcesPolicy,
  resources?: SidecarContainer['resources'],
): SidecarContainer => ({
  name: 'test-sidecar',
  image: 'test-image',
  imagePullPolicy: 'IfNotPresent',
  terminationMessagePolicy: 'File',
  podInjectPolicy: 'BeforeAppContainer',
  shareVolumePolicy: { type: 'disabled' },
  upgradeStrategy: { upgradeType: 'ColdUpgrade' },
  ...(resources ? { resources } : {}),
  resourcesPolicy,
});
const errors = (c: SidecarContainer): string[] =>
  validateSidecarSetSpec(
    {
      metadata: { name: 'test-sidecarset' },
      spec: { selector: { matchLabels: { a: 'b' } }, updateStrategy: { type: 'NotUpdate' }, containers: [c] },
    },
    { others: [] },
  ).map((e) => `${e.path}: ${e.message}`);
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
const P = '[0].resourcesPolicy';
const bad = (field: string, value: string, problem: string) =>
  `${P}.resourcesExpr.${field}: Invalid value: ${JSON.stringify(value)}: invalid expression: ${problem}`;

describe('validateResourcesPolicy (upstream TestValidateResourcesPolicy)', () => {
  const cases: [string, SidecarContainer, string[]][] = [
    [
      'valid resources policy with sum mode and both limits and requests',
      container(
        policy(
          'sum',
          '^app.*$',
          { cpu: 'max(cpu*50%, 50m)', memory: 'max(memory*50%, 100Mi)' },
          { cpu: 'max(cpu*50%, 50m)', memory: 'max(memory*50%, 100Mi)' },
        ),
      ),
      [],
    ],
    [
      'valid resources policy with max mode and only limits',
      container(policy('max', '^app.*$', { cpu: 'cpu*50%' })),
      [],
    ],
    [
      'valid resources policy with only requests',
      container(policy('sum', '.*', undefined, { cpu: 'max(cpu*50%, 50m)', memory: '100Mi' })),
      [],
    ],
    [
      'valid resources policy with empty regex',
      container(policy('sum', '', { cpu: 'cpu*50%' })),
      [`${P}.targetContainersNameRegex: Required value: invalid empty regex`],
    ],
    [
      'resources policy and resources.limits both configured - should fail',
      container(policy('sum', '^app.*$', { cpu: 'cpu*50%' }), { limits: { cpu: '100m', memory: '100Mi' } }),
      [
        `${P}: Invalid value: ${JSON.stringify(JSON.stringify(policy('sum', '^app.*$', { cpu: 'cpu*50%' })))}: resourcesPolicy and resources cannot be configured together`,
      ],
    ],
    [
      'resources policy and resources.requests both configured - should fail',
      container(policy('sum', '^app.*$', { cpu: 'cpu*50%' }), { requests: { cpu: '50m' } }),
      [
        `${P}: Invalid value: ${JSON.stringify(JSON.stringify(policy('sum', '^app.*$', { cpu: 'cpu*50%' })))}: resourcesPolicy and resources cannot be configured together`,
      ],
    ],
    [
      'invalid regex pattern - should fail',
      container(policy('sum', '[invalid(regex', { cpu: 'cpu*50%' })),
      [
        `${P}.targetContainersNameRegex: Invalid value: "[invalid(regex": invalid regex pattern: Invalid regular expression: /[invalid(regex/: Unterminated character class`,
      ],
    ],
    [
      'no limits and requests - should fail',
      container(policy('sum', '^app.*$')),
      [`${P}.resourcesExpr: Invalid value: "{}": at least one of limits or requests must be configured`],
    ],
    [
      'invalid cpu expression - should fail',
      container(policy('sum', '^app.*$', { cpu: 'invalid expression @#$' })),
      [bad('limits.cpu', 'invalid expression @#$', 'undefined variable: invalid')],
    ],
    [
      'unbalanced parentheses - should fail',
      container(policy('sum', '^app.*$', { cpu: 'max(cpu*50%, 50m' })),
      [bad('limits.cpu', 'max(cpu*50%, 50m', 'parse error: syntax error at line 1, col 17')],
    ],
    [
      'invalid function syntax - should fail',
      container(policy('sum', '^app.*$', { cpu: 'max(cpu*50%)' })),
      [bad('limits.cpu', 'max(cpu*50%)', 'max function requires exactly 2 arguments, got 1')],
    ],
    [
      'invalid variable name - should fail',
      container(policy('sum', '^app.*$', { cpu: 'invalidvar * 50%' })),
      [bad('limits.cpu', 'invalidvar * 50%', 'undefined variable: invalidvar')],
    ],
    [
      'valid complex expression from story 5',
      container(
        policy('sum', '^app.*$', {
          cpu: '0.5*cpu - 0.3*max(0, cpu-4) + 0.3*max(0, cpu-8)',
          memory: 'max(memory*50%, 100Mi)',
        }),
      ),
      [],
    ],
    ['valid with only cpu in limits', container(policy('sum', '^.*', { cpu: 'cpu*50%' })), []],
    ['valid with only memory in limits', container(policy('sum', '^.*', { memory: 'memory*50%' })), []],
    [
      'empty cpu expression in requests is valid',
      container(policy('sum', '^.*', undefined, { memory: '100Mi' })),
      [],
    ],
    [
      'invalid cpu expression in requests - should fail',
      container(policy('sum', '^.*', undefined, { cpu: 'invalid_cpu_expr' })),
      [bad('requests.cpu', 'invalid_cpu_expr', 'undefined variable: invalid_cpu_expr')],
    ],
    [
      'invalid memory expression in limits - should fail',
      container(policy('sum', '^.*', { memory: 'bad_memory_expr' })),
      [bad('limits.memory', 'bad_memory_expr', 'undefined variable: bad_memory_expr')],
    ],
    [
      'invalid memory expression in requests - should fail',
      container(policy('sum', '^.*', undefined, { memory: 'bad_memory_expr' })),
      [bad('requests.memory', 'bad_memory_expr', 'undefined variable: bad_memory_expr')],
    ],
  ];
  it.each(cases)('%s', (_name, c, want) => {
    expect(errors(c)).toEqual(want);
  });

  it("an RE2 leading flag group is Go's syntax, not an error", () => {
    expect(errors(container(policy('sum', '(?i)^APP-', { cpu: 'cpu*50%' })))).toEqual([]);
  });

  it('each field binds its own variable: cpu in a memory expression is undefined there', () => {
    expect(errors(container(policy('sum', '.*', { memory: 'cpu*50%' }, { cpu: 'memory' })))).toEqual([
      bad('limits.memory', 'cpu*50%', 'undefined variable: cpu'),
      bad('requests.cpu', 'memory', 'undefined variable: memory'),
    ]);
  });
});

describe('validateResourceExpression (upstream TestValidateResourceExpression)', () => {
  it.each([
    ['valid simple expression', 'cpu*50%', 'cpu', undefined],
    ['valid max function', 'max(cpu*50%, 50m)', 'cpu', undefined],
    ['valid min function', 'min(cpu*50%, 100m)', 'cpu', undefined],
    ['valid complex expression', '0.5*cpu - 0.3*max(0, cpu-4) + 0.3*max(0, cpu-8)', 'cpu', undefined],
    ['valid with spaces', 'max( cpu * 0.5 , 50m )', 'cpu', undefined],
    ['invalid variable name', 'invalidvar * 50%', 'cpu', 'undefined variable: invalidvar'],
    ['valid memory expression', 'memory*50%', 'memory', undefined],
    ['valid nested functions', 'max(min(cpu*50%, 100m), 50m)', 'cpu', undefined],
    ['empty expression', '', 'cpu', undefined],
    ['invalid syntax', 'cpu +*/ 50%', 'cpu', 'parse error: syntax error at line 1, col 7'],
  ] as const)('%s', (_name, expr, variable, want) => {
    expect(resourceExpressionProblem(expr, variable)).toBe(want);
  });
});
