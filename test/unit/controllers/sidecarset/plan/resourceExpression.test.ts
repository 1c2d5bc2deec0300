/**
 * The resources-policy expression language (lib/controllers/sidecarset/plan/resourceExpression.ts) against OpenKruise
 * v1.9.0's own `pkg/util/calculator`: every expression of its calculator_test.go and fuzz_test.go, of the resources
 * policy tests and some edge cases of this port, each under nine variable bindings, answered by the Go calculator
 * itself (calculator-golden/README.md): the exact `Value.String()` or the exact error text.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseQuantityValue } from '../../../../../lib/api/quantityValue.js';
import {
  calcValueString,
  evaluateExpression,
  goFormatG,
  type CalcValue,
} from '../../../../../lib/controllers/sidecarset/plan/resourceExpression.js';

interface Answer {
  expr: string;
  vars?: Record<string, { quantity?: string; number?: number }>;
  result?: string;
  isQuantity?: boolean;
  error?: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const answers = readFileSync(join(here, 'calculator-golden/answers.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l) as Answer);

function bindings(vars: Answer['vars']): Map<string, CalcValue> {
  const m = new Map<string, CalcValue>();
  for (const [k, v] of Object.entries(vars ?? {}))
    m.set(
      k,
      v.quantity !== undefined
        ? { kind: 'quantity', quantity: parseQuantityValue(v.quantity) }
        : { kind: 'number', number: v.number ?? 0 },
    );
  return m;
}

function evaluate(a: Answer): { result?: string; isQuantity?: boolean; error?: string } {
  try {
    const v = evaluateExpression(a.expr, bindings(a.vars));
    return { result: calcValueString(v), ...(v.kind === 'quantity' ? { isQuantity: true } : {}) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

describe('resourcesPolicy expressions as OpenKruise v1.9.0 pkg/util/calculator evaluates them', () => {
  it('has the golden answers (2169 cases, 241 expressions)', () => {
    expect(answers).toHaveLength(2169);
  });

  it('answers every case as the Go calculator does', () => {
    const wrong = answers
      .map((a) => ({ case: a, got: evaluate(a) }))
      .filter(({ case: a, got }) => {
        const want =
          a.error !== undefined ? { error: a.error } : { result: a.result, isQuantity: a.isQuantity };
        return JSON.stringify(got) !== JSON.stringify(JSON.parse(JSON.stringify(want)));
      })
      .map(({ case: a, got }) => ({ expr: a.expr, vars: a.vars, want: a.error ?? a.result, got }));
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it('upstream examples read as its tests state them', () => {
    const cpu = (q: string): Map<string, CalcValue> =>
      new Map([['cpu', { kind: 'quantity', quantity: parseQuantityValue(q) }]]);
    expect(calcValueString(evaluateExpression('max(40m, 20)', new Map()))).toBe('20');
    expect(calcValueString(evaluateExpression('min(0.8, cpu)', cpu('1.0')))).toBe('800m');
    expect(
      calcValueString(evaluateExpression('0.5*cpu - 0.3*max(0, cpu-4) + 0.3*max(0, cpu-8)', cpu('10'))),
    ).toBe('3800m');
    expect(() => evaluateExpression('40m * 2m', new Map())).toThrow('multiplication of two quantities');
    expect(() => evaluateExpression('max(cpu*50%, 50m', cpu('1'))).toThrow(
      'parse error: syntax error at line 1, col 17',
    );
  });

  it('%g as Go prints a float64', () => {
    expect([1e6, 123456, 0.0001, 0.00001, 1.005, -2.5, 1e21, -0].map(goFormatG)).toEqual([
      '1e+06',
      '123456',
      '0.0001',
      '1e-05',
      '1.005',
      '-2.5',
      '1e+21',
      '-0',
    ]);
  });
});
