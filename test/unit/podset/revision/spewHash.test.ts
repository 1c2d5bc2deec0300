import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonValue } from '../../../../lib/api/types.js';
import { parseGoQuantity, UnsupportedQuantityError } from '../../../../lib/podset/revision/goQuantity.js';
import { computePodTemplateHash, spewPodTemplate } from '../../../../lib/podset/revision/spewHash.js';

const here = join(dirname(fileURLToPath(import.meta.url)), 'spew-golden');
const lines = (file: string) =>
  readFileSync(join(here, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, JsonValue>);
const cases = lines('cases.jsonl') as { template: JsonValue; collisionCount?: number }[];
const answers = lines('answers.jsonl') as { hash: string; spew: string }[];

describe("go-spew text and ComputeHash of a pod template, as Go's (spew-golden/answers.jsonl)", () => {
  // the last case has 0.5Gi, which Go keeps as an inf.Dec: refused rather than guessed
  const renderable = cases.slice(0, -1);
  it.each(renderable.map((c, i) => [i, c] as const))('case %i', (i, c) => {
    expect(spewPodTemplate(c.template)).toBe(answers[i].spew);
    expect(computePodTemplateHash(c.template, c.collisionCount)).toBe(answers[i].hash);
  });

  it('refuses a quantity Go keeps as inf.Dec', () => {
    expect(() => computePodTemplateHash(cases[cases.length - 1].template)).toThrow(UnsupportedQuantityError);
  });
});

describe('parseGoQuantity (ParseQuantity fast path)', () => {
  it.each([
    ['100m', { value: 100n, scale: -3, cached: '100m', format: 'DecimalSI' }],
    ['128Mi', { value: 134217728n, scale: 0, cached: '', format: 'BinarySI' }],
    ['1Gi', { value: 1073741824n, scale: 0, cached: '1Gi', format: 'BinarySI' }],
    ['0.5', { value: 5n, scale: -1, cached: '', format: 'DecimalSI' }],
    ['2000m', { value: 2000n, scale: -3, cached: '', format: 'DecimalSI' }],
    ['1e3', { value: 1n, scale: 3, cached: '1e3', format: 'DecimalExponent' }],
    ['0', { value: 0n, scale: 0, cached: '0', format: 'DecimalSI' }],
  ])('%s', (text, expected) => {
    expect(parseGoQuantity(text)).toEqual(expected);
  });
});
